// unit: the trusted PATH of the one door (invariant 15, src/hostProcess/programs.ts; red teams,
// issue 30, I-3, J1, J1b, J2, J6). A worker or CLI started by `npx durable-agent …` / `npm run …` in
// the project has `<project>/node_modules/.bin` first on its PATH, where sandboxed Bash may plant
// `bash`, `env`, `git`…: for every purpose, the program the door starts and the PATH the process
// gets hold no relative entry, none inside node_modules, the process's directory or a session's
// directory — real processes, real planted files (their marker says whether they ran).
import { test } from 'node:test';
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
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { registerSessionDirectories, runHostProcess, type HostPurpose } from '../../src/hostProcess/door';
import {
  findProgram,
  narrowProcessPath,
  personPath,
  sandboxPrograms,
  trustedPath,
} from '../../src/hostProcess/programs';

const PURPOSES: HostPurpose[] = [
  'sandboxed-command',
  'hook',
  'mcp-server',
  'git',
  'ripgrep',
  'sandbox-machinery',
  'operator',
];

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'door-path-')));
const project = path.join(base, 'project');
const session = path.join(base, 'session');
const marker = path.join(base, 'planted-ran');
const realPath = process.env.PATH ?? '/usr/bin:/bin';

/** A program under `dir` named `name` that leaves a marker and fails. */
function plant(dir: string, name: string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  writeFileSync(file, `#!/bin/sh\necho "${file}" >> ${marker}\nexit 3\n`);
  chmodSync(file, 0o755);
  return file;
}

const names = ['env', 'bash', 'sh', 'git', 'rg', 'bwrap', 'socat', 'which', 'temporal', 'go'];
for (const n of names) {
  plant(path.join(project, 'node_modules', '.bin'), n);
  plant(path.join(project, 'bin'), n);
  plant(path.join(session, 'bin'), n);
  plant(path.join(base, 'elsewhere', 'node_modules', 'pkg', 'bin'), n);
}
/** npm's PATH under npx, a relative entry, the project's own bin, a session's bin, then the real one. */
const npmPath = [
  path.join(project, 'node_modules', '.bin'),
  'node_modules/.bin',
  '.',
  '',
  path.join(project, 'bin'),
  path.join(session, 'bin'),
  path.join(base, 'elsewhere', 'node_modules', 'pkg', 'bin'),
  realPath,
].join(path.delimiter);

process.chdir(project);
registerSessionDirectories([session]);

/** Whether a PATH entry is one the door must never hand out or look up on. */
function untrusted(entry: string): boolean {
  return (
    !path.isAbsolute(entry) ||
    entry.split(path.sep).includes('node_modules') ||
    entry.startsWith(project + path.sep) ||
    entry === project ||
    entry.startsWith(session + path.sep)
  );
}

for (const purpose of PURPOSES)
  test(`${purpose}: a name is found on the trusted PATH only, and the process gets no untrusted PATH entry`, async () => {
    const r = await runHostProcess({ purpose, command: 'env', cwd: project, from: { PATH: npmPath, HOME: base } });
    assert.equal(existsSync(marker), false, `a planted env ran: ${existsSync(marker) ? 'see marker' : ''}`);
    assert.equal(r.code, 0, `the real env ran: ${r.spawnError ?? r.stderr}`);
    const line = r.stdout.split('\n').find((l) => l.startsWith('PATH='));
    assert.ok(line, 'the process has a PATH');
    const entries = line.slice('PATH='.length).split(path.delimiter);
    assert.deepEqual(entries.filter(untrusted), [], `untrusted entries reached ${purpose}`);
    assert.ok(entries.length > 0 && entries.every((e) => realPath.split(path.delimiter).includes(e)));
  });

for (const purpose of PURPOSES)
  test(`${purpose}: bash started by name looks up what it runs on the trusted PATH too`, async () => {
    const r = await runHostProcess({
      purpose,
      command: 'bash',
      args: ['-c', 'command -v git; git --version >/dev/null 2>&1; echo "rc=$?"'],
      cwd: project,
      from: { PATH: npmPath, HOME: base },
    });
    assert.equal(existsSync(marker), false, 'a planted bash or git ran');
    assert.equal(r.code, 0, r.spawnError ?? r.stderr);
    assert.ok(!untrusted(r.stdout.split('\n')[0] ?? ''), `git resolved to ${r.stdout}`);
  });

