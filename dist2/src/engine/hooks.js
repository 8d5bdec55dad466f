"use strict";
// What the hooks of a session-level event (SessionStart, UserPromptSubmit, Stop, SubagentStart, SubagentStop,
// SessionEnd, Notification) mean for the session, in the reference's terms. Pure: the runs come
// from an activity (workflow) or a direct call (in-process runner); both schedulers read them here.
Object.defineProperty(exports, "__esModule", { value: true });
exports.SESSION_HOOK_EVENT_NAMES = void 0;
exports.decideSessionHooks = decideSessionHooks;
exports.trimHookRun = trimHookRun;
/** The session-level hook events (the same names as src/hooks/types.ts; the engine imports nothing outside itself). */
exports.SESSION_HOOK_EVENT_NAMES = [
    'UserPromptSubmit',
    'Stop',
    'SubagentStart',
    'SubagentStop',
    'SessionStart',
    'SessionEnd',
    'Notification',
];
function short(s, n = 80) {
    const t = s.trim();
    return t.length > n ? `${t.slice(0, n - 1)}…` : t;
}
function isObject(x) {
    return typeof x === 'object' && x !== null && !Array.isArray(x);
}
/** Events whose exit code 2 blocks (the reference's table); for the others stderr only reaches the user. */
const BLOCKING_EVENTS = new Set(['UserPromptSubmit', 'Stop', 'SubagentStop']);
/** Events whose plain stdout (exit 0, not JSON) becomes context for the model. */
const STDOUT_AS_CONTEXT = new Set(['UserPromptSubmit', 'SessionStart']);
function decideSessionHooks(event, runs) {
    const d = { additionalContext: [], notices: [] };
    const blocks = [];
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
            else
                d.notices.push(`${label} exited with code 2${stderr ? `: ${short(stderr, 200)}` : ''}`);
            continue;
        }
        if (run.outcome !== 'success') {
            const stderr = run.stderr?.trim() ? `: ${short(run.stderr, 200)}` : '';
            d.notices.push(`${label} ${run.error ?? run.outcome}${stderr}`);
            continue;
        }
        const out = run.output;
        if (!out) {
            if (STDOUT_AS_CONTEXT.has(event) && run.stdout?.trim())
                d.additionalContext.push(run.stdout.trim());
            continue;
        }
        if (typeof out.systemMessage === 'string' && out.systemMessage)
            d.notices.push(`${label}: ${out.systemMessage}`);
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
    if (blocks.length > 0)
        d.block = { reason: blocks.map((b) => b.reason).join('\n'), hook: blocks[0].hook };
    return d;
}
/** The hook runs an activity returns: outputs kept, long streams cut (the workflow history holds them). */
function trimHookRun(run, max = 2000) {
    const cut = (s) => (s !== undefined && s.length > max ? `${s.slice(0, max)}…` : s);
    const out = { ...run };
    if (out.stdout !== undefined)
        out.stdout = cut(out.stdout);
    if (out.stderr !== undefined)
        out.stderr = cut(out.stderr);
    return out;
}
//# sourceMappingURL=hooks.js.map