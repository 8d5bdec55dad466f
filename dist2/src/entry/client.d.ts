export * from './workflow';
export { startSession, sessionInput, sessionHandle, sessionStatus, sessionResult, interruptSession, sendMessage, approveToolUse, denyToolUse, SessionNotFoundError, SessionEndedError, ApprovalRejectedError, BUILTIN_TOOL_NAMES, DEFAULT_MODEL, } from '../client';
export type { SessionOptions, SessionHandle } from '../client';
export { sessionInputProblems, checkSessionInput, InvalidSessionInputError } from '../sessionInput';
export { loadConnectionConfig, connectClient, TemporalUnavailableError } from '../temporal/connection';
export { buildAudit, formatAuditText, auditJsonLines } from '../audit';
