"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: a Monitor's run (src/calls/monitorTask.ts) on real processes — stdout lines become numbered
// batches (seq 1, 2, … in order, each once, delivered one after another even when delivery is slow or
// fails once), a line over 500 characters is cut, stderr goes only to the output file, the lines that
// come with the exit are the end's `lastEvent`; the rate limit suppresses events over the bucket and
// its stop kills the command; the timeout ends it `timed_out` (the expiry notice); an abort (TaskStop)
// kills the process group. And the session's side (engine/monitorTasks.ts): each (task, seq) is kept once.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const path = __importStar(require("node:path"));
const monitorTask_1 = require("../../src/calls/monitorTask");
const monitorTasks_1 = require("../../src/engine/monitorTasks");
const context_1 = require("../../src/engine/context");
const tools_harness_1 = require("./tools-harness");
let dir;
(0, node_test_1.before)(async () => {
    dir = await (0, tools_harness_1.makeTmpDir)('monitor-task-');
});
(0, node_test_1.after)(() => (0, tools_harness_1.removeDir)(dir));
function alive(pid) {
    try {
        process.kill(pid, 0);
        return true;
    }
    catch {
        return false;
    }
}
/** Runs a watch in `dir` and collects what was delivered. */
async function watch(command, opts = {}) {
    const batches = [];
    const out = path.join(dir, `task-${Math.random().toString(36).slice(2)}.output`);
    const ctx = (0, tools_harness_1.makeContext)((0, context_1.initialContext)(dir), opts.signal);
    const result = await (0, monitorTask_1.watchMonitorCommand)({ command, timeoutMs: opts.timeoutMs ?? 20_000, outputPath: out }, ctx, {
        taskId: 'btest0001',
        deliver: async (b) => {
            if (opts.deliver)
                await opts.deliver(b);
            batches.push(b);
        },
        ...(opts.limits ? { limits: opts.limits } : {}),
    });
    return { result, batches, output: await node_fs_1.promises.readFile(out, 'utf8') };
}
const linesOf = (batches) => batches.filter((b) => b.kind === 'event').flatMap((b) => b.text.split('\n'));
(0, node_test_1.test)('unit: monitor run: stdout lines in numbered batches, in order, each once; a long line cut at 500; stderr only in the file', async () => {
    let slow = true;
    let failedOnce = false;
    const { result, batches, output } = await watch([
        'echo a; echo b',
        'sleep 0.6',
        "printf 'L%.0s' $(seq 1 600); echo",
        'sleep 0.6',
        'echo "  spaced  "; echo; echo err >&2',
        'sleep 0.6',
        'echo last',
    ].join('; '), {
        // Slow, and failing once: the next batch still waits for this one, and the retry brings it.
        deliver: async (b) => {
            if (b.seq === 1 && !failedOnce) {
                failedOnce = true;
                throw new Error('transient');
            }
            if (slow)
                await new Promise((r) => setTimeout(r, 300));
            slow = false;
        },
    });
    strict_1.default.equal(result.state, 'completed');
    strict_1.default.equal(result.exitCode, 0);
    strict_1.default.deepEqual(batches.map((b) => b.seq), batches.map((_, i) => i + 1), 'seq 1..n, delivered in order');
    strict_1.default.equal(result.lastSeq, batches.length);
    strict_1.default.ok(batches.every((b) => b.kind === 'event' && b.taskId === 'btest0001'));
    // Every line once, in order: the delivered batches, then the lines that came with the exit.
    const all = [...linesOf(batches), ...(result.lastEvent ? result.lastEvent.split('\n') : [])];
    strict_1.default.deepEqual(all, ['a', 'b', `${'L'.repeat(500)}...(truncated)`, 'spaced', 'last']);
    strict_1.default.equal(result.events, batches.length + (result.lastEvent ? 1 : 0));
    strict_1.default.ok(!all.includes('err'), 'stderr is not an event');
    // stdout passes through the worker, stderr does not: their order in the file may differ.
    strict_1.default.ok(output.includes('err\n'), 'the file has stderr');
    strict_1.default.equal(output.replace('err\n', ''), `a\nb\n${'L'.repeat(600)}\n  spaced  \n\nlast\n`, 'and stdout');
    strict_1.default.equal(result.outputBytes, Buffer.byteLength(output));
});
(0, node_test_1.test)('unit: monitor run: a failing command, one without output, and the end texts', async () => {
    const failed = await watch('echo only; exit 3');
    strict_1.default.equal(failed.result.state, 'failed');
    strict_1.default.equal(failed.result.exitCode, 3);
    const task = { id: 'btest0001', description: 'w', toolUseId: 'toolu_m', outputPath: '/o', timeoutMs: 5000 };
    strict_1.default.match((0, monitorTasks_1.monitorEndText)(task, failed.result) ?? '', /<status>failed<\/status>\n<summary>Monitor "w" script failed \(exit 3\)<\/summary>/);
    const silent = await watch('echo to-stderr >&2');
    strict_1.default.equal(silent.result.state, 'completed');
    strict_1.default.equal(silent.result.events, 0);
    strict_1.default.deepEqual(silent.batches, []);
    strict_1.default.match((0, monitorTasks_1.monitorEndText)(task, silent.result) ?? '', /Monitor "w" ended without producing output \(exit 0\)/);
});
(0, node_test_1.test)('unit: monitor run: over the bucket events are suppressed; the rate limit stop kills the command', async () => {
    // A bucket of 3 that never refills: of 8 lines 200 ms apart, at most 3 events reach the session.
    const limited = await watch('for i in 1 2 3 4 5 6 7 8; do echo "n $i"; sleep 0.2; done', {
        limits: { burst: 3, refillMs: 1e9, batchWindowMs: 50, stopAfterSuppressedMs: 1e9 },
    });
    strict_1.default.equal(limited.result.state, 'completed');
    const events = limited.batches.filter((b) => b.kind === 'event');
    strict_1.default.ok(events.length >= 1 && events.length <= 3, `${events.length} events`);
    strict_1.default.equal(limited.result.events, events.length, 'nothing more came with the exit (suppressed)');
    const seen = linesOf(limited.batches);
    strict_1.default.deepEqual(seen, ['n 1', 'n 2', 'n 3', 'n 4', 'n 5', 'n 6', 'n 7', 'n 8'].slice(0, seen.length));
    strict_1.default.ok(seen.length < 8, 'later lines were suppressed');
    strict_1.default.match(limited.output, /n 8\n$/, 'the file has every line');
    // Suppressed for over 300 ms: the stop notice is the last batch and the flood is killed.
    const flood = await watch('echo $$ > flood.pid; while :; do echo x; sleep 0.02; done', {
        timeoutMs: 30_000,
        limits: { burst: 2, refillMs: 1e9, batchWindowMs: 50, stopAfterSuppressedMs: 300 },
    });
    strict_1.default.equal(flood.result.state, 'killed');
    strict_1.default.equal(flood.result.rateStopped, true);
    const last = flood.batches[flood.batches.length - 1];
    strict_1.default.equal(last?.kind, 'stop');
    strict_1.default.match(last?.text ?? '', /^\[Monitor stopped: too much output/);
    const pid = Number((await node_fs_1.promises.readFile(path.join(dir, 'flood.pid'), 'utf8')).trim());
    strict_1.default.equal(alive(pid), false, 'the flood is gone');
    strict_1.default.equal((0, monitorTasks_1.monitorEndText)({ id: 'b', description: 'd', toolUseId: 't', timeoutMs: 1 }, flood.result), null);
});
(0, node_test_1.test)('unit: monitor run: the timeout ends it timed_out (the expiry notice); an abort kills the process group', async () => {
    const expired = await watch('echo one; sleep 30', { timeoutMs: 1500 });
    strict_1.default.equal(expired.result.state, 'timed_out');
    strict_1.default.equal(expired.result.lastEvent, undefined);
    const note = (0, monitorTasks_1.monitorEndText)({ id: 'b1', description: 'd', toolUseId: 't', timeoutMs: 1500 }, expired.result);
    strict_1.default.match(note ?? '', /<event>\[Monitor expired after 1\.5s with 1 event delivered\./);
    const ac = new AbortController();
    const pidFile = path.join(dir, 'stop.pid');
    const running = watch('echo $$ > stop.pid; echo started; sleep 30', { signal: ac.signal });
    while (!(await node_fs_1.promises.stat(pidFile).catch(() => undefined))?.size)
        await new Promise((r) => setTimeout(r, 50));
    const pid = Number((await node_fs_1.promises.readFile(pidFile, 'utf8')).trim());
    ac.abort();
    const stopped = await running;
    strict_1.default.equal(stopped.result.state, 'killed');
    strict_1.default.equal(stopped.result.rateStopped, undefined);
    strict_1.default.equal(alive(pid), false, 'the process group is gone');
});
(0, node_test_1.test)('unit: the session keeps each (task, seq) once; nothing after the task ended', () => {
    const log = new monitorTasks_1.MonitorEventLog();
    const b = (taskId, seq) => ({ taskId, seq });
    strict_1.default.equal(log.accept(b('t1', 1)), true);
    strict_1.default.equal(log.accept(b('t1', 1)), false, 'a doubled delivery');
    strict_1.default.equal(log.accept(b('t1', 2)), true);
    strict_1.default.equal(log.accept(b('t2', 1)), true, 'another task has its own seqs');
    strict_1.default.equal(log.accept(b('t1', 2)), false);
    strict_1.default.equal(log.accept(b('t1', 4)), true, 'a batch given up leaves a gap');
    strict_1.default.equal(log.accept(b('t1', 3)), false, 'never out of order');
    strict_1.default.equal(log.accept(b('t1', 1.5)), false);
    log.close('t1');
    strict_1.default.equal(log.accept(b('t1', 5)), false, 'closed');
});
//# sourceMappingURL=monitor-task.test.js.map