"use strict";
// The permission rules that name MCP tools: `mcp__server`, `mcp__server__*`, `mcp__server__tool`
// and, in deny and ask rules, globs. Pure; the matcher and the tool pool use them, and src/mcp
// re-exports them with the names (issue 21.6: the permission room imports nothing of src/mcp).
Object.defineProperty(exports, "__esModule", { value: true });
exports.MCP_PREFIX = void 0;
exports.mcpRuleCoversTool = mcpRuleCoversTool;
exports.isMcpWildcardRuleName = isMcpWildcardRuleName;
/** The prefix of every MCP tool name. */
exports.MCP_PREFIX = 'mcp__';
/**
 * Does a rule's tool name cover an MCP tool? The reference's three shapes: `mcp__server` (every
 * tool of the server), `mcp__server__*` (the same, as a wildcard) and `mcp__server__tool` (one
 * tool; an exact name match, handled by the caller too). `glob` (deny and ask rules, as the
 * reference 2.1.197 matches them): a `*` anywhere matches any characters over the whole name
 * (`mcp__*` every MCP tool, `mcp__github__get_*`); in allow rules other wildcards cover nothing.
 */
function mcpRuleCoversTool(ruleToolName, toolName, glob = false) {
    if (!ruleToolName.startsWith(exports.MCP_PREFIX) || !toolName.startsWith(exports.MCP_PREFIX))
        return false;
    if (ruleToolName === toolName)
        return true;
    if (glob &&
        ruleToolName.includes('*') &&
        new RegExp(`^${ruleToolName
            .split('*')
            .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
            .join('.*')}$`, 's').test(toolName))
        return true;
    const server = ruleToolName.endsWith('__*') ? ruleToolName.slice(0, -3) : ruleToolName;
    if (server.length <= exports.MCP_PREFIX.length || server.includes('*'))
        return false;
    return toolName.startsWith(`${server}__`) && toolName.length > server.length + 2;
}
/** A server-wide rule name (`mcp__server`, `mcp__server__*`) is valid rule syntax. */
function isMcpWildcardRuleName(ruleToolName) {
    return /^mcp__[A-Za-z0-9_-]+__\*$/.test(ruleToolName);
}
//# sourceMappingURL=mcpRules.js.map