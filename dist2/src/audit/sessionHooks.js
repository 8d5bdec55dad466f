"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.sessionHookEntries = sessionHookEntries;
// Session-level hooks in the audit (SessionStart, UserPromptSubmit, Stop, SubagentStart,
// SubagentStop, SessionEnd, Notification): each firing is an activity `hook-<event>-<n>` of the
// session workflow; its input has the event's fields, its result the hooks' runs, and what they
// meant for the session is decided again here by the engine's own rules (src/engine/hooks.ts).
const hooks_1 = require("../engine/hooks");
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
function cut(text, max = 200) {
    return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
const iso = (ms) => (ms === undefined ? undefined : new Date(ms).toISOString());
function sessionHookEntries(activities, run) {
    const out = [];
    for (const a of activities) {
        const m = HOOK_ACTIVITY.exec(a.activityId);
        if (!m)
            continue;
        const event = m[1];
        const input = (a.input ?? {});
        const fields = {};
        for (const k of SHOWN_FIELDS) {
            const v = input.fields?.[k];
            if (v !== undefined)
                fields[k] = typeof v === 'string' ? cut(v) : v;
        }
        const runs = (a.result?.runs ?? []).filter((r) => r && typeof r === 'object');
        const d = a.outcome === 'completed' ? (0, hooks_1.decideSessionHooks)(event, runs) : undefined;
        const decision = d?.stop
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
//# sourceMappingURL=sessionHooks.js.map