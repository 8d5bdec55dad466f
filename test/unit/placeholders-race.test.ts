// unit: the placeholders of absent protected paths (src/sandbox/placeholders.ts) are made and
// removed through their directory opened without following a symlink (anchored.ts): a command that
// exchanges that directory with a symlink to HOME, in a loop, while the worker removes a placeholder
// made there, makes it remove nothing of HOME, and makes nothing there (red team, issue 30, P5 end
// to end: the look at the placeholder, then its unlink by path, resolved the path twice). A real
// renameat2(RENAME_EXCHANGE) loop; oracles: the files of the fake HOME.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { PlaceholderRegistry, withoutDeniesLedOut } from '../../src/sandbox/placeholders';
import { tempBase } from '../support/redTeamUnit';

const PY = '/usr/bin/python3';
const base = tempBase('phrace');

const NAMES = ['.bashrc', '.profile', '.zshrc', '.gitconfig'];

test(
  'P5 (placeholders, raced): holding and releasing the placeholders of w/.bashrc… 20,000 times while w is exchanged with a symlink to HOME removes none of HOME’s files and makes none there',
  existsSync(PY) ? {} : { skip: `${PY} is needed for renameat2` },
  async (t) => {
    const home = path.join(base, 'home');
    const project = path.join(base, 'project');
    mkdirSync(home);
    mkdirSync(path.join(project, 'w'), { recursive: true });
    // Empty, as a placeholder is (a person's empty ~/.bashrc): only the identity check tells them apart.
    for (const n of NAMES) writeFileSync(path.join(home, n), '');
    symlinkSync(home, path.join(project, 'wl'));
    const flipper = spawn(
      PY,
      [
        '-c',
        "import ctypes, os\nlibc = ctypes.CDLL(None)\nwhile not os.path.exists('stop'):\n    for _ in range(4096): libc.renameat2(-100, b'w', -100, b'wl', 2)\n",
      ],
      { cwd: project, stdio: 'ignore' },
    );
    const registry = new PlaceholderRegistry();
    const cfg = { allowWrite: [project], denyWrite: NAMES.map((n) => path.join(project, 'w', n)) };
    let made = 0;
    try {
      await new Promise((r) => setTimeout(r, 200));
      for (let i = 0; i < 20_000; i++) {
        const hold = registry.hold(cfg, base);
        made += hold.paths.length;
        hold.release();
        if (i % 200 === 0) await new Promise((r) => setImmediate(r));
      }
    } finally {
      writeFileSync(path.join(project, 'stop'), '');
      await new Promise((r) => (flipper.exitCode !== null ? r(null) : flipper.once('exit', r)));
    }
    const left = readdirSync(home).sort();
    t.diagnostic(`placeholders made ${made}; HOME now: ${left.join(' ')}`);
    assert.ok(made > 0, 'placeholders were made in w while it was a directory');
    assert.deepEqual(left, [...NAMES].sort(), 'HOME keeps its files and gets none');
  },
);

test('P5 (the runtime’s mount points): a denied path that a symlink in the project leads out of every writable directory is not given to the runtime; one it leads inside, or with no symlink, is', () => {
  const home = path.join(base, 'home2');
  const project = path.join(base, 'project2');
  const other = path.join(base, 'other-writable');
  for (const d of [home, path.join(project, 'w'), path.join(project, 'real'), other]) mkdirSync(d, { recursive: true });
  writeFileSync(path.join(home, '.bashrc'), '# the person’s\n');
  symlinkSync(home, path.join(project, 'wl'));
  symlinkSync(path.join(project, 'real'), path.join(project, 'inner'));
  symlinkSync(other, path.join(project, 'shared'));
  const at = (...p: string[]) => path.join(project, ...p);
  const denies = [
    at('wl', '.bashrc'),
    at('wl', 'missing', 'deeper', '.envrc'),
    at('inner', '.envrc'),
    at('shared', '.mcp.json'),
    at('w', '.zshrc'),
    at('.bashrc'),
    path.join(home, '.profile'),
  ];
  assert.deepEqual(withoutDeniesLedOut(denies, [project, other]), [
    at('inner', '.envrc'),
    at('shared', '.mcp.json'),
    at('w', '.zshrc'),
    at('.bashrc'),
    path.join(home, '.profile'),
  ]);
});
