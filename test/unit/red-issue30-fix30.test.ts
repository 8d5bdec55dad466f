// unit (issue 30, round l's findings, fixed by branch fix30): each row is a red team's hole turned
// into a test that failed before its fix — real processes, real planted files, oracles on markers
// and bytes, never on a tool's words.
//
// L1 (redl, integration/red-issue30-l): the sandbox runtime looks `which` (and the shell) up by
// name on process.env.PATH at every wrap, with the worker's whole environment. process.env.PATH was
// narrowed once, at worker start and at the first SandboxHost, from the session directories
// registered then; a later session's `<project>/bin` on the person's PATH (direnv's `PATH_add bin`)
// stayed on it, so a `which` its Bash planted there ran as the worker on the next wrap. Here in a
// child process (its own process.env): the worker's runtime, and a runtime process started before
// the session registered (it serves later sessions of the same worker-wide configuration).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SandboxHost } from '../../src/sandbox/host';
import { runHostProcess } from '../../src/hostProcess/door';
import { writableDirectories } from '../../src/sandbox/policy';
import { registerWritableDirectories } from '../../src/sandbox/sessionPlan';
import { sandboxSkip } from '../support/systemPackages';
import { makeTmpDir, removeDir } from './tools-harness';

const BAIT = 'BAIT-fix30-l1-worker-key';

const CHILD = `
const { SandboxHost } = require(process.env.HOST_MODULE);
const { runtimePlan } = require(process.env.POLICY_MODULE);
const { registerSessionDirectories } = require(process.env.DOOR_MODULE);
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const [P, Q, R, marks, realWhich] = JSON.parse(process.env.L1_DIRS);
const facts = (dir) => ({ home: dir, sessionTmpDir: dir, platform: process.platform });
const plant = (dir) => {
  fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
  const f = path.join(dir, 'bin', 'which');
  fs.writeFileSync(f, '#!/bin/sh\\nenv > ' + path.join(marks, path.basename(dir) + '.env') + '\\nexec ' + realWhich + ' "$@"\\n');
  fs.chmodSync(f, 0o755);
};
const run = (prepared) =>
  new Promise((resolve) => {
    const child = spawn('bash', ['-c', prepared.shellCommand], { stdio: 'ignore' });
    child.on('close', async (code) => {
      await prepared.finish();
      resolve(code);
    });
  });
(async () => {
  const host = new SandboxHost(); // narrows process.env.PATH: no session is known yet
  const out = {};
  // A first session elsewhere (P): the worker's own runtime is initialised.
  registerSessionDirectories([P]);
  out.warm = await run(await host.prepare('true', runtimePlan(undefined, [P], facts(P)), P));
  // The worker's runtime: a session in Q plants Q/bin/which (its Bash writes its own project), and
  // the session's next call (registered, as every tool call and sandbox plan does) is wrapped.
  registerSessionDirectories([Q]);
  plant(Q);
  out.q = await run(await host.prepare('ls', runtimePlan(undefined, [Q], facts(Q)), Q));
  // A runtime process: the worker's runtime is busy (a long command of P), a session with other
  // worker-wide settings starts one (before R is known), then a session in R plants R/bin/which and
  // the same runtime process wraps its next call.
  const busy = await host.prepare('sleep 4', runtimePlan(undefined, [P], facts(P)), P);
  const sleeping = run(busy);
  const other = { network: { deniedDomains: ['denied.example'] } };
  out.warmChild = await run(await host.prepare('true', runtimePlan(other, [P], facts(P)), P));
  registerSessionDirectories([R]);
  plant(R);
  out.r = await run(await host.prepare('ls', runtimePlan(other, [R], facts(R)), R));
  await sleeping;
  await host.close();
  console.log(JSON.stringify(out));
  process.exit(0);
})().catch((e) => { console.log(JSON.stringify({ error: String(e && e.stack || e) })); process.exit(1); });
`;

