// unit: the undo removes a new protected directory without resolving anything below it by path
// again (src/sandbox/anchored.ts removeAnchored, landed on main; red team, issue 30, round q, Q3). The race row is
// redq's `Q3 (the anchored undo, raced below the entry)` (test/unit/red-issue30-q.test.ts on its
// branch), here against the function the live guard and the check after the call run: a child
// process fills `.claude/a` and, once the worker's removal has taken a first child, puts a symlink
// to the person's directory in place of `a`. Oracles: the person's files on disk.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { undoProtectedWrites, type ProtectedScan } from '../../src/sandbox/protect';
import { removeAnchored } from '../../src/sandbox/anchored';

const PY = '/usr/bin/python3';
const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-anchrm-')));
after(() => rmSync(base, { recursive: true, force: true }));

const subSwapper = (root: string, person: string, names: readonly string[], rounds: number) =>
  [
    'import os, time',
    `os.chdir(${JSON.stringify(root)})`,
    `names = ${JSON.stringify(names)}`,
    `for r in range(${rounds}):`,
    "    os.makedirs('.claude/a')",
    '    for i in range(3000):',
    "        open('.claude/a/f%04d' % i, 'w').write('x')",
    '    for n in names:',
    "        open('.claude/a/' + n, 'w').close()",
    "    open('ready', 'w').close()",
    "    m = os.stat('.claude/a').st_mtime_ns",
    '    end = time.time() + 5',
    '    while time.time() < end:',
    '        try:',
    "            if os.stat('.claude/a').st_mtime_ns != m: break",
    '        except OSError:',
    '            break',
    '    try:',
    "        os.rename('.claude/a', 'trash%d' % r)",
    `        os.symlink(${JSON.stringify(person)}, '.claude/a')`,
    '    except OSError:',
    '        pass',
    '    t1 = time.time() + 0.5',
    "    while os.path.lexists('.claude/a/f0000') and time.time() < t1: time.sleep(0.001)",
    '    time.sleep(0.05)',
    "    os.path.exists('ready') and os.remove('ready')",
    "    os.path.lexists('.claude') and os.system('rm -rf .claude')",
  ].join('\n');

test(
  'Q3 (the anchored undo, raced below the entry): a command that swaps a directory INSIDE its new .claude/ for a symlink to HOME while the worker removes it never makes the worker remove a file of HOME',
  existsSync(PY) ? {} : { skip: `${PY} is needed` },
  async (t) => {
    const person = path.join(base, 'q3-person');
    const root = path.join(base, 'q3');
    mkdirSync(person, { recursive: true });
    mkdirSync(root, { recursive: true });
    const victims = ['.bashrc', '.profile', '.gitconfig', ...Array.from({ length: 200 }, (_, i) => `.victim${i}`)];
    for (const v of victims) writeFileSync(path.join(person, v), 'mine\n');
    const child = spawn(PY, ['-c', subSwapper(root, person, victims, 5)], { stdio: 'ignore' });
    const done = new Promise((r) => child.on('exit', r));
    const p = path.join(root, '.claude');
    const none: ProtectedScan = { entries: new Map(), truncated: false };
    const scan: ProtectedScan = { entries: new Map([[p, { path: p, kind: 'dir', existed: false }]]), truncated: false };
    let undos = 0;
    const t0 = Date.now();
    const gone = () => victims.some((v) => !existsSync(path.join(person, v)));
    while (Date.now() - t0 < 20_000 && child.exitCode === null && !gone()) {
      if (!existsSync(path.join(root, 'ready'))) {
        await new Promise((r) => setTimeout(r, 5));
        continue;
      }
      try {
        undoProtectedWrites(none, scan, [], [root], { moved: () => {} });
      } catch {
        // a removal that failed midway is not a removal outside
      }
      undos++;
      rmSync(path.join(root, 'ready'), { force: true });
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill();
    await done;
    const left = new Set(readdirSync(person));
    const removed = victims.filter((v) => !left.has(v));
    t.diagnostic(`${undos} undos; removed of the person's: ${removed.join(' ') || 'none'}`);
    assert.ok(undos > 0);
    assert.deepEqual({ removedInHome: removed }, { removedInHome: [] });
  },
);

test('removeAnchored: a tree 300 directories deep with files and a symlink to an outside directory at each level is removed whole; the outside directory keeps its files', () => {
  const outside = path.join(base, 'outside');
  mkdirSync(outside, { recursive: true });
  writeFileSync(path.join(outside, 'keep'), 'mine\n');
  const top = path.join(base, 'deep');
  let d = path.join(top, '.claude');
  for (let i = 0; i < 300; i++) {
    mkdirSync(d, { recursive: true });
    writeFileSync(path.join(d, 'f'), 'x');
    symlinkSync(outside, path.join(d, 'out'));
    d = path.join(d, 'd');
  }
  removeAnchored(top, '.claude');
  assert.deepEqual(readdirSync(top), []);
  assert.deepEqual(readdirSync(outside), ['keep']);
  // A file, a symlink (itself), and a name already gone.
  writeFileSync(path.join(top, '.envrc'), 'x');
  symlinkSync(outside, path.join(top, '.vscode'));
  for (const n of ['.envrc', '.vscode', '.missing']) removeAnchored(top, n);
  assert.deepEqual([readdirSync(top), readdirSync(outside)], [[], ['keep']]);
});
