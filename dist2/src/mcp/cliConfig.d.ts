import { type McpServers } from './config';
export interface McpCliServers {
    servers: McpServers;
    /** `--mcp-config <file>` (or `--mcp-config <json>`) of each server, for messages. */
    origins: Record<string, string>;
}
/** Reads the `--mcp-config` values in order (a later one wins for a name). Throws McpConfigError naming the value. */
export declare function readMcpConfigArgs(values: readonly string[], cwd: string): McpCliServers;
