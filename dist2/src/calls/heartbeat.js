"use strict";
// When a tool activity heartbeats. A heartbeat is an RPC and a write of the activity's state on
// the server, and the only way a cancellation (an interrupt) reaches a running activity: its
// answer says "cancel requested". So: a heartbeat right away when the tool reports progress (the
// worker's throttle coalesces bursts), and otherwise a keepalive only once the call has run for
// `firstMs` and then every `idleMs` — a Read that takes 20 ms sends none, a 30 s Bash two a second.
// Measured effect: BENCHMARKS.md ("Heartbeats").
Object.defineProperty(exports, "__esModule", { value: true });
exports.TOOL_HEARTBEATS = void 0;
exports.startHeartbeats = startHeartbeats;
exports.TOOL_HEARTBEATS = { firstMs: 300, idleMs: 500 };
const realTimers = {
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (h) => clearTimeout(h),
};
/** Starts the keepalive schedule; `send` heartbeats with the caller's current details. */
function startHeartbeats(send, policy = exports.TOOL_HEARTBEATS, timers = realTimers) {
    let stopped = false;
    let timer;
    const arm = (ms) => {
        if (timer !== undefined)
            timers.clearTimeout(timer);
        timer = timers.setTimeout(beat, ms);
    };
    function beat() {
        if (stopped)
            return;
        send();
        arm(policy.idleMs);
    }
    arm(policy.firstMs);
    return {
        progress: beat,
        stop() {
            stopped = true;
            if (timer !== undefined)
                timers.clearTimeout(timer);
        },
    };
}
//# sourceMappingURL=heartbeat.js.map