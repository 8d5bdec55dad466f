// Running the hooks of one event for one tool call, and combining their answers.
import type { HookPermissionDecision } from '../permissions/decide';
import { runShellCommand } from './command';
import { sessionRootOf, type AgentContext, type HookPins } from '../core/context';
import { hooksFor, type MatchedHook } from './config';
import { hookPinRefusal } from './pins';
import { containHook, type HookSandbox } from './sandboxed';
import { settleTreeEvents } from '../sandbox/treeWatch';
import type {
  CommandHookDef,
  HookEventName,
  HookInput,
  HookOutput,
  HookRun,
  HooksConfig,
  PostToolUseFailureHookInput,
  PostToolUseHookInput,
  PreToolUseHookInput,
} from './types';

export interface HookRunEnv {
  config?: HooksConfig;
  /**
   * Where command hooks run, and their CLAUDE_PROJECT_DIR: the session's project root (hookProjectDir),
   * never the agent's current cwd (which the hook input's `cwd` field carries).
   */
  projectDir: string;
  /** The files each command hook runs, pinned at the session's start: a hook whose files changed is not run. */
  pins?: HookPins;
  signal?: AbortSignal;
  /** Extra environment for command hooks (on top of the door's allowlist, src/hostProcess). */
  env?: Readonly<Record<string, string>>;
  /** The user's `sandbox.passEnv`: worker variables command hooks get besides the allowlist. */
  passEnv?: readonly string[];
  /**
   * The session's sandbox, which its command hooks run in unless it is off or `sandbox.hooks` is
   * `host` (src/hooks/sandboxed.ts). Absent (no session, an activity of an earlier release): on the host.
   */
  sandbox?: HookSandbox;
  /** Aliases of the tool, so that matchers may name them. */
  aliases?: readonly string[];
  /** Tool events: does the call match a hook's `if` permission rule? (absent: hooks with `if` never run) */
  callMatches?: (rule: string) => boolean;
}

export interface PreToolUseHooksResult {
  runs: HookRun[];
  /** Combined permission decision of all hooks: deny > ask > allow. */
  decision?: HookPermissionDecision;
  /** Exit code 2, `decision: "block"` or `continue: false`: the call must not run. */
  block?: { reason: string; hook: string };
  /** `continue: false`: the agent should stop after this call. */
  stop?: { reason: string; hook: string };
  /** The last hook (in configuration order) that replaced the input wins. */
  updatedInput?: Record<string, unknown>;
  additionalContext: string[];
  /** Non-blocking errors, timeouts, system messages: recorded, never shown to the model. */
  notices: string[];
}

export interface PostToolUseHooksResult {
  runs: HookRun[];
  /** Exit code 2 or `decision: "block"`: feedback appended to the result the model sees. */
  feedback: Array<{ reason: string; hook: string }>;
  stop?: { reason: string; hook: string };
  additionalContext: string[];
  notices: string[];
}

/**
 * The directory a session's command hooks run from: the root its pins were taken against (a
 * subagent's are its parent's), else the session's start directory (sessionRootOf; a session
 * started before pins).
 */
export function hookProjectDir(
  pins: HookPins | undefined,
  ctx: Pick<AgentContext, 'cwd' | 'projectDir' | 'worktree'>,
): string {
  return pins?.projectDir ?? sessionRootOf(ctx);
}

