// The library's errors: one base class carrying a stable `code`, so callers (the CLI, library
// users, tests) branch on `err.code` or `instanceof`, never on `.name` strings or messages. Pure
// (no imports): workflows use the same codes as the types of the ApplicationFailures they throw,
// so a failure read back through Temporal (an update's, a workflow's) carries its code too.

export const ERROR_CODES = [
  /** No session (workflow) with that id. */
  'NOT_FOUND',
  /** The session has ended: it takes no more messages, interrupts or approvals. */
  'SESSION_ENDED',
  /** An approve/deny for a call that is not waiting for approval. */
  'NOT_PENDING',
  /** The Temporal server could not be reached. */
  'SERVER_UNREACHABLE',
  /** The Temporal CLI (for the dev server) is not installed. */
  'CLI_NOT_FOUND',
  /** The session's settings require a sandbox this host cannot provide. */
  'SANDBOX_UNAVAILABLE',
  /** bypassPermissions is disabled by the settings. */
  'BYPASS_DISABLED',
  /** A bad command line (flag, argument). */
  'USAGE',
  /** A settings file that cannot be used. */
  'SETTINGS',
  /** A malformed MCP configuration. */
  'MCP_CONFIG',
  /** An MCP server is gone, did not start or did not answer in time. */
  'MCP_UNAVAILABLE',
  /** A malformed subagent definition file. */
  'AGENT_DEFINITION',
  /** A malformed skill file (`.claude/skills/<name>/SKILL.md`). */
  'SKILL_DEFINITION',
  /** A session input the workflow refuses (failure type of the session workflow). */
  'INVALID_SESSION_INPUT',
  /** A turn failed, so did the session (failure type of the session workflow). */
  'TURN_FAILED',
  /** The model stayed unavailable past the session's outage limit (failure type of a turn). */
  'MODEL_UNAVAILABLE',
  /** The model call failed permanently: 401, 400 … (failure type of a turn). */
  'MODEL_FAILED',
  /** A store activity stayed unavailable past the outage limit (failure type of a turn). */
  'STORE_UNAVAILABLE',
  /** The prompt does not fit the model's window even after compaction. */
  'CONTEXT_OVERFLOW',
  /** A blob a workflow refers to is not in this worker's store (workers on several hosts without a shared store). */
  'STORE_BLOB_MISSING',
  /** A content-addressed blob read from the store does not match its hash (tampered with or corrupt): never trusted. */
  'STORE_BLOB_CORRUPT',
  /** A memory (CLAUDE.md) stored by reference is missing from the worker's store (failure type of a model call). */
  'MEMORY_MISSING',
  /** A linked worktree's control files came with a checkout and differ from the main checkout's; the session was not started (or a schedule's firing refused). */
  'CHECKOUT_NOT_TRUSTED',
  /** The worker shut down (SIGTERM, SIGINT) while the activity ran: handed back, to be retried on another worker (failure type of an activity attempt). */
  'WORKER_SHUTDOWN',
  /** Bad encryption key material, or encrypted data whose key this process does not have (docs/encryption.md). */
  'ENCRYPTION_KEY',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The base of every error the library throws on purpose. */
export class DurableAgentError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The code of an error, if it is one of ours (a DurableAgentError, or a Temporal failure whose type is a code). */
export function errorCodeOf(err: unknown): ErrorCode | undefined {
  if (err instanceof DurableAgentError) return err.code;
  const type = (err as { type?: unknown } | null)?.type;
  return typeof type === 'string' && (ERROR_CODES as readonly string[]).includes(type)
    ? (type as ErrorCode)
    : undefined;
}
