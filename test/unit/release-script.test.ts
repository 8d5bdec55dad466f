// unit: scripts/release.mjs cuts a release on a copy of this checkout (package.json,
// package-lock.json, CHANGELOG.md, src/ in a throwaway repository whose commit is tagged v0.2.0):
// it refuses while ids due at the new version are still plain patched() and changes nothing; once
// they are deprecatePatch() it bumps both version files, moves [Unreleased] into the release's
// entry (Commit: (tagged v0.3.0), Patches), writes the previous release's hash from its tag, and
// names the tag to create. Without the tag it refuses and says to create it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitRepo } from '../support/gitRepo';
import { packageVersion, parseChangelog, previousReleaseEntry, repoRoot } from '../../scripts/releases';
import { PATCHES } from '../../src/workflows/versions';

function release(root: string, ...args: string[]) {
  return spawnSync(process.execPath, [join(repoRoot, 'scripts', 'release.mjs'), '--root', root, ...args], {
    encoding: 'utf8',
  });
}

async function checkout(tag: boolean): Promise<string> {
  const dir = await gitRepo('da-release-');
  for (const f of ['package.json', 'package-lock.json', 'CHANGELOG.md']) cpSync(join(repoRoot, f), join(dir, f));
  cpSync(join(repoRoot, 'src'), join(dir, 'src'), { recursive: true });
  const g = (...a: string[]) => execFileSync('git', a, { cwd: dir, encoding: 'utf8' }).trim();
  g('add', '.');
  g('commit', '-qm', 'release 0.2.0');
  if (tag) g('tag', 'v0.2.0');
  const changelog = join(dir, 'CHANGELOG.md');
  writeFileSync(
    changelog,
    readFileSync(changelog, 'utf8').replace('## [Unreleased]\n', '## [Unreleased]\n\n### Changed\n- Something.\n'),
  );
  return dir;
}

test('unit: release.mjs refuses a release whose due ids are still patched(), then cuts it once they are deprecated', async () => {
  assert.equal(packageVersion(), '0.2.0', 'this test is written for the step from 0.2.0');
  const dir = await checkout(true);
  try {
    const before = readFileSync(join(dir, 'CHANGELOG.md'), 'utf8');
    const refused = release(dir, '--date', '2026-12-20');
    assert.equal(refused.status, 1, refused.stdout);
    const due = PATCHES.filter((p) => p.retireIn === '0.3.0');
    for (const p of due) assert.match(refused.stderr, new RegExp(`${p.id}: retires in 0.3.0`));
    assert.equal(readFileSync(join(dir, 'CHANGELOG.md'), 'utf8'), before, 'nothing written');
    assert.equal(packageVersion(dir), '0.2.0');

    // Deprecate them in the copy (a text edit is enough for the check: it reads the calls).
    const files = ['src/workflows/turn.ts', 'src/workflows/subagent.ts'];
    const constant = /export const ([A-Z_]+) = '([^']+)'/g;
    const ids = new Map(
      [...readFileSync(join(dir, 'src/workflows/definitions.ts'), 'utf8').matchAll(constant)].map((m) => [m[2], m[1]]),
    );
    for (const f of files) {
      let text = readFileSync(join(dir, f), 'utf8');
      for (const p of due) text = text.replaceAll(`patched(${ids.get(p.id)})`, `deprecatePatch(${ids.get(p.id)})`);
      writeFileSync(join(dir, f), text);
    }
    const cut = release(dir, '--date', '2026-12-20');
    assert.equal(cut.status, 0, cut.stderr);
    assert.match(cut.stdout, /git tag -a v0\.3\.0/);
    assert.equal(packageVersion(dir), '0.3.0');
    const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as {
      version: string;
      packages: Record<string, { version: string }>;
    };
    assert.deepEqual([lock.version, lock.packages['']?.version], ['0.3.0', '0.3.0']);
    const text = readFileSync(join(dir, 'CHANGELOG.md'), 'utf8');
    const changelog = parseChangelog(text);
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
    assert.deepEqual(
      changelog.entries.slice(0, 2).map((e) => [e.version, e.date, e.commit, e.tag, e.patches.length]),
      [
        ['0.3.0', '2026-12-20', undefined, 'v0.3.0', 0],
        ['0.2.0', '2026-12-05', head, 'v0.2.0', 11],
      ],
    );
    assert.match(
      text,
      /## \[Unreleased\]\n\n## \[0\.3\.0\] - 2026-12-20\n\nCommit: \(tagged v0\.3\.0\)\nPatches: none\n\n### Changed\n- Something\.\n/,
    );
    assert.equal(previousReleaseEntry(changelog, '0.3.0')?.commit, head, 'the upgrade test now starts from 0.2.0');
    assert.equal(release(dir).status, 1, 'nothing under [Unreleased]: refused');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('unit: release.mjs without the previous release tag refuses and says to create it', async () => {
  const dir = await checkout(false);
  try {
    const r = release(dir, '0.3.0', '--dry-run');
    assert.equal(r.status, 1);
    // The due ids come first; without them, the tag.
    assert.match(r.stderr, /cannot be cut yet/);
    const r2 = release(dir, '0.2.1', '--dry-run');
    assert.equal(r2.status, 1);
    assert.match(r2.stderr, /tag v0\.2\.0, which this clone does not have: create it/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
