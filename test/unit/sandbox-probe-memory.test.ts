// unit: the CLI's sandbox probe remembered between runs (src/sandbox/probeMemory.ts; issue 32: every
// `run` started a real sandbox to print one line). "available" stands for an hour under a key of what
// it rests on; "unavailable" is never remembered; a changed program, an old, foreign, linked or
// non-regular record means a new probe. A scripted probe, a cache directory of the test's own.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import {
  PROBE_MEMORY_MS,
  probeKey,
  rememberAvailable,
  rememberedAvailability,
  rememberedAvailable,
} from '../../src/sandbox/probeMemory';
import type { SandboxAvailability } from '../../src/sandbox/host';

const root = mkdtempSync(join(tmpdir(), 'da-probe-memory-'));
const cache = join(root, 'cache');
const record = join(cache, 'sandbox-probe.json');
const saved = { cache: process.env.DURABLE_AGENT_CACHE_DIR, path: process.env.PATH };
before(() => {
  process.env.DURABLE_AGENT_CACHE_DIR = cache;
});
after(() => {
  if (saved.cache === undefined) delete process.env.DURABLE_AGENT_CACHE_DIR;
  else process.env.DURABLE_AGENT_CACHE_DIR = saved.cache;
  process.env.PATH = saved.path;
  rmSync(root, { recursive: true, force: true });
});

/** A probe that answers `answer` and counts its calls. */
function counted(answer: SandboxAvailability): { probe: () => Promise<SandboxAvailability>; calls: number } {
  const p = { calls: 0, probe: async () => (p.calls++, answer) };
  return p;
}

test('unit: an available probe is remembered (the next run does not probe); unavailable never is', async () => {
  rmSync(cache, { recursive: true, force: true });
  const missing: SandboxAvailability = { available: false, reason: 'bubblewrap (bwrap) not installed' };
  const down = counted(missing);
  assert.deepEqual(await rememberedAvailability(down.probe), missing);
  assert.deepEqual(await rememberedAvailability(down.probe), missing, "the reason is always the probe's own");
  assert.equal(down.calls, 2, 'each run probed again');
  const up = counted({ available: true });
  assert.deepEqual(await rememberedAvailability(up.probe), { available: true });
  assert.deepEqual(await rememberedAvailability(up.probe), { available: true });
  assert.equal(up.calls, 1, 'the second run used the remembered answer');
});

test('unit: a changed program on the PATH, an hour, a foreign, linked, writable or FIFO record: probed again', async () => {
  rmSync(cache, { recursive: true, force: true });
  const bin = join(root, 'bin');
  mkdirSync(bin, { recursive: true });
  process.env.PATH = `${bin}:${saved.path}`;
  const before = probeKey();
  writeFileSync(join(bin, 'bwrap'), '#!/bin/sh\n', { mode: 0o755 });
  const planted = probeKey();
  assert.notEqual(planted, before, 'a bwrap found first on the PATH is another key');
  rmSync(join(bin, 'bwrap'));
  assert.equal(probeKey(), before);

  const now = 5_000_000;
  rememberAvailable(before, now);
  assert.equal(rememberedAvailable(before, now + 1), true);
  assert.equal(rememberedAvailable(planted, now + 1), false, 'another key');
  assert.equal(rememberedAvailable(before, now + PROBE_MEMORY_MS), false, 'an hour old');
  assert.equal(rememberedAvailable(before, now - 1), false, 'from the future');
  chmodSync(record, 0o666);
  assert.equal(rememberedAvailable(before, now + 1), false, 'writable by others');
  chmodSync(record, 0o600);
  if (process.getuid?.() === 0) {
    chownSync(record, 4321, 4321);
    assert.equal(rememberedAvailable(before, now + 1), false, "another user's");
  }
  rmSync(record);
  writeFileSync(join(root, 'elsewhere.json'), JSON.stringify({ key: before, at: now }), { mode: 0o600 });
  symlinkSync(join(root, 'elsewhere.json'), record);
  assert.equal(rememberedAvailable(before, now + 1), false, 'a link');
  rmSync(record);
  execFileSync('mkfifo', [record]);
  assert.equal(rememberedAvailable(before, now + 1), false, 'a FIFO: not read (never blocks)');
  rmSync(record);
  writeFileSync(record, 'not json', { mode: 0o600 });
  assert.equal(rememberedAvailable(before, now + 1), false, 'not a record');
  rememberAvailable(before, now);
  assert.equal(rememberedAvailable(before, now + 1), true, 'written again over the bad one');
});

test('unit: several keys are remembered (a person with several projects), the newest sixteen within the hour', () => {
  rmSync(cache, { recursive: true, force: true });
  const now = 9_000_000;
  const keys = Array.from({ length: 17 }, (_, i) => i.toString(16).padStart(64, '0'));
  keys.forEach((k, i) => rememberAvailable(k, now + i));
  assert.equal(rememberedAvailable(keys[0] as string, now + 20), false, 'the oldest of seventeen is dropped');
  for (const k of keys.slice(1)) assert.equal(rememberedAvailable(k, now + 20), true);
  rememberAvailable(keys[1] as string, now + PROBE_MEMORY_MS + 5);
  assert.equal(rememberedAvailable(keys[2] as string, now + PROBE_MEMORY_MS + 6), false, 'an hour old');
  assert.equal(
    rememberedAvailable(keys[1] as string, now + PROBE_MEMORY_MS + 6),
    true,
    'probed again: remembered anew',
  );
});
