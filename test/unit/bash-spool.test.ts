// unit: Bash's output spool has a cap (DURABLE_AGENT_BASH_MAX_SPOOL_BYTES): a command that writes
// past it is stopped — its whole process group killed, sandboxed or not — the spool file in the
// worker's temp directory never grows beyond the cap, and the result says how much was kept.
// Oracles: the spool file's size watched from outside, /proc for the command's processes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { BashTool, bashSpoolCapBytes, type BashOutput } from '../../src/tools/bash';
import { SandboxHost, sessionSpoolPath } from '../../src/sandbox/host';
import type { SandboxSettings } from '../../src/sandbox/settings';
import type { ToolResult, ToolUseContext } from '../../src/toolProtocol/Tool';
import { toolResultText } from '../../src/core/apiMessages';
import { isCI } from '../support/systemPackages';
import { makeTmpDir, removeDir } from './tools-harness';
import { waitFor } from '../support/wait';

/** Bash's sandbox in these tests (the worker's start-up owns one: src/runtime/callDeps.ts). */
const sandboxHost = new SandboxHost();

const CAP = 1024 * 1024;
let root = '';
let tmp = '';
let work = '';
let sandboxSkip: string | false = false;
const saved = { TMPDIR: process.env.TMPDIR, CAP: process.env.DURABLE_AGENT_BASH_MAX_SPOOL_BYTES };

before(async () => {
  root = await makeTmpDir('da-spool-');
  tmp = path.join(root, 'tmp');
  work = path.join(root, 'work');
  await fs.mkdir(tmp);
  await fs.mkdir(work);
  process.env.TMPDIR = tmp; // the worker's temp directory: where the spool goes
  process.env.DURABLE_AGENT_BASH_MAX_SPOOL_BYTES = '1M';
  const a = await sandboxHost.availability();
  if (!a.available) {
    if (isCI()) throw new Error(`the sandbox must be available in CI: ${a.reason}`);
    sandboxSkip = `sandbox unavailable here: ${a.reason}`;
  }
});