function shorten(s: string, n = 200): string {
  const t = s.trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Parses stdout as hook JSON output when it looks like JSON; otherwise undefined. */
export function parseHookStdout(stdout: string): HookOutput | undefined {
  const t = stdout.trim();
  if (!t.startsWith('{')) return undefined;
  try {
    const v: unknown = JSON.parse(t);
    return isObject(v) ? (v as HookOutput) : undefined;
  } catch {
    return undefined;
  }
}

/** One command hook: pins checked, placed (sandbox or host), run, its answer read. */
async function runCommandHook(
  h: MatchedHook,
  def: CommandHookDef,
  event: HookEventName,
  input: HookInput,
  env: HookRunEnv,
): Promise<HookRun> {
  const started = Date.now();
  // Only as it was at the session's start: a file it runs that changed since means it does not run.
  const refused = hookPinRefusal(env.pins, def);
  if (refused)
    return {
      event,
      hook: h.label,
      outcome: 'non_blocking_error',
      durationMs: 0,
      error: refused.error,
      pinChanged: refused.paths,
    };
  // Inside the session's sandbox unless it is off or the settings say `host` (docs/hooks.md "Where hooks run").
  const placed = await containHook(env.sandbox, def, env.signal);
  if (placed.kind === 'refused')
    return {
      event,
      hook: h.label,
      outcome: 'non_blocking_error',
      durationMs: Date.now() - started,
      error: `was not run: ${placed.record.reason}`,
      sandbox: placed.record,
    };
  const contained = placed.kind === 'sandboxed' ? placed.contained : undefined;
  const spec = {
    cwd: env.projectDir,
    stdin: JSON.stringify(input),
    timeoutMs: h.timeoutMs,
    env: { ...env.env, CLAUDE_PROJECT_DIR: env.projectDir, DURABLE_AGENT_PROJECT_DIR: env.projectDir },
    ...(env.passEnv ? { passEnv: env.passEnv } : {}),
    ...(def.args ? { args: def.args } : {}),
    ...(def.shell ? { shell: def.shell } : {}),
    ...(contained ? { contained } : {}),
  };
  if (def.async) {
    // In the background, as the reference: nothing waits for it (its own timeout still applies)
    // and its exit code and output are not read.
    void runShellCommand(def.command, spec)
      .then(() => settleTreeEvents())
      .then(() => contained?.finish());
    return {
      event,
      hook: h.label,
      outcome: 'success',
      durationMs: 0,
      async: true,
      ...(placed.record ? { sandbox: placed.record } : {}),
    };
  }
  const r = await runShellCommand(def.command, { ...spec, ...(env.signal ? { signal: env.signal } : {}) });
  if (contained) await settleTreeEvents();
  const ended = await contained?.finish();
  const violations = ended?.violations ?? [];
  const record = placed.record && {
    ...placed.record,
    ...(violations.length > 0 ? { violations } : {}),
    ...(ended?.protectedUndone.length ? { protectedUndone: ended.protectedUndone } : {}),
  };
  const base = {
    event,
    hook: h.label,
    exitCode: r.exitCode,
    stdout: r.stdout,
    // What the sandbox refused the hook, as Bash shows it (a hook's stderr reaches the notice, the audit, the model on exit 2).
    stderr:
      violations.length > 0
        ? `${r.stderr.replace(/\s+$/, '')}\n<sandbox_violations>\n${violations.join('\n')}\n</sandbox_violations>`
        : r.stderr,
    durationMs: r.durationMs,
    ...(record ? { sandbox: record } : {}),
  };
  if (r.spawnError) return { ...base, outcome: 'non_blocking_error', error: `could not start: ${r.spawnError}` };
  if (r.aborted) return { ...base, outcome: 'cancelled', error: 'aborted' };
  if (r.timedOut)
    return { ...base, outcome: 'timeout', error: `timed out after ${h.timeoutMs / 1000}s and was killed` };
  if (r.exitCode === 0) {
    const output = parseHookStdout(r.stdout);
    return output ? { ...base, outcome: 'success', output } : { ...base, outcome: 'success' };
  }
  if (r.exitCode === 2) return { ...base, outcome: 'blocking' };
  return {
    ...base,
    outcome: 'non_blocking_error',
    error: r.exitCode === null ? `killed by ${r.signal}` : `exit code ${r.exitCode}`,
  };
}

export async function runOne(
  h: MatchedHook,
  event: HookEventName,
  input: HookInput,
  env: HookRunEnv,
): Promise<HookRun> {
  const started = Date.now();
  if (h.def.type === 'command') return runCommandHook(h, h.def, event, input, env);
  // function hook
  const fn = h.def.fn;
  const ac = new AbortController();
  let resolveAborted: (v: 'aborted') => void = () => undefined;
  const aborted = new Promise<'aborted'>((resolve) => (resolveAborted = resolve));
  const onOuter = () => {
    ac.abort(env.signal?.reason);
    resolveAborted('aborted');
  };
  if (env.signal?.aborted) return { event, hook: h.label, outcome: 'cancelled', durationMs: 0, error: 'aborted' };
  env.signal?.addEventListener('abort', onOuter, { once: true });
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(
        () => {
          ac.abort(new Error('hook timeout'));
          resolve('timeout');
        },
        Math.max(1, h.timeoutMs),
      );
    });
    const result = await Promise.race([
      Promise.resolve().then(() => fn(input, { signal: ac.signal })),
      timeout,
      aborted,
    ]);
    const durationMs = Date.now() - started;
    if (result === 'timeout')
      return { event, hook: h.label, outcome: 'timeout', durationMs, error: `timed out after ${h.timeoutMs / 1000}s` };
    if (result === 'aborted') return { event, hook: h.label, outcome: 'cancelled', durationMs, error: 'aborted' };
    if (result === undefined || result === null) return { event, hook: h.label, outcome: 'success', durationMs };
    if (!isObject(result))
      return { event, hook: h.label, outcome: 'non_blocking_error', durationMs, error: 'returned a non-object' };
    return { event, hook: h.label, outcome: 'success', output: result as HookOutput, durationMs };
  } catch (e) {
    return {
      event,
      hook: h.label,
      outcome: 'non_blocking_error',
      durationMs: Date.now() - started,
      error: `threw: ${(e as Error)?.message ?? String(e)}`,
    };
  } finally {
    if (timer) clearTimeout(timer);
    env.signal?.removeEventListener('abort', onOuter);
  }
}

