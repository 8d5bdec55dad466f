"use strict";
// The library's errors: one base class carrying a stable `code`, so callers (the CLI, library
// users, tests) branch on `err.code` or `instanceof`, never on `.name` strings or messages. Pure
// (no imports): workflows use the same codes as the types of the ApplicationFailures they throw,
// so a failure read back through Temporal (an update's, a workflow's) carries its code too.
Object.defineProperty(exports, "__esModule", { value: true });
exports.DurableAgentError = exports.ERROR_CODES = void 0;
exports.errorCodeOf = errorCodeOf;
exports.ERROR_CODES = [
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
    /** A memory (CLAUDE.md) stored by reference is missing from the worker's store (failure type of a model call). */
    'MEMORY_MISSING',
];
/** The base of every error the library throws on purpose. */
class DurableAgentError extends Error {
    code;
    constructor(code, message, options) {
        super(message, options);
        this.code = code;
        this.name = new.target.name;
    }
}
exports.DurableAgentError = DurableAgentError;
/** The code of an error, if it is one of ours (a DurableAgentError, or a Temporal failure whose type is a code). */
function errorCodeOf(err) {
    if (err instanceof DurableAgentError)
        return err.code;
    const type = err?.type;
    return typeof type === 'string' && exports.ERROR_CODES.includes(type)
        ? type
        : undefined;
}
//# sourceMappingURL=errors.js.map