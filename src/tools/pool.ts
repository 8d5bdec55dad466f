// The tool pool: the set of tools one session may use. It is the capability boundary: the
// pipeline looks tools up only here, never in "everything that was imported".
import type { AnyTool } from './Tool';
import type { ToolPermissionContext } from './permissionTypes';
import { parseRuleSafe } from '../permissions/rules';
import { mcpRuleCoversTool } from '../mcp/names';

/** The tools of one session, in the order they are offered to the model. */
export type ToolPool = readonly AnyTool[];

export interface CreateToolPoolOptions {
  /** Tools supplied by the library user, appended after `tools`. */
  userTools?: readonly AnyTool[];
}

/**
 * Built-ins (and user tools) minus the tools a blanket deny rule names (`Bash`, not
 * `Bash(rm:*)`; the rule may name the tool or one of its aliases) minus disabled tools
 * (`isEnabled()` false or throwing). Two tools answering to the same name (or alias) are an
 * error, thrown here so that a misconfigured session fails at start-up, not mid-job.
 */
export function createToolPool(
  tools: readonly AnyTool[],
  permissionContext: ToolPermissionContext,
  options: CreateToolPoolOptions = {},
): ToolPool {
  const all = [...tools, ...(options.userTools ?? [])];
  const owner = new Map<string, string>();
  for (const tool of all) {
    for (const name of namesOf(tool)) {
      const prev = owner.get(name);
      if (prev !== undefined) {
        throw new Error(
          prev === tool.name && name === tool.name
            ? `Duplicate tool name: ${name}`
            : `Duplicate tool name: ${name} (used by ${prev} and ${tool.name})`,
        );
      }
      owner.set(name, tool.name);
    }
  }
  const blanketDenied = new Set<string>();
  for (const text of permissionContext.rules.deny) {
    const rule = parseRuleSafe(text);
    if (rule && rule.content === undefined) blanketDenied.add(rule.toolName);
  }
  const denied = (tool: AnyTool): boolean =>
    namesOf(tool).some((n) => blanketDenied.has(n)) ||
    [...blanketDenied].some((r) => mcpRuleCoversTool(r, tool.name, true));
  const pool = all.filter((tool) => !denied(tool) && enabled(tool));
  return Object.freeze(pool);
}

/** Finds a tool of the pool by name or alias. Only the pool is searched. */
export function findToolByName(pool: ToolPool, name: string): AnyTool | undefined {
  return pool.find((t) => t.name === name) ?? pool.find((t) => (t.aliases ?? []).includes(name));
}

function namesOf(tool: AnyTool): string[] {
  return [tool.name, ...(tool.aliases ?? [])];
}

function enabled(tool: AnyTool): boolean {
  try {
    return tool.isEnabled() === true;
  } catch {
    return false;
  }
}