// A hook's or MCP server's program named by path is the person's configuration, pinned at session
// start (hooks/pins.ts, mcp/pins.ts; `unit/mcp-pins`): not refused by place.
for (const purpose of PURPOSES.filter((p) => p !== 'hook' && p !== 'mcp-server'))
  for (const [where, file] of [
    ['node_modules/.bin', path.join(project, 'node_modules', '.bin', 'git')],
    ['a node_modules directory outside the project', path.join(base, 'elsewhere', 'node_modules', 'pkg', 'bin', 'git')],
    ["the process's directory", path.join(project, 'bin', 'git')],
    ["a session's directory", path.join(session, 'bin', 'git')],
    ['a relative path', './bin/git'],
  ] as const)
    test(`${purpose}: a program in ${where} is refused, naming the file`, async () => {
      const r = await runHostProcess({ purpose, command: file, cwd: project, from: { PATH: realPath, HOME: base } });
      assert.equal(existsSync(marker), false, 'the planted program ran');
      const named = path.resolve(project, file);
      assert.ok(r.spawnError?.includes(named), `refused, naming ${named}: ${r.spawnError ?? `ran, code ${r.code}`}`);
    });

test('the node running the process may lie anywhere (process.execPath is never refused)', async () => {
  const r = await runHostProcess({
    purpose: 'operator',
    command: process.execPath,
    args: ['-e', 'process.stdout.write("ok")'],
    cwd: project,
  });
  assert.equal(r.stdout, 'ok', r.spawnError ?? r.stderr);
});

test('narrowProcessPath: process.env.PATH becomes the trusted PATH; the person keeps theirs for inside the sandbox', () => {
  const before = process.env.PATH;
  process.env.PATH = npmPath;
  try {
    narrowProcessPath();
    assert.deepEqual((process.env.PATH ?? '').split(path.delimiter).filter(untrusted), []);
    assert.equal(process.env.PATH, trustedPath(npmPath));
    assert.equal(personPath(), npmPath);
    const found = sandboxPrograms();
    for (const p of Object.values(found)) assert.ok(p && !untrusted(p), `sandbox program ${p}`);
    for (const n of names) {
      const p = findProgram(n, process.env.PATH);
      if (p) assert.ok(!untrusted(p), `${n} resolves to ${p}`);
    }
    assert.equal(existsSync(marker), false);
  } finally {
    process.env.PATH = before;
  }
});

test('the kept session directories: a process moves a directory it registers to the newest end, once, even when it was read from the file (N6); directories gone since are dropped', () => {
  const home = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-kept-')));
  const file = path.join(home, 'session-directories.json');
  const p = (n: string) => path.join(home, 'p', n);
  for (const n of ['old', 'b', 'c', 'new']) mkdirSync(p(n), { recursive: true });
  // gone: a test's or a removed worktree's directory — nothing planted in it is left.
  const old = [p('old'), p('gone'), p('b'), p('c')];
  writeFileSync(file, JSON.stringify({ v: 1, dirs: old }));
  const programs = path.join(__dirname, '../../src/hostProcess/programs.js');
  const run = (code: string) =>
    execFileSync(process.execPath, ['-e', `const p = require(${JSON.stringify(programs)}); ${code}`], {
      env: { ...process.env, DURABLE_AGENT_HOME: home },
    }).toString();
  const kept = () => (JSON.parse(readFileSync(file, 'utf8')) as { dirs: string[] }).dirs;
  // A restarted worker: the session of old calls a tool again — it knew the directory from the file.
  const held = run(
    `p.registerSessionDirectories([${JSON.stringify(p('old'))}]); p.registerSessionDirectories([${JSON.stringify(p('new'))}]); p.registerSessionDirectories([${JSON.stringify(p('old'))}]); process.stdout.write(JSON.stringify([${JSON.stringify(path.join(p('b'), 'bin'))}, ${JSON.stringify(path.join(p('gone'), 'bin'))}].map((f) => p.sessionDirectoryHolding(f) ?? null)))`,
  );
  assert.deepEqual(
    kept(),
    [p('b'), p('c'), p('old'), p('new')],
    'moved up once per process; a second call writes nothing',
  );
  assert.deepEqual(JSON.parse(held), [p('b'), null], 'a kept directory holds its files; a gone one is no longer kept');
  rmSync(home, { recursive: true, force: true });
});
