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
