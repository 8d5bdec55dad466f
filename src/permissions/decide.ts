// The permission decision for one tool call: hook result + rules + the tool's own opinion + mode.
import type { AnyTool, DecisionReason, PermissionResult, ToolUseContext } from '../toolProtocol/Tool';
import type { PermissionMode, ToolPermissionContext } from '../toolProtocol/permissionTypes';
import { callFacts, findMatchingRule, permissionEnvOf, type CallFacts, type PermissionEnv } from './matcher';
import { hiddenPathPredicate } from './resultFilter';

export { permissionEnvOf } from './matcher';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { insideWorkingDirs, isInside, resolveReal, workingDirForms } from './paths';
import { protectedReasonOfForms } from './protectedPaths';
import { anotherSessionMessage, inAnotherSession, inFormerResultsDir } from './sessionsApart';
import { inProcessDir, processPathMessage } from './processPaths';
import { parseRuleSafe } from './rules';
import { closedHomePath } from './homeClosure';
import { closedHomeWrite, sessionReadClosed, sessionScopeOf, type SessionScope } from './sessionClosed';
import { fsCommandsInside, shellReadOutside } from './shellPaths';

export { fsCommandsInside, shellReadOutside } from './shellPaths';

/** What the PreToolUse hooks decided, combined (deny > ask > allow). */
export interface HookPermissionDecision {
  behavior: 'allow' | 'ask' | 'deny';
  reason?: string;
  /** Which hook decided (its command, or a function hook's name). */
  hook: string;
}

export type PermissionDecision = Exclude<PermissionResult, { behavior: 'passthrough' }>;

const checkedPaths = new WeakMap<PermissionDecision, readonly string[]>();

/** The forms of the call's path (logical, real, physical) this decision was made on, if it has a path. */
export function pathsCheckedBy(decision: PermissionDecision): readonly string[] | undefined {
  return checkedPaths.get(decision);
}

