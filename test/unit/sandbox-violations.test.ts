// unit: each command's own sandbox violation reports (src/sandbox/violations.ts): routed by key,
// filtered, capped but counted, and drained at the command's end — a round trip through a runtime
// process's channel (bounded: a runtime that never answers does not hold the command), or turns of
// this event loop for reports still in a socket the worker itself reads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import {
  CommandViolations,
  NO_REPORTS,
  encodedCommandKey,
  quiesce,
  violationDrain,
} from '../../src/sandbox/violations';
import { makeTmpDir, removeDir } from './tools-harness';

const report = (id: string, line: string) => ({ line, encodedCommand: encodedCommandKey(id) });

test('unit: reports go to the open command whose key they carry; others are dropped', () => {
  const v = new CommandViolations();
  v.open('one');
  v.open('two');
  v.add(report('one', 'deny write /a'));
  v.add(report('two', 'deny write /b'));
  v.add(report('closed', 'deny write /c'));
  v.add({ line: 'deny write /unattributed' });
  assert.deepEqual(v.take('one'), { lines: ['deny write /a'], total: 1 });
  assert.deepEqual(v.take('two'), { lines: ['deny write /b'], total: 1 });
  v.add(report('one', 'deny write /late'));
  assert.deepEqual(v.take('one'), NO_REPORTS, 'a taken command collects nothing more');
  assert.equal(v.openCommands(), 0);
});

test('unit: past the cap lines are no longer listed, but every report is counted (repeats too)', () => {
  const v = new CommandViolations(3);
  v.open('x');
  for (let i = 0; i < 10; i++) v.add(report('x', `deny write /f${i}`));
  v.add(report('x', 'deny write /f0'));
  assert.deepEqual(v.take('x'), { lines: ['deny write /f0', 'deny write /f1', 'deny write /f2'], total: 11 });
});

test("unit: a command's filter drops lines that are no violation of it: neither listed nor counted", () => {
  const v = new CommandViolations();
  v.open('x', (line) => !line.includes('/allowed/'));
  v.add(report('x', 'deny write /allowed/f'));
  v.add(report('x', 'deny write /other/f'));
  assert.deepEqual(v.take('x'), { lines: ['deny write /other/f'], total: 1 });
});

test("unit: drain() waits for the runtime's flush; reports delivered before its answer are the command's", async () => {
  const asked: Array<[string, number]> = [];
  const v: CommandViolations = new CommandViolations(100, async (key, maxMs) => {
    asked.push([key, maxMs]);
    await new Promise((r) => setTimeout(r, 20));
    for (let i = 0; i < 150; i++) v.add({ line: `deny write /late-${i}`, encodedCommand: key });
  });
  v.open('cmd');
  await v.drain('cmd', 5_000);
  assert.deepEqual(asked, [[encodedCommandKey('cmd'), 5_000]]);
  const r = v.take('cmd');
  assert.equal(r.total, 150);
  assert.equal(r.lines.length, 100);
});

test('unit: drain() gives up on a flush that never answers, and ignores one that fails', async () => {
  const hung = new CommandViolations(100, () => new Promise(() => undefined));
  hung.open('x');
  await hung.drain('x', 30); // resolves: a never-settling flush would hang the test otherwise
  assert.deepEqual(hung.take('x'), NO_REPORTS);
  const dead = new CommandViolations(100, () => Promise.reject(new Error('the sandbox runtime process ended')));
  dead.open('y');
  await dead.drain('y');
  assert.deepEqual(dead.take('y'), NO_REPORTS);
  assert.equal(violationDrain.maxMs, 250, 'the default bound');
});

test('unit: quiesce() returns once the count stops moving, or at its bound while it keeps moving', async () => {
  let n = 0;
  const moving = setInterval(() => n++, 1);
  try {
    const t0 = Date.now();
    await quiesce(() => n, 50);
    assert.ok(Date.now() - t0 < 10_000, 'bounded');
  } finally {
    clearInterval(moving);
  }
  let calls = 0;
  await quiesce(() => (calls++, 0), 60_000);
  assert.equal(calls, 2, 'a quiet count: read before and after its turns, then done');
});

/** Blocks this event loop until `done()` (so that what happens meanwhile is handled in one poll). */
function blockUntil(done: () => boolean): void {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + 60_000;
  while (!done() && Date.now() < deadline) Atomics.wait(cell, 0, 0, 5);
}

/** A process that has exited and is not reaped yet (Linux /proc), or gone. */
function exited(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

// The worker's own runtime reads the observer's socket in this event loop. When the loop is busy
// while a short command connects, reports and exits, the accept and the child's exit are handled in
// the same poll and its data only in the next: taken at 'exit', the command's reports were all
// lost. drain() (turns of this loop until the command's count is quiet) gets every one.
test("unit: drain() without a flush reads a command's reports still in a socket of this process", async (t) => {
  if (process.platform !== 'linux') return t.skip('linux /proc');
  const dir = await makeTmpDir('da-viol-');
  const sock = path.join(dir, 's.sock');
  const v = new CommandViolations();
  const server = net.createServer((conn) => {
    createInterface({ input: conn }).on('line', (raw) => {
      const ev = JSON.parse(raw) as { encodedCommand: string; path: string };
      v.add({ line: `deny write ${ev.path}`, encodedCommand: ev.encodedCommand });
    });
  });
  await new Promise<void>((r) => server.listen(sock, () => r()));
  try {
    for (let round = 0; round < 3; round++) {
      const id = `cmd-${round}`;
      const written = path.join(dir, `written-${round}`);
      v.open(id);
      const lines = `let s='';for(let i=0;i<2000;i++)s+=JSON.stringify({encodedCommand:${JSON.stringify(encodedCommandKey(id))},path:'/x/'+i})+'\\n'`;
      const script = `${lines};const c=require('net').connect(${JSON.stringify(sock)},()=>c.end(s,()=>{require('fs').writeFileSync(${JSON.stringify(written)},'');process.exit(0)}))`;
      const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
      const exit = new Promise<void>((r) => child.once('exit', () => r()));
      blockUntil(() => existsSync(written) && exited(child.pid!));
      await exit;
      await v.drain(id, 60_000);
      assert.equal(v.take(id).total, 2000, `round ${round}`);
    }
  } finally {
    server.close();
    await removeDir(dir);
  }
});
