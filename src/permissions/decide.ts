// The permission decision for one tool call: hook result + rules + the tool's own opinion + mode.
import * as os from 'node:os';
import * as path from 'node:path';
import type { AnyTool, DecisionReason, PermissionResult, ToolUseContext } from '../tools/Tool';
import type { PermissionMode, ToolPermissionContext } from '../tools/permissionTypes';
import { callFacts, findMatchingRule, type CallFacts, type PermissionEnv } from './matcher';
import { expandHome, insideWorkingDirs, isInside, pathForms, workingDirForms } from './paths';
import { parseRuleSafe } from './rules';
import { isWriteRedirect, parseShell, unallowableReason, type ShellPart } from './shell';

/** What the PreToolUse hooks decided, combined (deny > ask > allow). */
export interface HookPermissionDecision {
  behavior: 'allow' | 'ask' | 'deny';
  reason?: string;
  /** Which hook decided (its command, or a function hook's name). */
  hook: string;
}

export type PermissionDecision = Exclude<PermissionResult, { behavior: 'passthrough' }>;

/** The environment a ToolUseContext implies: cwd, working directories (cwd + additional ones). */
export function permissionEnvOf(ctx: Pick<ToolUseContext, 'agent' | 'permission'>): PermissionEnv {
  const dirs = [...(ctx.permission.workingDirectories ?? []), ...(ctx.agent.additionalDirectories ?? [])];
  return {
    cwd: ctx.agent.cwd,
    workingDirectories: dirs.length > 0 ? [...new Set(dirs)] : [ctx.agent.cwd],
  };
}

/**
 * Decides whether one call may run. Order (first that applies wins):
 *
 *  1. a PreToolUse hook's deny                                       → deny   (hook)
 *  2. a deny rule                                                    → deny   (rule)
 *  3. the tool's own checkPermissions says deny (or throws)          → deny   (tool)
 *  4. an ask rule                                                    → ask    (rule)
 *  5. a PreToolUse hook's ask                                        → ask    (hook)
 *  6. plan mode and the call is not read-only                        → deny   (mode)
 *  7. bypassPermissions mode                                         → allow  (mode)
 *  8. a PreToolUse hook's allow                                      → allow  (hook)
 *  9. an allow rule                                                  → allow  (rule)
 * 10. the tool's checkPermissions says allow / ask                   → allow / ask (tool)
 * 11. the mode's default: read-only calls inside the working directories are allowed; in
 *     acceptEdits, file edits inside them too (and mkdir/touch/mv/cp/rm/rmdir via Bash); a path
 *     outside the working directories asks (workingDirectory); everything else asks (mode).
 * Finally, in dontAsk mode any `ask` becomes `deny` (nobody is there to answer).
 *
 * Choices: in bypassPermissions, deny rules AND ask rules still apply (an explicit ask rule is
 * the user's own instruction — the reference's code does the same, its docs only mention deny);
 * a hook's allow skips the mode's ask and the tool's ask but never a deny/ask rule or the tool's
 * deny, and does not lift plan mode's deny. Malformed rules are ignored here (validate them at
 * start-up with validatePermissionRules).
 */
export async function decidePermission(
  tool: AnyTool,
  input: unknown,
  ctx: ToolUseContext,
  hookDecision?: HookPermissionDecision,
): Promise<PermissionDecision> {
  let toolResult: PermissionResult;
  try {
    toolResult = await tool.checkPermissions(input, ctx);
    if (!toolResult || typeof toolResult !== 'object' || !['allow', 'ask', 'deny', 'passthrough'].includes(toolResult.behavior)) {
      throw new Error(`checkPermissions returned ${JSON.stringify(toolResult)}`);
    }
  } catch (e) {
    toolResult = {
      behavior: 'deny',
      message: `Permission check of ${tool.name} failed: ${(e as Error)?.message ?? String(e)}`,
      decisionReason: { type: 'tool', reason: 'checkPermissions threw' },
    };
  }
  return decidePermissionSync(tool, input, ctx.permission, permissionEnvOf(ctx), toolResult, hookDecision);
}

