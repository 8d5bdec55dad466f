// What the person's direnv, mise and uv control files load (src/sandbox/toolConfigTargets.ts; red
// team q, Q14; red team r, R3, R6, R9): the files and PATH directories they name are read at each
// command's start and after it. Function rows (what is named, what the file tools refuse) and rows
// through the real OS sandbox that need no direnv, mise or uv binary (the red rows with the person's
// real tools are in unit/red-issue30-q and unit/red-issue30-r): a program named like one of the
// person's in such a directory is removed, the agent's own files there (`bin/app`, an npm bin) and a
// version request in `.python-version` stay.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { SandboxHost } from '../../src/sandbox/host';
import { toolConfigTargets, toolConfigWriteRefusal } from '../../src/sandbox/toolConfigTargets';
import { sandboxSkip } from '../support/systemPackages';
import { redTool } from '../support/redTool';

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-tct-')));
let host: SandboxHost;
let skip: string | false = false;
const tool = redTool(() => host, 'tct');

before(async () => {
  host = new SandboxHost();
  skip = await sandboxSkip(host, 'the tool-config-targets sandbox rows');
});
after(async () => {
  await host?.close();
  rmSync(base, { recursive: true, force: true });
});

let seq = 0;
/** A project with `files` (path → content; a `bin/`-like path ending in `*` is made executable). */
function project(files: Record<string, string>): string {
  const root = path.join(base, `p${++seq}`);
  for (const [rel, body] of Object.entries(files)) {
    const f = path.join(root, rel.replace(/\*$/, ''));
    mkdirSync(path.dirname(f), { recursive: true });
    writeFileSync(f, body);
    if (rel.endsWith('*')) chmodSync(f, 0o755);
  }
  mkdirSync(root, { recursive: true });
  return root;
}

const named = (root: string) =>
  toolConfigTargets([root])
    .map((e) => `${path.relative(root, e.path)}${e.loose !== undefined ? ' (loose)' : ''}`)
    .sort();

test('toolConfigTargets: what an .envrc loads and puts on PATH (direnv’s standard library)', () => {
  const root = project({
    '.envrc': [
      'source_env_if_exists .envrc.local',
      'dotenv',
      'source ./scripts/env.sh # comment',
      'PATH_add bin',
      'export PATH="$PWD/tools:$PATH"',
      'layout node',
      'layout python',
      'use flake',
      'watch_file package.json',
      'PATH_add "$(some_function)"',
    ].join('\n'),
    '.env': 'PATH=./envbin:/usr/bin\n',
    'bin/git*': '#!/bin/sh\n',
    'bin/app*': '#!/bin/sh\n',
    'tools/make*': '#!/bin/sh\n',
    'envbin/ls*': '#!/bin/sh\n',
    'node_modules/.bin/cat*': '#!/bin/sh\n',
    'node_modules/.bin/tsc-own*': '#!/bin/sh\n',
    '.direnv/python-3.11/bin/grep*': '#!/bin/sh\n',
  });
  assert.deepEqual(named(root), [
    '.direnv/python-3.11/bin/grep (loose)',
    '.env',
    '.envrc.local',
    'bin/git',
    'envbin/ls',
    'flake.lock',
    'flake.nix',
    'node_modules/.bin/cat (loose)',
    'scripts/env.sh',
    'tools/make',
  ]);
});

test('toolConfigTargets: what a mise config names (_.source, _.file, _.path, _.python.venv, hooks), and .python-version paths', () => {
  const root = project({
    '.config/mise.toml': [
      '[env]',
      '_.source = "./scripts/env.sh"',
      '_.file = [".env.dev", {path = "{{config_root}}/.env.json"}]',
      '_.path = ["./bin", "{{config_root}}/other"]',
      '_.python.venv = {path = ".venv", create = true}',
      '[hooks]',
      'enter = "sh scripts/enter.sh"',
    ].join('\n'),
    'bin/git*': '',
    'other/ssh*': '',
    '.venv/bin/python3*': '',
    '.venv/bin/mytool*': '',
    'sub/.python-version': '3.12\n',
  });
  assert.deepEqual(named(root), [
    '.env.dev',
    '.env.json',
    '.venv/bin/python3 (loose)',
    'bin/git',
    'other/ssh',
    'scripts/enter.sh',
    'scripts/env.sh',
  ]);
  // A nested .envrc (found by the scan) that sources up, lays out php and a mise dotenv file's PATH.
  const more = project({
    'sub/.envrc': 'source_up_if_exists .envrc.shared\nlayout php\n',
    'sub/vendor/bin/env*': '',
    'mise.toml': '[env]\n_.file = ".env.mise"\n',
    '.env.mise': 'PATH=./mbin:$PATH\n',
    'mbin/sudo*': '',
  });
  assert.deepEqual(
    toolConfigTargets([more], [path.join(more, 'sub', '.envrc')])
      .map((e) => path.relative(more, e.path))
      .sort(),
    ['.env.mise', '.envrc.shared', 'mbin/sudo', 'sub/vendor/bin/env'],
  );
  const py = project({ '.python-version': './tools/python\n' });
  assert.deepEqual(named(py), ['.python-version', 'tools/python']);
  // A nested one is found beside what the protection scan records (sessionPlan.ts passes it).
  const nested = project({ 'sub/.python-version': 'tools/py\n' });
  assert.deepEqual(
    toolConfigTargets([nested], [path.join(nested, 'sub', '.python-version')]).map((e) =>
      path.relative(nested, e.path),
    ),
    ['sub/.python-version', 'sub/tools/py'],
  );
});

