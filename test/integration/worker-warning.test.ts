// integration: `run` and `attach` say in ONE line when no worker polls the session's task queue
// (before: they waited silently), and say nothing when one does. Same session shape both times (it
// parks on an approval, so the check runs while the session is alive); real CLI processes, the
// real dev server, a worker in this process or none.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { toolUseResponse } from '../../src/testing/fakeAnthropic';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { cli } from '../support/cli';

after(closeTestEnv);

const MAIN = join(__dirname, '..', '..', 'src', 'cli', 'main.js');
const WARNING =
  /no worker polls task queue "([^"]+)": the session waits until one does\. Start one with `durable-agent up`/;

/** Runs the command until `until(stdout, stderr)` holds (or 30 s passed), `thenMs` more, then Ctrl-C (detach). */
function runUntil(
  args: string[],
  env: Record<string, string>,
  until: (stdout: string, stderr: string) => boolean,
  thenMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timer: NodeJS.Timeout | undefined;
    const check = (): void => {
      if (timer === undefined && until(stdout, stderr)) timer = setTimeout(() => child.kill('SIGINT'), thenMs);
    };
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      check();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      check();
    });
    const giveUp = setTimeout(() => child.kill('SIGINT'), 30_000);
    const hard = setTimeout(() => child.kill('SIGKILL'), 45_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      clearTimeout(giveUp);
      clearTimeout(hard);
      resolve({ code, stdout, stderr });
    });
  });
}

test('integration: run and attach warn in one line when no worker polls the task queue, and not when one does', async () => {
  // No worker: the warning, once, naming the queue and how to start a worker.
  await withAgent({ noWorker: true }, async ({ taskQueue, workDir }) => {
    const env = {
      TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
      DURABLE_AGENT_TASK_QUEUE: taskQueue,
      DURABLE_AGENT_WORKER_GRACE_MS: '300',
    };
    // Ctrl-C 1 s after the warning (a second warning would be there by then), or after 30 s without one.
    const r = await runUntil(
      ['run', '--id', `nowork-${taskQueue}`, '--cwd', workDir, '--model', 'claude-test', 'write', 'a', 'file'],
      env,
      (_out, err) => WARNING.test(err),
      1_000,
    );
    assert.equal(r.code, 130, `detached by Ctrl-C: ${r.stderr}`);
    const warnings = r.stderr.split('\n').filter((l) => WARNING.test(l));
    assert.equal(warnings.length, 1, r.stderr);
    assert.equal(WARNING.exec(warnings[0] as string)?.[1], taskQueue);
    const a = await runUntil(['attach', `nowork-${taskQueue}`], env, (_out, err) => WARNING.test(err), 1_000);
    assert.equal(a.stderr.split('\n').filter((l) => WARNING.test(l)).length, 1, a.stderr);
    const c = await cli(['cancel', `nowork-${taskQueue}`], env);
    assert.equal(c.code, 0, c.stderr);
  });
  // A worker polls: the same session (parked on an approval) gets no warning.
  await withAgent({}, async ({ fake, taskQueue, workDir }) => {
    fake.enqueue(
      toolUseResponse([{ id: 'toolu_ww', name: 'Write', input: { file_path: join(workDir, 'x.txt'), content: 'x' } }]),
    );
    const env = {
      TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
      DURABLE_AGENT_TASK_QUEUE: taskQueue,
      DURABLE_AGENT_WORKER_GRACE_MS: '300',
    };
    // Ctrl-C 3 s after the session parked (the check runs 0.3 s after run starts following).
    const r = await runUntil(
      ['run', '--id', `withwork-${taskQueue}`, '--cwd', workDir, '--model', 'claude-test', 'write', 'a', 'file'],
      env,
      (out) => /approval needed/.test(out),
      3_000,
    );
    assert.equal(r.code, 130, r.stderr);
    assert.match(r.stdout, /approval needed: Write/, 'the session was alive and parked during the check');
    assert.doesNotMatch(r.stderr, /no worker polls/);
    const c = await cli(['cancel', `withwork-${taskQueue}`], env);
    assert.equal(c.code, 0, c.stderr);
  });
});
