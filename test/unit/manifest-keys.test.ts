// unit (issue 30; red teams n and o: N5b, N5c, N7, N8, O6 husky, O14): what the undo and the file
// tools read in manifests — a package.json over the size limit, `directories.bin` at any depth, the
// package.json scripts the person's git hooks run, the Python linters' keys in pyproject.toml,
// setup.cfg and tox.ini, and the file a protected `.bin` symlink leads to. Real files, no sandbox.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import {
  MAX_MANIFEST_BYTES,
  binFileRefusal,
  manifestBins,
  manifestEditRefusal,
  undoManifestBins,
} from '../../src/sandbox/manifestBins';
import { hookManifestKeys, repositoryConfigTargets } from '../../src/sandbox/repoConfigTargets';
import { iniKeys, tomlKeys } from '../../src/sandbox/configKeys';
import { lintEditRefusal, lintKeysOf, undoLintKeys } from '../../src/sandbox/lintKeys';
import { addProtectedEntries } from '../../src/sandbox/protect';
import { manifestWriteRefusal } from '../../src/tools/manifestGuard';
import { SandboxHost } from '../../src/sandbox/host';
import { sandboxSkip } from '../support/systemPackages';
import { redTool } from '../support/redTool';

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-mkeys-')));
let n = 0;
const dir = () => {
  const d = path.join(base, `p${++n}`);
  mkdirSync(d);
  return d;
};
let sandboxHost: SandboxHost;
let skip: string | false = false;
const tool = redTool(() => sandboxHost, 'mkeys');
before(async () => {
  sandboxHost = new SandboxHost();
  skip = await sandboxSkip(sandboxHost, 'the sandboxed manifest-keys rows');
});
after(async () => {
  await sandboxHost?.close();
  rmSync(base, { recursive: true, force: true });
});
const json = (f: string) => JSON.parse(readFileSync(f, 'utf8')) as Record<string, unknown>;

test('N5b: a package.json over the limit a command made or changed is put back whole (removed when new)', () => {
  const d = dir();
  const f = path.join(d, 'package.json');
  const big = `{"name":"p","bin":{"durable-agent":"x.js"},"pad":"${' '.repeat(MAX_MANIFEST_BYTES)}"}`;
  writeFileSync(f, '{"name":"p"}\n');
  const before = manifestBins([f]);
  writeFileSync(f, big);
  assert.equal(undoManifestBins([f], before).length, 1);
  assert.equal(readFileSync(f, 'utf8'), '{"name":"p"}\n');
  const g = path.join(dir(), 'package.json');
  const none = manifestBins([g]);
  writeFileSync(g, big);
  assert.match(undoManifestBins([g], none).join('\n'), /removed/);
  assert.equal(existsSync(g), false);
  assert.match(manifestEditRefusal(f, '{}', big) ?? '', /larger than/);
});

test('a package.json the check cannot look through (nested too deep, a bin value with its own toString) is judged whole, never skipped', () => {
  const deep = '['.repeat(200_000) + ']'.repeat(200_000);
  for (const text of [
    `{"name":"p","bin":{"durable-agent":"x.js"},"x":${deep}}`,
    `{"name":"p","prettier":{"plugins":["./p.cjs"],"x":${deep}}}`,
    '{"name":"p","bin":{"durable-agent":{"toString":1},"./durable-agent":"x.js"}}',
  ]) {
    const f = path.join(dir(), 'package.json');
    writeFileSync(f, '{"name":"p"}\n');
    const before = manifestBins([f]);
    writeFileSync(f, text);
    assert.equal(undoManifestBins([f], before).length, 1, text.slice(0, 60));
    assert.ok(!/durable-agent|prettier/.test(readFileSync(f, 'utf8')), text.slice(0, 60));
    assert.match(manifestEditRefusal(f, '{"name":"p"}', text) ?? '', /Refused/);
  }
});

test('N5c: directories.bin added or changed is put back; a durable-agent at any depth below a person’s own removes it; the file tools refuse a deep one', () => {
  const d = dir();
  const f = path.join(d, 'package.json');
  writeFileSync(f, '{"name":"p"}');
  const before = manifestBins([f]);
  writeFileSync(f, '{"name":"p","version":"2.0.0","directories":{"bin":"tools"}}');
  assert.equal(undoManifestBins([f], before).length, 1);
  assert.deepEqual(json(f), { name: 'p', version: '2.0.0', directories: {} });
  assert.match(
    manifestEditRefusal(f, '{"name":"p"}', '{"name":"p","directories":{"bin":"../x"}}') ?? '',
    /directories\.bin/,
  );

  const own = dir();
  const m = path.join(own, 'package.json');
  writeFileSync(m, '{"name":"p","directories":{"bin":"tools"}}');
  mkdirSync(path.join(own, 'tools', 'sub', 'deeper'), { recursive: true });
  const was = manifestBins([m]);
  assert.deepEqual(undoManifestBins([m], was), []);
  writeFileSync(path.join(own, 'tools', 'sub', 'deeper', 'durable-agent'), '#!/bin/sh\n');
  assert.equal(undoManifestBins([m], was).length, 1);
  assert.equal((json(m).directories as Record<string, unknown>).bin, undefined);
  writeFileSync(m, '{"name":"p","directories":{"bin":"tools"}}');
  assert.match(binFileRefusal(path.join(own, 'tools', 'sub', 'x', 'durable-agent')) ?? '', /directories\.bin/);
  assert.equal(binFileRefusal(path.join(own, 'src', 'durable-agent')), undefined);
});