/**
 * Decides whether one call may run. Order (first that applies wins):
 *
 *  0. a path in another session's private directories (sessionsApart)→ deny   (safetyCheck)
 *     or a per-process /proc entry (processPaths.ts)                 → deny   (safetyCheck)
 *  1. a PreToolUse hook's deny                                       → deny   (hook)
 *  2. a deny rule                                                    → deny   (rule)
 *  3. the tool's own checkPermissions says deny (or throws)          → deny   (tool)
 *  4. an ask rule                                                    → ask    (rule)
 *  5. a PreToolUse hook's ask                                        → ask    (hook)
 *  6. plan mode and the call is not read-only                        → deny   (mode)
 *  7. bypassPermissions mode (unless the model asked to leave the sandbox) → allow  (mode)
 *  7a. a file tool writes a protected path (protectedPaths.ts)       → ask    (safetyCheck)
 *  7b. the tool asks because the call leaves the OS sandbox          → ask    (sandbox)
 *  8. a PreToolUse hook's allow                                      → allow  (hook)
 *  9. an allow rule                                                  → allow  (rule)
 * 10. the tool's checkPermissions says allow / ask                   → allow / ask (tool)
 * 11. the mode's default: read-only calls inside the working directories are allowed (a Bash
 *     command only when every file it names is inside and no Read deny/ask rule covers it); in
 *     acceptEdits, file edits inside them too (and mkdir/touch/mv/cp/rm/rmdir via Bash, never on
 *     a protected path); a path outside the working directories asks (workingDirectory);
 *     everything else asks (mode).
 * Finally, in dontAsk mode any `ask` becomes `deny` (nobody is there to answer).
 *
 * Choices: in bypassPermissions, deny rules AND ask rules still apply (an explicit ask rule is
 * the user's own instruction — the reference's code does the same, its docs only mention deny);
 * a hook's allow skips the mode's ask and the tool's ask but never a deny/ask rule or the tool's
 * deny, and does not lift plan mode's deny. A protected path (7a) asks whatever a hook or an allow
 * rule says, as the reference's "sensitive file" check (its settings' allow rules and hooks do not
 * lift it either); only bypassPermissions writes it unasked. Malformed rules are ignored here (validate them at
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
    if (
      !toolResult ||
      typeof toolResult !== 'object' ||
      !['allow', 'ask', 'deny', 'passthrough'].includes(toolResult.behavior)
    ) {
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
  const facts = callFacts(tool, input, env);
  // 0. another session's private directories (temp, task output, spool): refused in every mode,
  //    whatever a hook, rule or the mode says (issue 30, sessionsApart.ts).
  if (facts.path && inAnotherSession(facts.path.forms, permission.sessionsApart)) {
    const shown = facts.path.forms[facts.path.forms.length - 1]!;
    return {
      behavior: 'deny',
      message: anotherSessionMessage(tool.name, shown, inFormerResultsDir(facts.path.forms, permission.sessionsApart)),
      decisionReason: { type: 'safetyCheck', path: shown, reason: "another session's private directory" },
    };
  }
  // 0. a per-process /proc entry: the worker's (or another process's) environment, memory, open
  //    files. Refused in every mode, on any form of the path (issue 30 round e, processPaths.ts).
  if (facts.path && inProcessDir(facts.path.forms)) {
    const shown = facts.path.forms[facts.path.forms.length - 1]!;
    return {
      behavior: 'deny',
      message: processPathMessage(tool.name, shown),
      decisionReason: { type: 'safetyCheck', path: shown, reason: 'a per-process /proc entry' },
    };
  }
  // 0. a credential file (the sandbox's read-deny list, the files the worker's environment names): a
  //    read refused in every mode, bypassPermissions too, as to sandboxed Bash — but where the
  //    person's own `sandbox.filesystem.allowRead` re-opens it (issue 30, round o, O1b).
  //    In bypassPermissions a closed part of HOME too (O1b): the mode lifts the prompts, never the
  //    wall sandboxed Bash meets (in the other modes a read there asks: the mode's default).
  if (facts.path && facts.readOnly) {
    const refused = closedRead(facts.path.forms, sessionScopeOf(env, permission), permission.mode);
    if (refused !== undefined) {
      const [f, why] = refused;
      return {
        behavior: 'deny',
        message:
          why === 'credential'
            ? `${tool.name} may not read ${f}: it is a credential file, unreadable to sessions in every mode (re-open it with sandbox.filesystem.allowRead in your own settings).`
            : `${tool.name} may not read ${f}: the home directory is closed to sessions outside their working directories (and its dot-entries in a session started there), in bypassPermissions too (re-open it with sandbox.filesystem.allowRead in your own settings).`,
        decisionReason: {
          type: 'safetyCheck',
          path: f,
          reason: why === 'credential' ? 'a credential file' : 'a closed part of the home directory',
        },
      };
    }
  }
  const decision = decideInner(tool, input, permission, env, toolResult, hookDecision, facts);
  if (facts.path) checkedPaths.set(decision, facts.path.forms);
  if (decision.behavior === 'ask' && permission.mode === 'dontAsk') {
    return {
      behavior: 'deny',
      message: `${decision.message} Denied: the permission mode is dontAsk, so nobody is asked.`,
      decisionReason: { type: 'mode', mode: 'dontAsk' },
    };
  }
  return decision;
}

function hookReason(h: HookPermissionDecision): DecisionReason {
  return h.reason === undefined ? { type: 'hook', hook: h.hook } : { type: 'hook', hook: h.hook, reason: h.reason };
}

/** Steps 1–6 of the decision: a hook's deny, deny rules, the tool's deny, ask rules, a hook's ask, plan mode. */
function denyOrAskFirst(
  name: string,
  mode: PermissionMode,
  rules: NonNullable<ToolPermissionContext['rules']>,
  facts: CallFacts,
  env: PermissionEnv,
  toolResult: PermissionResult,
  hook: HookPermissionDecision | undefined,
): PermissionDecision | undefined {
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
      message: hook.reason
        ? `${name} needs approval (PreToolUse hook): ${hook.reason}`
        : `${name} needs approval (PreToolUse hook ${hook.hook}).`,
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
  return undefined;
}