test('toolConfigWriteRefusal: the file tools refuse what the person’s control files load, in every mode; the agent’s own files pass', () => {
  const root = project({
    '.envrc': 'source_env_if_exists .envrc.local\nPATH_add bin\n',
    'mise.toml': '[env]\n_.source = "./scripts/env.sh"\n',
  });
  for (const rel of ['.envrc.local', 'bin/git', 'bin/ls', 'scripts/env.sh'])
    assert.match(toolConfigWriteRefusal(path.join(root, rel), 'x') ?? '', /Refused to write/, rel);
  for (const rel of ['bin/app', 'src/git', 'scripts/other.sh'])
    assert.equal(toolConfigWriteRefusal(path.join(root, rel), 'x'), undefined, rel);
  assert.match(toolConfigWriteRefusal(path.join(root, '.python-version'), './tools/python\n') ?? '', /uv run/);
  assert.equal(toolConfigWriteRefusal(path.join(root, '.python-version'), '3.12\n'), undefined);
});

const readText = (f: string) => (existsSync(f) ? readFileSync(f, 'utf8') : '');
/** One sandboxed Bash call in `root` (dontAsk, no rule): its result text. */
const bash = async (root: string, command: string) => (await tool(root, 'dontAsk', 'Bash', { command })).text;

test('sandbox (dontAsk): PATH_add bin and layout node — a program named like the person’s is removed, the agent’s own build output and npm bins stay', async (t) => {
  if (skip) return t.skip(skip);
  const root = project({ '.envrc': 'PATH_add bin\nlayout node\n', 'bin/serve*': '#!/bin/sh\n' });
  const out = await bash(
    root,
    [
      'mkdir -p bin node_modules/.bin',
      "printf '#!/bin/sh\\n' > bin/app && printf '#!/bin/sh\\n' > bin/make",
      "printf '#!/bin/sh\\n' > node_modules/.bin/ls && printf '#!/bin/sh\\n' > node_modules/.bin/my-cli",
      'chmod +x bin/* node_modules/.bin/*',
    ].join(' && '),
  );
  t.diagnostic(out.slice(0, 400));
  const there = (rel: string) => existsSync(path.join(root, rel));
  assert.deepEqual(
    ['bin/app', 'bin/make', 'node_modules/.bin/ls', 'node_modules/.bin/my-cli', 'bin/serve'].map((r) => [r, there(r)]),
    [
      ['bin/app', true],
      ['bin/make', false],
      ['node_modules/.bin/ls', false],
      ['node_modules/.bin/my-cli', true],
      ['bin/serve', true],
    ],
  );
});

test('sandbox (dontAsk): mise _.source and _.path (R6 without the mise binary) — the script is read-only, a bin/git is removed', async (t) => {
  if (skip) return t.skip(skip);
  const root = project({
    'mise.toml': '[env]\n_.source = "./scripts/env.sh"\n_.path = ["./bin"]\n',
    'scripts/env.sh': 'export APP_ENV=dev\n',
    'bin/serve*': '#!/bin/sh\n',
  });
  const out = await bash(root, "echo 'env > /tmp/x' >> scripts/env.sh; printf '#!/bin/sh\\n' > bin/git; echo done");
  t.diagnostic(out.slice(0, 400));
  assert.deepEqual(
    { script: readText(path.join(root, 'scripts/env.sh')), git: existsSync(path.join(root, 'bin/git')) },
    { script: 'export APP_ENV=dev\n', git: false },
  );
});

test('sandbox (dontAsk): .python-version (R9) — a path and the program it names are removed; a version request stays the agent’s', async (t) => {
  if (skip) return t.skip(skip);
  const root = project({ 'pyproject.toml': '[project]\nname = "app"\nversion = "0.1.0"\n' });
  await bash(root, "mkdir -p tools && printf '#!/bin/sh\\n' > tools/python && echo ./tools/python > .python-version");
  assert.deepEqual(
    { pin: existsSync(path.join(root, '.python-version')), program: existsSync(path.join(root, 'tools/python')) },
    { pin: false, program: false },
  );
  await bash(root, 'echo 3.12 > .python-version');
  assert.equal(readText(path.join(root, '.python-version')), '3.12\n');
});
