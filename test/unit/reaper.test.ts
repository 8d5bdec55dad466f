// unit: what a Bash call leaves when the process running it is SIGKILLed (src/sandbox/reaper.ts).
// A child process runs one real Bash tool call and kills itself at a chosen moment — inside
// spawn, a few ms after it (bubblewrap still setting up: the window where the sandbox's own bwrap
// misses its parent's death), or once the command runs. Every process below the child carries a
// test tag in its environment; none may be left after a bounded wait. No Temporal.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { SandboxHost } from '../../src/sandbox/host';
import { CALL_MARKER_ENV, OWNER_MARKER_ENV, ownerAlive, ownerId, sweepLeftovers } from '../../src/sandbox/reaper';
import { sandboxSkip as sandboxSkipReason } from '../support/systemPackages';
import { TAG_ENV, countByName, describe, killAll, newTag, waitUntilNoneTagged } from '../support/leftovers';
import { makeTmpDir, removeDir } from './tools-harness';
import { waitFor } from '../support/wait';

/** Bash's sandbox in these tests (the worker's start-up owns one: src/runtime/callDeps.ts). */
const sandboxHost = new SandboxHost();

const CHILD = path.join(__dirname, '..', 'support', 'bashKillChild.js');
const LEFTOVER_WAIT_MS = 15_000;
let root = '';
let sandboxSkip: string | false = false;

before(async () => {
  root = await makeTmpDir('da-reaper-');
  sandboxSkip = await sandboxSkipReason(sandboxHost, 'the sandboxed reaper tests');
});

after(async () => {
  await sandboxHost.close();
  if (root) await removeDir(root);
});

/** Runs the child until it kills itself; resolves with how it ended. */
async function runChild(
  tag: string,
  cwd: string,
  command: string,
  when: string,
  sandbox: boolean,
): Promise<{ signal: NodeJS.Signals | null; output: string }> {
  const child = spawn(process.execPath, [CHILD, cwd, command, when], {
    env: { ...process.env, [TAG_ENV]: tag, SANDBOX: sandbox ? '1' : '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, sig) => resolve(sig)),
  );
  return { signal, output };
}

async function assertNothingLeft(tag: string, what: string): Promise<void> {
  const left = await waitUntilNoneTagged(tag, LEFTOVER_WAIT_MS);
  killAll(left);
  assert.deepEqual(
    left.map((p) => p.comm),
    [],
    `${what}: left behind (${countByName(left)}):\n${describe(left)}`,
  );
}

test('unit: owners: this process is alive under its own id; a wrong start time or an impossible pid is not', () => {
  assert.match(ownerId(), /^\d+\.\d+$/);
  assert.equal(ownerAlive(ownerId()), true);
  assert.equal(ownerAlive(`${process.pid}.1`), false, 'same pid, another start time: a reused pid');
  assert.equal(ownerAlive('999999999.5'), false);
  assert.equal(ownerAlive('garbage'), false);
});

test(
  'unit: the sweep kills sandbox machinery of dead workers only — not a live worker’s, not other processes',
  { skip: process.platform !== 'linux' ? 'needs /proc' : false },
  async () => {
    const dir = path.join(root, 'fake-bin');
    await fs.mkdir(dir, { recursive: true });
    // Processes named socat (the kernel's comm is the executable's file name), running sleep.
    await fs.symlink((await fs.realpath('/bin/sleep')) as string, path.join(dir, 'socat'));
    const tag = newTag();
    const start = (name: string, env: Record<string, string>) =>
      spawn(name === 'socat' ? path.join(dir, 'socat') : '/bin/sleep', ['60'], {
        env: { ...process.env, [TAG_ENV]: tag, ...env },
        stdio: 'ignore',
      });
    const deadBridge = start('socat', { [OWNER_MARKER_ENV]: '999999999.5' });
    const deadCallSocat = start('socat', { [CALL_MARKER_ENV]: '999999999.5/abc' });
    const liveBridge = start('socat', { [OWNER_MARKER_ENV]: ownerId() });
    const deadCallSleep = start('sleep', { [CALL_MARKER_ENV]: '999999999.5/abc' });
    const exits = [deadBridge, deadCallSocat, liveBridge, deadCallSleep].map(
      (c) => new Promise<NodeJS.Signals | null>((r) => c.once('exit', (_c, s) => r(s))),
    );
    try {
      // Until each has exec'd (before that it is a copy of node, with node's name and environment).
      for (const [c, name] of [
        [deadBridge, 'socat'],
        [deadCallSocat, 'socat'],
        [liveBridge, 'socat'],
        [deadCallSleep, 'sleep'],
      ] as const) {
        await waitFor(
          `${name} ${c.pid} to start`,
          async () => (await fs.readFile(`/proc/${c.pid}/comm`, 'utf8').catch(() => '')).trim() === name,
          10_000,
          20,
        );
      }
      const killed = await sweepLeftovers();
      const mine = killed.filter((p) =>
        [deadBridge.pid, deadCallSocat.pid, liveBridge.pid, deadCallSleep.pid].includes(p.pid),
      );
      assert.deepEqual(mine.map((p) => p.pid).sort(), [deadBridge.pid, deadCallSocat.pid].sort());
      assert.equal(await exits[0], 'SIGKILL');
      assert.equal(await exits[1], 'SIGKILL');
      assert.equal(liveBridge.exitCode, null, 'a live worker’s bridge is not touched');
      assert.equal(
        deadCallSleep.exitCode,
        null,
        'only sandbox machinery is swept (a call’s own processes are the guardian’s)',
      );
    } finally {
      liveBridge.kill('SIGKILL');
      deadCallSleep.kill('SIGKILL');
      deadBridge.kill('SIGKILL');
      deadCallSocat.kill('SIGKILL');
      await Promise.all(exits);
    }
  },
);

test(
  'unit: unsandboxed Bash: SIGKILL of the process running it, inside spawn or while the command runs — its process group goes too',
  { skip: process.platform !== 'linux' ? 'needs /proc' : false },
  async () => {
    for (const when of ['spawn+0', 'file:started']) {
      const cwd = await makeTmpDir('da-reaper-plain-');
      const tag = newTag();
      const r = await runChild(
        tag,
        cwd,
        'echo started > started; sleep 1000 & sleep 999; echo never',
        when.replace('file:', `file:${cwd}/`),
        false,
      );
      assert.equal(r.signal, 'SIGKILL', r.output);
      await assertNothingLeft(tag, `unsandboxed, killed at ${when}`);
      await removeDir(cwd);
    }
  },
);

test('unit: sandboxed Bash: SIGKILL of the process running it at any moment leaves no bwrap, socat or command behind', async (t) => {
  if (sandboxSkip) return t.skip(sandboxSkip);
  // Inside spawn; while bubblewrap sets up (the inner bwrap arms its parent-death signal late);
  // while the command runs (it wrote its file).
  for (const when of ['spawn+0', 'spawn+2', 'spawn+5', 'spawn+10', 'file:started']) {
    const cwd = await makeTmpDir('da-reaper-sbx-');
    const tag = newTag();
    const r = await runChild(tag, cwd, 'echo started > started; sleep 30', when.replace('file:', `file:${cwd}/`), true);
    assert.equal(r.signal, 'SIGKILL', r.output);
    await assertNothingLeft(tag, `sandboxed, killed at ${when}`);
    await removeDir(cwd);
  }
});
