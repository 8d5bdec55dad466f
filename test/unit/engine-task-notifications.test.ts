// unit: the notification texts of background commands, Monitor and background Agent tasks (element order and XML
// escaping as the reference's, docs/reference-tools.md), and a monitor's stdout as events with the
// reference's limits (tasks/core/monitorLines.ts): line and event lengths, blank lines, the 200 ms batch,
// the unfinished line, the 10-event burst refilled every 2 s, the suppression notice and the stop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  agentNotification,
  escapeXml,
  formatDuration,
  monitorEndNotification,
  monitorEventNotification,
  monitorExpiredText,
  MONITOR_EVENT_PREAMBLE,
  TASK_END_PREAMBLE,
  taskNotification,
} from '../../src/tasks/core/taskNotifications';
import { MONITOR_LIMITS, MonitorLines } from '../../src/tasks/core/monitorLines';
import { MonitorTool } from '../../src/tools/monitor';
import { ToolSession } from './tools-harness';

function referenceCapture(): { command: string; seen: string[] } {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'test', 'fixtures', 'reference-tools', '2.1.328', 'monitor-events.json');
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as { command: string; seen: string[] };
    if (path.dirname(dir) === dir) throw new Error('monitor-events.json not found');
  }
}

const task = {
  id: 'bk3j9x0qa',
  description: 'errors in <build> & "log"',
  toolUseId: 'toolu_01',
  outputPath: '/t/x.output',
};

test('unit: a monitor event notification: task id, summary, event, escaped', () => {
  assert.equal(
    monitorEventNotification(task, 'ERROR: a < b && c > d\nsecond line'),
    [
      '<system-reminder>',
      MONITOR_EVENT_PREAMBLE,
      '',
      '<task-notification>',
      '<task-id>bk3j9x0qa</task-id>',
      '<summary>Monitor event: "errors in &lt;build&gt; &amp; "log""</summary>',
      '<event>ERROR: a &lt; b &amp;&amp; c &gt; d\nsecond line</event>',
      '</task-notification>',
      '</system-reminder>',
    ].join('\n'),
  );
});

test('unit: a monitor end notification in the Bash shape, with the reference summaries', () => {
  const end = (e: Parameters<typeof monitorEndNotification>[1]) => monitorEndNotification(task, e);
  assert.equal(
    end({ state: 'completed', exitCode: 0, events: 3 }),
    [
      '<system-reminder>',
      TASK_END_PREAMBLE,
      '',
      '<task-notification>',
      '<task-id>bk3j9x0qa</task-id>',
      '<tool-use-id>toolu_01</tool-use-id>',
      '<output-file>/t/x.output</output-file>',
      '<status>completed</status>',
      '<summary>Monitor "errors in &lt;build&gt; &amp; "log"" stream ended</summary>',
      '</task-notification>',
      '</system-reminder>',
    ].join('\n'),
  );
  assert.match(
    end({ state: 'completed', exitCode: 0, events: 0 }),
    /<status>completed<\/status>\n<summary>Monitor ".*" ended without producing output \(exit 0\)<\/summary>/,
  );
  assert.match(
    end({ state: 'failed', exitCode: 2, events: 1 }),
    /<status>failed<\/status>\n<summary>Monitor ".*" script failed \(exit 2\)<\/summary>/,
  );
  assert.match(
    end({ state: 'failed', exitCode: null, events: 0, error: 'sandbox unavailable' }),
    /script failed: sandbox unavailable<\/summary>/,
  );
  assert.match(
    end({ state: 'killed', events: 0 }),
    /<status>killed<\/status>\n<summary>Monitor ".*" stopped<\/summary>/,
  );
  assert.match(end({ state: 'lost', events: 4 }), /<status>failed<\/status>\n<summary>.* was lost: .*not restarted/);
  assert.doesNotMatch(
    monitorEndNotification({ ...task, outputPath: undefined }, { state: 'killed', events: 0 }),
    /output-file/,
  );
});

test('unit: the expiry notice and durations as the reference writes them', () => {
  assert.deepEqual([300_000, 3_600_000, 90_000, 1000, 1500, 5_400_000].map(formatDuration), [
    '5m',
    '1h',
    '1m 30s',
    '1s',
    '1.5s',
    '1h 30m',
  ]);
  assert.equal(
    monitorExpiredText(300_000, 0),
    '[Monitor expired after 5m with no events delivered. Re-arm it if you still need the watch, and widen the filter if the silence was unexpected.]',
  );
  assert.equal(
    monitorExpiredText(60_000, 1),
    '[Monitor expired after 1m with 1 event delivered. Re-arm it if you still need the watch.]',
  );
  assert.match(monitorExpiredText(60_000, 7), /with 7 events delivered/);
});

