// Permission rule strings: `Tool` or `Tool(spec)`.

export type RuleBehavior = 'allow' | 'ask' | 'deny';

export interface PermissionRule {
  /** The rule as written, for the audit trail. */
  raw: string;
  toolName: string;
  /** The spec between the parentheses; undefined for a blanket rule (`Bash`, `Bash()`, `Bash(*)`). */
  content?: string;
}

/** A tool name, or an MCP name with `*` wildcards (`mcp__server__*`; in deny/ask rules any glob: `mcp__*`, `mcp__s__get-*`). */
const TOOL_NAME = /^(?:[A-Za-z_][A-Za-z0-9_.:-]*|mcp__[A-Za-z0-9_.*-]*)$/;

/**
 * Parses `Tool` or `Tool(spec)`. The spec runs to the LAST `)` (so `Bash(echo (x))` keeps its
 * parentheses); `\(` and `\)` inside it are unescaped. `Tool()` and `Tool(*)` mean the whole tool.
 * Throws on malformed rules.
 */
export function parseRule(text: string): PermissionRule {
  const raw = text;
  const s = text.trim();
  const open = s.indexOf('(');
  if (open === -1) {
    if (!TOOL_NAME.test(s)) throw new Error(`Malformed permission rule ${JSON.stringify(text)}: bad tool name`);
    return { raw, toolName: s };
  }
  if (!s.endsWith(')'))
    throw new Error(`Malformed permission rule ${JSON.stringify(text)}: missing closing parenthesis`);
  const toolName = s.slice(0, open).trim();
  if (!TOOL_NAME.test(toolName)) throw new Error(`Malformed permission rule ${JSON.stringify(text)}: bad tool name`);
  const content = s
    .slice(open + 1, -1)
    .replace(/\\([()])/g, '$1')
    .trim();
  if (content === '' || content === '*') return { raw, toolName };
  return { raw, toolName, content };
}

/** parseRule that returns undefined instead of throwing. */
export function parseRuleSafe(text: string): PermissionRule | undefined {
  try {
    return parseRule(text);
  } catch {
    return undefined;
  }
}

export function formatRule(rule: Pick<PermissionRule, 'toolName' | 'content'>): string {
  return rule.content === undefined ? rule.toolName : `${rule.toolName}(${rule.content})`;
}

/** Every malformed rule of a rule set, as messages (empty when all parse). Use it at start-up. */
export function validatePermissionRules(rules: { allow: string[]; ask: string[]; deny: string[] }): string[] {
  const errors: string[] = [];
  for (const behavior of ['allow', 'ask', 'deny'] as const) {
    for (const r of rules[behavior] ?? []) {
      try {
        parseRule(r);
      } catch (e) {
        errors.push(`${behavior}: ${(e as Error).message}`);
      }
    }
  }
  return errors;
}
