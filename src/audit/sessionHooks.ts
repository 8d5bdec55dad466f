// Session-level hooks in the audit (SessionStart, UserPromptSubmit, Stop, SubagentStart,
// SubagentStop, SessionEnd, Notification): each firing is an activity `hook-<event>-<n>` of the
// session workflow; its input has the event's fields, its result the hooks' runs, and what they
// meant for the session is decided again here by the engine's own rules (src/core/hooks.ts).
import { decideSessionHooks, type HookRun } from '../core/hooks';
import type { AuditSessionHook } from './types';

/** What the audit knows of one activity (build.ts's ActivityTrack is one). */
export interface TrackedActivity {
  activityId: string;
  input?: unknown;
  result?: unknown;
  outcome: string;
  attempt: number;
  scheduledAt?: number;
  startedAt?: number;
  endedAt?: number;
  failures: string[];
}

const HOOK_ACTIVITY = /^hook-([A-Za-z]+)-(\d+)$/;
/** The event's own input fields the audit shows (long ones cut). */
const SHOWN_FIELDS = [
  'source',
  'prompt',
  'stop_hook_active',
  'reason',
  'end_status',
  'notification_type',
  'message',
  'agent_type',
];

function cut(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

const iso = (ms: number | undefined): string | undefined => (ms === undefined ? undefined : new Date(ms).toISOString());

export function sessionHookEntries(activities: readonly TrackedActivity[], run: number): AuditSessionHook[] {
  const out: AuditSessionHook[] = [];
  for (const a of activities) {
    const m = HOOK_ACTIVITY.exec(a.activityId);
    if (!m) continue;
    const event = m[1]!;
    const input = (a.input ?? {}) as { fields?: Record<string, unknown> };
    const fields: Record<string, unknown> = {};
    for (const k of SHOWN_FIELDS) {
      const v = input.fields?.[k];
      if (v !== undefined) fields[k] = typeof v === 'string' ? cut(v) : v;
    }
    const runs = ((a.result as { runs?: HookRun[] } | undefined)?.runs ?? []).filter((r) => r && typeof r === 'object');
    const d = a.outcome === 'completed' ? decideSessionHooks(event, runs) : undefined;
    const decision: AuditSessionHook['decision'] = d?.stop
      ? 'stopped'
      : d?.block
        ? 'blocked'
        : a.outcome === 'completed'
          ? 'proceeded'
          : 'none';
    out.push({
      kind: 'session_hook',
      event,
      n: Number(m[2]),
      run,
      activityId: a.activityId,
      status: a.outcome,
      attempts: a.attempt,
      ...(iso(a.startedAt ?? a.scheduledAt) ? { startedAt: iso(a.startedAt ?? a.scheduledAt) } : {}),
      ...(iso(a.endedAt) ? { endedAt: iso(a.endedAt) } : {}),
      fields,
      hooks: runs.map((r) => ({
        hook: cut(r.hook, 120),
        outcome: r.outcome,
        ...(r.exitCode !== undefined ? { exitCode: r.exitCode } : {}),
        durationMs: r.durationMs,
        ...(r.error ? { error: cut(r.error) } : {}),
      })),
      decision,
      ...(d?.stop ? { reason: cut(d.stop.reason) } : d?.block ? { reason: cut(d.block.reason) } : {}),
      ...(d?.additionalContext.length ? { additionalContext: d.additionalContext.map((c) => cut(c)) } : {}),
      ...(d?.notices.length ? { notices: d.notices.map((n) => cut(n)) } : {}),
      failures: [...a.failures],
    });
  }
  return out;
}
