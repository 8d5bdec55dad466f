// unit: a test that needs a missing system package skips with an install hint on a developer's
// machine, and fails under CI; the skip is reported for the runner's summary line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findExecutable, isCI, requireSystemPackage } from '../support/systemPackages';

async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T> | T): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(vars))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
}

const missing = { command: 'da-no-such-command-x1', debianPackage: 'da-pkg', usedBy: 'the x1 test' };

test('unit: a missing package skips with the install hint outside CI and is reported for the summary line', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'da-syspkg-'));
  const file = join(dir, 'skipped.txt');
  await withEnv({ CI: undefined, DURABLE_AGENT_SKIPPED_FILE: file }, async () => {
    const r = requireSystemPackage(missing);
    assert.equal(r.found, false);
    assert.equal(typeof r.skip, 'string');
    assert.match(
      r.skip as string,
      /da-no-such-command-x1 not found: install Debian's da-pkg \(apt-get install -y da-pkg/,
    );
    assert.throws(() => r.assert(), /apt-get install -y da-pkg/);
    assert.equal(
      await readFile(file, 'utf8'),
      'the x1 test (da-no-such-command-x1 missing: apt-get install -y da-pkg)\n',
    );
  });
});

test('unit: under CI a missing package does not skip: assert() fails the test', async () => {
  for (const ci of ['true', '1']) {
    await withEnv({ CI: ci, DURABLE_AGENT_SKIPPED_FILE: undefined }, () => {
      assert.equal(isCI(), true);
      const r = requireSystemPackage(missing);
      assert.equal(r.skip, false);
      assert.throws(() => r.assert(), /CI=true: a missing system package fails the test/);
    });
  }
  await withEnv({ CI: 'false' }, () => assert.equal(isCI(), false));
});

test('unit: an opt-out variable skips even under CI; a present package neither skips nor throws', async () => {
  await withEnv({ CI: 'true', DA_X1_SKIP: '1' }, () => {
    assert.equal(requireSystemPackage({ ...missing, optOutEnv: 'DA_X1_SKIP' }).skip, 'DA_X1_SKIP=1');
  });
  const sh = findExecutable('sh');
  assert.ok(sh && sh.endsWith('/sh'));
  await withEnv({ CI: undefined }, () => {
    const r = requireSystemPackage({ command: 'sh', debianPackage: 'dash', usedBy: 'shells' });
    assert.equal(r.found, true);
    assert.equal(r.path, sh);
    assert.equal(r.skip, false);
    r.assert();
    assert.equal(requireSystemPackage({ ...missing, probe: () => '/opt/x1' }).found, true);
  });
});
