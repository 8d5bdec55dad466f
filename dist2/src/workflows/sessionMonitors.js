"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SessionMonitors = void 0;
// The session's Monitor tasks (issue 19): a `monitor` task a turn recorded runs as its own activity
// `task-<id>` (runMonitorTask, started by SessionTasks with the options of every background task:
// heartbeating, one attempt, on the tool task queue). The activity sends each batch of the watch's
// output as a `monitorEvent` signal with the task id and a seq; this class takes each (task, seq)
// once (a doubled or retried signal never shows twice), drops what comes for a task that is not
// running or that TaskStop stopped, and queues the event's `<task-notification>` for the next turn
// — an idle session wakes for it (the timers' wait is poked), a running turn's session queues it
// for the turn after. When the activity ends, its result gives the end notification (stream ended,
// ended without output, script failed), the expiry notice at `timeout_ms`, or nothing (stopped);
// a lost worker gives the `lost` one. engine/monitorTasks.ts holds the rules, pure.
const workflow_1 = require("@temporalio/workflow");
const monitorTasks_1 = require("../engine/monitorTasks");
const definitions_1 = require("./definitions");
class SessionMonitors {
    state;
    changed;
    log = new monitorTasks_1.MonitorEventLog();
    /** Monitor tasks whose activity runs, by id. */
    running = new Map();
    /** Events queued per task (for a lost task's notification). */
    events = new Map();
    constructor(state, changed) {
        this.state = state;
        this.changed = changed;
    }
    register() {
        (0, workflow_1.setHandler)(definitions_1.monitorEventSignal, (batch) => this.onEvent(batch));
    }
    /** The monitor's activity in the task's scope; resolves to its end (never rejects: a failure is an outcome). */
    async run(task, scope, options, input, failureOutcome) {
        this.running.set(task.id, task);
        const act = (0, workflow_1.proxyActivities)(options);
        try {
            const r = await scope.run(() => act.runMonitorTask(input));
            return { outcome: outcomeOf(r, Date.now()), notification: (0, monitorTasks_1.monitorEndText)(task, r) };
        }
        catch (err) {
            const outcome = failureOutcome(err, Date.now());
            const events = this.events.get(task.id) ?? 0;
            const end = outcome.state === 'lost'
                ? { state: 'lost', events, ...(outcome.error ? { error: outcome.error } : {}) }
                : outcome.state === 'killed'
                    ? { state: 'killed', exitCode: null, events }
                    : { state: 'failed', exitCode: null, events, ...(outcome.error ? { error: outcome.error } : {}) };
            return { outcome, notification: (0, monitorTasks_1.monitorEndText)(task, end) };
        }
        finally {
            this.stopped(task.id);
        }
    }
    /** TaskStop or the session's end stopped it (or it ended): nothing more is queued for it. */
    stopped(taskId) {
        this.running.delete(taskId);
        this.log.close(taskId);
    }
    onEvent(batch) {
        const task = this.running.get(batch.taskId);
        if (!task || !this.log.accept(batch))
            return;
        if (batch.kind === 'event')
            this.events.set(task.id, (this.events.get(task.id) ?? 0) + 1);
        this.state.pendingMessages.push((0, monitorTasks_1.monitorBatchText)(task, batch));
        this.changed();
    }
}
exports.SessionMonitors = SessionMonitors;
function outcomeOf(r, endedAt) {
    return {
        state: r.state,
        endedAt,
        exitCode: r.exitCode,
        outputBytes: r.outputBytes,
        ...(r.outputRef ? { outputRef: r.outputRef } : {}),
        ...(r.error ? { error: r.error } : {}),
    };
}
//# sourceMappingURL=sessionMonitors.js.map