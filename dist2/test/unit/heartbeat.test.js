"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: when a tool activity heartbeats (activities/heartbeat.ts): none for a short call, a
// keepalive after firstMs and then every idleMs, at once on progress (which restarts the wait).
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const heartbeat_1 = require("../../src/calls/heartbeat");
/** A virtual clock: advance(ms) fires due timers in order. */
function clock() {
    let now = 0;
    let seq = 0;
    const timers = new Map();
    const t = {
        setTimeout: (fn, ms) => {
            const id = ++seq;
            timers.set(id, { at: now + ms, fn });
            return id;
        },
        clearTimeout: (h) => void timers.delete(h),
    };
    const advance = (ms) => {
        const end = now + ms;
        for (;;) {
            const due = [...timers.entries()].filter(([, x]) => x.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
            if (!due)
                break;
            timers.delete(due[0]);
            now = due[1].at;
            due[1].fn();
        }
        now = end;
    };
    return { t, advance, now: () => now, pending: () => timers.size };
}
(0, node_test_1.test)('unit: a call shorter than firstMs sends no heartbeat', () => {
    const c = clock();
    const sent = [];
    const hb = (0, heartbeat_1.startHeartbeats)(() => sent.push(c.now()), { firstMs: 300, idleMs: 500 }, c.t);
    c.advance(250);
    hb.stop();
    c.advance(10_000);
    strict_1.default.deepEqual(sent, []);
    strict_1.default.equal(c.pending(), 0, 'no timer left behind');
});
(0, node_test_1.test)('unit: a long quiet call sends a keepalive at firstMs, then every idleMs', () => {
    const c = clock();
    const sent = [];
    const hb = (0, heartbeat_1.startHeartbeats)(() => sent.push(c.now()), { firstMs: 300, idleMs: 500 }, c.t);
    c.advance(2_000);
    hb.stop();
    strict_1.default.deepEqual(sent, [300, 800, 1300, 1800]);
});
(0, node_test_1.test)('unit: progress heartbeats at once and restarts the keepalive wait', () => {
    const c = clock();
    const sent = [];
    const hb = (0, heartbeat_1.startHeartbeats)(() => sent.push(c.now()), { firstMs: 300, idleMs: 500 }, c.t);
    c.advance(100);
    hb.progress();
    c.advance(400);
    hb.progress();
    c.advance(600);
    hb.stop();
    hb.progress();
    strict_1.default.deepEqual(sent, [100, 500, 1000], 'progress at 100 and 500, a keepalive 500 ms after the last; nothing after stop');
});
(0, node_test_1.test)('unit: the tool default keeps a cancellation within half a second', () => {
    strict_1.default.ok(heartbeat_1.TOOL_HEARTBEATS.idleMs <= 500);
    strict_1.default.ok(heartbeat_1.TOOL_HEARTBEATS.firstMs <= heartbeat_1.TOOL_HEARTBEATS.idleMs);
});
//# sourceMappingURL=heartbeat.test.js.map