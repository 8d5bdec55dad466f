// `durable-agent/tools`: what a tool author needs — the Tool protocol, permission types, the
// engine's data (context modifiers, messages, records) and the library's errors. Safe anywhere:
// it loads no Temporal package and no node-only module (test/unit/entries.test.ts checks that).
export { buildTool, DEFAULT_MAX_RESULT_SIZE_CHARS } from '../tools/Tool';
export type {
  Tool,
  AnyTool,
  ToolDef,
  ToolResult,
  ToolUseContext,
  ToolProgress,
  PermissionResult,
  ValidationResult,
  DecisionReason,
  ResultStore,
} from '../tools/Tool';
export { PERMISSION_MODES } from '../tools/permissionTypes';
export type { PermissionMode, PermissionRules, ToolPermissionContext } from '../tools/permissionTypes';
export { toolToAPISchema, toolsToAPISchemas } from '../tools/apiSchema';

export { applyContextModifier, applyContextModifiers, initialContext } from '../engine/context';
export type { AgentContext, ContextModifier } from '../engine/context';
export type {
  Message,
  AssistantMessage,
  UserMessage,
  ToolUseBlock,
  ToolResultBlockParam,
  Usage,
} from '../engine/messages';
export type { ToolCallRecord, ToolCallStatus, DecisionRecord } from '../engine/records';

export { DurableAgentError, ERROR_CODES, errorCodeOf } from '../engine/errors';
export type { ErrorCode } from '../engine/errors';
