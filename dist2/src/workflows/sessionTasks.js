"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SessionTasks = void 0;
// The session's background tasks (issue 19): a tool call records a task in the context (Bash
// `run_in_background`: a `taskStarted` modifier); after the turn, the session starts it as its own
// long-lived activity `task-<id>` (runBackgroundTask) on the tool task queue — heartbeating, one
// attempt only (a non-idempotent command is never re-run behind the model's back), up to its
// timeout. When it ends, the task's record gets its end (engine/autonomy.ts `endTask`) and its
// `<task-notification>` is queued for the next turn: an idle session wakes for it (the timers'
// wait is poked), a running turn sees it at the next model request (the next turn's messages).
// A heartbeat that stops (the worker died) makes the task `lost`, with a notification saying it was
// not re-run; the worker's guardian has killed its processes. TaskStop (`taskStopRequested`)
// cancels the activity (the process group is killed) and the task ends `killed` without one. No
// continue-as-new while a task's activity runs: activities do not cross it. A Monitor task runs
// `runMonitorTask` instead, its events and end texts handled by SessionMonitors (sessionMonitors.ts).
// The decisions (start once, stop, the end and its notification) are engine/taskScheduling.ts, shared
// with the in-process runner (src/local/tasks.ts); this file runs them as activities.
const workflow_1 = require("@temporalio/workflow");
const taskScheduling_1 = require("../engine/taskScheduling");
const taskNotifications_1 = require("../engine/taskNotifications");
const ids_1 = require("../engine/ids");
const messages_1 = require("../engine/messages");
const sessionAgentTasks_1 = require("./sessionAgentTasks");
const definitions_1 = require("./definitions");
const sessionMonitors_1 = require("./sessionMonitors");
/** Beyond the task's own timeout (which the activity enforces by killing it): time to stop and store. */
const STOP_MARGIN_MS = 5 * 60_000;
const DEFAULT_HEARTBEAT_TIMEOUT_MS = 30_000;
class SessionTasks {
    state;
    input;
    toolSession;
    /** Running activities, by task id. */
    scopes = new Map();
    /** The decisions (start once, stop, the end and its notification): the engine's, shared with the in-process runner. */
    book;
    /** Monitor tasks' events (sessionMonitors.ts). */
    monitors;
    constructor(state, input, toolSession, changed) {
        this.state = state;
        this.input = input;
        this.toolSession = toolSession;
        this.monitors = new sessionMonitors_1.SessionMonitors(state, changed);
        this.book = new taskScheduling_1.TaskScheduling(state, {
            start: (task, ended) => this.start(task, ended),
            stop: (id) => {
                this.monitors.stopped(id);
                this.scopes.get(id)?.cancel();
            },
        }, 
        // The text a session recorded before the patch had no blank line after the preamble.
        (task) => ((0, workflow_1.patched)(definitions_1.TASK_NOTIFICATION_TEXT_PATCH) ? taskNotifications_1.taskNotification : taskNotifications_1.taskNotificationBeforeTextPatch)(task), changed);
    }
    /** Is any task's activity running? (No continue-as-new then.) */
    active() {
        return this.book.active();
    }
    /**
     * After a turn (its context is the state's now) and before a turn or a wait: ends recorded while a
     * turn ran are applied again, new tasks start, and tasks TaskStop asked for are cancelled.
     */
    sync() {
        this.book.sync();
    }
    /** Before a turn starts: the state's context is whole again, the recorded ends can go. */
    beforeTurn() {
        this.book.beforeTurn();
    }
    /** The session ends: every running task is stopped (killed, no notification) and awaited. */
    async stopAll() {
        if (!this.book.active())
            return;
        this.book.stopAll();
        await (0, workflow_1.condition)(() => !this.book.active());
    }
    start(task, ended) {
        if (task.kind === 'local_agent')
            return this.startAgent(task, ended);
        // A history recorded before it had no task to start (Bash refused run_in_background).
        (0, workflow_1.patched)(definitions_1.BACKGROUND_TASKS_PATCH);
        const input = this.input;
        const options = {
            activityId: ids_1.activityIds.task(task.id),
            summary: `${task.kind === 'monitor' ? 'Monitor' : 'Background task'} ${task.id}: ${(0, messages_1.oneLinePreview)(task.description, 80)}`,
            startToCloseTimeout: task.timeoutMs + STOP_MARGIN_MS,
            heartbeatTimeout: input.toolHeartbeatTimeoutMs ?? DEFAULT_HEARTBEAT_TIMEOUT_MS,
            retry: { maximumAttempts: 1 },
            cancellationType: 'WAIT_CANCELLATION_COMPLETED',
            ...(input.toolTaskQueue ? { taskQueue: input.toolTaskQueue } : {}),
        };
        const scope = new workflow_1.CancellationScope();
        this.scopes.set(task.id, scope);
        const taskInput = {
            session: this.toolSession(),
            ...(0, taskScheduling_1.backgroundTaskRun)(task, this.state.context),
        };
        const end = (outcome, notification) => {
            this.scopes.delete(task.id);
            ended(outcome, notification);
        };
        // A Monitor's watch (sessionMonitors.ts); a history recorded before held no monitor task.
        if (task.kind === 'monitor' && (0, workflow_1.patched)(definitions_1.MONITOR_TASKS_PATCH)) {
            void this.monitors
                .run(task, scope, options, taskInput, failureOutcome)
                .then((e) => end(e.outcome, e.notification));
            return;
        }
        const act = (0, workflow_1.proxyActivities)(options);
        const run = scope.run(() => act.runBackgroundTask(taskInput));
        void run.then((r) => end((0, taskScheduling_1.taskOutcomeOf)(r, Date.now())), (err) => end(failureOutcome(err, Date.now())));
    }
    /** A background agent (sessionAgentTasks.ts): the wait for its child session is the task's activity. */
    startAgent(task, ended) {
        // A history recorded before it had no agent task (every Agent call ran in the foreground).
        (0, workflow_1.patched)(definitions_1.BACKGROUND_AGENTS_PATCH);
        const scope = new workflow_1.CancellationScope();
        this.scopes.set(task.id, scope);
        void (0, sessionAgentTasks_1.runAgentTask)(task, this.input, scope).then((end) => {
            this.scopes.delete(task.id);
            ended(end.outcome, end.notification);
        });
    }
}
exports.SessionTasks = SessionTasks;
/** The activity failed: cancelled (stopped), timed out (the worker was lost), or could not run. */
function failureOutcome(err, endedAt) {
    if ((0, workflow_1.isCancellation)(err))
        return { state: 'killed', endedAt, exitCode: null };
    const cause = err instanceof workflow_1.ActivityFailure ? err.cause : err;
    if (cause instanceof workflow_1.TimeoutFailure)
        return {
            state: 'lost',
            endedAt,
            exitCode: null,
            error: `its worker stopped answering (${cause.timeoutType ?? 'timeout'}); the task was not re-run`,
        };
    const message = cause instanceof workflow_1.ApplicationFailure || cause instanceof Error ? cause.message : String(cause);
    return { state: 'failed', endedAt, exitCode: null, error: message };
}
//# sourceMappingURL=sessionTasks.js.map