/** The same decision with the tool's checkPermissions result already known (pure but for realpath). */
export function decidePermissionSync(
  tool: AnyTool,
  input: unknown,
  permission: ToolPermissionContext,
  env: PermissionEnv,
  toolResult: PermissionResult = { behavior: 'passthrough' },
  hookDecision?: HookPermissionDecision,
): PermissionDecision {
  const decision = decideInner(tool, input, permission, env, toolResult, hookDecision);
  if (decision.behavior === 'ask' && permission.mode === 'dontAsk') {
    return {
      behavior: 'deny',
      message: `${decision.message} Denied: the permission mode is dontAsk, so nobody is asked.`,
      decisionReason: { type: 'mode', mode: 'dontAsk' },
    };
  }
  return decision;
}

function decideInner(
  tool: AnyTool,
  input: unknown,
  permission: ToolPermissionContext,
  env: PermissionEnv,
  toolResult: PermissionResult,
  hook: HookPermissionDecision | undefined,
): PermissionDecision {
  const mode: PermissionMode = permission.mode;
  const rules = permission.rules ?? { allow: [], ask: [], deny: [] };
  const facts = callFacts(tool, input, env);
  const name = tool.name;
  const hookReason = (h: HookPermissionDecision): DecisionReason =>
    h.reason === undefined ? { type: 'hook', hook: h.hook } : { type: 'hook', hook: h.hook, reason: h.reason };

  // 1. hook deny
  if (hook?.behavior === 'deny') {
    return {
      behavior: 'deny',
      message: hook.reason ? `Blocked by PreToolUse hook: ${hook.reason}` : `Blocked by PreToolUse hook ${hook.hook}.`,
      decisionReason: hookReason(hook),
    };
  }
  // 2. deny rules
  const deny = findMatchingRule(rules.deny ?? [], 'deny', facts, env);
  if (deny) {
    return {
      behavior: 'deny',
      message: `Permission to use ${name} has been denied by the rule ${deny.raw}.`,
      decisionReason: { type: 'rule', rule: deny.raw, behavior: 'deny' },
    };
  }
  // 3. the tool's deny
  if (toolResult.behavior === 'deny') {
    return {
      behavior: 'deny',
      message: toolResult.message,
      decisionReason: toolResult.decisionReason ?? { type: 'tool', reason: toolResult.message },
    };
  }
  // 4. ask rules
  const ask = findMatchingRule(rules.ask ?? [], 'ask', facts, env);
  if (ask) {
    return {
      behavior: 'ask',
      message: `${name} needs approval: it matches the ask rule ${ask.raw}.`,
      decisionReason: { type: 'rule', rule: ask.raw, behavior: 'ask' },
    };
  }
  // 5. hook ask
  if (hook?.behavior === 'ask') {
    return {
      behavior: 'ask',
      message: hook.reason ? `${name} needs approval (PreToolUse hook): ${hook.reason}` : `${name} needs approval (PreToolUse hook ${hook.hook}).`,
      decisionReason: hookReason(hook),
    };
  }
  // 6. plan mode
  if (mode === 'plan' && !facts.readOnly) {
    return {
      behavior: 'deny',
      message: `${name} is not allowed in plan mode: only read-only tools run while planning.`,
      decisionReason: { type: 'mode', mode: 'plan' },
    };
  }
  // 7. bypass
  if (mode === 'bypassPermissions') {
    return { behavior: 'allow', decisionReason: { type: 'mode', mode } };
  }
  // 8. hook allow
  if (hook?.behavior === 'allow') {
    return { behavior: 'allow', decisionReason: hookReason(hook) };
  }
  // 9. allow rules (for read-only path tools, an Edit allow rule for the path also allows reading it)
  const allow =
    findMatchingRule(rules.allow ?? [], 'allow', facts, env) ??
    (facts.path && facts.readOnly ? findEditRuleAllowingRead(rules.allow ?? [], facts, env) : undefined);
  if (allow) {
    return { behavior: 'allow', decisionReason: { type: 'rule', rule: allow.raw, behavior: 'allow' } };
  }
  // 10. the tool's own allow / ask
  if (toolResult.behavior === 'allow') {
    const out: PermissionDecision = {
      behavior: 'allow',
      decisionReason: toolResult.decisionReason ?? { type: 'tool', reason: `${name} allowed this call` },
    };
    if (toolResult.updatedInput !== undefined) out.updatedInput = toolResult.updatedInput;
    return out;
  }
  if (toolResult.behavior === 'ask') {
    return {
      behavior: 'ask',
      message: toolResult.message,
      decisionReason: toolResult.decisionReason ?? { type: 'tool', reason: toolResult.message },
    };
  }
  // 11. the mode's defaults
  return modeDefault(facts, mode, env);
}

