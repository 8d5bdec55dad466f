// unit: scripts/release.mjs cuts the next release on a copy of this checkout (package.json,
// package-lock.json, CHANGELOG.md, src/ in a throwaway repository whose commit is tagged as the
// newest release):
// it refuses while ids due at the new version are still plain patched() and changes nothing; once
// they are deprecatePatch() it bumps both version files, moves [Unreleased] into the release's
// entry (Commit: (tagged vX.Y.0), Patches), writes the previous release's hash from its tag, and
// names the tag to create. Without the tag it refuses and says to create it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitRepo } from '../support/gitRepo';
import {
  nextMinor,
  packageVersion,
  parseChangelog,
  patchIdsInSource,
  previousReleaseEntry,
  readChangelog,
  repoRoot,
  retirementProblems,
} from '../../scripts/releases';
import { PATCHES } from '../../src/temporal/workflows/versions';

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
  if (tag) g('tag', `v${packageVersion()}`);
  const changelog = join(dir, 'CHANGELOG.md');
  writeFileSync(
    changelog,
    readFileSync(changelog, 'utf8').replace('## [Unreleased]\n', '## [Unreleased]\n\n### Changed\n- Something.\n'),
  );
  return dir;
}

test('unit: release.mjs refuses a release whose due ids are still patched(), then cuts it once they are deprecated', async () => {
  const current = packageVersion();
  const next = nextMinor(current);
  const previous = readChangelog().entries[0];
  assert.equal(previous?.version, current);
  const listed = new Set(readChangelog().entries.flatMap((e) => e.patches));
  const introduced = PATCHES.filter((p) => !listed.has(p.id)).map((p) => p.id);
  const dir = await checkout(true);
  try {
    const before = readFileSync(join(dir, 'CHANGELOG.md'), 'utf8');
    // The ids the next release must deprecate (at 0.2.0: the four turn-only ids of 0.3.0).
    const due = PATCHES.filter((p) =>
      retirementProblems([p], patchIdsInSource(), next).some((m) => m.includes('deprecatePatch')),
    );
    const refused = release(dir, '--date', '2026-12-20');
    if (due.length > 0) {
      assert.equal(refused.status, 1, refused.stdout);
      for (const p of due) assert.match(refused.stderr, new RegExp(`${p.id}: retires in ${p.retireIn}`));
      assert.equal(readFileSync(join(dir, 'CHANGELOG.md'), 'utf8'), before, 'nothing written');
      assert.equal(packageVersion(dir), current);
    }

    // Deprecate them in the copy (a text edit is enough for the check: it reads the calls).
    const files = [...new Set(due.flatMap((p) => (patchIdsInSource().get(p.id) ?? []).map((c) => c.file)))];
    const constant = /export const ([A-Z_]+) = '([^']+)'/g;
    const ids = new Map(
      [...readFileSync(join(dir, 'src/temporal/workflows/patchIds.ts'), 'utf8').matchAll(constant)].map((m) => [
        m[2],
        m[1],
      ]),
    );
    for (const f of files) {
      let text = readFileSync(join(dir, f), 'utf8');
      for (const p of due) text = text.replaceAll(`patched(${ids.get(p.id)})`, `deprecatePatch(${ids.get(p.id)})`);
      writeFileSync(join(dir, f), text);
    }
    const cut = release(dir, '--date', '2026-12-20');
    assert.equal(cut.status, 0, cut.stderr);
    assert.match(cut.stdout, new RegExp(`git tag -a v${next.replaceAll('.', '\\.')}`));
    assert.equal(packageVersion(dir), next);
    const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as {
      version: string;
      packages: Record<string, { version: string }>;
    };
    assert.deepEqual([lock.version, lock.packages['']?.version], [next, next]);
    const text = readFileSync(join(dir, 'CHANGELOG.md'), 'utf8');
    const changelog = parseChangelog(text);
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
    assert.deepEqual(
      changelog.entries.slice(0, 2).map((e) => [e.version, e.date, e.commit, e.tag, e.patches.length]),
      [
        [next, '2026-12-20', undefined, `v${next}`, introduced.length],
        [current, previous?.date, previous?.commit ?? head, `v${current}`, previous?.patches.length],
      ],
    );
    const entry = `## [Unreleased]\n\n## [${next}] - 2026-12-20\n\nCommit: (tagged v${next})\nPatches: ${introduced.join(', ') || 'none'}\n\n### Changed\n- Something.\n`;
    assert.ok(text.includes(entry), text.slice(0, 1500));
    assert.equal(
      previousReleaseEntry(changelog, next)?.version,
      current,
      `the upgrade test now starts from ${current}`,
    );
    assert.equal(release(dir).status, 1, 'nothing under [Unreleased]: refused');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('unit: release.mjs without the previous release tag refuses and says to create it', async () => {
  const dir = await checkout(false);
  try {
    // The tag is looked up first: the newest release's entry names its commit by it until the next is cut.
    const r = release(dir, '--dry-run');
    if (!readChangelog().entries[0]?.commit) {
      assert.equal(r.status, 1);
      assert.match(
        r.stderr,
        new RegExp(`tag v${packageVersion().replaceAll('.', '\\.')}, which this clone does not have: create it`),
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
