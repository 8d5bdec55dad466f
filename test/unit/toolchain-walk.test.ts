// unit (issue 30, red team s, S3): the credential files inside the toolchains a closed HOME allows
// back are found by a walk (permissions/toolchainConfigs.ts). One budget for every toolchain was spent
// in pnpm's content-addressed store (every pnpm user's `~/.local/share/pnpm/store/v3/files/<xx>/…`)
// before pyenv, SDKMAN!, pipx and ~/.claude/plugins: their credential files were not denied. Now each
// toolchain has its own budget, hash fan-out directories are not walked, and what a walk cannot reach
// is denied whole (fail closed). Function level: the paths the sandbox read-denies
// (credentialPathsFromEnv); the end-to-end row (a sandboxed `cat`) is S3 in red-issue30-s.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { toolchainConfigFiles } from '../../src/permissions/toolchainConfigs';

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-toolwalk-')));
after(() => rmSync(base, { recursive: true, force: true }));

/** The credential files of the toolchains after pnpm's in HOME_TOOLCHAIN_PATHS' order. */
const BAIT = [
  '.pyenv/versions/3.11.4/envs/work/pip.conf',
  '.sdkman/candidates/maven/3.9.6/conf/settings.xml',
  '.claude/plugins/marketplaces/acme/.git/config',
  '.local/share/pipx/venvs/tool/pip.conf',
];

function bait(home: string): void {
  for (const rel of BAIT) {
    mkdirSync(path.dirname(path.join(home, rel)), { recursive: true });
    writeFileSync(path.join(home, rel), rel.endsWith('.xml') ? '<server><password>x</password></server>' : 'x\n');
  }
}

/** `dirs` directories of `per` files each below `top`, named by `name`. */
function fill(top: string, dirs: number, per: number, name: (i: number) => string): void {
  for (let i = 0; i < dirs; i++) {
    const d = path.join(top, name(i));
    mkdirSync(d, { recursive: true });
    for (let j = 0; j < per; j++) writeFileSync(path.join(d, j.toString(16).padStart(62, '0')), '');
  }
}

/** Is `f` denied by the list: the file itself or a directory holding it. */
const denied = (list: readonly string[], f: string) => list.some((p) => f === p || f.startsWith(`${p}/`));

test('S3: pnpm’s store (20,480 files) spends no other toolchain’s budget — every credential file after it is denied', () => {
  const home = path.join(base, 'pnpm');
  fill(path.join(home, '.local/share/pnpm/store/v3/files'), 256, 80, (i) => i.toString(16).padStart(2, '0'));
  bait(home);
  const list = toolchainConfigFiles(home, {});
  for (const rel of BAIT) assert.ok(denied(list, path.join(home, rel)), rel);
  assert.ok(!denied(list, path.join(home, '.local/share/pnpm/store')), 'the store itself stays readable');
});

test('S3: a toolchain too large to walk is denied where the walk did not reach (fail closed), the others walked in full', () => {
  const home = path.join(base, 'big');
  // ~/.gem with 300 gems of 80 files each (24,000 entries) and a credential file in the last one.
  fill(path.join(home, '.gem/ruby/3.2.0/gems'), 300, 80, (i) => `gem-${String(i).padStart(3, '0')}/data`);
  const deep = path.join(home, '.gem/ruby/3.2.0/gems/gem-299/data/x/.netrc');
  mkdirSync(path.dirname(deep), { recursive: true });
  writeFileSync(deep, 'machine x password y\n');
  bait(home);
  const list = toolchainConfigFiles(home, {});
  assert.ok(denied(list, deep), `${deep} is denied (its file or a directory above it): ${list.join(', ')}`);
  for (const rel of BAIT) assert.ok(denied(list, path.join(home, rel)), rel);
  assert.ok(!denied(list, path.join(home, '.gem/ruby/3.2.0/gems/gem-000/data')), 'what the walk read stays readable');
  assert.ok(list.filter((p) => p.startsWith(path.join(home, '.gem'))).length <= 64, 'a bounded deny list');
});
