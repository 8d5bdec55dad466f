// integration: a real worker process is SIGKILLed (the process alone, as the OOM killer does it)
// in the middle of a sandboxed Bash call (`sleep 30` inside bubblewrap, with the network proxies'
// socat relays). After the next worker starts, nothing of that call is left: no bwrap, socat,
// bash or sleep, no host-side socat bridge of the dead worker (src/sandbox/reaper.ts). Every
// process below a worker is found by a tag in its environment that the test gives that worker.
// The session then completes on the new worker. The same for an unsandboxed call with a
// background child (`sleep 1000 &`): its process group goes. Second case: the worker's guardian is killed
// too (both gone at once): the next worker's start-up sweep removes the dead worker's sandbox
// machinery. Needs bwrap, socat, ripgrep (fatal under CI=true).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { SandboxHost } from '../../src/sandbox/host';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { waitFor } from '../support/wait';
import { sandboxSkip } from '../support/systemPackages';
import { killGroup, spawnWorker, type WorkerProc, workerProcessEnv } from '../support/workerProcs';
import {
  TAG_ENV,
  countByName,
  describe,
  guardianOf,
  killAll,
  newTag,
  taggedProcesses,
  waitUntilNoneTagged,
} from '../support/leftovers';

/** Bash's sandbox in these tests (the worker's start-up owns one: src/runtime/callDeps.ts). */
const sandboxHost = new SandboxHost();

let skip: string | false = false;

before(async () => {
  skip = await sandboxSkip(sandboxHost, 'the sandbox reaper integration test');
});

after(async () => {
  await sandboxHost.close();
  await closeTestEnv();
});

async function killMidBash(opts: { killGuardianFirst: boolean; sandboxed: boolean }): Promise<void> {
  await withAgent({ noWorker: true }, async ({ env, fake, start, workDir, storeDir, taskQueue }) => {
    const baseEnv = await workerProcessEnv({ env, fake, storeDir, taskQueue });
    const workerEnv = (tag: string): NodeJS.ProcessEnv => ({ ...baseEnv, [TAG_ENV]: tag });
    fake.enqueue(
      toolUseResponse([
        {
          id: 'toolu_sleep',
          name: 'Bash',
          input: {
            command: `echo started > started.txt; ${opts.sandboxed ? '' : 'sleep 1000 & '}sleep 30`,
            description: 'wait',
          },
        },
      ]),
      textResponse('The call was lost with its worker; moving on.'),
    );
    const procs: WorkerProc[] = [];
    const tag1 = newTag();
    const tag2 = newTag();
    try {
      const worker1 = await spawnWorker('worker-1', workerEnv(tag1), procs);
      const handle = await start({
        prompt: 'wait a while in the sandbox',
        tools: ['Bash'],
        permissionMode: 'bypassPermissions',
        toolHeartbeatTimeoutMs: 2_000,
        // An allowlist: the runtime starts its proxies, host bridges and in-sandbox socat relays.
        // The leftover tag passes to Bash's processes only when named (Bash gets an allowlist of the environment).
        sandbox: opts.sandboxed
          ? { network: { allowedDomains: ['localhost'] }, passEnv: [TAG_ENV] }
          : { enabled: false, passEnv: [TAG_ENV] },
      });
      await waitFor(
        'the command to start inside the sandbox',
        async () => existsSync(join(workDir, 'started.txt')),
        60_000,
      );
      // started.txt is written before the shell forks `sleep`: wait for the processes themselves.
      const expected = opts.sandboxed ? ['bwrap', 'socat', 'sleep'] : ['bash', 'sleep'];
      await waitFor(
        "the command's processes below worker-1",
        async () => expected.every((n) => taggedProcesses(tag1).some((p) => p.comm === n)),
        20_000,
      ).catch(() => undefined);
      const running = taggedProcesses(tag1).map((p) => p.comm);
      for (const name of expected)
        assert.ok(running.includes(name), `before the kill, ${name} runs below worker-1: ${running.join(', ')}`);

      if (opts.killGuardianFirst) {
        const guardian = guardianOf(worker1.child.pid!);
        assert.ok(guardian, 'worker-1 has a guardian');
        process.kill(guardian.pid, 'SIGKILL');
      }
      process.kill(worker1.child.pid!, 'SIGKILL');
      await worker1.exited;
      await spawnWorker('worker-2', workerEnv(tag2), procs);
      // worker-1's guardian removes what it left; without the guardian (second case) what is left
      // is its sandbox machinery — the host socat bridge; the sandbox itself went with bwrap's
      // --die-with-parent — and worker-2 sweeps it at start-up.
      const left = await waitUntilNoneTagged(tag1, 20_000);
      killAll(left);
      assert.deepEqual(
        left.map((p) => p.comm),
        [],
        `left behind by worker-1 (${countByName(left)}):\n${describe(left)}`,
      );

      const result = await handle.result();
      assert.equal(result.status, 'completed');
    } finally {
      for (const p of procs) killGroup(p);
      await Promise.all(procs.map((p) => p.exited));
    }
    // worker-2, killed with its process group at the end, leaves nothing either.
    const left2 = await waitUntilNoneTagged(tag2, 20_000);
    killAll(left2);
    assert.deepEqual(
      left2.map((p) => p.comm),
      [],
      `left behind by worker-2 (${countByName(left2)}):\n${describe(left2)}`,
    );
  });
}

test(
  'integration: SIGKILL of a worker mid sandboxed Bash (sleep 30): after the next worker starts, no bwrap, socat, bash or sleep of it is left; the session completes',
  { timeout: 180_000 },
  async (t) => {
    if (skip) return t.skip(skip);
    await killMidBash({ killGuardianFirst: false, sandboxed: true });
  },
);

test(
  "integration: the worker and its guardian both SIGKILLed mid sandboxed Bash: the next worker sweeps the dead worker's bwrap and socat at start-up",
  { timeout: 180_000 },
  async (t) => {
    if (skip) return t.skip(skip);
    await killMidBash({ killGuardianFirst: true, sandboxed: true });
  },
);

test(
  'integration: SIGKILL of a worker mid unsandboxed Bash (sleep 1000 & sleep 30): its process group is gone after the next worker starts',
  { timeout: 180_000, skip: process.platform !== 'linux' ? 'needs /proc' : false },
  async () => {
    await killMidBash({ killGuardianFirst: false, sandboxed: false });
  },
);