function noticeFor(run: HookRun): string | undefined {
  if (run.outcome === 'non_blocking_error' || run.outcome === 'timeout') {
    const err = run.stderr?.trim() ? `: ${shorten(run.stderr)}` : '';
    return `${run.event} hook "${shorten(run.hook, 80)}" ${run.error ?? 'failed'}${err} (the call proceeded)`;
  }
  if (run.outcome === 'cancelled') return `${run.event} hook "${shorten(run.hook, 80)}" was cancelled`;
  return sandboxNotice(run);
}

/** A hook that ended well but met the sandbox's walls: said, as Bash says it. */
export function sandboxNotice(run: HookRun): string | undefined {
  const v = run.sandbox?.violations;
  if (!v?.length) return undefined;
  return `${run.event} hook "${shorten(run.hook, 80)}" was refused by the sandbox: ${shorten(v.join('; '))}`;
}

const RANK = { allow: 1, ask: 2, deny: 3 } as const;

export async function runPreToolUseHooks(
  input: Omit<PreToolUseHookInput, 'hook_event_name'>,
  env: HookRunEnv,
): Promise<PreToolUseHooksResult> {
  const full: PreToolUseHookInput = { ...input, hook_event_name: 'PreToolUse' };
  const matched = hooksFor(env.config, 'PreToolUse', input.tool_name, env.aliases, env.callMatches);
  const result: PreToolUseHooksResult = { runs: [], additionalContext: [], notices: [] };
  if (matched.length === 0) return result;
  result.runs = await Promise.all(matched.map((h) => runOne(h, 'PreToolUse', full, env)));
  const blocks: Array<{ reason: string; hook: string }> = [];
  for (const run of result.runs) {
    if (run.pinChanged || run.sandbox?.refused) {
      // Fail closed: a PreToolUse hook may be a safety check; the call it could have blocked does not run without it.
      blocks.push({
        reason: `PreToolUse hook "${shorten(run.hook, 80)}" ${run.error ?? 'was not run'}, so the call was blocked`,
        hook: run.hook,
      });
      continue;
    }
    const notice = noticeFor(run);
    if (notice) result.notices.push(notice);
    if (run.outcome === 'blocking') {
      blocks.push({
        reason: run.stderr?.trim() || `Blocked by PreToolUse hook "${shorten(run.hook, 80)}" (exit code 2)`,
        hook: run.hook,
      });
      continue;
    }
    const out = run.output;
    if (run.outcome !== 'success' || !out) continue;
    if (typeof out.systemMessage === 'string' && out.systemMessage)
      result.notices.push(`PreToolUse hook "${shorten(run.hook, 80)}": ${out.systemMessage}`);
    if (out.continue === false) {
      const reason =
        typeof out.stopReason === 'string' && out.stopReason ? out.stopReason : 'A PreToolUse hook stopped the agent.';
      result.stop ??= { reason, hook: run.hook };
      blocks.push({ reason, hook: run.hook });
    }
    if (out.decision === 'block') {
      blocks.push({
        reason:
          typeof out.reason === 'string' && out.reason
            ? out.reason
            : `Blocked by PreToolUse hook "${shorten(run.hook, 80)}"`,
        hook: run.hook,
      });
    }
    const hso = isObject(out.hookSpecificOutput) ? out.hookSpecificOutput : undefined;
    let decided: 'allow' | 'ask' | 'deny' | undefined;
    let reason: string | undefined;
    if (hso?.permissionDecision !== undefined) {
      if (hso.permissionDecision === 'allow' || hso.permissionDecision === 'ask' || hso.permissionDecision === 'deny') {
        decided = hso.permissionDecision;
        if (typeof hso.permissionDecisionReason === 'string') reason = hso.permissionDecisionReason;
      } else {
        result.notices.push(
          `PreToolUse hook "${shorten(run.hook, 80)}" returned an invalid permissionDecision ${JSON.stringify(hso.permissionDecision)} (ignored)`,
        );
      }
    } else if (out.decision === 'approve') {
      decided = 'allow';
      if (typeof out.reason === 'string') reason = out.reason;
    }
    if (decided && (!result.decision || RANK[decided] > RANK[result.decision.behavior])) {
      result.decision =
        reason === undefined ? { behavior: decided, hook: run.hook } : { behavior: decided, hook: run.hook, reason };
    }
    if (hso?.updatedInput !== undefined) {
      if (isObject(hso.updatedInput)) result.updatedInput = hso.updatedInput;
      else
        result.notices.push(
          `PreToolUse hook "${shorten(run.hook, 80)}" returned an updatedInput that is not an object (ignored)`,
        );
    }
    if (typeof hso?.additionalContext === 'string' && hso.additionalContext.trim())
      result.additionalContext.push(hso.additionalContext);
  }
  if (blocks.length > 0) {
    result.block = { reason: blocks.map((b) => b.reason).join('\n'), hook: blocks[0]!.hook };
  }
  return result;
}

