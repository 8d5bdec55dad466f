// unit: the tree watch behind the live guard and the check after a sandboxed command
// (src/sandbox/treeWatch.ts, issue 30 round d): every `.git` at any depth, in node_modules, renamed
// in after the watch began, in a directory recreated at the same path; past the watch budget the
// tree says it is incomplete and the record falls back to a full walk. Oracles: real directories
// and the record the check after the call reads.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import {
  closeTreeWatches,
  gitEntriesOf,
  setWatchBudgetForTests,
  settleTreeEvents,
  treeWatch,
} from '../../src/sandbox/treeWatch';
import { guardWhileRunning, type GuardedProtection } from '../../src/sandbox/liveGuard';

const dirs: string[] = [];
after(() => {
  closeTreeWatches();
  setWatchBudgetForTests(undefined);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tmp(): string {
  const d = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-treewatch-')));
  dirs.push(d);
  return d;
}

/** Events are asynchronous: wait until `cond` holds (bounded). */
async function until(cond: () => boolean): Promise<boolean> {
  for (let i = 0; i < 200 && !cond(); i++) {
    await settleTreeEvents();
    await new Promise((r) => setTimeout(r, 10));
  }
  return cond();
}

test('tree watch: a .git ten directories deep and one in node_modules, there before the watch, are recorded', () => {
  const root = tmp();
  const deep = path.join(root, 'a/b/c/d/e/f/g/h/i/j');
  mkdirSync(path.join(deep, '.git'), { recursive: true });
  mkdirSync(path.join(root, 'node_modules', 'pkg', '.git'), { recursive: true });
  const t = treeWatch(root);
  assert.equal(t.complete(), true);
  assert.deepEqual(
    t.gitEntries().sort(),
    [path.join(deep, '.git'), path.join(root, 'node_modules', 'pkg', '.git')].sort(),
  );
});

test('tree watch: a repository built elsewhere and renamed into a new directory, deep, is recorded and announced', async () => {
  const root = tmp();
  const t = treeWatch(root);
  const seen: string[] = [];
  const off = t.subscribe((g) => seen.push(g));
  const outside = tmp();
  mkdirSync(path.join(outside, 'x/y/z/.git'), { recursive: true });
  mkdirSync(path.join(root, 'p/q/r/s/t/u'), { recursive: true });
  renameSync(path.join(outside, 'x'), path.join(root, 'p/q/r/s/t/u/moved'));
  const want = path.join(root, 'p/q/r/s/t/u/moved/y/z/.git');
  assert.ok(await until(() => t.gitEntries().includes(want)), `recorded: ${t.gitEntries().join()}`);
  assert.ok(seen.includes(want), 'announced to the guard');
  off();
});

test('tree watch: a directory removed and made again at the same path is watched again', async () => {
  const root = tmp();
  mkdirSync(path.join(root, 'sub'));
  const t = treeWatch(root);
  rmSync(path.join(root, 'sub'), { recursive: true });
  mkdirSync(path.join(root, 'sub'));
  await settleTreeEvents();
  mkdirSync(path.join(root, 'sub', 'r', '.git'), { recursive: true });
  const want = path.join(root, 'sub', 'r', '.git');
  assert.ok(await until(() => t.gitEntries().includes(want)), `recorded: ${t.gitEntries().join()}`);
});

test('tree watch: past the watch budget the tree is incomplete and the record is a full walk', () => {
  closeTreeWatches();
  setWatchBudgetForTests(5);
  try {
    const root = tmp();
    for (let i = 0; i < 10; i++) mkdirSync(path.join(root, `d${i}`));
    mkdirSync(path.join(root, 'd9', 'deep', 'er', '.git'), { recursive: true });
    const t = treeWatch(root);
    assert.equal(t.complete(), false);
    assert.ok(gitEntriesOf(root).includes(path.join(root, 'd9', 'deep', 'er', '.git')));
  } finally {
    closeTreeWatches();
    setWatchBudgetForTests(undefined);
  }
});

test('live guard (J4): a control file a running command creates in a new directory is undone at once; what was there stays', async () => {
  const root = tmp();
  mkdirSync(path.join(root, 'packages/y/.claude'), { recursive: true });
  writeFileSync(path.join(root, 'packages/y/.claude/settings.json'), '{"model":"mine"}');
  const protection: GuardedProtection = {
    scan: { entries: new Map(), truncated: false },
    denyWrite: [],
    roots: [root],
  };
  const guard = guardWhileRunning(protection);
  try {
    // What a background command does while it still runs (no call has ended).
    mkdirSync(path.join(root, 'packages/x/.claude'), { recursive: true });
    writeFileSync(path.join(root, 'packages/x/.claude/settings.json'), '{"sandbox":{"hooks":"host"}}');
    mkdirSync(path.join(root, 'packages/z/deep'), { recursive: true });
    writeFileSync(path.join(root, 'packages/z/deep/.mcp.json'), '{"mcpServers":{}}');
    assert.ok(await until(() => !existsSync(path.join(root, 'packages/x/.claude'))), 'the new .claude is removed live');
    assert.ok(await until(() => !existsSync(path.join(root, 'packages/z/deep/.mcp.json'))), 'the new .mcp.json too');
    assert.equal(readFileSync(path.join(root, 'packages/y/.claude/settings.json'), 'utf8'), '{"model":"mine"}');
    assert.ok(
      protection.live?.some((n) => n.startsWith(path.join('packages', 'x', '.claude'))),
      protection.live?.join(),
    );
    assert.ok(protection.live?.some((n) => n.startsWith(path.join('packages', 'z', 'deep', '.mcp.json'))));
  } finally {
    guard.stop();
  }
  // Stopped: nothing is undone any more (the check after the call takes over).
  mkdirSync(path.join(root, 'packages/w/.claude'), { recursive: true });
  writeFileSync(path.join(root, 'packages/w/.claude/settings.json'), '{}');
  await settleTreeEvents();
  await new Promise((r) => setTimeout(r, 50));
  assert.ok(existsSync(path.join(root, 'packages/w/.claude/settings.json')));
});

// K6 (red team, issue 30): the kernel's event queue (fs.inotify.max_queued_events) overflows when a
// command makes events faster than the worker reads them; the kernel then drops what follows (libuv
// drops its IN_Q_OVERFLOW too). Here deterministic: the worker's event loop is blocked (a synchronous
// child) while the command makes twice the queue in files, then repositories and control files.
const queueSize = (() => {
  try {
    return Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8').trim());
  } catch {
    return 0;
  }
})();
const overflowSkip =
  queueSize > 0 && queueSize <= 100_000 ? {} : { skip: `max_queued_events ${queueSize}: no overflow to cause` };
/** Files made in `flood/` (a directory watched already: its events fill the queue). */
const flood = (n: number) => `(cd flood && seq 1 ${n} | xargs touch)`;

test(
  'tree watch (K6): a kernel queue overflow (the worker busy while a command makes files, then repositories) — the record is read again before it is trusted',
  overflowSkip,
  async () => {
    const root = tmp();
    mkdirSync(path.join(root, 'flood'));
    treeWatch(root);
    const repos = Array.from({ length: 10 }, (_, i) => `r${i}`);
    execFileSync(
      'sh',
      ['-c', `${flood(queueSize * 2 + 1000)} && for r in ${repos.join(' ')}; do mkdir -p $r/.git; done`],
      {
        cwd: root,
      },
    );
    await settleTreeEvents();
    await settleTreeEvents();
    assert.deepEqual(
      repos.filter((r) => !gitEntriesOf(root).includes(path.join(root, r, '.git'))),
      [],
      'repositories the watch never saw',
    );
  },
);

test(
  'live guard (K6): after a kernel queue overflow during the command, the repositories and control files it made meanwhile are undone while it runs',
  overflowSkip,
  async () => {
    const root = tmp();
    mkdirSync(path.join(root, 'flood'));
    const protection: GuardedProtection = {
      scan: { entries: new Map(), truncated: false },
      denyWrite: [],
      roots: [root],
    };
    const guard = guardWhileRunning(protection);
    const repos = Array.from({ length: 8 }, (_, i) => `r${i}`);
    try {
      execFileSync(
        'sh',
        [
          '-c',
          `${flood(queueSize * 2 + 1000)} && for r in ${repos.join(' ')}; do git init -q $r && printf '[core]\\n\\tfsmonitor = touch x\\n' >> $r/.git/config && mkdir -p d$r/.claude && echo '{}' > d$r/.claude/settings.json; done`,
        ],
        { cwd: root, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } },
      );
      const left = () => [
        ...repos.filter((r) => /fsmonitor/.test(readFileSync(path.join(root, r, '.git', 'config'), 'utf8'))),
        ...repos.filter((r) => existsSync(path.join(root, `d${r}`, '.claude', 'settings.json'))).map((r) => `d${r}`),
      ];
      await until(() => left().length === 0);
      assert.deepEqual(left(), [], 'left while the command runs');
    } finally {
      guard.stop();
    }
  },
);

// L10 (red team, issue 30): a command that makes more directories than the watch budget, then a
// control file below one the watch could not take. The budget is lowered here (the kernel's is a
// quarter of max_user_watches: tens of thousands of mkdirs).
test('live guard (L10): past the watch budget, a control file a command plants in a directory the watch could not take is undone while it runs', async () => {
  closeTreeWatches();
  setWatchBudgetForTests(40);
  const root = tmp();
  const protection: GuardedProtection = {
    scan: { entries: new Map(), truncated: false },
    denyWrite: [],
    roots: [root],
  };
  const guard = guardWhileRunning(protection);
  try {
    execFileSync('sh', ['-c', 'mkdir pad && (cd pad && seq 1 100 | xargs mkdir)'], { cwd: root });
    await settleTreeEvents();
    mkdirSync(path.join(root, 'packages/x/.claude'), { recursive: true });
    writeFileSync(path.join(root, 'packages/x/.claude/settings.json'), '{"sandbox":{"hooks":"host"}}');
    mkdirSync(path.join(root, 'pad/77/deep/r'), { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: path.join(root, 'pad/77/deep/r') });
    writeFileSync(path.join(root, 'pad/77/deep/r/.git/config'), '[core]\n\tfsmonitor = touch x\n', { flag: 'a' });
    assert.equal(treeWatch(root).complete(), false, 'the tree is past the budget (else the row proves nothing)');
    assert.ok(
      await until(() => !existsSync(path.join(root, 'packages/x/.claude/settings.json'))),
      'the planted settings are removed while the command runs',
    );
    assert.ok(
      await until(() => !/fsmonitor/.test(readFileSync(path.join(root, 'pad/77/deep/r/.git/config'), 'utf8'))),
      'the blind repository’s fsmonitor is undone while the command runs',
    );
  } finally {
    guard.stop();
    closeTreeWatches();
    setWatchBudgetForTests(undefined);
  }
});