function findEditRuleAllowingRead(allow: readonly string[], facts: CallFacts, env: PermissionEnv) {
  const editRules = allow.filter((r) => parseRuleSafe(r)?.toolName === 'Edit' && parseRuleSafe(r)?.content !== undefined);
  if (editRules.length === 0) return undefined;
  // Pretend the call writes, so that Edit rules cover it.
  return findMatchingRule(editRules, 'allow', { ...facts, readOnly: false }, env);
}

function modeDefault(facts: CallFacts, mode: PermissionMode, env: PermissionEnv): PermissionDecision {
  const name = facts.tool.name;
  const askMode = (): PermissionDecision => ({
    behavior: 'ask',
    message: `${name} needs approval in ${mode} mode.`,
    decisionReason: { type: 'mode', mode },
  });
  if (facts.path) {
    if (facts.path.forms.length === 0) {
      return {
        behavior: 'ask',
        message: `${name} needs approval: its path could not be determined (${facts.path.error ?? 'unknown'}).`,
        decisionReason: { type: 'tool', reason: 'path could not be determined' },
      };
    }
    if (!insideWorkingDirs(facts.path.forms, env.workingDirectories)) {
      const shown = facts.path.forms[facts.path.forms.length - 1]!;
      return {
        behavior: 'ask',
        message: `${name} needs approval: ${shown} is outside the working directories (${env.workingDirectories.join(', ')}).`,
        decisionReason: { type: 'workingDirectory', path: shown },
      };
    }
    if (facts.readOnly) return { behavior: 'allow', decisionReason: { type: 'mode', mode } };
    if (mode === 'acceptEdits') return { behavior: 'allow', decisionReason: { type: 'mode', mode } };
    return askMode();
  }
  if (facts.shell && typeof facts.ruleContent === 'string') {
    if (facts.readOnly) {
      const outside = shellReadOutside(facts.ruleContent, env);
      if (outside === undefined) return { behavior: 'allow', decisionReason: { type: 'mode', mode } };
      return {
        behavior: 'ask',
        message: `${name} needs approval: ${outside.reason}`,
        decisionReason: outside.path !== undefined ? { type: 'workingDirectory', path: outside.path } : { type: 'mode', mode },
      };
    }
    if (mode === 'acceptEdits' && fsCommandsInside(facts.ruleContent, env)) {
      return { behavior: 'allow', decisionReason: { type: 'mode', mode } };
    }
    return askMode();
  }
  if (facts.readOnly) return { behavior: 'allow', decisionReason: { type: 'mode', mode } };
  return askMode();
}

// ---------------------------------------------------------------------------------------------
// Bash specifics for the mode defaults

function looksLikePath(v: string): boolean {
  return v.startsWith('/') || v === '~' || v.startsWith('~/') || /(^|\/)\.\.(\/|$)/.test(v);
}