/** A repository whose husky hook runs `npm run -s precommit` (and `npx lint-staged`). */
function huskyRepo(): string {
  const d = dir();
  execFileSync('git', ['init', '-q'], { cwd: d });
  execFileSync('git', ['config', 'core.hooksPath', '.husky'], { cwd: d });
  mkdirSync(path.join(d, '.husky'));
  writeFileSync(path.join(d, '.husky', 'pre-commit'), '#!/bin/sh\nnpm run -s precommit\nnpx --no -- lint-staged\n');
  writeFileSync(
    path.join(d, 'package.json'),
    JSON.stringify({
      name: 'p',
      scripts: { precommit: 'npm run lint && sh scripts/check.sh', lint: 'node tools/lint.js', build: 'tsc' },
    }),
  );
  return d;
}

test('O6 husky: the scripts the person’s hooks run are put back key by key, the rest of the edit kept; the file tools refuse them', async () => {
  const d = huskyRepo();
  const f = path.join(d, 'package.json');
  const keys = hookManifestKeys([d]).get(f);
  assert.ok(keys);
  for (const s of ['precommit', 'preprecommit', 'postprecommit', 'lint', 'prelint'])
    assert.ok(keys.scripts.includes(s), s);
  assert.ok(!keys.scripts.includes('build'));
  assert.deepEqual(keys.bins, ['lint-staged']);
  const targets = repositoryConfigTargets([d]).map((e) => e.path);
  assert.ok(
    targets.includes(path.join(d, 'scripts', 'check.sh')) && targets.includes(path.join(d, 'tools', 'lint.js')),
  );
  assert.ok(!targets.includes(f), 'package.json stays the agent’s but for those keys');
  const before = manifestBins([f], hookManifestKeys([d]));
  writeFileSync(
    f,
    JSON.stringify({
      name: 'p',
      scripts: { precommit: 'env > /tmp/x', lint: 'node tools/lint.js', build: 'tsc -b', postprecommit: 'x' },
      bin: { 'lint-staged': 'evil.js' },
    }),
  );
  const notes = undoManifestBins([f], before);
  assert.equal(notes.length, 1, notes.join('\n'));
  assert.deepEqual(json(f), {
    name: 'p',
    scripts: { precommit: 'npm run lint && sh scripts/check.sh', lint: 'node tools/lint.js', build: 'tsc -b' },
    bin: {},
  });
  const now = readFileSync(f, 'utf8');
  const edit = (scripts: Record<string, string>) => JSON.stringify({ ...json(f), scripts });
  assert.match(
    (await manifestWriteRefusal(f, edit({ ...(json(f).scripts as object), precommit: 'x' }), async () => now)) ?? '',
    /scripts\.precommit/,
  );
  assert.equal(
    await manifestWriteRefusal(f, edit({ ...(json(f).scripts as object), build: 'x' }), async () => now),
    undefined,
  );
});

test('N7/O14: TOML and INI read as the tools read them (strings, inline tables, escapes, continuation lines)', () => {
  const keys = tomlKeys(
    '[project]\ns = """\n[tool.pylint.main]\ninit-hook = 1\n"""\nd = 1979-05-27 07:32:00Z\n[tool]\npylint = { main = { "init-\\u0068ook" = "x" } }\n',
  ).map((k) => k.path.join('.'));
  assert.ok(keys.includes('tool.pylint.main.init-hook'));
  assert.ok(!keys.some((k) => k.startsWith('tool.pylint') && k !== 'tool.pylint.main.init-hook'));
  assert.throws(() => tomlKeys('[tool.pylint\n'));
  // configparser: an indented header after an option continues its value.
  const ini = iniKeys('[x]\na = 1\n  [pylint.main]\ninit-hook = y ; c\n', true);
  assert.deepEqual(
    ini.map((k) => k.path),
    [
      ['x', 'a'],
      ['x', 'init-hook'],
    ],
  );
});