test("L1: a `which` a session plants in its own <project>/bin (on the person's PATH) never runs as the worker when its next command is wrapped — by the worker's runtime or a runtime process started before the session", async (t) => {
  const skip = await sandboxSkip(new SandboxHost(), 'the L1 PATH test');
  if (skip) return t.skip(skip);
  const base = fs.realpathSync(await makeTmpDir('fix30-l1-'));
  t.after(() => removeDir(base));
  const [P, Q, R, marks] = ['p', 'q', 'r', 'marks'].map((n) => path.join(base, n)) as [string, string, string, string];
  for (const d of [P, Q, R, marks]) fs.mkdirSync(d, { recursive: true });
  const realWhich = execFileSync('sh', ['-c', 'command -v which'], { encoding: 'utf8' }).trim();
  const realPath = process.env.PATH ?? '/usr/bin:/bin';
  const out = await new Promise<string>((resolve) => {
    const child = spawn(process.execPath, ['-e', CHILD], {
      cwd: '/', // the worker was started elsewhere than the projects
      env: {
        ...process.env,
        // direnv's `PATH_add bin` in two projects the worker was not started in.
        PATH: [path.join(Q, 'bin'), path.join(R, 'bin'), realPath].join(path.delimiter),
        ANTHROPIC_API_KEY: BAIT,
        HOST_MODULE: path.join(__dirname, '../../src/sandbox/host.js'),
        POLICY_MODULE: path.join(__dirname, '../../src/sandbox/policy.js'),
        DOOR_MODULE: path.join(__dirname, '../../src/hostProcess/door.js'),
        L1_DIRS: JSON.stringify([P, Q, R, marks, realWhich]),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let s = '';
    child.stdout.on('data', (d: Buffer) => (s += d.toString()));
    child.on('close', () => resolve(s));
  });
  const result = JSON.parse(out.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
  assert.equal(result.error, undefined, String(result.error));
  assert.deepEqual(
    { warm: result.warm, q: result.q, warmChild: result.warmChild, r: result.r },
    { warm: 0, q: 0, warmChild: 0, r: 0 },
    'every command ran in the sandbox',
  );
  const ran = fs.readdirSync(marks);
  const leaked = ran.filter((f) => fs.readFileSync(path.join(marks, f), 'utf8').includes(BAIT));
  assert.deepEqual(
    ran,
    [],
    `a planted which ran outside the sandbox (${ran.join(', ')}; ${leaked.length} with the worker's key)`,
  );
});

// K1 (redk, unit/red-issue30-k K1, K1c): a session's `filesystem.allowWrite` directory (`~/.cargo`
// for cargo's registry; `~/.local/bin/**` from an `Edit(~/.local/bin/**)` allow rule) on the
// worker's PATH: sandboxed Bash plants `rg` and `git` there, and Grep's ripgrep and worker-side git,
// found by name through the door, ran them outside the sandbox. Only the working directories were
// session directories.
test('K1: programs planted in a filesystem.allowWrite directory on the PATH (a directory, a `/**` pattern) are neither found nor run by the door', async (t) => {
  const base = fs.realpathSync(await makeTmpDir('fix30-k1-'));
  t.after(() => removeDir(base));
  const proj = path.join(base, 'proj');
  const cargo = path.join(base, 'cargo');
  const localBin = path.join(base, 'local', 'bin');
  const marker = path.join(base, 'planted-ran');
  fs.mkdirSync(proj, { recursive: true });
  for (const dir of [path.join(cargo, 'bin'), localBin])
    for (const name of ['rg', 'git']) {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, name), `#!/bin/sh\necho "${dir}/${name}" >> ${marker}\nexit 3\n`);
      fs.chmodSync(path.join(dir, name), 0o755);
    }
  const realPath = process.env.PATH ?? '/usr/bin:/bin';
  const from = { PATH: [path.join(cargo, 'bin'), localBin, realPath].join(path.delimiter), HOME: base };
  // What each tool call of the session registers (src/toolCall/toolLedger.ts) and each sandbox plan.
  registerWritableDirectories([proj], { filesystem: { allowWrite: [cargo, `${path.dirname(localBin)}/bin/**`] } });
  for (const [purpose, command, args] of [
    ['ripgrep', 'rg', ['--version']],
    ['git', 'git', ['--version']],
  ] as const) {
    const r = await runHostProcess({ purpose, command, args: [...args], cwd: proj, from });
    assert.equal(
      fs.existsSync(marker),
      false,
      `${purpose}: a planted ${command} ran: ${fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : ''}`,
    );
    assert.equal(r.code, 0, `${purpose}: the real ${command} ran: ${r.spawnError ?? r.stderr}`);
  }
  // Named by path, each is refused as a program in a session's directory.
  for (const file of [path.join(cargo, 'bin', 'git'), path.join(localBin, 'git')]) {
    const r = await runHostProcess({ purpose: 'git', command: file, cwd: proj, from });
    assert.ok(r.spawnError?.includes(file), `refused, naming ${file}: ${r.spawnError ?? `ran, code ${r.code}`}`);
  }
  assert.equal(fs.existsSync(marker), false);
  // The directories as the door sees them: `~` expanded, a pattern cut before its first wildcard.
  assert.deepEqual(
    writableDirectories(
      { filesystem: { allowWrite: ['~/.cargo', '~/.local/bin/**', '/opt/x/*.d/y', 'relative/dir', '~'] } },
      '/home/u',
    ),
    ['/home/u/.cargo', '/home/u/.local/bin', '/opt/x', '/home/u'],
  );
});

// L13 (redl, integration/red-issue30-l L13): the person's `run --cwd <project>` from elsewhere, with
// `<project>/bin` on their PATH: the CLI's sandbox check (sandboxSummary) wrapped a command, and the
// sandbox runtime ran the `which` a session had planted in `<project>/bin` with the person's
// environment. The CLI narrowed its PATH against its own directory only.
test("L13: the CLI's sandbox check for a session in <project> never runs a `which` planted in <project>/bin (on the person's PATH)", async (t) => {
  const skip = await sandboxSkip(new SandboxHost(), 'the L13 PATH test');
  if (skip) return t.skip(skip);
  const base = fs.realpathSync(await makeTmpDir('fix30-l13-'));
  t.after(() => removeDir(base));
  const proj = path.join(base, 'proj');
  const marks = path.join(base, 'marks');
  fs.mkdirSync(path.join(proj, 'bin'), { recursive: true });
  fs.mkdirSync(marks);
  const realWhich = execFileSync('sh', ['-c', 'command -v which'], { encoding: 'utf8' }).trim();
  fs.writeFileSync(
    path.join(proj, 'bin', 'which'),
    `#!/bin/sh\nenv > ${path.join(marks, 'which.env')}\nexec ${realWhich} "$@"\n`,
  );
  fs.chmodSync(path.join(proj, 'bin', 'which'), 0o755);
  const script = `
const { narrowProcessPath } = require(process.env.PROGRAMS_MODULE);
const { sandboxSummary } = require(process.env.CLIENT_MODULE);
narrowProcessPath(); // as the CLI's main does, in the person's directory
sandboxSummary({ cwd: process.env.L13_PROJECT, sandbox: {} }).then(
  (line) => { console.log(JSON.stringify({ line })); process.exit(0); },
  (e) => { console.log(JSON.stringify({ error: String(e) })); process.exit(1); },
);`;
  const out = await new Promise<string>((resolve) => {
    const child = spawn(process.execPath, ['-e', script], {
      cwd: '/',
      env: {
        ...process.env,
        PATH: [path.join(proj, 'bin'), process.env.PATH ?? '/usr/bin:/bin'].join(path.delimiter),
        PERSON_SECRET: BAIT,
        PROGRAMS_MODULE: path.join(__dirname, '../../src/hostProcess/programs.js'),
        CLIENT_MODULE: path.join(__dirname, '../../src/temporal/client.js'),
        L13_PROJECT: proj,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let s = '';
    child.stdout.on('data', (d: Buffer) => (s += d.toString()));
    child.on('close', () => resolve(s));
  });
  const result = JSON.parse(out.trim().split('\n').pop() ?? '{}') as { line?: string; error?: string };
  assert.equal(result.error, undefined, result.error);
  assert.match(result.line ?? '', /sandbox/i);
  assert.deepEqual(fs.readdirSync(marks), [], "the planted which ran with the person's environment");
});