export async function runPostToolUseHooks(
  input: Omit<PostToolUseHookInput, 'hook_event_name'>,
  env: HookRunEnv,
): Promise<PostToolUseHooksResult> {
  return runAfterCallHooks({ ...input, hook_event_name: 'PostToolUse' }, env);
}

/** After a failed call (it threw, or its result is an error), in place of PostToolUse: the same answers are honoured. */
export async function runPostToolUseFailureHooks(
  input: Omit<PostToolUseFailureHookInput, 'hook_event_name'>,
  env: HookRunEnv,
): Promise<PostToolUseHooksResult> {
  return runAfterCallHooks({ ...input, hook_event_name: 'PostToolUseFailure' }, env);
}

async function runAfterCallHooks(
  full: PostToolUseHookInput | PostToolUseFailureHookInput,
  env: HookRunEnv,
): Promise<PostToolUseHooksResult> {
  const event = full.hook_event_name;
  const matched = hooksFor(env.config, event, full.tool_name, env.aliases, env.callMatches);
  const result: PostToolUseHooksResult = { runs: [], feedback: [], additionalContext: [], notices: [] };
  if (matched.length === 0) return result;
  result.runs = await Promise.all(matched.map((h) => runOne(h, event, full, env)));
  for (const run of result.runs) {
    const notice = noticeFor(run);
    if (notice) result.notices.push(notice);
    if (run.outcome === 'blocking') {
      result.feedback.push({
        reason: run.stderr?.trim() || `${event} hook "${shorten(run.hook, 80)}" exited with code 2`,
        hook: run.hook,
      });
      continue;
    }
    const out = run.output;
    if (run.outcome !== 'success' || !out) continue;
    if (typeof out.systemMessage === 'string' && out.systemMessage)
      result.notices.push(`${event} hook "${shorten(run.hook, 80)}": ${out.systemMessage}`);
    if (out.decision === 'block') {
      result.feedback.push({
        reason:
          typeof out.reason === 'string' && out.reason
            ? out.reason
            : `${event} hook "${shorten(run.hook, 80)}" flagged this result`,
        hook: run.hook,
      });
    }
    if (out.continue === false) {
      result.stop ??= {
        reason:
          typeof out.stopReason === 'string' && out.stopReason ? out.stopReason : `A ${event} hook stopped the agent.`,
        hook: run.hook,
      };
    }
    const hso = isObject(out.hookSpecificOutput) ? out.hookSpecificOutput : undefined;
    if (typeof hso?.additionalContext === 'string' && hso.additionalContext.trim())
      result.additionalContext.push(hso.additionalContext);
  }
  return result;
}