test('unit: a background agent notification: note, result and usage after the Bash shape', () => {
  const agent = {
    id: 'a1b2c3d4e5f6a7b8c',
    description: 'Survey <tests>',
    toolUseId: 'toolu_9',
    outputPath: '/t/a.output',
  };
  const text = agentNotification(agent, {
    state: 'completed',
    result: 'Found 3 flaky tests: a & b <c>',
    totalTokens: 12345,
    toolUses: 7,
    durationMs: 4321.6,
  });
  const lines = text.split('\n');
  assert.deepEqual(lines.slice(3, 8), [
    '<task-notification>',
    '<task-id>a1b2c3d4e5f6a7b8c</task-id>',
    '<tool-use-id>toolu_9</tool-use-id>',
    '<output-file>/t/a.output</output-file>',
    '<status>completed</status>',
  ]);
  assert.equal(lines[8], '<summary>Agent "Survey &lt;tests&gt;" finished</summary>');
  assert.match(lines[9]!, /^<note>[^<]+<\/note>$/);
  assert.equal(lines[10], '<result>Found 3 flaky tests: a &amp; b &lt;c&gt;</result>');
  assert.equal(
    lines[11],
    '<usage><subagent_tokens>12345</subagent_tokens><tool_uses>7</tool_uses><duration_ms>4322</duration_ms></usage>',
  );
  assert.deepEqual(lines.slice(12), ['</task-notification>', '</system-reminder>']);
  const failed = agentNotification(agent, {
    state: 'failed',
    error: 'model call failed',
    totalTokens: -1,
    toolUses: 0,
    durationMs: NaN,
  });
  assert.match(
    failed,
    /<status>failed<\/status>\n<summary>Agent "Survey &lt;tests&gt;" failed: model call failed<\/summary>\n<usage>/,
  );
  assert.match(failed, /<subagent_tokens>0<\/subagent_tokens>.*<duration_ms>0<\/duration_ms>/);
  assert.doesNotMatch(failed, /<note>|<result>/);
  assert.equal(escapeXml('<a & b>'), '&lt;a &amp; b&gt;');
});

test('unit: monitor lines: trimmed, blank lines dropped, 500-char lines, 3000-char events, one event per window', () => {
  const m = new MonitorLines(0);
  assert.equal(m.push('  first  \n\n   \nsec'), true, 'the first waiting line asks for a flush');
  assert.equal(m.push('ond\n'), false, 'lines already wait: the flush is scheduled');
  assert.deepEqual(m.flush(200), [{ kind: 'event', text: 'first\nsecond' }]);
  assert.deepEqual(m.flush(300), [], 'nothing waits');
  m.push(`${'x'.repeat(600)}\n`);
  const [long] = m.flush(400);
  assert.equal(long?.text, `${'x'.repeat(MONITOR_LIMITS.lineChars)}...(truncated)`);
  for (let i = 0; i < 10; i++) m.push(`${String(i).repeat(400)}\n`);
  const [batch] = m.flush(600);
  assert.equal(batch?.text.length, MONITOR_LIMITS.eventChars + '\n...(truncated)'.length);
  assert.ok(batch?.text.endsWith('\n...(truncated)'));
  // An unfinished line is delivered at the end of the stream, and kept to its last 1 MiB.
  m.push('no newline at the end');
  assert.deepEqual(m.flush(800), []);
  assert.deepEqual(m.flush(1000, true), [{ kind: 'event', text: 'no newline at the end' }]);
  const big = new MonitorLines(0);
  big.push('a'.repeat(MONITOR_LIMITS.partialLineChars) + 'TAIL');
  const [tail] = big.flush(10, true);
  assert.ok(tail?.text.startsWith('a'.repeat(MONITOR_LIMITS.lineChars)) && tail.text.endsWith('...(truncated)'));
  assert.equal(m.events(), 4);
});

