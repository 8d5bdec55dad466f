export { isMcpWildcardRuleName, MCP_PREFIX, mcpRuleCoversTool } from '../permissions/mcpRules';
/** The reference's normalisation: anything outside [A-Za-z0-9_-] becomes `_`. */
export declare function normalizeMcpName(name: string): string;
/** `mcp__<server>__<tool>`, both parts normalised. */
export declare function mcpToolName(server: string, tool: string): string;
/**
 * The server a tool name belongs to, among the configured servers (a server name may itself hold
 * `__`, so the longest configured server whose prefix fits wins). Undefined when none fits.
 */
export declare function mcpServerOf(toolName: string, servers: readonly string[]): {
    server: string;
    tool: string;
} | undefined;
/**
 * A session's MCP tools, restricted by its tool names: names that start with `mcp__` (an agent
 * file's `tools: mcp__server__tool`, `mcp__server` or `mcp__server__*`) keep only the MCP tools they
 * cover; without any, every MCP tool of the session's servers is kept.
 */
export declare function restrictMcpTools<T extends {
    name: string;
}>(toolNames: readonly string[], tools: T[]): T[];
