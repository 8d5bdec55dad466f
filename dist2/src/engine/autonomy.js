"use strict";
// What a session keeps running or waiting on between turns (issue 19): background tasks (Bash
// `run_in_background`, Monitor, background Agent), a wake-up the model scheduled, and its cron
// jobs. Tools never start or time anything themselves: they return context modifiers (data, in
// block order, invariant 4) that record a task, a wake-up or a job in `AgentContext.autonomy`; the
// session's scheduler (workflow or in-process) acts on what the context holds after each turn —
// starts the task's activity, sets the timer — and folds what happened back in (a task ended, a
// firing is due), each event becoming one queued message. Pure and deterministic.
Object.defineProperty(exports, "__esModule", { value: true });
exports.CRON_RECURRING_TTL_MS = exports.WAKEUP_MAX_SECONDS = exports.WAKEUP_MIN_SECONDS = exports.MAX_ENDED_TASKS = exports.MAX_TASK_TEXT = void 0;
exports.emptyAutonomy = emptyAutonomy;
exports.applyAutonomyModifier = applyAutonomyModifier;
exports.hasPendingWork = hasPendingWork;
exports.nextDeadline = nextDeadline;
exports.dueTimers = dueTimers;
exports.fireWakeup = fireWakeup;
exports.fireCron = fireCron;
exports.dueFirings = dueFirings;
exports.endTask = endTask;
exports.clampWakeupDelay = clampWakeupDelay;
exports.MAX_TASK_TEXT = 500;
/** Ended tasks kept in the context (the newest); running ones are always kept. */
exports.MAX_ENDED_TASKS = 20;
exports.WAKEUP_MIN_SECONDS = 60;
exports.WAKEUP_MAX_SECONDS = 3600;
exports.CRON_RECURRING_TTL_MS = 7 * 24 * 3600_000;
function emptyAutonomy() {
    return { tasks: [], crons: [] };
}
function keepTasks(tasks) {
    const ended = tasks.filter((t) => t.state !== 'running');
    const drop = new Set(ended.slice(0, Math.max(0, ended.length - exports.MAX_ENDED_TASKS)));
    return tasks.filter((t) => !drop.has(t));
}
/** Applies one modifier. Pure: returns a new value. */
function applyAutonomyModifier(a, mod) {
    const cur = a ?? emptyAutonomy();
    switch (mod.type) {
        case 'taskStarted':
            return { ...cur, tasks: keepTasks([...cur.tasks.filter((t) => t.id !== mod.task.id), mod.task]) };
        case 'taskStopRequested':
            return {
                ...cur,
                tasks: cur.tasks.map((t) => (t.id === mod.taskId && t.state === 'running' ? { ...t, stopRequested: true } : t)),
            };
        case 'wakeupScheduled':
            return { ...cur, wakeup: mod.wakeup };
        case 'wakeupCancelled': {
            const { wakeup: _w, ...rest } = cur;
            return rest;
        }
        case 'cronCreated':
            return { ...cur, crons: [...cur.crons.filter((j) => j.id !== mod.job.id), mod.job] };
        case 'cronDeleted':
            return { ...cur, crons: cur.crons.filter((j) => j.id !== mod.id) };
        default: {
            const never = mod;
            throw new Error(`unknown autonomy modifier ${JSON.stringify(never)}`);
        }
    }
}
/** Anything that can still wake the session: a running task, a wake-up, a cron job. */
function hasPendingWork(a) {
    return (!!a && (a.tasks.some((t) => t.state === 'running') || !!a.wakeup || a.crons.some((j) => j.nextFireAt !== null)));
}
/** The earliest timer the idle session waits for (undefined: none, only task ends or messages). */
function nextDeadline(a) {
    if (!a)
        return undefined;
    const times = [a.wakeup?.at, ...a.crons.map((j) => j.nextFireAt ?? undefined)].filter((t) => t !== undefined);
    return times.length ? Math.min(...times) : undefined;
}
/** What is due at `now`: the wake-up and the cron jobs whose time has come (jobs still need their next time). */
function dueTimers(a, now) {
    if (!a)
        return { crons: [] };
    return {
        ...(a.wakeup && a.wakeup.at <= now ? { wakeup: a.wakeup } : {}),
        crons: a.crons.filter((j) => j.nextFireAt !== null && j.nextFireAt <= now),
    };
}
/** The wake-up fired: it leaves the context and its prompt is queued. */
function fireWakeup(a, w) {
    return {
        autonomy: applyAutonomyModifier(a, { type: 'wakeupCancelled' }),
        event: { key: `wakeup:${w.toolUseId}:${w.at}`, source: 'wakeup', text: w.prompt },
    };
}
/**
 * A job fired at `firedAt`: its prompt is queued; a one-shot job or one past its expiry is deleted,
 * a recurring one moves to `next` (computed by the caller outside workflow code).
 */
function fireCron(a, job, next) {
    const firedAt = job.nextFireAt ?? 0;
    const event = { key: `cron:${job.id}:${firedAt}`, source: 'cron', text: job.prompt };
    const done = !job.recurring || next === null || (job.expiresAt !== undefined && next > job.expiresAt);
    const crons = done
        ? a.crons.filter((j) => j.id !== job.id)
        : a.crons.map((j) => (j.id === job.id ? { ...j, nextFireAt: next, fired: j.fired + 1 } : j));
    return { autonomy: { ...a, crons }, event };
}
/**
 * What is due at `now`, as one step both schedulers take: the recurring jobs whose next firing must
 * be computed outside workflow code (`recurring`), then `apply` with those times folds every due
 * firing into the record and returns the prompts to queue, in order (the wake-up first).
 */
function dueFirings(a, now) {
    const due = dueTimers(a, now);
    return {
        // After `now`, not after the missed slot: firings missed while a turn ran come as one.
        recurring: due.crons
            .filter((j) => j.recurring)
            .map((j) => ({ id: j.id, cron: j.cron, timeZone: j.timeZone, after: now })),
        apply(next) {
            let cur = a;
            const events = [];
            if (due.wakeup) {
                const r = fireWakeup(cur, due.wakeup);
                cur = r.autonomy;
                events.push(r.event);
            }
            for (const job of due.crons) {
                const r = fireCron(cur, job, next[job.id] ?? null);
                cur = r.autonomy;
                events.push(r.event);
            }
            return { autonomy: cur, events };
        },
    };
}
/** A task's activity ended (or was lost): the task records it and its notification is queued. */
function endTask(a, taskId, outcome, notification) {
    const task = a.tasks.find((t) => t.id === taskId);
    if (!task || task.state !== 'running')
        return { autonomy: a };
    const { command: _c, ...kept } = task;
    const ended = { ...kept, ...outcome };
    return {
        autonomy: { ...a, tasks: keepTasks(a.tasks.map((t) => (t.id === taskId ? ended : t))) },
        event: { key: `task:${taskId}`, source: 'task', text: notification(ended) },
    };
}
/** Clamps a wake-up delay to the reference's bounds. */
function clampWakeupDelay(seconds) {
    const s = Math.min(exports.WAKEUP_MAX_SECONDS, Math.max(exports.WAKEUP_MIN_SECONDS, Math.round(seconds)));
    return { seconds: s, clamped: s !== seconds };
}
//# sourceMappingURL=autonomy.js.map