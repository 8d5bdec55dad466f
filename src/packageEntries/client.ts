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
} from '../temporal/client';
export type { SessionOptions, SessionHandle, StartSessionOptions } from '../temporal/client';
export { sessionInputProblems, checkSessionInput, InvalidSessionInputError } from '../sessionInput';
export { loadConnectionConfig, connectClient, TemporalUnavailableError } from '../temporal/service/connection';
// Payload encryption (docs/encryption.md): the codec for clients of your own, and the codec server.
export { EncryptionCodec, encryptionCodecs, ENCRYPTED_ENCODING } from '../temporal/service/codec';
export { startCodecServer, type CodecServerOptions, type CodecServer } from '../temporal/service/codecServer';
export { KeyRing, configuredKeyRing, EncryptionKeyError, type EncryptionSetting } from '../encryption/keys';
export { buildAudit, formatAuditText, auditJsonLines } from '../audit';
