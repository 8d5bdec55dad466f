"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MonitorEventLog = void 0;
exports.monitorBatchText = monitorBatchText;
exports.monitorEndText = monitorEndText;
const taskNotifications_1 = require("./taskNotifications");
/** Keeps each (task, seq) once: a batch at or below the last accepted seq of its task is a duplicate. */
class MonitorEventLog {
    last = new Map();
    accept(batch) {
        if (!Number.isInteger(batch.seq) || batch.seq <= (this.last.get(batch.taskId) ?? 0))
            return false;
        this.last.set(batch.taskId, batch.seq);
        return true;
    }
    /** The task ended: nothing more is taken for it. */
    close(taskId) {
        this.last.set(taskId, Number.POSITIVE_INFINITY);
    }
}
exports.MonitorEventLog = MonitorEventLog;
/** The notification of one batch (events and notices alike reach the model as a monitor event). */
function monitorBatchText(task, batch) {
    return (0, taskNotifications_1.monitorEventNotification)(task, batch.text);
}
/** What the model is told when a monitor's run ends; null: nothing (stopped, or the rate limit's notice said it). */
function monitorEndText(task, end) {
    if (end.state === 'killed')
        return null;
    if (end.state === 'timed_out')
        return (0, taskNotifications_1.monitorEventNotification)(task, (0, taskNotifications_1.monitorExpiredText)(task.timeoutMs, end.events));
    const body = end.state === 'lost'
        ? { state: 'lost', events: end.events ?? 0, ...(end.error ? { error: end.error } : {}) }
        : {
            state: end.state,
            exitCode: end.exitCode,
            events: end.events,
            ...(end.error ? { error: end.error } : {}),
            ...(end.lastEvent ? { lastEvent: end.lastEvent } : {}),
        };
    return (0, taskNotifications_1.monitorEndNotification)(task, body);
}
//# sourceMappingURL=monitorTasks.js.map