after(async () => {
  for (const [k, v] of [
    ['TMPDIR', saved.TMPDIR],
    ['DURABLE_AGENT_BASH_MAX_SPOOL_BYTES', saved.CAP],
  ] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await sandboxHost.close();
  if (root) await removeDir(root);
});

function ctx(sandbox: SandboxSettings): ToolUseContext {
  return {
    sessionId: 'spool-session',
    toolUseId: 'toolu_spool',
    idempotencyKey: 'k',
    agent: { cwd: work, additionalDirectories: [], readFiles: {} },
    permission: {
      mode: 'bypassPermissions',
      rules: { allow: [], ask: [], deny: [] },
      workingDirectories: [work],
      sandbox,
    },
    abortSignal: new AbortController().signal,
    sandboxHost,
  };
}

/** Runs the command while watching every spool file under the worker's temp directory: the largest size seen. */
async function runWatched(
  command: string,
  sandbox: SandboxSettings,
): Promise<{ r: ToolResult<BashOutput>; maxSpool: number; samples: number }> {
  let maxSpool = 0;
  let samples = 0;
  let done = false;
  const watch = (async () => {
    while (!done) {
      // The session's spool directory (src/sandbox/sessionTemp.ts): one directory per run.
      const spools = sessionSpoolPath('spool-session');
      for (const d of await fs.readdir(spools).catch(() => [] as string[])) {
        const st = await fs.stat(path.join(spools, d, 'output')).catch(() => undefined);
        if (st) {
          samples++;
          maxSpool = Math.max(maxSpool, st.size, st.blocks * 512 - 4096);
        }
      }
      await new Promise((r) => setImmediate(r));
    }
  })();
  try {
    const r = await BashTool.call({ command }, ctx(sandbox), () => undefined);
    return { r, maxSpool, samples };
  } finally {
    done = true;
    await watch;
  }
}

async function pidsWith(marker: string): Promise<number[]> {
  const out: number[] = [];
  for (const name of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    const cmd = await fs.readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
    if (cmd.includes(marker)) out.push(Number(name));
  }
  return out;
}

for (const mode of ['unsandboxed', 'sandboxed'] as const) {
  test(`unit: ${mode} Bash past the spool cap is stopped; the spool never exceeds the cap; the result says so`, async (t) => {
    if (mode === 'sandboxed' && sandboxSkip) return t.skip(sandboxSkip);
    if (process.platform !== 'linux') return t.skip('reads /proc');
    const sandbox: SandboxSettings = mode === 'sandboxed' ? {} : { enabled: false };
    const marker = `SPOOLMARK${mode}${process.pid}`;
    // `yes` writes as fast as the machine can; without the cap it would fill the disk.
    const { r, maxSpool, samples } = await runWatched(`yes ${marker}`, sandbox);
    assert.equal(r.data.sandbox?.sandboxed, mode === 'sandboxed');
    assert.deepEqual(r.data.outputCapped, { capBytes: CAP, keptBytes: CAP });
    assert.equal(Buffer.byteLength(r.data.output), CAP, 'the result holds what was spooled, the whole 1 MiB');
    assert.ok(r.data.output.startsWith(`${marker}\n${marker}\n`));
    assert.ok(samples > 0, 'the watcher saw the spool file');
    assert.ok(maxSpool <= CAP, `spool reached ${maxSpool} bytes (cap ${CAP})`);
    // A kill is delivered when the process is next scheduled: on a loaded machine, a while after the call ended.
    await waitFor('yes to be gone', async () => (await pidsWith(marker)).length === 0, 10_000, 50).catch(
      () => undefined,
    );
    assert.deepEqual(await pidsWith(marker), [], 'yes is gone');
    const block = BashTool.mapToolResultToToolResultBlockParam(r.data, 'toolu_spool');
    assert.equal(block.is_error, true);
    assert.match(
      toolResultText(block),
      /Command was stopped: its output passed the 1 MiB limit \(DURABLE_AGENT_BASH_MAX_SPOOL_BYTES\); its process group was killed\. 1048576 bytes were kept/,
    );
    assert.deepEqual(await fs.readdir(sessionSpoolPath('spool-session')), [], 'the spool is removed');
  });
}

test('unit: output up to the cap is kept whole and is not an error; a child left running keeps writing after the call without being stopped', async (t) => {
  if (process.platform !== 'linux') return t.skip('reads /proc');
  const exact = await runWatched(`head -c ${CAP} /dev/zero | tr '\\0' a`, { enabled: false });
  assert.equal(exact.r.data.outputCapped, undefined);
  assert.equal(exact.r.data.exitCode, 0);
  assert.equal(exact.r.data.output, 'a'.repeat(CAP));
  // A background child that keeps the pipe: the call returns, and the child's later writes neither
  // block it nor kill it (SIGPIPE) — they go nowhere, as before the spool was a pipe.
  const marker = `SPOOLBG${process.pid}`;
  const bg = await BashTool.call(
    { command: `(while :; do echo ${marker}; sleep 0.02; done) & echo started` },
    ctx({ enabled: false }),
    () => undefined,
  );
  assert.match(bg.data.output, /^started\n/);
  const pids = await pidsWith(marker);
  try {
    for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 20));
    // Still there after dozens of writes into the pipe the call no longer reads for itself.
    const stat = await Promise.all(pids.map((p) => fs.readFile(`/proc/${p}/stat`, 'utf8').catch(() => '')));
    assert.ok(
      stat.some((s) => s !== '' && !/\) Z /.test(s)),
      'the background loop is alive',
    );
  } finally {
    for (const p of await pidsWith(marker)) {
      try {
        process.kill(p, 'SIGKILL');
      } catch {
        // gone
      }
    }
  }
});

test('unit: DURABLE_AGENT_BASH_MAX_SPOOL_BYTES: sizes with units; a malformed value is an error naming it', async () => {
  assert.equal(bashSpoolCapBytes({}), 64 * 1024 * 1024);
  assert.equal(bashSpoolCapBytes({ DURABLE_AGENT_BASH_MAX_SPOOL_BYTES: '2048' }), 2048);
  assert.equal(bashSpoolCapBytes({ DURABLE_AGENT_BASH_MAX_SPOOL_BYTES: '512K' }), 512 * 1024);
  assert.equal(bashSpoolCapBytes({ DURABLE_AGENT_BASH_MAX_SPOOL_BYTES: '2G' }), 2 * 1024 ** 3);
  for (const bad of ['lots', '-5', '1.5M', '10']) {
    assert.throws(
      () => bashSpoolCapBytes({ DURABLE_AGENT_BASH_MAX_SPOOL_BYTES: bad }),
      /^Error: DURABLE_AGENT_BASH_MAX_SPOOL_BYTES=.* is not a size/,
      bad,
    );
  }
  process.env.DURABLE_AGENT_BASH_MAX_SPOOL_BYTES = 'lots';
  try {
    await assert.rejects(
      BashTool.call({ command: 'echo hi' }, ctx({ enabled: false }), () => undefined),
      /DURABLE_AGENT_BASH_MAX_SPOOL_BYTES=lots is not a size/,
    );
  } finally {
    process.env.DURABLE_AGENT_BASH_MAX_SPOOL_BYTES = '1M';
  }
});
