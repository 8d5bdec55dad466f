import { DurableAgentError } from '../engine/errors';
import { type McpServerConfig } from './config';
/** A tool as the server lists it (the parts durable-agent uses). */
export interface McpToolInfo {
    name: string;
    description?: string;
    inputSchema: Record<string, unknown>;
    annotations?: {
        readOnlyHint?: boolean;
        idempotentHint?: boolean;
        destructiveHint?: boolean;
        openWorldHint?: boolean;
        title?: string;
    };
}
/** A content item of a tools/call result (text, image, audio, resource_link, resource …). */
export type McpContent = {
    type: string;
    [key: string]: unknown;
};
export interface McpCallResult {
    content: McpContent[];
    isError?: boolean;
    structuredContent?: unknown;
}
export interface McpManagerOptions {
    /** How long a server may take to start and answer `initialize`. Default env MCP_TIMEOUT, else 30 s. */
    startupTimeoutMs?: number;
    /** How long one tools/list or tools/call may take. Default env MCP_TOOL_TIMEOUT, else 10 min. */
    toolTimeoutMs?: number;
    /** The environment `${VAR}` expands from. Default process.env. */
    env?: Record<string, string | undefined>;
    /** After a failed start, uses within this time get the same error at once instead of another start. Default 5 s. */
    failedStartMemoryMs?: number;
}
/** A server that is not there: failed to start, closed, or timed out. The message says which. */
export declare class McpUnavailableError extends DurableAgentError {
    constructor(message: string);
}
export declare class McpManager {
    private readonly connections;
    private readonly failedStarts;
    /** Keys whose start is under way. */
    private readonly starting;
    private readonly failedStartMemoryMs;
    private readonly startupTimeoutMs;
    private readonly toolTimeoutMs;
    private readonly env;
    private shuttingDown;
    /** How many servers were started (tests check reuse and reconnects). */
    started: number;
    /** How many tools/list_changed notifications arrived. */
    listChanges: number;
    constructor(opts?: McpManagerOptions);
    /**
     * The server's tools (listed once per connection; a new connection, or tools/list_changed, lists
     * again). `noWaitAfterFailure`: when the server's last start failed, start it again in the
     * background and answer with that failure at once (the model activity of every turn lists the
     * tools: a server that hangs at start-up costs MCP_TIMEOUT once, not on every turn).
     */
    listTools(server: string, config: McpServerConfig, cwd: string, noWaitAfterFailure?: boolean): Promise<McpToolInfo[]>;
    /** Calls one tool. Rejects with McpUnavailableError when the server is gone or does not answer in time. */
    callTool(server: string, config: McpServerConfig, cwd: string, tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<McpCallResult>;
    /** Closes every connection (worker shutdown). Later uses start servers again unless `final`. */
    close(final?: boolean): Promise<void>;
    /** How many server starts are under way now. */
    get startsInFlight(): number;
    /** How many connections are open now. */
    get openConnections(): number;
    /** A call's timeout: the server's `timeout` (ms, from 1000 up, as the reference reads it), else the manager's. */
    callTimeoutMs(config: McpServerConfig): number;
    private failure;
    private stderrNote;
    private drop;
    private connection;
    private start;
}
