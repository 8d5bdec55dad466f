// What the hooks of a session-level event (SessionStart, UserPromptSubmit, Stop, SubagentStart, SubagentStop,
// SessionEnd, Notification) mean for the session, in the reference's terms. Pure: the runs come
// from an activity (workflow) or a direct call (in-process runner); both schedulers read them here.

/** The session-level hook events (the same names as src/hooks/types.ts; the engine imports nothing outside itself). */
export const SESSION_HOOK_EVENT_NAMES = [
  'UserPromptSubmit',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'SessionStart',
  'SessionEnd',
  'Notification',
] as const;
export type SessionHookEventName = (typeof SESSION_HOOK_EVENT_NAMES)[number];

/** What the engine reads of a hook's JSON output (src/hooks/types.ts HookOutput). */
interface HookOutput {
  continue?: boolean;
  stopReason?: string;
  systemMessage?: string;
  decision?: string;
  reason?: string;
  hookSpecificOutput?: { additionalContext?: string; [k: string]: unknown };
}

/** One hook execution as the engine reads it (src/hooks/types.ts HookRun is one). */
export interface HookRun {
  event: string;
  hook: string;
  outcome: 'success' | 'blocking' | 'non_blocking_error' | 'timeout' | 'cancelled';
  exitCode?: number | null;
  stdout?: string;
  stderr?: string;
  output?: HookOutput;
  durationMs: number;
  error?: string;
}

export interface SessionHookDecision {
  /** Exit code 2 or `decision: "block"`: UserPromptSubmit drops the prompt; Stop keeps the session going with `reason`. */
  block?: { reason: string; hook: string };
  /** `continue: false`: the session stops (any event). */
  stop?: { reason: string; hook: string };
  /** Text for the model: `additionalContext`, or plain stdout of UserPromptSubmit/SessionStart. */
  additionalContext: string[];
  /** For the user (recorded, never shown to the model): systemMessage, non-blocking errors. */
  notices: string[];
}

function short(s: string, n = 80): string {
  const t = s.trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Events whose exit code 2 blocks (the reference's table); for the others stderr only reaches the user. */
const BLOCKING_EVENTS = new Set(['UserPromptSubmit', 'Stop', 'SubagentStop']);
/** Events whose plain stdout (exit 0, not JSON) becomes context for the model. */
const STDOUT_AS_CONTEXT = new Set(['UserPromptSubmit', 'SessionStart']);

export function decideSessionHooks(event: string, runs: readonly HookRun[]): SessionHookDecision {
  const d: SessionHookDecision = { additionalContext: [], notices: [] };
  const blocks: Array<{ reason: string; hook: string }> = [];
  for (const run of runs) {
    const label = `${event} hook "${short(run.hook)}"`;
    if (run.outcome === 'blocking') {
      const stderr = run.stderr?.trim() ?? '';
      // Stop/SubagentStop: the reference tells the model `[<command>]: <stderr>`.
      const stopLike = event === 'Stop' || event === 'SubagentStop';
      if (BLOCKING_EVENTS.has(event))
        blocks.push({
          reason: stderr ? (stopLike ? `[${run.hook}]: ${stderr}` : stderr) : `${label} exited with code 2`,
          hook: run.hook,
        });
      else d.notices.push(`${label} exited with code 2${stderr ? `: ${short(stderr, 200)}` : ''}`);
      continue;
    }
    if (run.outcome !== 'success') {
      const stderr = run.stderr?.trim() ? `: ${short(run.stderr, 200)}` : '';
      d.notices.push(`${label} ${run.error ?? run.outcome}${stderr}`);
      continue;
    }
    const out: HookOutput | undefined = run.output;
    if (!out) {
      if (STDOUT_AS_CONTEXT.has(event) && run.stdout?.trim()) d.additionalContext.push(run.stdout.trim());
      continue;
    }
    if (typeof out.systemMessage === 'string' && out.systemMessage) d.notices.push(`${label}: ${out.systemMessage}`);
    if (out.continue === false) {
      d.stop ??= {
        reason: typeof out.stopReason === 'string' && out.stopReason ? out.stopReason : `${label} stopped the session`,
        hook: run.hook,
      };
    }
    if (out.decision === 'block' && BLOCKING_EVENTS.has(event)) {
      blocks.push({
        reason: typeof out.reason === 'string' && out.reason ? out.reason : `blocked by ${label}`,
        hook: run.hook,
      });
    }
    const hso = isObject(out.hookSpecificOutput) ? out.hookSpecificOutput : undefined;
    if (typeof hso?.additionalContext === 'string' && hso.additionalContext.trim())
      d.additionalContext.push(hso.additionalContext.trim());
  }
  if (blocks.length > 0) d.block = { reason: blocks.map((b) => b.reason).join('\n'), hook: blocks[0]!.hook };
  return d;
}

/** The hook runs an activity returns: outputs kept, long streams cut (the workflow history holds them). */
export function trimHookRun<R extends HookRun>(run: R, max = 2000): R {
  const cut = (s?: string) => (s !== undefined && s.length > max ? `${s.slice(0, max)}…` : s);
  const out: R = { ...run };
  if (out.stdout !== undefined) out.stdout = cut(out.stdout)!;
  if (out.stderr !== undefined) out.stderr = cut(out.stderr)!;
  return out;
}
