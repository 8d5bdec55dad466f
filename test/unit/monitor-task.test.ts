// unit: a Monitor's run (src/tasks/runtime/monitorTask.ts) on real processes — stdout lines become numbered
// batches (seq 1, 2, … in order, each once, delivered one after another even when delivery is slow or
// fails once), a line over 500 characters is cut, stderr goes only to the output file, the lines that
// come with the exit are the end's `lastEvent`; the rate limit suppresses events over the bucket and
// its stop kills the command; the timeout ends it `timed_out` (the expiry notice); an abort (TaskStop)
// kills the process group. And the session's side (tasks/core/monitorTasks.ts): each (task, seq) is kept once.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { watchMonitorCommand } from '../../src/tasks/runtime/monitorTask';
import { MonitorEventLog, monitorEndText, type MonitorEventBatch } from '../../src/tasks/core/monitorTasks';
import { initialContext } from '../../src/core/context';
import { makeContext, makeTmpDir, removeDir } from './tools-harness';

let dir: string;
before(async () => {
  dir = await makeTmpDir('monitor-task-');
});
after(() => removeDir(dir));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs a watch in `dir` and collects what was delivered. */
async function watch(
  command: string,
  opts: { timeoutMs?: number; signal?: AbortSignal; deliver?: (b: MonitorEventBatch) => Promise<void> } & Pick<
    Parameters<typeof watchMonitorCommand>[2],
    'limits'
  > = {},
) {
  const batches: MonitorEventBatch[] = [];
  const out = path.join(dir, `task-${Math.random().toString(36).slice(2)}.output`);
  const ctx = makeContext(initialContext(dir), opts.signal);
  const result = await watchMonitorCommand({ command, timeoutMs: opts.timeoutMs ?? 20_000, outputPath: out }, ctx, {
    taskId: 'btest0001',
    deliver: async (b) => {
      if (opts.deliver) await opts.deliver(b);
      batches.push(b);
    },
    ...(opts.limits ? { limits: opts.limits } : {}),
  });
  return { result, batches, output: await fs.readFile(out, 'utf8') };
}

const linesOf = (batches: MonitorEventBatch[]) =>
  batches.filter((b) => b.kind === 'event').flatMap((b) => b.text.split('\n'));

test('unit: monitor run: stdout lines in numbered batches, in order, each once; a long line cut at 500; stderr only in the file', async () => {
  let slow = true;
  let failedOnce = false;
  const { result, batches, output } = await watch(
    [
      'echo a; echo b',
      'sleep 0.6',
      "printf 'L%.0s' $(seq 1 600); echo",
      'sleep 0.6',
      'echo "  spaced  "; echo; echo err >&2',
      'sleep 0.6',
      'echo last',
    ].join('; '),
    {
      // Slow, and failing once: the next batch still waits for this one, and the retry brings it.
      deliver: async (b) => {
        if (b.seq === 1 && !failedOnce) {
          failedOnce = true;
          throw new Error('transient');
        }
        if (slow) await new Promise((r) => setTimeout(r, 300));
        slow = false;
      },
    },
  );
  assert.equal(result.state, 'completed');
  assert.equal(result.exitCode, 0);
  assert.deepEqual(
    batches.map((b) => b.seq),
    batches.map((_, i) => i + 1),
    'seq 1..n, delivered in order',
  );
  assert.equal(result.lastSeq, batches.length);
  assert.ok(batches.every((b) => b.kind === 'event' && b.taskId === 'btest0001'));
  // Every line once, in order: the delivered batches, then the lines that came with the exit.
  const all = [...linesOf(batches), ...(result.lastEvent ? result.lastEvent.split('\n') : [])];
  assert.deepEqual(all, ['a', 'b', `${'L'.repeat(500)}...(truncated)`, 'spaced', 'last']);
  assert.equal(result.events, batches.length + (result.lastEvent ? 1 : 0));
  assert.ok(!all.includes('err'), 'stderr is not an event');
  // stdout passes through the worker, stderr does not: their order in the file may differ.
  assert.ok(output.includes('err\n'), 'the file has stderr');
  const trailer = '\n[exited with code 0]\n';
  assert.equal(output.replace('err\n', ''), `a\nb\n${'L'.repeat(600)}\n  spaced  \n\nlast\n${trailer}`, 'and stdout');
  assert.equal(result.output, output, 'the run read back what it wrote');
  assert.equal(result.outputBytes, Buffer.byteLength(output) - trailer.length);
});

