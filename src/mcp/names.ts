// MCP tool names. Pure. The permission rules that name MCP tools (`mcp__server`, `mcp__server__*`)
// are the permission room's (permissions/mcpRules.ts: its matcher and the tool pool use them).
import { MCP_PREFIX, mcpRuleCoversTool } from '../permissions/mcpRules';

export { isMcpWildcardRuleName, MCP_PREFIX, mcpRuleCoversTool } from '../permissions/mcpRules';

/** The reference's normalisation: anything outside [A-Za-z0-9_-] becomes `_`. */
export function normalizeMcpName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** `mcp__<server>__<tool>`, both parts normalised. */
export function mcpToolName(server: string, tool: string): string {
  return `${MCP_PREFIX}${normalizeMcpName(server)}__${normalizeMcpName(tool)}`;
}

/**
 * The server a tool name belongs to, among the configured servers (a server name may itself hold
 * `__`, so the longest configured server whose prefix fits wins). Undefined when none fits.
 */
export function mcpServerOf(
  toolName: string,
  servers: readonly string[],
): { server: string; tool: string } | undefined {
  if (!toolName.startsWith(MCP_PREFIX)) return undefined;
  let best: { server: string; tool: string } | undefined;
  for (const server of servers) {
    const prefix = `${MCP_PREFIX}${normalizeMcpName(server)}__`;
    if (
      toolName.startsWith(prefix) &&
      toolName.length > prefix.length &&
      (!best || server.length > best.server.length)
    ) {
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
export function restrictMcpTools<T extends { name: string }>(toolNames: readonly string[], tools: T[]): T[] {
  const listed = toolNames.filter((n) => n.startsWith(MCP_PREFIX));
  if (listed.length === 0) return tools;
  return tools.filter((t) => listed.some((n) => n === t.name || mcpRuleCoversTool(n, t.name)));
}
