"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.LocalTimers = exports.realClock = void 0;
// The in-process runner's wait for a session's own work (issue 19), the same decisions as the
// session workflow's (src/workflows/sessionTimers.ts, engine/autonomy.ts) on Node timers: sleeps
// until the earliest wake-up or cron firing, a follow-up, a poke (a background task ended) or stop;
// queues what is due once. The process is the limit here: a wait dies with it (the durable runner's does not).
//
// Background tasks (src/local/tasks.ts) plug in as in the workflow: `sync` starts the tasks the last
// turn recorded (and stops those TaskStop asked for) before each look, and a task's end queues its
// notification and pokes the wait.
const autonomy_1 = require("../engine/autonomy");
const schedule_1 = require("../activities/schedule");
const schedule = (0, schedule_1.createScheduleActivities)();
exports.realClock = {
    now: () => Date.now(),
    timer(ms, fire) {
        const t = setTimeout(fire, ms);
        return () => clearTimeout(t);
    },
};
class LocalTimers {
    state;
    clock;
    sync;
    stopRequested = false;
    wake;
    constructor(state, clock = exports.realClock, 
    /** Before each look: the session's background tasks catch up with its context (LocalTasks). */
    sync = () => undefined) {
        this.state = state;
        this.clock = clock;
        this.sync = sync;
    }
    /** Something the wait waits for changed (a message came, a task ended): look again. */
    poke() {
        this.wake?.();
    }
    requestStop() {
        this.stopRequested = true;
        this.poke();
    }
    /** The engine's `waitForWork` (see SessionExecutor). */
    async waitForWork() {
        for (;;) {
            if (this.stopRequested) {
                const a = this.state.context.autonomy;
                if (a)
                    this.state.context = { ...this.state.context, autonomy: { tasks: a.tasks, crons: [] } };
                return false;
            }
            this.sync();
            await this.fireDue();
            if (this.state.pendingMessages.length > 0)
                return true;
            const a = this.state.context.autonomy;
            if (!(0, autonomy_1.hasPendingWork)(a))
                return false;
            const until = (0, autonomy_1.nextDeadline)(a);
            await new Promise((resolve) => {
                const cancel = until === undefined ? undefined : this.clock.timer(Math.max(1, until - this.clock.now()), resolve);
                this.wake = () => {
                    cancel?.();
                    resolve();
                };
            });
            this.wake = undefined;
        }
    }
    async fireDue() {
        const a = this.state.context.autonomy;
        if (!a)
            return;
        const due = (0, autonomy_1.dueFirings)(a, this.clock.now());
        const next = due.recurring.length > 0 ? await schedule.nextCronFires({ jobs: due.recurring }) : {};
        const { autonomy, events } = due.apply(next);
        this.state.pendingMessages.push(...events.map((e) => e.text));
        this.state.context = { ...this.state.context, autonomy };
    }
}
exports.LocalTimers = LocalTimers;
//# sourceMappingURL=timers.js.map