test('unit: monitor run: a failing command, one without output, and the end texts', async () => {
  const failed = await watch('echo only; exit 3');
  assert.equal(failed.result.state, 'failed');
  assert.equal(failed.result.exitCode, 3);
  const task = { id: 'btest0001', description: 'w', toolUseId: 'toolu_m', outputPath: '/o', timeoutMs: 5000 };
  assert.match(
    monitorEndText(task, failed.result) ?? '',
    /<status>failed<\/status>\n<summary>Monitor "w" script failed \(exit 3\)<\/summary>/,
  );
  const silent = await watch('echo to-stderr >&2');
  assert.equal(silent.result.state, 'completed');
  assert.equal(silent.result.events, 0);
  assert.deepEqual(silent.batches, []);
  assert.match(monitorEndText(task, silent.result) ?? '', /Monitor "w" ended without producing output \(exit 0\)/);
});

test('unit: monitor run: over the bucket events are suppressed; the rate limit stop kills the command', async () => {
  // A bucket of 3 that never refills: of 8 lines 200 ms apart, at most 3 events reach the session.
  const limited = await watch('for i in 1 2 3 4 5 6 7 8; do echo "n $i"; sleep 0.2; done', {
    limits: { burst: 3, refillMs: 1e9, batchWindowMs: 50, stopAfterSuppressedMs: 1e9 },
  });
  assert.equal(limited.result.state, 'completed');
  const events = limited.batches.filter((b) => b.kind === 'event');
  assert.ok(events.length >= 1 && events.length <= 3, `${events.length} events`);
  assert.equal(limited.result.events, events.length, 'nothing more came with the exit (suppressed)');
  const seen = linesOf(limited.batches);
  assert.deepEqual(seen, ['n 1', 'n 2', 'n 3', 'n 4', 'n 5', 'n 6', 'n 7', 'n 8'].slice(0, seen.length));
  assert.ok(seen.length < 8, 'later lines were suppressed');
  assert.match(limited.output, /n 8\n\n\[exited with code 0\]\n$/, 'the file has every line');
  // Suppressed for over 300 ms: the stop notice is the last batch and the flood is killed.
  const flood = await watch('echo $$ > flood.pid; while :; do echo x; sleep 0.02; done', {
    timeoutMs: 30_000,
    limits: { burst: 2, refillMs: 1e9, batchWindowMs: 50, stopAfterSuppressedMs: 300 },
  });
  assert.equal(flood.result.state, 'killed');
  assert.equal(flood.result.rateStopped, true);
  const last = flood.batches[flood.batches.length - 1];
  assert.equal(last?.kind, 'stop');
  assert.match(last?.text ?? '', /^\[Monitor stopped: too much output/);
  const pid = Number((await fs.readFile(path.join(dir, 'flood.pid'), 'utf8')).trim());
  assert.equal(alive(pid), false, 'the flood is gone');
  assert.equal(monitorEndText({ id: 'b', description: 'd', toolUseId: 't', timeoutMs: 1 }, flood.result), null);
});

test('unit: monitor run: the timeout ends it timed_out (the expiry notice); an abort kills the process group', async () => {
  const expired = await watch('echo one; sleep 30', { timeoutMs: 1500 });
  assert.equal(expired.result.state, 'timed_out');
  assert.equal(expired.result.lastEvent, undefined);
  const note = monitorEndText({ id: 'b1', description: 'd', toolUseId: 't', timeoutMs: 1500 }, expired.result);
  assert.match(note ?? '', /<event>\[Monitor expired after 1\.5s with 1 event delivered\./);
  const ac = new AbortController();
  const pidFile = path.join(dir, 'stop.pid');
  const running = watch('echo $$ > stop.pid; echo started; sleep 30', { signal: ac.signal });
  while (!(await fs.stat(pidFile).catch(() => undefined))?.size) await new Promise((r) => setTimeout(r, 50));
  const pid = Number((await fs.readFile(pidFile, 'utf8')).trim());
  ac.abort();
  const stopped = await running;
  assert.equal(stopped.result.state, 'killed');
  assert.equal(stopped.result.rateStopped, undefined);
  assert.equal(alive(pid), false, 'the process group is gone');
});

test('unit: the session keeps each (task, seq) once; nothing after the task ended', () => {
  const log = new MonitorEventLog();
  const b = (taskId: string, seq: number) => ({ taskId, seq });
  assert.equal(log.accept(b('t1', 1)), true);
  assert.equal(log.accept(b('t1', 1)), false, 'a doubled delivery');
  assert.equal(log.accept(b('t1', 2)), true);
  assert.equal(log.accept(b('t2', 1)), true, 'another task has its own seqs');
  assert.equal(log.accept(b('t1', 2)), false);
  assert.equal(log.accept(b('t1', 4)), true, 'a batch given up leaves a gap');
  assert.equal(log.accept(b('t1', 3)), false, 'never out of order');
  assert.equal(log.accept(b('t1', 1.5)), false);
  log.close('t1');
  assert.equal(log.accept(b('t1', 5)), false, 'closed');
});
