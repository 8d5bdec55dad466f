export declare const ERROR_CODES: readonly ["NOT_FOUND", "SESSION_ENDED", "NOT_PENDING", "SERVER_UNREACHABLE", "CLI_NOT_FOUND", "SANDBOX_UNAVAILABLE", "BYPASS_DISABLED", "USAGE", "SETTINGS", "MCP_CONFIG", "MCP_UNAVAILABLE", "AGENT_DEFINITION", "SKILL_DEFINITION", "INVALID_SESSION_INPUT", "TURN_FAILED", "MODEL_UNAVAILABLE", "MODEL_FAILED", "STORE_UNAVAILABLE", "CONTEXT_OVERFLOW", "STORE_BLOB_MISSING", "MEMORY_MISSING"];
export type ErrorCode = (typeof ERROR_CODES)[number];
/** The base of every error the library throws on purpose. */
export declare class DurableAgentError extends Error {
    readonly code: ErrorCode;
    constructor(code: ErrorCode, message: string, options?: {
        cause?: unknown;
    });
}
/** The code of an error, if it is one of ours (a DurableAgentError, or a Temporal failure whose type is a code). */
export declare function errorCodeOf(err: unknown): ErrorCode | undefined;