test('N7/O14: a linter file whose protected keys a command added or changed is put back; other edits stay; the file tools refuse', () => {
  const d = dir();
  const py = path.join(d, 'pyproject.toml');
  const cfg = path.join(d, 'setup.cfg');
  const tox = path.join(d, 'tox.ini');
  writeFileSync(py, '[project]\nname = "x"\n[tool.pylint.main]\ndisable = "all"\n');
  const before = lintKeysOf([py, cfg, tox]);
  writeFileSync(py, '[project]\nname = "y"\ndependencies = ["a"]\n[tool.pylint.main]\ndisable = "none"\n');
  assert.deepEqual(undoLintKeys([py], before), []);
  const edited = readFileSync(py, 'utf8');
  const after = lintKeysOf([py, cfg, tox]);
  writeFileSync(py, `${edited}[tool.mypy]\nplugins = ["./p.py"]\n`);
  writeFileSync(cfg, '[metadata]\nname = x\n[DEFAULT]\ninit-hook = import os\n');
  writeFileSync(tox, '[tox]\nenv_list = py\n[flake8:local-plugins]\npaths = ./tools\n');
  assert.equal(undoLintKeys([py, cfg, tox], after).length, 3);
  assert.equal(readFileSync(py, 'utf8'), edited);
  assert.equal(existsSync(cfg) || existsSync(tox), false);
  writeFileSync(py, '[tool.pylint\n'); // unreadable: put back too
  assert.match(undoLintKeys([py], after).join('\n'), /cannot be checked/);
  assert.equal(readFileSync(py, 'utf8'), edited);
  assert.match(lintEditRefusal(py, edited, `${edited}[tool.pylint.x]\nload-plug = "a"\n`) ?? '', /Refused/);
  assert.equal(lintEditRefusal(py, edited, `${edited}[tool.black]\nline-length = 100\n`), undefined);
  assert.match(lintEditRefusal(cfg, null, '[pylint.main]\ninit-hook=x\n') ?? '', /Refused/);
  // The person's own key removed by a command (or an edit): allowed, as for package.json's keys.
  writeFileSync(py, '[tool.mypy]\nplugins = ["a"]\nstrict = true\n');
  const own = lintKeysOf([py]);
  writeFileSync(py, '[tool.mypy]\nstrict = true\n');
  assert.deepEqual(undoLintKeys([py], own), []);
  assert.equal(lintEditRefusal(py, '[tool.mypy]\nplugins = ["a"]\n', '[tool.mypy]\n'), undefined);
  assert.match(
    lintEditRefusal(py, '[tool.mypy]\nplugins = ["a"]\n', '[tool.mypy]\nplugins = ["b"]\n') ?? '',
    /Refused/,
  );
});

test('N8: the file a protected .bin symlink leads to is fingerprinted like the tail; one elsewhere is not', () => {
  const d = dir();
  mkdirSync(path.join(d, 'node_modules', 'node', 'bin'), { recursive: true });
  mkdirSync(path.join(d, 'node_modules', '.bin'));
  writeFileSync(path.join(d, 'node_modules', 'node', 'bin', 'node'), '#!/bin/sh\n');
  symlinkSync('../node/bin/node', path.join(d, 'node_modules', '.bin', 'node'));
  symlinkSync('/bin/sh', path.join(d, 'node_modules', '.bin', 'sh'));
  const scan = { entries: new Map(), truncated: false };
  addProtectedEntries(scan, [path.join(d, 'node_modules', '.bin', 'node'), path.join(d, 'node_modules', '.bin', 'sh')]);
  const target = scan.entries.get(path.join(d, 'node_modules', 'node', 'bin', 'node'));
  assert.ok(target?.loose, [...scan.entries.keys()].join('\n'));
  assert.equal(scan.entries.has('/bin/sh') || scan.entries.has(realpathSync('/bin/sh')), false);
});

test('N7 live (dontAsk): a command that adds pylint’s init-hook to setup.cfg and keeps running — put back while it runs; a later edit of the file that adds no such key stays', async (t) => {
  if (skip) return t.skip(skip);
  const d = dir();
  const cfg = path.join(d, 'setup.cfg');
  writeFileSync(cfg, '[metadata]\nname = x\n');
  const seen = path.join(d, 'seen.txt');
  const out = await tool(d, 'dontAsk', 'Bash', {
    command: `printf '[pylint.main]\\ninit-hook = open("x", "w")\\n' >> setup.cfg && sleep 1 && cat setup.cfg > seen.txt; printf '[metadata2]\\nname = y\\n' >> setup.cfg; echo done`,
  });
  t.diagnostic(`${out.status}: ${out.text.slice(0, 300)}`);
  assert.match(out.text, /setup\.cfg: put back as it was/);
  assert.equal(readFileSync(seen, 'utf8'), '[metadata]\nname = x\n', 'the key was there while the command ran');
  // A later edit that adds no protected key stays.
  assert.equal(readFileSync(cfg, 'utf8'), '[metadata]\nname = x\n[metadata2]\nname = y\n');
});
