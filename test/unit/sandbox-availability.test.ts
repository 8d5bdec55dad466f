// unit: SandboxHost.availability() with a scripted runtime (its dependency check and start), no
// bwrap needed: a failed probe is tried again, and "unavailable" does not stand for the life of the
// process. Found by test:reference under load: the runtime's dependency check runs `which rg` with
// a 1 s timeout, one slow second answered "ripgrep (rg) not found", and every later sandboxed Bash
// call of that process ran as if the host had no sandbox (asked, so denied unattended).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SandboxHost, type SandboxRuntime } from '../../src/sandbox/host';

/** A runtime whose dependency check fails while `failing()` says so; the probe's sandboxed command is a plain `true`. */
function scriptedRuntime(failing: () => boolean): SandboxRuntime & { checks: number } {
  const rt = {
    checks: 0,
    initialize: async () => undefined,
    isSupportedPlatform: () => true,
    checkDependencies() {
      rt.checks++;
      return failing() ? { errors: ['ripgrep (rg) not found'], warnings: [] } : { errors: [], warnings: [] };
    },
    wrapWithSandbox: async () => 'true',
    registerCommandNetworkLists: () => undefined,
    unregisterCommandNetworkLists: () => undefined,
    getSandboxViolationStore: () => ({ getViolationsForCommand: () => [] }),
    cleanupAfterCommand: () => undefined,
    reset: async () => undefined,
  };
  return rt;
}

test('unit: a dependency check that fails once (a timeout under load) does not make the sandbox unavailable', async () => {
  let fails = 1;
  const rt = scriptedRuntime(() => fails-- > 0);
  const host = new SandboxHost(async () => rt, { pauseMs: 1 });
  assert.deepEqual(await host.availability(), { available: true });
  assert.equal(rt.checks, 2, 'the failed probe was tried again');
  assert.deepEqual(await host.availability(), { available: true });
  assert.equal(rt.checks, 2, '"available" is kept');
});

test('unit: a sandbox that stays unavailable says why, and is asked again after the recheck interval', async (t) => {
  // The interval is read from Date: a mocked clock moves only when the test says (a loaded machine
  // could otherwise pass the interval between two calls "within" it). Timers stay real.
  t.mock.timers.enable({ apis: ['Date'], now: 1_000_000 });
  let broken = true;
  const rt = scriptedRuntime(() => broken);
  const host = new SandboxHost(async () => rt, { pauseMs: 1, recheckMs: 100 });
  const first = await host.availability();
  assert.equal(first.available, false);
  assert.match((first as { reason: string }).reason, /ripgrep \(rg\) not found/);
  assert.equal(rt.checks, 3, 'three attempts before "unavailable"');
  // Within the interval the answer stands (no probe per call).
  assert.equal((await host.availability()).available, false);
  assert.equal(rt.checks, 3);
  // The host recovered: after the interval the next call probes again and the sandbox is back.
  broken = false;
  t.mock.timers.tick(150);
  assert.deepEqual(await host.availability(), { available: true });
  assert.equal(rt.checks, 4);
});

test('unit: hosts of one runtime share one probe, and its retries', async () => {
  let fails = 2;
  const rt = scriptedRuntime(() => fails-- > 0);
  const a = new SandboxHost(async () => rt, { pauseMs: 1 });
  const b = new SandboxHost(async () => rt, { pauseMs: 1 });
  const [ra, rb] = await Promise.all([a.availability(), b.availability()]);
  assert.deepEqual(ra, { available: true });
  assert.deepEqual(rb, { available: true });
  assert.equal(rt.checks, 3, 'one probe of three attempts for both hosts');
});