function decideInner(
  tool: AnyTool,
  input: unknown,
  permission: ToolPermissionContext,
  env: PermissionEnv,
  toolResult: PermissionResult,
  hook: HookPermissionDecision | undefined,
  facts: CallFacts = callFacts(tool, input, env),
): PermissionDecision {
  const mode: PermissionMode = permission.mode;
  const rules = permission.rules ?? { allow: [], ask: [], deny: [] };
  const name = tool.name;
  // 1.–6. what denies or asks before the mode: hooks, rules, the tool, plan mode.
  const early = denyOrAskFirst(name, mode, rules, facts, env, toolResult, hook);
  if (early) return early;
  // 7. bypass — but a call the model asked to run outside the OS sandbox (dangerouslyDisableSandbox)
  //    still asks: bypassPermissions lifts the prompts, never the wall (invariant 13). Commands the
  //    user's own settings exclude from the sandbox (excludedCommands) run, as the reference.
  if (mode === 'bypassPermissions') {
    if (
      toolResult.behavior === 'ask' &&
      toolResult.decisionReason?.type === 'sandbox' &&
      toolResult.decisionReason.requested === true
    ) {
      return {
        behavior: 'ask',
        message: `${toolResult.message} (bypassPermissions does not lift the sandbox)`,
        decisionReason: toolResult.decisionReason,
      };
    }
    return { behavior: 'allow', decisionReason: { type: 'mode', mode } };
  }
  // 7a. a write to a protected path: settings, hooks, .git, shell start-up files… (the reference's
  //     "sensitive file" check). Neither a hook's allow nor an allow rule lifts it.
  if (facts.path && !facts.readOnly && facts.path.forms.length > 0) {
    const why = protectedWrite(facts.path.forms, permission, env);
    if (why) {
      const shown = facts.path.forms[0]!;
      return {
        behavior: 'ask',
        message: `${name} needs approval to edit ${shown}, which is a sensitive file (${why}).`,
        decisionReason: { type: 'safetyCheck', path: shown, reason: why },
      };
    }
  }
  // 7b. a call that leaves the OS sandbox (Bash: excludedCommands, dangerouslyDisableSandbox)
  //     asks whatever the allow rules and hooks say: the sandbox is the wall (src/sandbox).
  if (toolResult.behavior === 'ask' && toolResult.decisionReason?.type === 'sandbox') {
    return { behavior: 'ask', message: toolResult.message, decisionReason: toolResult.decisionReason };
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
  const guarded = [...(permission.controlFiles ?? []), ...(permission.workerCode ?? [])];
  return modeDefault(facts, mode, env, rules, guarded, permission.sessionsApart, [
    ...(permission.sandbox?.filesystem?.allowRead ?? []),
    ...(permission.sessionsApart ?? []).map((a) => a.own),
  ]);
}

/** The first form a read is refused in this mode: a credential file (every mode), a closed part of HOME (bypassPermissions). */
function closedRead(
  forms: readonly string[],
  scope: SessionScope,
  mode: PermissionMode,
): [string, 'credential' | 'home'] | undefined {
  const closed = sessionReadClosed(scope);
  for (const f of forms) {
    const why = closed(f);
    if (why === 'credential' || (why === 'home' && mode === 'bypassPermissions')) return [f, why];
  }
  return undefined;
}

/** Why writing a path (all its forms) is a protected write in this session, or undefined. */
export function protectedWrite(
  forms: readonly string[],
  permission: Pick<ToolPermissionContext, 'controlFiles' | 'workerCode'>,
  env: PermissionEnv,
): string | undefined {
  const own = permission.workerCode ?? [];
  const ownHit = forms.find((f) => own.some((w) => isInside(path.resolve(f), w)));
  if (ownHit !== undefined)
    return `${ownHit} is protected: it is durable-agent's own code (or a package it runs), which the worker runs outside the sandbox`;
  const shaped = forms.find(makesGitDirectory);
  if (shaped !== undefined)
    return `${shaped} is protected: with it the directory is a git repository whose config the person's git runs`;
  const extra = permission.controlFiles ?? [];
  return (
    protectedReasonOfForms(forms, workingDirForms(env.workingDirectories), {
      extra: [...new Set([...extra, ...extra.map(resolveReal)])],
    }) ??
    // A dot-entry of a working directory that is HOME, existing or not (red team o, O11).
    closedHomeWrite(forms, { home: env.home, workingDirectories: env.workingDirectories })
  );
}

/**
 * Would writing this file make (or configure) a git directory outside `.git` (red team m, M15)? A
 * `HEAD` anywhere — with `objects` and `refs` beside it git takes the directory for a repository,
 * and its `config` then runs on the person's `git status` below it — and a `config`, `commondir`,
 * `config.worktree` or hook beside a `HEAD` that is there. Sandboxed commands meet the same shape
 * in the tree watch (src/sandbox/treeNames.ts looksLikeGitDirectory).
 */
function makesGitDirectory(file: string): boolean {
  const name = path.basename(file).toLowerCase();
  if (name === 'head') return true;
  const dir = path.dirname(file);
  const headIn = (d: string) => fs.lstatSync(path.join(d, 'HEAD'), { throwIfNoEntry: false }) !== undefined;
  if (['config', 'commondir', 'config.worktree'].includes(name)) return headIn(dir);
  return path.basename(dir).toLowerCase() === 'hooks' && headIn(path.dirname(dir));
}

function findEditRuleAllowingRead(allow: readonly string[], facts: CallFacts, env: PermissionEnv) {
  const editRules = allow.filter(
    (r) => parseRuleSafe(r)?.toolName === 'Edit' && parseRuleSafe(r)?.content !== undefined,
  );
  if (editRules.length === 0) return undefined;
  // Pretend the call writes, so that Edit rules cover it.
  return findMatchingRule(editRules, 'allow', { ...facts, readOnly: false }, env);
}

function modeDefault(
  facts: CallFacts,
  mode: PermissionMode,
  env: PermissionEnv,
  rules: ToolPermissionContext['rules'],
  controlFiles?: readonly string[],
  apart?: ToolPermissionContext['sessionsApart'],
  reopened: readonly string[] = [],
): PermissionDecision {
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
    // Inside a working directory that is HOME (or its ancestor), its dot-entries (HOME) stay closed, as
    // to sandboxed Bash (issue 30, round o: src/permissions/homeReads.ts closedHomePath).
    const scope = { home: env.home ?? os.homedir(), workingDirectories: env.workingDirectories, reopened };
    const closed = facts.path.forms.find((f) => closedHomePath(f, scope, facts.readOnly ? 'read' : 'write'));
    if (closed !== undefined) {
      return {
        behavior: 'ask',
        message: `${name} needs approval: ${closed} is in a dot-entry (or a closed part) of the home directory, closed to sessions even when the home directory or its ancestor is a working directory.`,
        decisionReason: { type: 'workingDirectory', path: closed },
      };
    }
    if (facts.readOnly) return { behavior: 'allow', decisionReason: { type: 'mode', mode } };
    // (protected paths asked at 7a)
    if (mode === 'acceptEdits') return { behavior: 'allow', decisionReason: { type: 'mode', mode } };
    return askMode();
  }
  if (facts.shell && typeof facts.ruleContent === 'string') {
    if (facts.readOnly) {
      const outside = shellReadOutside(facts.ruleContent, env, hiddenPathPredicate('Read', rules, env, apart));
      if (outside === undefined) return { behavior: 'allow', decisionReason: { type: 'mode', mode } };
      return {
        behavior: 'ask',
        message: `${name} needs approval: ${outside.reason}`,
        decisionReason:
          outside.path !== undefined ? { type: 'workingDirectory', path: outside.path } : { type: 'mode', mode },
      };
    }
    if (mode === 'acceptEdits' && fsCommandsInside(facts.ruleContent, env, controlFiles)) {
      return { behavior: 'allow', decisionReason: { type: 'mode', mode } };
    }
    return askMode();
  }
  if (facts.readOnly) return { behavior: 'allow', decisionReason: { type: 'mode', mode } };
  return askMode();
}
