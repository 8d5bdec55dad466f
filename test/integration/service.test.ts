// integration: `durable-agent up` / `down` — the embedded default (a real Temporal dev server and a
// worker) as a background service with its files in a temp DURABLE_AGENT_HOME; `run` reuses it
// through the default address (TEMPORAL_ADDRESS's port is the one `up` serves); `up` twice says it
// is already up; `down` stops it and leaves no process behind; `down` again says nothing ran.
// Real processes, the fake Messages API; the oracles are the exit codes, the state file, /proc.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, portIsFree } from '../../src/temporal/service/devServer';
import { startFakeAnthropic, textResponse } from '../../src/testing/fakeAnthropic';
import { cli } from '../support/cli';
import { TAG_ENV, describe, killAll, newTag, taggedProcesses, waitUntilNoneTagged } from '../support/leftovers';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test(
  'integration: up starts the dev server and a worker in the background, run uses it, up again says so, down stops everything',
  { timeout: 240_000 },
  async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'da-svc-')));
    const home = join(root, 'home');
    const work = join(root, 'work');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(work);
    const fake = await startFakeAnthropic({ script: () => textResponse('hello from the service') });
    const port = await freePort();
    const uiPort = await freePort();
    const tag = newTag();
    const env = {
      DURABLE_AGENT_HOME: home,
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: fake.baseURL,
      // No --port: `up` serves the port of TEMPORAL_ADDRESS, where `run` connects.
      TEMPORAL_ADDRESS: `127.0.0.1:${port}`,
      DURABLE_AGENT_TASK_QUEUE: `svc-${tag.slice(0, 8)}`,
      DURABLE_AGENT_WORKER_GRACE_MS: '200',
      [TAG_ENV]: tag,
    };
    try {
      const up = await cli(['up', '--ui-port', String(uiPort), '--json'], env, 150_000);
      assert.equal(up.code, 0, up.stderr);
      const state = JSON.parse(up.stdout.trim()) as {
        status: string;
        pid: number;
        address: string;
        taskQueue: string;
        log: string;
      };
      assert.equal(state.status, 'up');
      assert.equal(state.address, `127.0.0.1:${port}`);
      assert.equal(state.taskQueue, env.DURABLE_AGENT_TASK_QUEUE);
      assert.ok(alive(state.pid), 'the service runs after `up` returned');
      assert.equal(state.log, join(home, 'service', 'service.log'));
      assert.ok(existsSync(join(home, 'service', 'service.json')));
      assert.ok(existsSync(join(home, 'temporal.db')), 'the server persists to the data directory');
      // Its own session and process group: the terminal that ran `up` can go away.
      const stat = readFileSync(`/proc/${state.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      assert.equal(Number(fields[3]), state.pid, 'session leader (setsid): no controlling terminal of ours');

      const again = await cli(['up'], env, 30_000);
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stdout, new RegExp(`already up \\(pid ${state.pid}\\)`));

      const run = await cli(['run', '--cwd', work, '--model', 'claude-test', 'say', 'hello'], env, 60_000);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /hello from the service/);
      assert.match(run.stdout, /session completed/);
      assert.doesNotMatch(run.stderr, /no worker polls/, 'the service polls the default task queue');

      const down = await cli(['down'], env, 60_000);
      assert.equal(down.code, 0, down.stderr);
      assert.match(down.stdout, new RegExp(`stopped \\(pid ${state.pid}\\)`));
      assert.equal(alive(state.pid), false);
      assert.equal(existsSync(join(home, 'service', 'service.json')), false);
      const left = await waitUntilNoneTagged(tag, 15_000);
      assert.equal(left.length, 0, `processes left behind:\n${describe(left)}`);
      assert.ok(await portIsFree('127.0.0.1', port), 'the server stopped');

      const nothing = await cli(['down', '--json'], env, 30_000);
      assert.equal(nothing.code, 0, nothing.stderr);
      assert.deepEqual(JSON.parse(nothing.stdout), { status: 'not_running', home });
    } finally {
      const left = taggedProcesses(tag);
      killAll(left);
      await fake.close();
      rmSync(root, { recursive: true, force: true });
    }
  },
);

test('integration: up with a bad flag, or a port that is taken, is one line and a non-zero exit (nothing left running)', async () => {
  const home = mkdtempSync(join(tmpdir(), 'da-svc-bad-'));
  try {
    const bad = await cli(['up', '--port', 'zero'], { DURABLE_AGENT_HOME: home });
    assert.notEqual(bad.code, 0);
    assert.deepEqual(bad.stderr.trim().split('\n').length, 1, bad.stderr);
    assert.match(bad.stderr, /--port must be a positive whole number/);
    const { createServer } = await import('node:net');
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const busy = (blocker.address() as { port: number }).port;
    try {
      const taken = await cli(['up', '--port', String(busy), '--ui-port', String(await freePort())], {
        DURABLE_AGENT_HOME: home,
      });
      assert.notEqual(taken.code, 0);
      assert.equal(taken.stderr.trim().split('\n').length, 1, taken.stderr);
      assert.match(
        taken.stderr,
        new RegExp(`did not start.*port ${busy} on 127\\.0\\.0\\.1 \\(gRPC\\) is already in use`),
      );
      assert.equal(existsSync(join(home, 'service', 'service.json')), false);
    } finally {
      blocker.close();
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
