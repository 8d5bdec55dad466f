"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SessionTimers = void 0;
// The session's wait for its own work (issue 19): after the model ended its turn, a session that
// still holds a wake-up, cron jobs or running background tasks (engine/autonomy.ts) sleeps on a
// durable timer — no worker slot held, a worker or server restart changes nothing — until the
// earliest deadline, a task's end, a follow-up or `stop`. What comes due is folded into the state
// and queued as messages for the next turn (each firing once: the timer moves in the same step).
// A firing due while a turn runs waits for the turn to end (the reference queues it the same way).
const workflow_1 = require("@temporalio/workflow");
const autonomy_1 = require("../engine/autonomy");
const waitDetails_1 = require("../engine/waitDetails");
// Deterministic from its input; recorded, so a replay never reads a clock zone.
const cron = (0, workflow_1.proxyLocalActivities)({
    startToCloseTimeout: '30 seconds',
    retry: { initialInterval: '1 second', maximumAttempts: 5 },
});
class SessionTimers {
    state;
    hasWork;
    sync;
    /** `stop` was asked: the loop ends at the next idle point. */
    stopRequested = false;
    /** Bumped when something outside the state's messages changed what the wait waits for (a task ended). */
    changes = 0;
    waitingFor;
    constructor(state, hasWork, 
    /** Before each look at the state: background tasks bring their ends in and start (sessionTasks.ts). */
    sync = () => undefined) {
        this.state = state;
        this.hasWork = hasWork;
        this.sync = sync;
    }
    /** What the session is waiting for now (status, `ls`, the UI), or undefined. */
    waiting() {
        return this.waitingFor;
    }
    /** A wake source outside the timers changed (a task ended, was stopped): the wait looks again. */
    poke() {
        this.changes++;
    }
    requestStop() {
        this.stopRequested = true;
        this.poke();
    }
    /**
     * The engine's `waitForWork`: true once a message is queued for the next turn; false when nothing
     * is left to wait for, or after `stop` (its wake-up and cron jobs dropped).
     */
    async waitForWork() {
        try {
            for (;;) {
                if (this.stopRequested) {
                    this.dropTimers();
                    return false;
                }
                this.sync();
                await this.fireDue();
                if (this.hasWork())
                    return true;
                const a = this.state.context.autonomy;
                if (!(0, autonomy_1.hasPendingWork)(a))
                    return false;
                const until = (0, autonomy_1.nextDeadline)(a);
                this.describe(a, until);
                const seen = this.changes;
                const wake = () => this.hasWork() || this.stopRequested || this.changes !== seen;
                if (until === undefined)
                    await (0, workflow_1.condition)(wake);
                else
                    await (0, workflow_1.condition)(wake, Math.max(1, until - Date.now()));
            }
        }
        finally {
            this.waitingFor = undefined;
            (0, workflow_1.setCurrentDetails)('');
        }
    }
    /** Queues what is due now: the wake-up's prompt, each due job's prompt (recurring jobs move on). */
    async fireDue() {
        const a = this.state.context.autonomy;
        if (!a)
            return;
        const due = (0, autonomy_1.dueFirings)(a, Date.now());
        const next = due.recurring.length > 0 ? await cron.nextCronFires({ jobs: due.recurring }) : {};
        const { autonomy, events } = due.apply(next);
        this.state.pendingMessages.push(...events.map((e) => e.text));
        this.state.context = { ...this.state.context, autonomy };
    }
    dropTimers() {
        const a = this.state.context.autonomy;
        if (!a)
            return;
        const { wakeup: _w, ...rest } = a;
        this.state.context = { ...this.state.context, autonomy: { ...rest, crons: [] } };
    }
    describe(a, until) {
        const running = a?.tasks.filter((t) => t.state === 'running').length ?? 0;
        const parts = [];
        if (a?.wakeup && a.wakeup.at === until)
            parts.push(`wake-up: ${a.wakeup.reason}`);
        const firing = a?.crons.filter((j) => j.nextFireAt === until) ?? [];
        if (firing.length > 0)
            parts.push(`cron ${firing.map((j) => j.id).join(', ')}`);
        if (running > 0)
            parts.push(`${running} background task${running === 1 ? '' : 's'} running`);
        const reason = parts.join('; ') || 'background work';
        this.waitingFor = { ...(until !== undefined ? { until } : {}), reason };
        // The UI's current details: the wait, and each running task (a query answer, not history).
        (0, workflow_1.setCurrentDetails)((0, waitDetails_1.waitDetails)(a, until, reason));
    }
}
exports.SessionTimers = SessionTimers;
//# sourceMappingURL=sessionTimers.js.map