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
// unit: the notification texts of background commands, Monitor and background Agent tasks (element order and XML
// escaping as the reference's, docs/reference-tools.md), and a monitor's stdout as events with the
// reference's limits (engine/monitorLines.ts): line and event lengths, blank lines, the 200 ms batch,
// the unfinished line, the 10-event burst refilled every 2 s, the suppression notice and the stop.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const path = __importStar(require("node:path"));
const taskNotifications_1 = require("../../src/engine/taskNotifications");
const monitorLines_1 = require("../../src/engine/monitorLines");
const monitor_1 = require("../../src/tools/builtin/monitor");
const tools_harness_1 = require("./tools-harness");
function referenceCapture() {
    for (let dir = __dirname;; dir = path.dirname(dir)) {
        const file = path.join(dir, 'test', 'fixtures', 'reference-tools', '2.1.328', 'monitor-events.json');
        if ((0, node_fs_1.existsSync)(file))
            return JSON.parse((0, node_fs_1.readFileSync)(file, 'utf8'));
        if (path.dirname(dir) === dir)
            throw new Error('monitor-events.json not found');
    }
}
const task = {
    id: 'bk3j9x0qa',
    description: 'errors in <build> & "log"',
    toolUseId: 'toolu_01',
    outputPath: '/t/x.output',
};
(0, node_test_1.test)('unit: a monitor event notification: task id, summary, event, escaped', () => {
    strict_1.default.equal((0, taskNotifications_1.monitorEventNotification)(task, 'ERROR: a < b && c > d\nsecond line'), [
        '<system-reminder>',
        taskNotifications_1.MONITOR_EVENT_PREAMBLE,
        '',
        '<task-notification>',
        '<task-id>bk3j9x0qa</task-id>',
        '<summary>Monitor event: "errors in &lt;build&gt; &amp; "log""</summary>',
        '<event>ERROR: a &lt; b &amp;&amp; c &gt; d\nsecond line</event>',
        '</task-notification>',
        '</system-reminder>',
    ].join('\n'));
});
(0, node_test_1.test)('unit: a monitor end notification in the Bash shape, with the reference summaries', () => {
    const end = (e) => (0, taskNotifications_1.monitorEndNotification)(task, e);
    strict_1.default.equal(end({ state: 'completed', exitCode: 0, events: 3 }), [
        '<system-reminder>',
        taskNotifications_1.TASK_END_PREAMBLE,
        '',
        '<task-notification>',
        '<task-id>bk3j9x0qa</task-id>',
        '<tool-use-id>toolu_01</tool-use-id>',
        '<output-file>/t/x.output</output-file>',
        '<status>completed</status>',
        '<summary>Monitor "errors in &lt;build&gt; &amp; "log"" stream ended</summary>',
        '</task-notification>',
        '</system-reminder>',
    ].join('\n'));
    strict_1.default.match(end({ state: 'completed', exitCode: 0, events: 0 }), /<status>completed<\/status>\n<summary>Monitor ".*" ended without producing output \(exit 0\)<\/summary>/);
    strict_1.default.match(end({ state: 'failed', exitCode: 2, events: 1 }), /<status>failed<\/status>\n<summary>Monitor ".*" script failed \(exit 2\)<\/summary>/);
    strict_1.default.match(end({ state: 'failed', exitCode: null, events: 0, error: 'sandbox unavailable' }), /script failed: sandbox unavailable<\/summary>/);
    strict_1.default.match(end({ state: 'killed', events: 0 }), /<status>killed<\/status>\n<summary>Monitor ".*" stopped<\/summary>/);
    strict_1.default.match(end({ state: 'lost', events: 4 }), /<status>failed<\/status>\n<summary>.* was lost: .*not restarted/);
    strict_1.default.doesNotMatch((0, taskNotifications_1.monitorEndNotification)({ ...task, outputPath: undefined }, { state: 'killed', events: 0 }), /output-file/);
});
(0, node_test_1.test)('unit: the expiry notice and durations as the reference writes them', () => {
    strict_1.default.deepEqual([300_000, 3_600_000, 90_000, 1000, 1500, 5_400_000].map(taskNotifications_1.formatDuration), [
        '5m',
        '1h',
        '1m 30s',
        '1s',
        '1.5s',
        '1h 30m',
    ]);
    strict_1.default.equal((0, taskNotifications_1.monitorExpiredText)(300_000, 0), '[Monitor expired after 5m with no events delivered. Re-arm it if you still need the watch, and widen the filter if the silence was unexpected.]');
    strict_1.default.equal((0, taskNotifications_1.monitorExpiredText)(60_000, 1), '[Monitor expired after 1m with 1 event delivered. Re-arm it if you still need the watch.]');
    strict_1.default.match((0, taskNotifications_1.monitorExpiredText)(60_000, 7), /with 7 events delivered/);
});
(0, node_test_1.test)('unit: a background agent notification: note, result and usage after the Bash shape', () => {
    const agent = {
        id: 'a1b2c3d4e5f6a7b8c',
        description: 'Survey <tests>',
        toolUseId: 'toolu_9',
        outputPath: '/t/a.output',
    };
    const text = (0, taskNotifications_1.agentNotification)(agent, {
        state: 'completed',
        result: 'Found 3 flaky tests: a & b <c>',
        totalTokens: 12345,
        toolUses: 7,
        durationMs: 4321.6,
    });
    const lines = text.split('\n');
    strict_1.default.deepEqual(lines.slice(3, 8), [
        '<task-notification>',
        '<task-id>a1b2c3d4e5f6a7b8c</task-id>',
        '<tool-use-id>toolu_9</tool-use-id>',
        '<output-file>/t/a.output</output-file>',
        '<status>completed</status>',
    ]);
    strict_1.default.equal(lines[8], '<summary>Agent "Survey &lt;tests&gt;" finished</summary>');
    strict_1.default.match(lines[9], /^<note>[^<]+<\/note>$/);
    strict_1.default.equal(lines[10], '<result>Found 3 flaky tests: a &amp; b &lt;c&gt;</result>');
    strict_1.default.equal(lines[11], '<usage><subagent_tokens>12345</subagent_tokens><tool_uses>7</tool_uses><duration_ms>4322</duration_ms></usage>');
    strict_1.default.deepEqual(lines.slice(12), ['</task-notification>', '</system-reminder>']);
    const failed = (0, taskNotifications_1.agentNotification)(agent, {
        state: 'failed',
        error: 'model call failed',
        totalTokens: -1,
        toolUses: 0,
        durationMs: NaN,
    });
    strict_1.default.match(failed, /<status>failed<\/status>\n<summary>Agent "Survey &lt;tests&gt;" failed: model call failed<\/summary>\n<usage>/);
    strict_1.default.match(failed, /<subagent_tokens>0<\/subagent_tokens>.*<duration_ms>0<\/duration_ms>/);
    strict_1.default.doesNotMatch(failed, /<note>|<result>/);
    strict_1.default.equal((0, taskNotifications_1.escapeXml)('<a & b>'), '&lt;a &amp; b&gt;');
});
(0, node_test_1.test)('unit: monitor lines: trimmed, blank lines dropped, 500-char lines, 3000-char events, one event per window', () => {
    const m = new monitorLines_1.MonitorLines(0);
    strict_1.default.equal(m.push('  first  \n\n   \nsec'), true, 'the first waiting line asks for a flush');
    strict_1.default.equal(m.push('ond\n'), false, 'lines already wait: the flush is scheduled');
    strict_1.default.deepEqual(m.flush(200), [{ kind: 'event', text: 'first\nsecond' }]);
    strict_1.default.deepEqual(m.flush(300), [], 'nothing waits');
    m.push(`${'x'.repeat(600)}\n`);
    const [long] = m.flush(400);
    strict_1.default.equal(long?.text, `${'x'.repeat(monitorLines_1.MONITOR_LIMITS.lineChars)}...(truncated)`);
    for (let i = 0; i < 10; i++)
        m.push(`${String(i).repeat(400)}\n`);
    const [batch] = m.flush(600);
    strict_1.default.equal(batch?.text.length, monitorLines_1.MONITOR_LIMITS.eventChars + '\n...(truncated)'.length);
    strict_1.default.ok(batch?.text.endsWith('\n...(truncated)'));
    // An unfinished line is delivered at the end of the stream, and kept to its last 1 MiB.
    m.push('no newline at the end');
    strict_1.default.deepEqual(m.flush(800), []);
    strict_1.default.deepEqual(m.flush(1000, true), [{ kind: 'event', text: 'no newline at the end' }]);
    const big = new monitorLines_1.MonitorLines(0);
    big.push('a'.repeat(monitorLines_1.MONITOR_LIMITS.partialLineChars) + 'TAIL');
    const [tail] = big.flush(10, true);
    strict_1.default.ok(tail?.text.startsWith('a'.repeat(monitorLines_1.MONITOR_LIMITS.lineChars)) && tail.text.endsWith('...(truncated)'));
    strict_1.default.equal(m.events(), 4);
});
(0, node_test_1.test)('unit: monitor lines: a burst of 10, then suppressed events, a notice, and the stop after 30 s', () => {
    const m = new monitorLines_1.MonitorLines(0);
    const offer = (at, line = 'tick') => {
        m.push(`${line}\n`);
        return m.flush(at);
    };
    for (let i = 0; i < 10; i++)
        strict_1.default.equal(offer(i * 10)[0]?.kind, 'event', `event ${i} of the burst`);
    strict_1.default.deepEqual(offer(150), [], 'the 11th is suppressed');
    strict_1.default.deepEqual(offer(160), []);
    // One token back after 2 s: the notice of the 2 suppressed events, then the event.
    const back = offer(2000, 'again');
    strict_1.default.equal(back.length, 2);
    strict_1.default.equal(back[0]?.kind, 'notice');
    strict_1.default.match(back[0].text, /^\[2 events suppressed: output rate too high\./);
    strict_1.default.deepEqual(back[1], { kind: 'event', text: 'again' });
    strict_1.default.equal(m.events(), 11);
    // Flooding: every 500 ms an event; one in four passes; suppression never ends (no quiet 6 s, never a full
    // bucket) ... until a refill; the stop comes when one suppressed run has lasted over 30 s.
    const flood = new monitorLines_1.MonitorLines(0);
    let stop;
    let t = 0;
    for (; t < 60_000 && !stop; t += 100) {
        flood.push('x\n');
        for (const e of flood.flush(t))
            if (e.kind === 'stop')
                stop = e.text;
    }
    strict_1.default.ok(stop, 'a flood is stopped');
    strict_1.default.equal(flood.isStopped(), true);
    strict_1.default.match(stop, /^\[Monitor stopped: too much output \(\d+ events suppressed over 3\ds\)\./);
    strict_1.default.deepEqual((flood.push('more\n'), flood.flush(t + 5000)), [], 'nothing after the stop');
    // A quiet spell of more than 6 s ends a suppressed run: no stop for bursts spread out in time.
    const bursts = new monitorLines_1.MonitorLines(0);
    for (let round = 0; round < 10; round++)
        for (let i = 0; i < 15; i++) {
            bursts.push('y\n');
            for (const e of bursts.flush(round * 20_000 + i))
                strict_1.default.notEqual(e.kind, 'stop');
        }
    strict_1.default.equal(bursts.isStopped(), false);
});
(0, node_test_1.test)("unit: the same output gives the reference's texts (captured from 2.1.328: monitor-events.json)", async () => {
    const ref = referenceCapture();
    const ours = (text, preamble) => text.replace(preamble, '$PREAMBLE').replace(/(<task-id>)b[a-z0-9]{8}/, '$1$TASK_ID');
    // The tool result's first sentence.
    const s = new tools_harness_1.ToolSession('/tmp');
    const r = await s.run(monitor_1.MonitorTool, { description: 'watch <lines> & more', timeout_ms: 60_000, command: ref.command }, { backgroundTasks: true });
    const first = r.text.slice(0, r.text.indexOf('). ') + 2).replace(/\(task b[a-z0-9]{8}/, '(task $TASK_ID');
    strict_1.default.equal(`[tool_result] ${first} $GUIDANCE`, ref.seen[0]);
    // 12 lines written at once: one event; then the 600-character line: one truncated event.
    const task = { id: 'bxxxxxxxx', description: 'watch <lines> & more' };
    const m = new monitorLines_1.MonitorLines(0);
    m.push(Array.from({ length: 12 }, (_, i) => `batch ${i + 1}\n`).join(''));
    const [batch] = m.flush(200);
    strict_1.default.equal(ours((0, taskNotifications_1.monitorEventNotification)(task, batch.text), taskNotifications_1.MONITOR_EVENT_PREAMBLE), ref.seen[1]);
    m.push(`${'L'.repeat(600)}\n`);
    const [long] = m.flush(1000);
    strict_1.default.equal(ours((0, taskNotifications_1.monitorEventNotification)(task, long.text), taskNotifications_1.MONITOR_EVENT_PREAMBLE), ref.seen[2]);
    // The end: the Bash shape, with the last line that came with the exit as its event.
    const end = (0, taskNotifications_1.monitorEndNotification)({ ...task, toolUseId: 'toolu_monitor', outputPath: '$OUTPUT_FILE' }, { state: 'completed', exitCode: 0, events: 12, lastEvent: 'last' });
    strict_1.default.equal(ours(end, taskNotifications_1.TASK_END_PREAMBLE), ref.seen[ref.seen.length - 1]);
    // Every event the reference sent in between is an event notification of lines of the burst.
    for (const t of ref.seen.slice(3, -1))
        strict_1.default.match(t, /<event>burst \d+(\nburst \d+)*<\/event>/);
});
(0, node_test_1.test)("unit: a background command's end has the same wrapper as the reference's task end (the captured monitor end)", () => {
    const ref = referenceCapture().seen.at(-1);
    const bash = (0, taskNotifications_1.taskNotification)({
        id: 'bxxxxxxxx',
        toolUseId: 'toolu_monitor',
        outputPath: '$OUTPUT_FILE',
        description: 'watch <lines> & more',
        state: 'completed',
        exitCode: 0,
        timeoutMs: 1000,
    });
    // The reference's Monitor end is the Bash shape plus an <event>: the same lines up to the summary.
    const expected = ref
        .replace(/<summary>.*<\/summary>/, '<summary>Background command "watch &lt;lines&gt; &amp; more" completed (exit code 0)</summary>')
        .replace('\n<event>last</event>', '');
    strict_1.default.equal(bash.replace(taskNotifications_1.TASK_END_PREAMBLE, '$PREAMBLE').replace('bxxxxxxxx', '$TASK_ID'), expected);
});
//# sourceMappingURL=engine-task-notifications.test.js.map