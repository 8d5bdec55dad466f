// unit (issue 30, round g, G-H5 and its class): control files that make a developer tool run a
// program of the file's choosing when the person merely runs the tool in that directory —
// `rust-toolchain(.toml)` naming a toolchain `path`, mise's and asdf's configs, Mercurial's
// `.hg/hgrc`, pylint's `init-hook`, mypy's `plugins`, pdb's, irb's, R's start-up files — are
// protected names (src/permissions/protectedPaths.ts). A sandboxed command that plants one, at
// any depth, leaves nothing after the call; an absent one gets no empty placeholder while a command
// runs where an empty file would break the tool (the agent's own `cargo build` keeps working).
// Ordinary project code (`build.rs`, `conftest.py`, `pyproject.toml`) stays writable.
// Oracles: the real file system, and real tools (cargo, hg, pylint) run afterwards as the person,
// outside any sandbox, leaving a mark file if they ran the planted program.
import { after, test } from 'node:test';
import { spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { initialContext } from '../../src/core/context';
import { isProtectedPath } from '../../src/permissions/protectedPaths';
import { SandboxHost } from '../../src/sandbox/host';
import { BashTool, type BashOutput } from '../../src/tools/bash';
import type { ToolUseContext } from '../../src/toolProtocol/Tool';
import { findExecutable, reportSkip, requireSystemPackage, sandboxSkip } from '../support/systemPackages';

const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-protnames-')));
const sandboxHost = new SandboxHost();
after(async () => {
  await sandboxHost.close();
});

let calls = 0;
async function sandboxedBash(cwd: string, command: string): Promise<BashOutput> {
  const ctx: ToolUseContext = {
    sessionId: `protnames-${process.pid}`,
    toolUseId: `toolu_protnames_${++calls}`,
    idempotencyKey: `k${calls}`,
    agent: { ...initialContext(cwd), projectDir: cwd },
    permission: { mode: 'dontAsk', rules: { allow: [], ask: [], deny: [] }, workingDirectories: [cwd], sandbox: {} },
    abortSignal: new AbortController().signal,
    sandboxHost,
  };
  return (await BashTool.call({ command, timeout: 300_000 }, ctx, () => undefined)).data as BashOutput;
}

/** Debian packages .ci/run installs for these rows (under CI a missing one fails them). */
const DEBIAN: Record<string, string> = { hg: 'mercurial', pylint: 'pylint' };

/**
 * Skip reason when the sandbox or a tool is missing: hg and pylint are system packages (skipped on a
 * developer's machine, required under CI); cargo comes from rustup, not Debian, so its rows skip.
 */
async function needs(...tools: string[]): Promise<string | false> {
  const s = await sandboxSkip(sandboxHost, 'unit/protected-names');
  if (s) return s;
  for (const tool of tools) {
    const debianPackage = DEBIAN[tool];
    if (debianPackage) {
      const req = requireSystemPackage({ command: tool, debianPackage, usedBy: 'unit/protected-names' });
      if (req.skip) return req.skip;
      req.assert();
    } else if (!findExecutable(tool)) {
      reportSkip(`unit/protected-names (${tool} is not installed)`);
      return `${tool} is not installed`;
    }
  }
  return false;
}

function project(): { base: string; proj: string; mark: string } {
  const base = realpathSync(mkdtempSync(path.join(root, 'p-')));
  const proj = path.join(base, 'proj');
  mkdirSync(proj);
  return { base, proj, mark: path.join(base, 'MARK') };
}

const DEEP = 'd1/d2/d3/d4/d5/d6/d7'; // below the bounded scan's depth (5): the tree watch's record

test('names: the control files of the class are protected at any depth; ordinary project code is not', () => {
  const proj = '/p';
  const isProtected = (rel: string) => isProtectedPath(path.join(proj, rel), [proj]);
  for (const rel of [
    'crates/x/rust-toolchain.toml',
    'crates/x/rust-toolchain',
    'RUST-TOOLCHAIN.TOML',
    'a/.tool-versions',
    'mise.toml',
    'a/.mise.toml',
    'mise.local.toml',
    '.mise.local.toml',
    'mise.dev.toml',
    '.mise.ci.local.toml',
    'a/.config/mise/config.toml',
    'a/.config/mise/conf.d/x.toml',
    'a/.config/mise.toml',
    'a/mise/config.toml',
    'a/mise/config.local.toml',
    'a/.mise/config.toml',
    'sub/.hg/hgrc',
    'sub/.hg/sharedpath',
    '.hgrc',
    'a/.pylintrc',
    'a/pylintrc',
    'a/.pylintrc.toml',
    'a/mypy.ini',
    'a/.mypy.ini',
    'a/.pdbrc',
    'a/.irbrc',
    'a/.pryrc',
    'a/.Rprofile',
    'a/.Renviron',
    'a/.ghci',
    'a/.sbtopts',
    'a/.jvmopts',
  ])
    assert.equal(isProtected(rel), true, `${rel} should be protected`);
  for (const rel of [
    'build.rs',
    'crates/x/build.rs',
    'conftest.py',
    'setup.py',
    'setup.cfg',
    'pyproject.toml',
    'tox.ini',
    'package.json',
    'Makefile',
    'eslint.config.js',
    'Cargo.toml',
    'src/mise.rs',
    'mise/notes.toml',
    'docs/rust-toolchain.md',
    'hgrc',
  ])
    assert.equal(isProtected(rel), false, `${rel} is project code, not a control file`);
});

test('rust-toolchain: the agent’s own sandboxed cargo works (no placeholder), with and without a pinned toolchain', async (t) => {
  const skip = await needs('cargo', 'rustup');
  if (skip) return t.skip(skip);
  const { proj } = project();
  const made = spawnSync('cargo', ['new', '-q', '--vcs', 'none', 'app'], { cwd: proj, encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  const app = path.join(proj, 'app');
  // An empty rust-toolchain would make this fail ("empty toolchain override file detected").
  const bare = await sandboxedBash(
    proj,
    'test ! -e rust-toolchain && test ! -e rust-toolchain.toml && cd app && test ! -e rust-toolchain && ' +
      'cargo --version && cargo build --offline -q && ./target/debug/app && echo AGENT-OK',
  );
  assert.equal(bare.sandbox?.sandboxed, true);
  assert.match(bare.output, /Hello, world!\s*AGENT-OK/, bare.output);
  assert.equal(existsSync(path.join(proj, 'rust-toolchain')), false);
  assert.equal(existsSync(path.join(app, 'rust-toolchain')), false);
  // A project that pins its toolchain: the agent's cargo reads the pin; it cannot rewrite it.
  const pin = path.join(app, 'rust-toolchain.toml');
  writeFileSync(pin, '[toolchain]\nchannel = "stable"\n');
  const pinned = await sandboxedBash(
    proj,
    `cd app && cargo build --offline -q && echo BUILT; printf '[toolchain]\\npath = "/tmp"\\n' > rust-toolchain.toml || echo DENIED`,
  );
  assert.match(pinned.output, /BUILT/, pinned.output);
  assert.match(pinned.output, /DENIED/, pinned.output);
  assert.equal(readFileSync(pin, 'utf8'), '[toolchain]\nchannel = "stable"\n');
});

test('rust-toolchain (no extension), shallow and deep: planted with a toolchain path, gone after the call; the person’s cargo runs its own', async (t) => {
  const skip = await needs('cargo', 'rustup');
  if (skip) return t.skip(skip);
  const { proj, mark } = project();
  const tc = path.join(proj, 'tools', 'tc');
  const plant = (dir: string, name: string) =>
    `mkdir -p ${dir} && printf '[toolchain]\\npath = "${tc}"\\n' > ${dir}/${name}`;
  const out = await sandboxedBash(
    proj,
    [
      `mkdir -p ${tc}/bin ${tc}/lib`,
      `printf '#!/bin/sh\\necho PWNED > ${mark}\\necho fake\\n' > ${tc}/bin/cargo && chmod +x ${tc}/bin/cargo`,
      `cp ${tc}/bin/cargo ${tc}/bin/rustc`,
      plant('crates/a', 'rust-toolchain'),
      plant(`crates/${DEEP}`, 'rust-toolchain'),
      plant(`crates/${DEEP}/b`, 'rust-toolchain.toml'),
      'echo PLANTED',
    ].join(' && '),
  );
  assert.match(out.output, /PLANTED/, out.output);
  for (const rel of [
    'crates/a/rust-toolchain',
    `crates/${DEEP}/rust-toolchain`,
    `crates/${DEEP}/b/rust-toolchain.toml`,
  ])
    assert.equal(existsSync(path.join(proj, rel)), false, `${rel} is left after the call`);
  for (const dir of ['crates/a', `crates/${DEEP}`, `crates/${DEEP}/b`]) {
    const r = spawnSync('cargo', ['--version'], { cwd: path.join(proj, dir), encoding: 'utf8', timeout: 30_000 });
    assert.match(r.stdout, /^cargo \d/, `${dir}: ${r.stdout}${r.stderr}`);
  }
  assert.equal(existsSync(mark), false, `the person's cargo ran the agent's program`);
});

test('mise, asdf, linters, REPLs: every planted control file is gone after the call; ordinary project code stays', async (t) => {
  const skip = await needs();
  if (skip) return t.skip(skip);
  const { proj } = project();
  const planted = [
    '.tool-versions',
    'mise.toml',
    '.mise.toml',
    'mise.local.toml',
    'mise.dev.toml',
    '.config/mise/config.toml',
    '.config/mise/conf.d/x.toml',
    'mise/config.toml',
    '.mise/config.toml',
    '.pylintrc',
    'pylintrc',
    'mypy.ini',
    '.pdbrc',
    '.irbrc',
    '.pryrc',
    '.Rprofile',
    '.Renviron',
    '.ghci',
    '.sbtopts',
    '.jvmopts',
    '.hgrc',
  ].flatMap((f) => [`s/${f}`, `${DEEP}/${f}`]);
  const ordinary = ['s/conftest.py', 's/build.rs', 's/pyproject.toml', `${DEEP}/setup.py`, `${DEEP}/package.json`];
  // The live guard may remove a planted file as soon as it appears (even before a `test -s` of it,
  // so no row here tests a plant's size): each plant is its own step; the ordinary files must be
  // written and stay.
  const plants = planted.map((f) => `{ mkdir -p "$(dirname ${f})" && printf 'x = 1\\n' > ${f}; } 2>/dev/null`);
  const writes = ordinary.map((f) => `mkdir -p "$(dirname ${f})" && printf 'x = 1\\n' > ${f} && test -s ${f}`);
  const out = await sandboxedBash(proj, [plants.join('; '), [...writes, 'echo PLANTED'].join(' && ')].join('; '));
  assert.match(out.output, /PLANTED/, out.output);
  const left = planted.filter((f) => existsSync(path.join(proj, f)));
  assert.deepEqual(left, [], `left after the call: ${left.join(', ')}`);
  for (const f of ordinary) assert.equal(readFileSync(path.join(proj, f), 'utf8'), 'x = 1\n', f);
  // A later call sees none of them either (nothing was only hidden).
  const again = await sandboxedBash(proj, `ls -a s ${DEEP} | sort | tr '\\n' ' '`);
  assert.doesNotMatch(again.output, /mise\.toml|tool-versions|pylintrc|Rprofile/, again.output);
});

test('hg: a planted hook in a new repository is gone; in the person’s repository the agent’s hg works and cannot write .hg/hgrc', async (t) => {
  const skip = await needs('hg');
  if (skip) return t.skip(skip);
  const { proj, mark } = project();
  const hook = `[hooks]\\npre-status = echo PWNED > ${mark}\\n[extensions]\\nevil = ${path.join(proj, 'evil.py')}\\n`;
  // The person's repository at the root, without an hgrc.
  assert.equal(spawnSync('hg', ['init'], { cwd: proj }).status, 0);
  const out = await sandboxedBash(
    proj,
    [
      `printf 'open("${mark}", "w").write("PWNED")\\n' > evil.py`,
      `mkdir -p ${DEEP} && hg init ${DEEP}/r && printf '${hook}' > ${DEEP}/r/.hg/hgrc`,
      `hg init s && printf '${hook}' > s/.hg/hgrc && echo PLANTED`,
      // The person's repository: hg itself works (its absent hgrc is an empty, read-only placeholder now) …
      `echo a > f && hg add -q f && hg commit -q -u agent -m one && hg log -T '{desc}\\n' && echo COMMITTED`,
      // … and its hgrc cannot be written.
      `(printf '${hook}' > .hg/hgrc && echo WROTE-HGRC || echo DENIED)`,
    ].join(' && '),
  );
  assert.match(out.output, /PLANTED/, out.output);
  assert.match(out.output, /one\s*COMMITTED/, out.output);
  assert.match(out.output, /DENIED/, out.output);
  for (const rel of [`${DEEP}/r/.hg/hgrc`, 's/.hg/hgrc', '.hg/hgrc'])
    assert.equal(existsSync(path.join(proj, rel)), false, `${rel} is left after the call`);
  for (const dir of [proj, path.join(proj, DEEP, 'r'), path.join(proj, 's')]) {
    const r = spawnSync('hg', ['status'], { cwd: dir, encoding: 'utf8', timeout: 30_000 });
    assert.equal(r.status, 0, `${dir}: ${r.stderr}`);
  }
  assert.equal(existsSync(mark), false, `the person's hg ran the agent's hook or extension`);
  // The agent's commit is the person's repository's.
  const log = spawnSync('hg', ['log', '-T', '{desc}'], { cwd: proj, encoding: 'utf8' });
  assert.equal(log.stdout, 'one');
});

test('pylint: a planted init-hook is gone after the call; the person’s pylint runs nothing of the agent’s', async (t) => {
  const skip = await needs('pylint');
  if (skip) return t.skip(skip);
  const { proj, mark } = project();
  const out = await sandboxedBash(
    proj,
    [
      `mkdir -p ${DEEP} && printf 'X = 1\\n' > ${DEEP}/m.py`,
      `printf '[MAIN]\\ninit-hook=open("${mark}", "w").write("PWNED")\\n' > ${DEEP}/.pylintrc`,
      'echo PLANTED',
    ].join(' && '),
  );
  assert.match(out.output, /PLANTED/, out.output);
  assert.equal(existsSync(path.join(proj, DEEP, '.pylintrc')), false);
  spawnSync('pylint', ['m.py'], { cwd: path.join(proj, DEEP), encoding: 'utf8', timeout: 120_000 });
  assert.equal(existsSync(mark), false, `the person's pylint ran the agent's init-hook`);
});

// L11 (red team, issue 30): with durable-agent NOT a dependency of the project (the worker runs from
// npx's cache or a global install), `npx durable-agent …` still runs a `node_modules/.bin/durable-agent`
// it finds in the project first. The package and the bin link of that name are protected at any depth.
test('npx durable-agent: node_modules/durable-agent and node_modules/.bin/durable-agent are protected at any depth; other packages are not', () => {
  const proj = '/p';
  const isProtected = (rel: string) => isProtectedPath(path.join(proj, rel), [proj]);
  for (const rel of [
    'node_modules/durable-agent',
    'node_modules/durable-agent/package.json',
    'node_modules/.bin/durable-agent',
    'packages/x/node_modules/.bin/durable-agent',
    'a/Node_Modules/.BIN/Durable-Agent',
    'node_modules/pkg/node_modules/durable-agent/cli.js',
  ])
    assert.equal(isProtected(rel), true, `${rel} should be protected`);
  for (const rel of [
    'node_modules/lodash/index.js',
    'node_modules/.bin/tsc',
    'node_modules/durable-agent-plugin/index.js',
    'durable-agent',
    'src/durable-agent/index.ts',
  ])
    assert.equal(isProtected(rel), false, `${rel} is ordinary`);
});

test('npx durable-agent: a package and bin link planted by a sandboxed command are gone while it runs and after it; other packages stay', async (t) => {
  const skip = await needs();
  if (skip) return t.skip(skip);
  const { proj } = project();
  const plant = (dir: string) =>
    // The other package first, and the planted one step by step with `;`: the live guard may undo the
    // planted directory between two of these steps, and the rest must still run.
    `mkdir -p ${dir}/node_modules/lodash && printf 'module.exports = 1\\n' > ${dir}/node_modules/lodash/index.js; ` +
    `mkdir -p ${dir}/node_modules/durable-agent ${dir}/node_modules/.bin; ` +
    `printf '{"name":"durable-agent","bin":{"durable-agent":"cli.js"}}' > ${dir}/node_modules/durable-agent/package.json; ` +
    `printf '#!/bin/sh\\ntouch MARK\\n' > ${dir}/node_modules/durable-agent/cli.js; ` +
    `ln -sf ../durable-agent/cli.js ${dir}/node_modules/.bin/durable-agent; true`;
  const out = await sandboxedBash(
    proj,
    `${plant('.')} && ${plant(DEEP)} && sleep 1.5 && ` +
      `for f in node_modules/durable-agent node_modules/.bin/durable-agent ${DEEP}/node_modules/durable-agent ${DEEP}/node_modules/.bin/durable-agent; do ` +
      `if [ -e "$f" ] || [ -L "$f" ]; then echo "LIVE:present:$f"; fi; done; echo DONE`,
  );
  assert.match(out.output, /DONE/, out.output);
  // The live guard undid them while the command still ran (the person's npx meanwhile finds nothing).
  assert.doesNotMatch(out.output, /LIVE:present/, out.output);
  for (const dir of ['.', DEEP]) {
    for (const f of ['node_modules/durable-agent', 'node_modules/.bin/durable-agent'])
      assert.equal(existsSync(path.join(proj, dir, f)), false, `${dir}/${f} left after the call`);
    assert.equal(readFileSync(path.join(proj, dir, 'node_modules/lodash/index.js'), 'utf8'), 'module.exports = 1\n');
  }
});
