"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.LocalTasks = void 0;
const monitorTasks_1 = require("../engine/monitorTasks");
const taskNotifications_1 = require("../engine/taskNotifications");
const taskScheduling_1 = require("../engine/taskScheduling");
const subagents_1 = require("../engine/subagents");
class LocalTasks {
    host;
    changed;
    /** Each running task's stop, by id. */
    aborts = new Map();
    runs = new Set();
    scheduling;
    /** Monitor batches taken, once per (task, seq). */
    monitorLog = new monitorTasks_1.MonitorEventLog();
    /** Running Monitor tasks: the events queued for each (a failed run's end notification counts them). */
    monitorEvents = new Map();
    constructor(host, changed) {
        this.host = host;
        this.changed = changed;
        this.scheduling = new taskScheduling_1.TaskScheduling(host.state, this, taskNotifications_1.taskNotification, changed);
    }
    start(task, ended) {
        const { host } = this;
        const abort = new AbortController();
        this.aborts.set(task.id, abort);
        const input = { session: host.session, ...(0, taskScheduling_1.backgroundTaskRun)(task, host.state.context) };
        const rt = host.runtime(abort.signal, `task-${task.id}`);
        const run = (task.kind === 'local_agent'
            ? this.runAgent(task, abort.signal)
            : task.kind === 'monitor'
                ? this.runMonitor(task, input, rt)
                : this.runCommand(input, rt)).then((end) => {
            this.aborts.delete(task.id);
            ended(end.outcome, end.notification);
        });
        this.runs.add(run);
        void run.finally(() => this.runs.delete(run));
    }
    /**
     * A background agent (its Agent call launched it, subagents.ts): its child session runs in this
     * process until it ends (the agent's notification) or the task's stop aborts it (no notification).
     */
    runAgent(task, signal) {
        const launch = this.host.agentLaunches?.get(task.id);
        this.host.agentLaunches?.delete(task.id);
        if (launch)
            return launch(signal);
        const endedAt = Date.now();
        const error = 'its launch is unknown to this runner';
        const { notification } = (0, subagents_1.agentTaskEnd)(task, (0, subagents_1.agentFailureEnd)(error, endedAt - task.startedAt), endedAt);
        return Promise.resolve({ outcome: { state: 'failed', endedAt, exitCode: null, error }, notification });
    }
    stop(taskId) {
        // A stopped monitor's batches still in flight are not queued (as SessionMonitors.stopped).
        this.monitorStopped(taskId);
        this.aborts.get(taskId)?.abort();
    }
    /** The session ends (or `stop()`): every running task is killed (no notification) and awaited. */
    async stopAll() {
        this.scheduling.stopAll();
        while (this.runs.size > 0)
            await Promise.allSettled([...this.runs]);
    }
    runCommand(input, rt) {
        return this.host.deps.runBackgroundTask(input, rt).then((r) => ({ outcome: (0, taskScheduling_1.taskOutcomeOf)(r, Date.now()) }), (err) => ({ outcome: thrownOutcome(err, rt.signal) }));
    }
    /** A Monitor's watch: each batch queued as it comes (an idle session wakes), then its end text. */
    async runMonitor(task, input, rt) {
        this.monitorEvents.set(task.id, 0);
        const deliver = async (batch) => {
            const events = this.monitorEvents.get(batch.taskId);
            if (events === undefined || !this.monitorLog.accept(batch))
                return;
            if (batch.kind === 'event')
                this.monitorEvents.set(batch.taskId, events + 1);
            this.host.state.pendingMessages.push((0, monitorTasks_1.monitorBatchText)(task, batch));
            this.changed();
        };
        try {
            const r = await this.host.deps.runMonitorTask(input, rt, deliver);
            return { outcome: (0, taskScheduling_1.taskOutcomeOf)(r, Date.now()), notification: (0, monitorTasks_1.monitorEndText)(task, r) };
        }
        catch (err) {
            // The core returns its failures as data; anything thrown is a failure to run (or the stop).
            const outcome = thrownOutcome(err, rt.signal);
            const events = this.monitorEvents.get(task.id) ?? 0;
            const end = outcome.state === 'killed'
                ? { state: 'killed', exitCode: null, events }
                : { state: 'failed', exitCode: null, events, ...(outcome.error ? { error: outcome.error } : {}) };
            return { outcome, notification: (0, monitorTasks_1.monitorEndText)(task, end) };
        }
        finally {
            this.monitorStopped(task.id);
        }
    }
    monitorStopped(taskId) {
        this.monitorEvents.delete(taskId);
        this.monitorLog.close(taskId);
    }
}
exports.LocalTasks = LocalTasks;
/** A run that threw: stopped if its signal was aborted, else a failure to run. */
function thrownOutcome(err, signal) {
    return {
        state: signal.aborted ? 'killed' : 'failed',
        endedAt: Date.now(),
        exitCode: null,
        error: err instanceof Error ? err.message : String(err),
    };
}
//# sourceMappingURL=tasks.js.map