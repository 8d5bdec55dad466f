// durable-agent's library entry point: define tools, run workers, start and steer sessions.
// Workflow code is not exported here (it is bundled by the worker from src/workflows).

// Tools: the protocol, the built-ins, the pool and the one pipeline.
export { buildTool, DEFAULT_MAX_RESULT_SIZE_CHARS } from './tools/Tool';
export type { Tool, AnyTool, ToolDef, ToolResult, ToolUseContext, ToolProgress, PermissionResult, ValidationResult, DecisionReason, ResultStore } from './tools/Tool';
export { PERMISSION_MODES } from './tools/permissionTypes';
export type { PermissionMode, PermissionRules, ToolPermissionContext } from './tools/permissionTypes';
export { BUILTIN_TOOLS } from './tools/builtin';
export { createToolPool, findToolByName } from './tools/pool';
export type { ToolPool } from './tools/pool';
export { toolToAPISchema, toolsToAPISchemas } from './tools/apiSchema';
export { LocalResultStore } from './tools/resultStore';
export { createSearchIssuesTool } from './tools/examples/searchIssues';
export { runToolPipeline, describeToolUse } from './pipeline';
/** Bash's declarations need the shell parser: await this before calling them outside the pipeline. */
export { loadShellParser } from './permissions/bashParser';
export type { PipelineEnv, ToolUseOutcome } from './pipeline';
export type { HooksConfig } from './hooks';

// The engine's data: context modifiers, messages, records.
export { applyContextModifier, applyContextModifiers, initialContext } from './engine/context';
export type { AgentContext, ContextModifier } from './engine/context';
export type { Message, AssistantMessage, UserMessage, ToolUseBlock, ToolResultBlockParam, Usage } from './engine/messages';
export type { ToolCallRecord, ToolCallStatus, DecisionRecord } from './engine/records';

// Workers, stores, sessions.
export { createAgentWorker, createAgentActivities, bundleAgentWorkflows, workflowsPath, defaultStoreDir } from './worker';
export type { AgentWorkerOptions } from './worker';
export { LocalBlobStore, TranscriptStore } from './stores/messageStore';
export type { BlobStore } from './stores/messageStore';
export {
  startSession,
  sessionInput,
  sessionHandle,
  sessionStatus,
  sessionResult,
  interruptSession,
  sendMessage,
  approveToolUse,
  denyToolUse,
  SessionNotFoundError,
  ApprovalRejectedError,
  BUILTIN_TOOL_NAMES,
  DEFAULT_MODEL,
} from './client';
export type { SessionOptions, SessionHandle } from './client';
export type { SessionInput, SessionStatus, SessionResult, PendingApproval, TurnSummary } from './workflows/definitions';
export { TASK_QUEUE_DEFAULT } from './workflows/definitions';
export { runLocalSession, startLocalSession } from './local/runSession';
export type { LocalSession, LocalSessionOptions, LocalSessionResult, LocalSessionStatus } from './local/runSession';
export { END_REASONS } from './engine/session';

// Temporal connection and the local dev server.
export { loadConnectionConfig, connectClient, connectWorker, TemporalUnavailableError } from './temporal/connection';
export { startDevServer } from './temporal/devServer';
export { resolveTemporalCli } from './temporal/cli';

// The audit trail.
export { buildAudit, formatAuditText, auditJsonLines } from './audit';
