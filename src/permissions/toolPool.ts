// Making a session's tool pool (toolProtocol/pool.ts): the tools minus those its deny rules remove. In the
// permission room, which reads the rules; the tool room below it holds the pool and its lookup.
import type { AnyTool } from '../toolProtocol/Tool';
import type { ToolPermissionContext } from '../toolProtocol/permissionTypes';
import type { ToolPool } from '../toolProtocol/pool';
import { mcpRuleCoversTool } from './mcpRules';
import { parseRuleSafe } from './rules';

export interface CreateToolPoolOptions {
  /** Tools supplied by the library user, appended after `tools`. */
  userTools?: readonly AnyTool[];
}

/**
 * Built-ins (and user tools) minus the tools a blanket deny rule names (`Bash`, not
 * `Bash(rm:*)`; the rule may name the tool, one of its aliases or its `rulesAs`: `Bash` removes Monitor) minus disabled tools
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
    (tool.rulesAs !== undefined && blanketDenied.has(tool.rulesAs)) ||
    [...blanketDenied].some((r) => mcpRuleCoversTool(r, tool.name, true));
  const pool = all.filter((tool) => !denied(tool) && enabled(tool));
  return Object.freeze(pool);
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
