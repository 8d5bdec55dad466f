// MCP tool names and the permission rules that name them. Pure: the permission room and the
// tool pool use it too.

/** The prefix of every MCP tool name. */
export const MCP_PREFIX = 'mcp__';

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
 * Does a rule's tool name cover an MCP tool? The reference's three shapes: `mcp__server` (every
 * tool of the server), `mcp__server__*` (the same, as a wildcard) and `mcp__server__tool` (one
 * tool; an exact name match, handled by the caller too). `glob` (deny and ask rules, as the
 * reference 2.1.197 matches them): a `*` anywhere matches any characters over the whole name
 * (`mcp__*` every MCP tool, `mcp__github__get_*`); in allow rules other wildcards cover nothing.
 */
export function mcpRuleCoversTool(ruleToolName: string, toolName: string, glob = false): boolean {
  if (!ruleToolName.startsWith(MCP_PREFIX) || !toolName.startsWith(MCP_PREFIX)) return false;
  if (ruleToolName === toolName) return true;
  if (
    glob &&
    ruleToolName.includes('*') &&
    new RegExp(
      `^${ruleToolName
        .split('*')
        .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
      's',
    ).test(toolName)
  )
    return true;
  const server = ruleToolName.endsWith('__*') ? ruleToolName.slice(0, -3) : ruleToolName;
  if (server.length <= MCP_PREFIX.length || server.includes('*')) return false;
  return toolName.startsWith(`${server}__`) && toolName.length > server.length + 2;
}

/** A server-wide rule name (`mcp__server`, `mcp__server__*`) is valid rule syntax. */
export function isMcpWildcardRuleName(ruleToolName: string): boolean {
  return /^mcp__[A-Za-z0-9_-]+__\*$/.test(ruleToolName);
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
