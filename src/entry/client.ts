// `durable-agent/client`: starting and steering sessions and reading their audit, from any
// process that talks to the Temporal server. Loads @temporalio/client, never @temporalio/worker.
export * from './workflow';
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
  SessionEndedError,
  ApprovalRejectedError,
  CheckoutNotTrustedError,
  BUILTIN_TOOL_NAMES,
  DEFAULT_MODEL,
} from '../client';
export type { SessionOptions, SessionHandle, StartSessionOptions } from '../client';
export { sessionInputProblems, checkSessionInput, InvalidSessionInputError } from '../sessionInput';
export { loadConnectionConfig, connectClient, TemporalUnavailableError } from '../temporal/connection';
export { buildAudit, formatAuditText, auditJsonLines } from '../audit';
