/** The prefix of every MCP tool name. */
export declare const MCP_PREFIX = "mcp__";
/**
 * Does a rule's tool name cover an MCP tool? The reference's three shapes: `mcp__server` (every
 * tool of the server), `mcp__server__*` (the same, as a wildcard) and `mcp__server__tool` (one
 * tool; an exact name match, handled by the caller too). `glob` (deny and ask rules, as the
 * reference 2.1.197 matches them): a `*` anywhere matches any characters over the whole name
 * (`mcp__*` every MCP tool, `mcp__github__get_*`); in allow rules other wildcards cover nothing.
 */
export declare function mcpRuleCoversTool(ruleToolName: string, toolName: string, glob?: boolean): boolean;
/** A server-wide rule name (`mcp__server`, `mcp__server__*`) is valid rule syntax. */
export declare function isMcpWildcardRuleName(ruleToolName: string): boolean;
