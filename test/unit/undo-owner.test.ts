// unit: the worker's undo of what a sandboxed command wrote (src/sandbox/anchored.ts, protect.ts)
// against a command that fights it with the file system itself (issue 30):
//  - rights: a command that takes its own rights away from what it made (chmod 555 on a new
//    `.claude`, 311 on a new hooks directory, 000 on a directory on the way) made the undo fail
//    with EACCES — it only said "could not be undone" — and the hook or settings file stayed, for
//    the person's next git commit or the next session. Root ignores those modes, so this runs as
//    an ordinary user (uid 65534 through setpriv when the suite runs as root, as CI does);
//  - a swap inside the entry: Node's recursive rmSync walks by path, so a command exchanging a
//    directory inside a new `.claude` with a symlink to the person's directory made the worker
//    remove the person's files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { undoProtectedWrites, type ProtectedScan } from '../../src/sandbox/protect';
import { OWNER_ATTACKS } from '../support/ownerUndo';
import { isCI } from '../support/systemPackages';

const NOBODY = 65534;

test('unit: a command that chmods what it made (555, 311, 000) keeps no hook or settings file: the undo gives the rights back first', async (t) => {
  const root = process.getuid?.() === 0;
  if (root && spawnSync('setpriv', ['--version']).status !== 0) {
    if (isCI()) assert.fail('setpriv (util-linux) is needed to run this row as an ordinary user');
    return t.skip('setpriv is not installed');
  }
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'da-owner-run-'));
  fs.chmodSync(scratch, 0o755);
  if (root) fs.chownSync(scratch, NOBODY, NOBODY);
  const script = path.join(__dirname, '..', 'support', 'ownerUndo.js');
  const argv = root
    ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', process.execPath, script]
    : [process.execPath, script];
  // The build must be readable by that user (a checkout under a private directory is not): else skipped.
  const reach = spawnSync(argv[0]!, [...argv.slice(1, -1), '-e', `require(${JSON.stringify(script)})`], {
    env: { ...process.env, HOME: scratch, TMPDIR: scratch },
    encoding: 'utf8',
  });
  if (root && reach.status !== 0) {
    fs.rmSync(scratch, { recursive: true, force: true });
    return t.skip(`uid ${NOBODY} cannot load the build here: ${reach.stderr.split('\n').find((l) => /Error/.test(l))}`);
  }
  try {
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(argv[0]!, argv.slice(1), {
        env: { ...process.env, HOME: scratch, TMPDIR: scratch },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`exit ${code}: ${stderr}`))));
    });
    const report = JSON.parse(out.trim().split('\n').pop()!) as {
      uid: number;
      available: boolean;
      reason?: string;
      results: Array<{ name: string; exitCode: number; left: string[]; output: string }>;
    };
    assert.notEqual(report.uid, 0, 'the attacks ran as an ordinary user');
    if (!report.available) {
      if (isCI()) assert.fail(`the sandbox must run as an ordinary user in CI: ${report.reason}`);
      return t.skip(`no sandbox as uid ${report.uid}: ${report.reason}`);
    }
    assert.equal(report.results.length, OWNER_ATTACKS.length);
    for (const r of report.results) {
      assert.equal(r.exitCode, 0, `${r.name}: ${r.output}`);
      assert.deepEqual(r.left, [], `${r.name}: left after the call (${r.output})`);
    }
  } finally {
    spawnSync('chmod', ['-R', 'u+rwx', scratch]);
    fs.rmSync(scratch, { recursive: true, force: true });
  }
});

// A command exchanging `.claude/a` with `.claude/al -> <the person's directory>` (renameat2
// RENAME_EXCHANGE, atomic) while the worker removes the new `.claude`: the removal goes through
// each level's descriptor, and the link is removed as a link.
const exchanger = (dir: string, seconds: number) =>
  [
    'import ctypes, os, time',
    'libc = ctypes.CDLL(None, use_errno=True)',
    `os.chdir(${JSON.stringify(dir)})`,
    `end = time.time() + ${seconds}`,
    'while time.time() < end:',
    "    libc.renameat2(-100, b'.claude/a', -100, b'.claude/al', 2)",
  ].join('\n');

test("unit: a directory inside a new .claude exchanged with a symlink to the person's directory while the worker removes it: no file of the person is removed", async () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'da-owner-swap-')));
  const person = path.join(base, 'person');
  const root = path.join(base, 'proj');
  fs.mkdirSync(person);
  fs.mkdirSync(root);
  const p = path.join(root, '.claude');
  const none: ProtectedScan = { entries: new Map(), truncated: false };
  const after: ProtectedScan = { entries: new Map([[p, { path: p, kind: 'dir', existed: false }]]), truncated: false };
  const names = Array.from({ length: 8 }, (_, i) => `f${i}`);
  const child = spawn('/usr/bin/python3', ['-c', exchanger(root, 8)], { stdio: 'ignore' });
  let removed = 0;
  let tries = 0;
  try {
    const t0 = Date.now();
    await new Promise((r) => setTimeout(r, 200));
    while (Date.now() - t0 < 6000) {
      for (const n of names) fs.writeFileSync(path.join(person, n), "the person's file\n");
      fs.mkdirSync(path.join(p, 'a'), { recursive: true });
      for (const n of names) fs.writeFileSync(path.join(p, 'a', n), 'x');
      if (!fs.existsSync(path.join(p, 'al'))) fs.symlinkSync(person, path.join(p, 'al'));
      undoProtectedWrites(none, after, [], [root], { moved: () => {} });
      tries++;
      removed += names.filter((n) => !fs.existsSync(path.join(person, n))).length;
      if (tries % 20 === 0) await new Promise((r) => setImmediate(r));
    }
  } finally {
    child.kill();
    fs.rmSync(base, { recursive: true, force: true });
  }
  assert.ok(tries > 100, `the undo ran (${tries})`);
  assert.equal(removed, 0, `the worker removed ${removed} of the person's files in ${tries} undos`);
});
