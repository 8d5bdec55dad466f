// unit: the live guard stops a command that holds the undo's window open (red team, issue 30, L2)
// and guards the writable allowWrite directories like the working ones (K10): src/sandbox/liveGuard.ts.
// Real directories, a real looping process in its own process group; oracles: the files on disk,
// whether the process still runs, the guard's notices.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { closeTreeWatches, settleTreeEvents } from '../../src/sandbox/treeWatch';
import { guardWhileRunning, HOSTILE_UNDOS, type GuardedProtection } from '../../src/sandbox/liveGuard';

const dirs: string[] = [];
after(() => {
  closeTreeWatches();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tmp(): string {
  const d = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-liveguard-')));
  dirs.push(d);
  return d;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Events are asynchronous: wait until `cond` holds (bounded, ~4 s). */
async function until(cond: () => boolean): Promise<boolean> {
  for (let i = 0; i < 400 && !cond(); i++) {
    await settleTreeEvents();
    await pause(10);
  }
  return cond();
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const guarded = (roots: string[], nameRoots?: string[]): GuardedProtection => ({
  scan: { entries: new Map(), truncated: false },
  denyWrite: [],
  roots,
  ...(nameRoots ? { nameRoots, gitRoots: nameRoots } : {}),
});

test('live guard (L2): a loop that re-creates an undone packages/x/.claude/settings.json is stopped at once; the file does not stay', async () => {
  const root = tmp();
  mkdirSync(path.join(root, 'packages', 'x'), { recursive: true });
  const protection = guarded([root]);
  const guard = guardWhileRunning(protection);
  const loop = spawn(
    'sh',
    [
      '-c',
      'while :; do mkdir -p packages/x/.claude 2>/dev/null; printf "%s" "$0" > packages/x/.claude/settings.json 2>/dev/null; done',
      '{"sandbox":{"hooks":"host"}}',
    ],
    { cwd: root, detached: true, stdio: 'ignore' },
  );
  const pid = loop.pid!;
  const notices: string[] = [];
  const started = Date.now();
  let stoppedAfter = -1;
  try {
    guard.onHostile((notice) => {
      notices.push(notice);
      stoppedAfter = Date.now() - started;
      process.kill(-pid, 'SIGKILL');
    });
    assert.ok(await until(() => !alive(pid) || notices.length > 0), 'the guard found the loop hostile');
    await new Promise<void>((r) =>
      loop.exitCode !== null || loop.signalCode !== null ? r() : loop.once('exit', () => r()),
    );
    // The last write before the kill is undone too (the guard still runs until the command's end); an
    // empty `.claude` or an empty file (the loop killed between mkdir, or the truncating open, and its
    // write) configures nothing.
    const file = path.join(root, 'packages/x/.claude/settings.json');
    assert.ok(await until(() => !existsSync(file) || readFileSync(file, 'utf8') === ''), 'the last write is undone');
  } finally {
    guard.stop();
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  assert.equal(notices.length, 1, 'stopped once');
  assert.match(notices[0]!, /packages\/x\/\.claude: written again after it was undone/);
  assert.ok(protection.live?.includes(notices[0]!), 'the notice is reported with the undone paths');
  assert.ok(stoppedAfter >= 0 && stoppedAfter < 2000, `stopped after ${stoppedAfter} ms`);
});

test('live guard (L2): one write of a control file (J4) is undone and the command is not stopped, nor at a second write of the same path; a third stops it', async () => {
  const root = tmp();
  const protection = guarded([root]);
  const guard = guardWhileRunning(protection);
  const notices: string[] = [];
  try {
    guard.onHostile((n) => notices.push(n));
    mkdirSync(path.join(root, 'a/.vscode'), { recursive: true });
    writeFileSync(path.join(root, 'a/.vscode/settings.json'), '{}');
    writeFileSync(path.join(root, 'a/.envrc'), 'echo hi');
    assert.ok(await until(() => !existsSync(path.join(root, 'a/.vscode')) && !existsSync(path.join(root, 'a/.envrc'))));
    await pause(50);
    assert.deepEqual(notices, [], 'distinct paths undone once each are not hostile');
    writeFileSync(path.join(root, 'a/.envrc'), 'echo again');
    assert.ok(await until(() => !existsSync(path.join(root, 'a/.envrc'))));
    await pause(50);
    assert.deepEqual(notices, [], 'written again once (two files into one new protected directory) is not hostile');
    writeFileSync(path.join(root, 'a/.envrc'), 'echo and again');
    assert.ok(await until(() => notices.length > 0), 'the same path written again twice is hostile');
    assert.ok(await until(() => !existsSync(path.join(root, 'a/.envrc'))));
    // Registered after it was found hostile: called at once.
    const late: string[] = [];
    guard.onHostile((n) => late.push(n));
    assert.deepEqual(late, notices);
  } finally {
    guard.stop();
  }
  assert.equal(notices.length, 1);
  assert.match(notices[0]!, /^a\/\.envrc: written again/);
});

test(`live guard (L2): ${HOSTILE_UNDOS} control files undone for one command stop it even when no path comes back`, async () => {
  const root = tmp();
  const protection = guarded([root]);
  const guard = guardWhileRunning(protection);
  const notices: string[] = [];
  try {
    guard.onHostile((n) => notices.push(n));
    for (let i = 0; i < HOSTILE_UNDOS - 1; i++) {
      mkdirSync(path.join(root, `p${i}`));
      writeFileSync(path.join(root, `p${i}`, '.mcp.json'), '{}');
    }
    assert.ok(await until(() => !existsSync(path.join(root, `p${HOSTILE_UNDOS - 2}`, '.mcp.json'))));
    await pause(50);
    assert.deepEqual(notices, []);
    mkdirSync(path.join(root, 'last'));
    writeFileSync(path.join(root, 'last', '.mcp.json'), '{}');
    assert.ok(await until(() => notices.length > 0));
  } finally {
    guard.stop();
  }
  assert.match(notices[0]!, new RegExp(`^${HOSTILE_UNDOS} protected paths undone`));
});

test('live guard (K10): control files below the top of a writable allowWrite directory are undone live; what was there stays', async () => {
  const root = tmp();
  const sib = tmp();
  mkdirSync(path.join(sib, 'mine/.claude'), { recursive: true });
  writeFileSync(path.join(sib, 'mine/.claude/settings.json'), '{"model":"mine"}');
  const protection = guarded([root], [root, sib]);
  const guard = guardWhileRunning(protection);
  try {
    mkdirSync(path.join(sib, 'other/.claude'), { recursive: true });
    writeFileSync(path.join(sib, 'other/.claude/settings.json'), '{"sandbox":{"hooks":"host"}}');
    writeFileSync(path.join(sib, 'other/.envrc'), 'echo hi');
    assert.ok(
      await until(() => !existsSync(path.join(sib, 'other/.claude'))),
      'the new .claude in allowWrite is removed',
    );
    assert.ok(await until(() => !existsSync(path.join(sib, 'other/.envrc'))), 'the new .envrc too');
    assert.equal(readFileSync(path.join(sib, 'mine/.claude/settings.json'), 'utf8'), '{"model":"mine"}');
    assert.ok(
      protection.live?.some((n) => n.startsWith(path.join('other', '.claude'))),
      protection.live?.join(),
    );
  } finally {
    guard.stop();
  }
});
