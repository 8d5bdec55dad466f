// Matching permission rules against one tool call.
import { mcpRuleCoversTool } from './mcpRules';
import * as os from 'node:os';
import type { AnyTool, ToolUseContext } from '../toolProtocol/Tool';
import { compilePathPattern, matchPathPattern, pathForms } from './paths';
import { parseRule, parseRuleSafe, type PermissionRule, type RuleBehavior } from './rules';
import { matchCommandPattern, matchShellRule } from './shell';
import { matchDomainRule } from './domains';

/** Where a call happens: the base of relative paths and rules, and the working directories. */
export interface PermissionEnv {
  /** The session cwd: relative tool paths and relative rule patterns are taken from here. */
  cwd: string;
  /** Absolute working directories (the cwd should be one of them). */
  workingDirectories: readonly string[];
  /** Home directory for `~` (default os.homedir()). */
  home?: string;
  /** The project root: `./x` and `x/y` rule patterns are anchored here, whatever the cwd (default: cwd). */
  root?: string;
}

/** What the rules need to know about one call; computed once, never throws. */
export interface CallFacts {
  tool: AnyTool;
  input: unknown;
  readOnly: boolean;
  /** Set when the tool declares getPath: the path as given (undefined = cwd) and its forms. */
  path?: { given: string | undefined; forms: string[]; error?: string };
  /** getRuleContent's value, for non-path tools. */
  ruleContent?: string;
  /** Bash-style matching (compound commands, wrappers) for the rule content. */
  shell: boolean;
}

function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

export function isShellTool(tool: AnyTool): boolean {
  return tool.name === 'Bash' || tool.rulesAs === 'Bash' || (tool.aliases ?? []).includes('Bash');
}

export function callFacts(tool: AnyTool, input: unknown, env: PermissionEnv): CallFacts {
  const readOnly = safe(() => tool.isReadOnly(input) === true, false);
  const facts: CallFacts = { tool, input, readOnly, shell: isShellTool(tool) };
  if (typeof tool.getPath === 'function') {
    try {
      const given = tool.getPath(input);
      if (given !== undefined && typeof given !== 'string') throw new Error('getPath returned a non-string');
      if (typeof given === 'string' && given.includes('\0')) throw new Error('path contains a NUL byte');
      facts.path = { given, forms: pathForms(given ?? '.', env.cwd) };
    } catch (e) {
      facts.path = { given: undefined, forms: [], error: (e as Error).message };
    }
  } else if (typeof tool.getRuleContent === 'function') {
    const c = safe(() => tool.getRuleContent!(input), undefined);
    if (typeof c === 'string') facts.ruleContent = c;
  }
  return facts;
}

/**
 * Does the rule's tool name cover this call? Directly (name or alias), or by family for path
 * tools: `Read` covers every read-only tool with getPath (Read, Glob, Grep…), `Edit` covers every
 * file-writing tool with getPath (Edit, Write…).
 */
export function ruleCoversTool(rule: PermissionRule, facts: CallFacts, glob = false): boolean {
  const t = facts.tool;
  if (rule.toolName === t.name || rule.toolName === t.rulesAs || (t.aliases ?? []).includes(rule.toolName)) return true;
  // MCP: `mcp__server` and `mcp__server__*` cover every tool of the server; deny/ask rules (glob) match `*` anywhere.
  if (mcpRuleCoversTool(rule.toolName, t.name, glob)) return true;
  if (facts.path) {
    if (rule.toolName === 'Read' && facts.readOnly) return true;
    if (rule.toolName === 'Edit' && !facts.readOnly) return true;
  }
  return false;
}

/**
 * Does a rule match a call, for a rule of the given list? Path specs: deny/ask match when ANY
 * form of the path (logical or symlink-resolved) matches, allow only when ALL do. Bash specs:
 * see matchShellRule. Other tools with getRuleContent: prefix (`x:*`), glob or exact match.
 * A `Tool(spec)` rule never matches a tool with neither getPath nor getRuleContent.
 */
export function ruleMatchesFacts(
  rule: PermissionRule,
  behavior: RuleBehavior,
  facts: CallFacts,
  env: PermissionEnv,
): boolean {
  if (!ruleCoversTool(rule, facts, behavior !== 'allow')) return false;
  if (rule.content === undefined) return true;
  if (facts.path) {
    const forms = facts.path.forms;
    if (forms.length === 0) return false;
    const pat = compilePathPattern(rule.content);
    const menv = { cwd: env.root ?? env.cwd, home: env.home ?? os.homedir() };
    return behavior === 'allow'
      ? forms.every((f) => matchPathPattern(pat, f, menv, false))
      : forms.some((f) => matchPathPattern(pat, f, menv, true));
  }
  if (facts.ruleContent === undefined) return false;
  // WebFetch: `domain:<host>` against `domain:<pattern>` (exact, `*.example.com`, `*`).
  if (facts.ruleContent.startsWith('domain:')) return matchDomainRule(rule.content, facts.ruleContent);
  if (facts.shell) {
    const shellEnv = env.home === undefined ? { cwd: env.cwd } : { cwd: env.cwd, home: env.home };
    return matchShellRule(rule.content, facts.ruleContent, behavior, shellEnv);
  }
  return matchCommandPattern(rule.content, facts.ruleContent);
}

/** Table-testable form: `ruleMatches('Bash(npm run test:*)', 'allow', BashTool, {command}, env)`. */
export function ruleMatches(
  rule: string | PermissionRule,
  behavior: RuleBehavior,
  tool: AnyTool,
  input: unknown,
  env: PermissionEnv,
): boolean {
  const r = typeof rule === 'string' ? parseRule(rule) : rule;
  return ruleMatchesFacts(r, behavior, callFacts(tool, input, env), env);
}

/** The first rule of a list that matches (malformed rules are skipped), or undefined. */
export function findMatchingRule(
  rules: readonly string[],
  behavior: RuleBehavior,
  facts: CallFacts,
  env: PermissionEnv,
): PermissionRule | undefined {
  for (const text of rules) {
    const rule = parseRuleSafe(text);
    if (rule && ruleMatchesFacts(rule, behavior, facts, env)) return rule;
  }
  return undefined;
}

/** The environment a ToolUseContext implies: cwd, working directories (cwd + additional ones). */
export function permissionEnvOf(ctx: Pick<ToolUseContext, 'agent' | 'permission'>): PermissionEnv {
  const project = ctx.agent.projectDir;
  const dirs = [
    ...(project ? [project] : []),
    ...(ctx.permission.workingDirectories ?? []),
    ...(ctx.agent.additionalDirectories ?? []),
  ];
  return {
    cwd: ctx.agent.cwd,
    workingDirectories: dirs.length > 0 ? [...new Set(dirs)] : [ctx.agent.cwd],
    root: project ?? ctx.agent.cwd,
  };
}
