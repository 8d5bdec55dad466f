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
import { rewrite } from '../../src/sandbox/manifestBins';
import { OWNER_ATTACKS } from '../support/ownerUndo';
import { runAsOrdinaryUser } from '../support/ordinaryUser';

test('unit: a command that chmods what it made (555, 311, 000) keeps no hook or settings file: the undo gives the rights back first', async (t) => {
  const run = await runAsOrdinaryUser<{ name: string; exitCode: number; left: string[]; output: string }>(
    path.join(__dirname, '..', 'support', 'ownerUndo.js'),
  );
  if ('skip' in run) return t.skip(run.skip);
  const { report } = run;
  assert.equal(report.results.length, OWNER_ATTACKS.length);
  for (const r of report.results) {
    assert.equal(r.exitCode, 0, `${r.name}: ${r.output}`);
    assert.deepEqual(r.left, [], `${r.name}: left after the call (${r.output})`);
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

// Q20 (red team q): the package.json put-back wrote `<name>.da-<worker pid>.tmp` without O_EXCL: a
// symlink the command planted at that name (the pid leaked in undo messages) made the worker write
// the agent's package.json into another project. The temporary is random and created exclusively.
test("unit: a symlink planted at the worker's old temporary name beside a package.json does not redirect its put-back", () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'da-owner-q20-')));
  try {
    const w = path.join(base, 'w');
    const other = path.join(base, 'other');
    fs.mkdirSync(w);
    fs.mkdirSync(other);
    const theirs = '{"name":"other","scripts":{"test":"node test.js"}}\n';
    fs.writeFileSync(path.join(other, 'package.json'), theirs);
    fs.symlinkSync(path.join(other, 'package.json'), path.join(w, `package.json.da-${process.pid}.tmp`));
    fs.writeFileSync(path.join(w, 'package.json'), '{"name":"w","scripts":{"test":"env > MARK"}}\n');
    rewrite(path.join(w, 'package.json'), '{"name":"w"}\n');
    assert.equal(fs.readFileSync(path.join(other, 'package.json'), 'utf8'), theirs, "the other project's package.json");
    assert.equal(fs.readFileSync(path.join(w, 'package.json'), 'utf8'), '{"name":"w"}\n');
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
});

// Q21 (red team q): a 2,100-deep chain inside a new `.claude` overflowed Node's recursive rmSync
// ("Maximum call stack size exceeded"): the undo failed and the settings file stayed.
test('unit: a new .claude holding a 2,100-deep chain of directories is removed whole', () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'da-owner-q21-')));
  const saved = process.cwd();
  try {
    const p = path.join(base, '.claude');
    fs.mkdirSync(p);
    fs.writeFileSync(path.join(p, 'settings.json'), '{"hooks":{}}\n');
    process.chdir(p);
    for (let i = 0; i < 2100; i++) {
      fs.mkdirSync('a');
      process.chdir('a');
    }
    fs.writeFileSync('f', 'x');
    process.chdir(saved);
    const none: ProtectedScan = { entries: new Map(), truncated: false };
    const after: ProtectedScan = {
      entries: new Map([[p, { path: p, kind: 'dir', existed: false }]]),
      truncated: false,
    };
    const notes = undoProtectedWrites(none, after, [], [base], {});
    assert.equal(fs.existsSync(p), false, notes.join('\n'));
    assert.deepEqual(fs.readdirSync(base), [], 'nothing moved aside is left');
  } finally {
    process.chdir(saved);
    spawnSync('rm', ['-rf', base]);
  }
});