test('unit: monitor lines: a burst of 10, then suppressed events, a notice, and the stop after 30 s', () => {
  const m = new MonitorLines(0);
  const offer = (at: number, line = 'tick') => {
    m.push(`${line}\n`);
    return m.flush(at);
  };
  for (let i = 0; i < 10; i++) assert.equal(offer(i * 10)[0]?.kind, 'event', `event ${i} of the burst`);
  assert.deepEqual(offer(150), [], 'the 11th is suppressed');
  assert.deepEqual(offer(160), []);
  // One token back after 2 s: the notice of the 2 suppressed events, then the event.
  const back = offer(2000, 'again');
  assert.equal(back.length, 2);
  assert.equal(back[0]?.kind, 'notice');
  assert.match(back[0]!.text, /^\[2 events suppressed: output rate too high\./);
  assert.deepEqual(back[1], { kind: 'event', text: 'again' });
  assert.equal(m.events(), 11);
  // Flooding: every 500 ms an event; one in four passes; suppression never ends (no quiet 6 s, never a full
  // bucket) ... until a refill; the stop comes when one suppressed run has lasted over 30 s.
  const flood = new MonitorLines(0);
  let stop: string | undefined;
  let t = 0;
  for (; t < 60_000 && !stop; t += 100) {
    flood.push('x\n');
    for (const e of flood.flush(t)) if (e.kind === 'stop') stop = e.text;
  }
  assert.ok(stop, 'a flood is stopped');
  assert.equal(flood.isStopped(), true);
  assert.match(stop, /^\[Monitor stopped: too much output \(\d+ events suppressed over 3\ds\)\./);
  assert.deepEqual((flood.push('more\n'), flood.flush(t + 5000)), [], 'nothing after the stop');
  // A quiet spell of more than 6 s ends a suppressed run: no stop for bursts spread out in time.
  const bursts = new MonitorLines(0);
  for (let round = 0; round < 10; round++)
    for (let i = 0; i < 15; i++) {
      bursts.push('y\n');
      for (const e of bursts.flush(round * 20_000 + i)) assert.notEqual(e.kind, 'stop');
    }
  assert.equal(bursts.isStopped(), false);
});

test("unit: the same output gives the reference's texts (captured from 2.1.328: monitor-events.json)", async () => {
  const ref = referenceCapture();
  const ours = (text: string, preamble: string) =>
    text.replace(preamble, '$PREAMBLE').replace(/(<task-id>)b[a-z0-9]{8}/, '$1$TASK_ID');
  // The tool result's first sentence.
  const s = new ToolSession('/tmp');
  const r = await s.run(
    MonitorTool,
    { description: 'watch <lines> & more', timeout_ms: 60_000, command: ref.command },
    { backgroundTasks: true },
  );
  const first = r.text.slice(0, r.text.indexOf('). ') + 2).replace(/\(task b[a-z0-9]{8}/, '(task $TASK_ID');
  assert.equal(`[tool_result] ${first} $GUIDANCE`, ref.seen[0]);
  // 12 lines written at once: one event; then the 600-character line: one truncated event.
  const task = { id: 'bxxxxxxxx', description: 'watch <lines> & more' };
  const m = new MonitorLines(0);
  m.push(Array.from({ length: 12 }, (_, i) => `batch ${i + 1}\n`).join(''));
  const [batch] = m.flush(200);
  assert.equal(ours(monitorEventNotification(task, batch!.text), MONITOR_EVENT_PREAMBLE), ref.seen[1]);
  m.push(`${'L'.repeat(600)}\n`);
  const [long] = m.flush(1000);
  assert.equal(ours(monitorEventNotification(task, long!.text), MONITOR_EVENT_PREAMBLE), ref.seen[2]);
  // The end: the Bash shape, with the last line that came with the exit as its event.
  const end = monitorEndNotification(
    { ...task, toolUseId: 'toolu_monitor', outputPath: '$OUTPUT_FILE' },
    { state: 'completed', exitCode: 0, events: 12, lastEvent: 'last' },
  );
  assert.equal(ours(end, TASK_END_PREAMBLE), ref.seen[ref.seen.length - 1]);
  // Every event the reference sent in between is an event notification of lines of the burst.
  for (const t of ref.seen.slice(3, -1)) assert.match(t, /<event>burst \d+(\nburst \d+)*<\/event>/);
});

test("unit: a background command's end has the same wrapper as the reference's task end (the captured monitor end)", () => {
  const ref = referenceCapture().seen.at(-1)!;
  const bash = taskNotification({
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
    .replace(
      /<summary>.*<\/summary>/,
      '<summary>Background command "watch &lt;lines&gt; &amp; more" completed (exit code 0)</summary>',
    )
    .replace('\n<event>last</event>', '');
  assert.equal(bash.replace(TASK_END_PREAMBLE, '$PREAMBLE').replace('bxxxxxxxx', '$TASK_ID'), expected);
});