/**
 * For a read-only shell command: undefined when every path-looking argument stays inside the
 * working directories, else a reason. Arguments whose value depends on the environment
 * (`$VAR`, substitutions) or a command we cannot parse also give a reason.
 */
export function shellReadOutside(command: string, env: PermissionEnv): { reason: string; path?: string } | undefined {
  const parsed = parseShell(command);
  if (!parsed.ok) return { reason: `the command could not be parsed (${parsed.error}).` };
  if (parsed.nested.length > 0) return { reason: 'the command contains a command substitution.' };
  const dirs = env.workingDirectories;
  let cwd = env.cwd;
  for (const part of parsed.parts) {
    if (part.words.some((w) => w.expansion)) return { reason: 'the command uses shell expansions whose value is not known in advance.' };
    if (part.redirects.some(isWriteRedirect)) return { reason: 'the command writes to a file through a redirection.' };
    const cmd = part.words[0]?.value;
    const args = part.words.slice(1).map((w) => w.value);
    const candidates: string[] = [];
    for (const a of args) {
      if (a.startsWith('-')) {
        const eq = a.indexOf('=');
        if (eq > 0 && looksLikePath(a.slice(eq + 1))) candidates.push(a.slice(eq + 1));
        continue;
      }
      if (looksLikePath(a)) candidates.push(a);
    }
    for (const r of part.redirects) if (r.target && !isWriteRedirect(r) && r.op === '<') candidates.push(r.target.value);
    if (cmd === 'cd' || cmd === 'pushd') {
      const target = args.find((a) => !a.startsWith('-')) ?? os.homedir();
      const next = path.resolve(cwd, expandHome(target));
      if (!insideWorkingDirs(pathForms(next, cwd), dirs)) return { reason: `cd ${next}: outside the working directories.`, path: next };
      cwd = next;
      continue;
    }
    for (const c of candidates) {
      const forms = pathForms(c, cwd);
      const shown = forms[forms.length - 1]!;
      if (!insideWorkingDirs(forms, dirs)) return { reason: `${shown} is outside the working directories.`, path: shown };
    }
  }
  return undefined;
}

const FS_COMMANDS = new Set(['mkdir', 'touch', 'mv', 'cp', 'rm', 'rmdir']);

/**
 * acceptEdits: is the command only mkdir/touch/mv/cp/rm/rmdir on literal paths inside the working
 * directories (not a working directory itself for rm/rmdir/mv)? sed is left out on purpose: its
 * script can write anywhere (`w /path`).
 */
export function fsCommandsInside(command: string, env: PermissionEnv): boolean {
  const parsed = parseShell(command);
  if (!parsed.ok || parsed.parts.length === 0 || parsed.nested.length > 0) return false;
  const roots = workingDirForms(env.workingDirectories);
  return parsed.parts.every((part: ShellPart) => {
    if (unallowableReason(part) !== undefined || part.redirects.length > 0) return false;
    const [cmd, ...rest] = part.words;
    if (!cmd || cmd.quoted || !FS_COMMANDS.has(cmd.value)) return false;
    if (part.words.some((w) => w.expansion)) return false;
    const paths: string[] = [];
    for (const w of rest) {
      const v = w.value;
      if (!w.quoted && v.startsWith('-')) {
        const eq = v.indexOf('=');
        if (eq > 0) paths.push(v.slice(eq + 1));
        continue;
      }
      paths.push(v);
    }
    if (paths.length === 0) return false;
    return paths.every((p) => {
      if (/(^|\/)\.[*?[]/.test(p) || /(^|\/)\.\.(\/|$)/.test(p)) return false;
      const forms = pathForms(p, env.cwd);
      if (!insideWorkingDirs(forms, env.workingDirectories)) return false;
      if (cmd.value === 'rm' || cmd.value === 'rmdir' || cmd.value === 'mv') {
        if (forms.some((f) => roots.some((r) => isInside(r, f)))) return false;
      }
      return true;
    });
  });
}
