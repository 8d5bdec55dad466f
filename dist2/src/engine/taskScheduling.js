"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.TaskScheduling = void 0;
exports.backgroundTaskRun = backgroundTaskRun;
exports.taskOutcomeOf = taskOutcomeOf;
// The session's background tasks between turns (issue 19), once for both schedulers: the session
// workflow runs each task as its own activity (workflows/sessionTasks.ts), the in-process runner as
// a call of the same core in this process (local/tasks.ts). A tool call records a task in the
// context (a `taskStarted` modifier); after the turn the scheduler starts it — once — and when it
// ends, the task's record gets its end (engine/autonomy.ts `endTask`) and, unless TaskStop or the
// session's end stopped it, its `<task-notification>` is queued for the next turn. A turn that ran
// meanwhile returns its own (stale) context, in which the task still runs: the ends seen since are
// applied again after it. Deterministic: no clock, no I/O; the scheduler's `TaskRunner` does the running.
const autonomy_1 = require("./autonomy");
const taskNotifications_1 = require("./taskNotifications");
class TaskScheduling {
    state;
    runner;
    notification;
    changed;
    /** Tasks this scheduler started (never twice), by id. */
    started = new Map();
    /** Started tasks whose run has not ended. */
    running = new Set();
    /** Ends not yet seen by a turn's context (a turn that ran meanwhile returns its stale context). */
    outcomes = new Map();
    stopping = new Set();
    /**
     * @param notification the text queued for a background command that ended by itself (called only
     *   then, so a workflow may decide its version there)
     * @param changed called after each end (the idle wait looks again)
     */
    constructor(state, runner, notification, changed) {
        this.state = state;
        this.runner = runner;
        this.notification = notification;
        this.changed = changed;
    }
    /** Is any task's run going on? */
    active() {
        return this.running.size > 0;
    }
    /**
     * After a turn (its context is the state's now) and before a turn or a wait: ends recorded while a
     * turn ran are applied again, new tasks start, and tasks TaskStop asked for are stopped.
     */
    sync() {
        const a = this.state.context.autonomy;
        if (!a)
            return;
        let autonomy = a;
        for (const [id, outcome] of this.outcomes)
            autonomy = (0, autonomy_1.endTask)(autonomy, id, outcome, taskNotifications_1.taskNotification).autonomy;
        if (autonomy !== a)
            this.state.context = { ...this.state.context, autonomy };
        for (const task of autonomy.tasks) {
            if (task.state !== 'running')
                continue;
            if (!this.started.has(task.id) && !this.outcomes.has(task.id))
                this.start(task);
            if (task.stopRequested)
                this.stop(task.id);
        }
    }
    /** Before a turn starts: the state's context is whole again, the recorded ends can go. */
    beforeTurn() {
        this.sync();
        this.outcomes.clear();
    }
    /** The session ends: every running task is asked to stop (it ends killed, without a notification). */
    stopAll() {
        for (const id of [...this.running])
            this.stop(id);
    }
    stop(id) {
        if (!this.running.has(id) || this.stopping.has(id))
            return;
        this.stopping.add(id);
        this.runner.stop(id);
    }
    start(task) {
        this.started.set(task.id, task);
        this.running.add(task.id);
        this.runner.start(task, (outcome, notification) => this.ended(task.id, outcome, notification));
    }
    /** The task's run ended: its record ends, and unless it was stopped its notification is queued. */
    ended(id, outcome, notification) {
        if (!this.running.delete(id))
            return;
        const stopped = this.stopping.delete(id);
        const final = stopped ? { ...outcome, state: 'killed' } : outcome;
        this.outcomes.set(id, final);
        const a = this.state.context.autonomy;
        if (a)
            this.state.context = { ...this.state.context, autonomy: (0, autonomy_1.endTask)(a, id, final, taskNotifications_1.taskNotification).autonomy };
        const task = this.started.get(id);
        if (task && final.state !== 'killed') {
            const { command: _c, ...kept } = task;
            const text = notification === undefined ? this.notification({ ...kept, ...final }) : notification;
            if (text)
                this.state.pendingMessages.push(text);
        }
        this.changed();
    }
}
exports.TaskScheduling = TaskScheduling;
/** What a task's run is given besides the session (calls/backgroundTask.ts `RunBackgroundTaskInput`). */
function backgroundTaskRun(task, context) {
    const { cwd, additionalDirectories, projectDir, worktree } = context;
    return {
        task: {
            id: task.id,
            toolUseId: task.toolUseId,
            command: task.command ?? task.description,
            cwd: task.cwd ?? cwd,
            timeoutMs: task.timeoutMs,
            outputPath: task.outputPath ?? '',
            ...(task.unsandboxed ? { unsandboxed: true } : {}),
        },
        context: {
            cwd,
            additionalDirectories,
            ...(projectDir !== undefined ? { projectDir } : {}),
            ...(worktree ? { worktree } : {}),
        },
    };
}
/** What a task's run returns (calls/backgroundTask.ts `RunBackgroundTaskResult`), as the task's end. */
function taskOutcomeOf(r, endedAt) {
    return {
        state: r.state,
        endedAt,
        exitCode: r.exitCode,
        outputBytes: r.outputBytes,
        ...(r.outputRef ? { outputRef: r.outputRef } : {}),
        ...(r.error ? { error: r.error } : {}),
    };
}
//# sourceMappingURL=taskScheduling.js.map