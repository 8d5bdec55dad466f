"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.mcpRuleCoversTool = exports.MCP_PREFIX = exports.isMcpWildcardRuleName = void 0;
exports.normalizeMcpName = normalizeMcpName;
exports.mcpToolName = mcpToolName;
exports.mcpServerOf = mcpServerOf;
exports.restrictMcpTools = restrictMcpTools;
// MCP tool names. Pure. The permission rules that name MCP tools (`mcp__server`, `mcp__server__*`)
// are the permission room's (permissions/mcpRules.ts: its matcher and the tool pool use them).
const mcpRules_1 = require("../permissions/mcpRules");
var mcpRules_2 = require("../permissions/mcpRules");
Object.defineProperty(exports, "isMcpWildcardRuleName", { enumerable: true, get: function () { return mcpRules_2.isMcpWildcardRuleName; } });
Object.defineProperty(exports, "MCP_PREFIX", { enumerable: true, get: function () { return mcpRules_2.MCP_PREFIX; } });
Object.defineProperty(exports, "mcpRuleCoversTool", { enumerable: true, get: function () { return mcpRules_2.mcpRuleCoversTool; } });
/** The reference's normalisation: anything outside [A-Za-z0-9_-] becomes `_`. */
function normalizeMcpName(name) {
    return name.replace(/[^A-Za-z0-9_-]/g, '_');
}
/** `mcp__<server>__<tool>`, both parts normalised. */
function mcpToolName(server, tool) {
    return `${mcpRules_1.MCP_PREFIX}${normalizeMcpName(server)}__${normalizeMcpName(tool)}`;
}
/**
 * The server a tool name belongs to, among the configured servers (a server name may itself hold
 * `__`, so the longest configured server whose prefix fits wins). Undefined when none fits.
 */
function mcpServerOf(toolName, servers) {
    if (!toolName.startsWith(mcpRules_1.MCP_PREFIX))
        return undefined;
    let best;
    for (const server of servers) {
        const prefix = `${mcpRules_1.MCP_PREFIX}${normalizeMcpName(server)}__`;
        if (toolName.startsWith(prefix) &&
            toolName.length > prefix.length &&
            (!best || server.length > best.server.length)) {
            best = { server, tool: toolName.slice(prefix.length) };
        }
    }
    return best;
}
/**
 * A session's MCP tools, restricted by its tool names: names that start with `mcp__` (an agent
 * file's `tools: mcp__server__tool`, `mcp__server` or `mcp__server__*`) keep only the MCP tools they
 * cover; without any, every MCP tool of the session's servers is kept.
 */
function restrictMcpTools(toolNames, tools) {
    const listed = toolNames.filter((n) => n.startsWith(mcpRules_1.MCP_PREFIX));
    if (listed.length === 0)
        return tools;
    return tools.filter((t) => listed.some((n) => n === t.name || (0, mcpRules_1.mcpRuleCoversTool)(n, t.name)));
}
//# sourceMappingURL=names.js.map