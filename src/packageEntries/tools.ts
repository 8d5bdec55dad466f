// `durable-agent/tools`: what a tool author needs — the Tool protocol, permission types, the
// engine's data (context modifiers, messages, records) and the library's errors. Safe anywhere:
// it loads no Temporal package and no node-only module (test/unit/entries.test.ts checks that).
export { buildTool, DEFAULT_MAX_RESULT_SIZE_CHARS } from '../toolProtocol/Tool';
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
} from '../toolProtocol/Tool';
export { PERMISSION_MODES } from '../toolProtocol/permissionTypes';
export type { PermissionMode, PermissionRules, ToolPermissionContext } from '../toolProtocol/permissionTypes';
export { toolToAPISchema, toolsToAPISchemas } from '../toolProtocol/apiSchema';

export { applyContextModifier, applyContextModifiers, initialContext } from '../core/context';
export type { AgentContext, ContextModifier } from '../core/context';
export type {
  Message,
  AssistantMessage,
  UserMessage,
  ToolUseBlock,
  ToolResultBlockParam,
  Usage,
} from '../core/apiMessages';
export type { ToolCallRecord, ToolCallStatus, DecisionRecord } from '../core/toolRecords';

export { DurableAgentError, ERROR_CODES, errorCodeOf } from '../core/errors';
export type { ErrorCode } from '../core/errors';
