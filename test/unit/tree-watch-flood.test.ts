// unit: a command that floods the tree watch with events does not hold the worker's event loop, and
// what it writes meanwhile is still undone live (red team, issue 30, P7b: src/sandbox/watchFlood.ts,
// treeWatch.ts). Real directories, real looping processes, the real live guard; oracles: a 10 ms
// timer's ticks and perf_hooks' event-loop delay in this process (the worker's), the files on disk.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { closeTreeWatches, settleTreeEvents, treeWatch } from '../../src/sandbox/treeWatch';
import { guardWhileRunning, type GuardedProtection } from '../../src/sandbox/liveGuard';
import {
  controlStamp,
  COOL_MAX_MS,
  COOL_MS,
  Cooling,
  dirStamp,
  hotWatches,
  REHEAT_MS,
} from '../../src/sandbox/watchFlood';

const PY = '/usr/bin/python3';
const noPython = existsSync(PY) ? {} : { skip: `${PY} is needed for renameat2` };
const dirs: string[] = [];
after(() => {
  closeTreeWatches();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tmp(): string {
  const d = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-flood-')));
  dirs.push(d);
  return d;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const guarded = (root: string): GuardedProtection => ({
  scan: { entries: new Map(), truncated: false },
  denyWrite: [],
  roots: [root],
});

/**
 * Runs `script` (python, in `root`) to its end under a live guard while a 10 ms timer ticks; what it
 * printed, its exit code, the ticks against the wall time, the event loop's longest delay, and the
 * notices of a hostile command.
 */
async function underGuard(root: string, script: string) {
  const protection = guarded(root);
  const guard = guardWhileRunning(protection);
  const hostile: string[] = [];
  guard.onHostile((n) => hostile.push(n));
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let ticks = 0;
  const tick = setInterval(() => ticks++, 10);
  const started = Date.now();
  const elu = performance.eventLoopUtilization();
  const child = spawn(PY, ['-c', script], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
  const wall = Date.now() - started;
  // The share of the event loop busy (outside its wait for events) while the command ran: a process
  // the loaded machine does not schedule is not counted busy, as a timer's missed ticks would be.
  const busy = performance.eventLoopUtilization(elu).utilization;
  clearInterval(tick);
  delay.disable();
  await settleTreeEvents();
  guard.stop();
  const maxLagMs = Math.round(delay.max / 1e6);
  return { out, code, ticks, share: ticks / (wall / 10), busy, maxLagMs, hostile, protection };
}

test(
  'P7b: a renameat2(RENAME_EXCHANGE) loop on two directories for 4 s: the event loop keeps ticking, and a .mcp.json and .claude/settings.json written in the flooded directory meanwhile are undone live',
  noPython,
  async (t) => {
    const root = tmp();
    mkdirSync(path.join(root, 'a'));
    mkdirSync(path.join(root, 'b'));
    const hotBefore = hotWatches();
    const flood = [
      'import ctypes, os, time',
      'libc = ctypes.CDLL(None)',
      'start = time.time(); planted = False; n = 0',
      'while time.time() < start + 4:',
      "    libc.renameat2(-100, b'a', -100, b'b', 2); n += 1",
      '    if not planted and time.time() > start + 1.5:',
      "        planted = True; os.mkdir('.claude')",
      "        open('.claude/settings.json', 'w').write('{\"hooks\":{}}'); open('.mcp.json', 'w').write('{}')",
      "print(n, os.path.exists('.mcp.json'), os.path.exists('.claude'))",
    ].join('\n');
    const r = await underGuard(root, flood);
    t.diagnostic(
      `exchanges, .mcp.json and .claude left at the flood's end: ${r.out.trim()}; ticks ${r.ticks} (${Math.round(r.share * 100)} %), longest event-loop delay ${r.maxLagMs} ms, busy ${Math.round(r.busy * 100)} %; watches found hot ${hotWatches() - hotBefore}`,
    );
    assert.equal(r.code, 0);
    assert.match(r.out, /^\d+ False False$/m, 'both undone while the flood still ran');
    assert.ok(r.maxLagMs < 2_000, `the event loop was held ${r.maxLagMs} ms`);
    assert.ok(r.busy < 0.8, `the event loop was busy ${Math.round(r.busy * 100)} % of the time`);
    assert.deepEqual(r.hostile, [], 'a flood alone is not a hostile command');
    // Once the flood ends, the hot directories cool (a command using the tree reads them meanwhile) and are watched again.
    const tw = treeWatch(root);
    const guard = guardWhileRunning(guarded(root));
    try {
      for (let i = 0; i < 1_000 && !tw.complete(); i++) await pause(10);
      assert.deepEqual(
        { hot: tw.hot(), complete: tw.complete() },
        { hot: 0, complete: true },
        'watched again once cooled',
      );
      assert.ok(tw.watched() >= 3, `${tw.watched()} directories watched`);
    } finally {
      guard.stop();
    }
  },
);

test(
  'a build is not stopped: 20,000 files created and removed in a loop for 3 s pass (no hostile notice, exit 0), the event loop keeps ticking, and a .envrc written at its end is undone',
  noPython,
  async (t) => {
    const root = tmp();
    mkdirSync(path.join(root, 'node_modules', 'pkg'), { recursive: true });
    const churn = [
      'import os, time',
      "d = 'node_modules/pkg'; start = time.time(); rounds = 0",
      'while time.time() < start + 3:',
      '    for i in range(20000):',
      "        with open(f'{d}/f{i}.js', 'w') as f: f.write('module.exports = 1\\n')",
      '    for i in range(20000): os.unlink(f"{d}/f{i}.js")',
      '    rounds += 1',
      "open(d + '/.envrc', 'w').write('echo planted')",
      'time.sleep(1.5)',
      "print(rounds, os.path.exists(d + '/.envrc'))",
    ].join('\n');
    const r = await underGuard(root, churn);
    t.diagnostic(
      `rounds of 20,000, .envrc left 1.5 s later: ${r.out.trim()}; ticks ${r.ticks} (${Math.round(r.share * 100)} %), longest event-loop delay ${r.maxLagMs} ms, busy ${Math.round(r.busy * 100)} %`,
    );
    assert.equal(r.code, 0, 'the churn ran to its end');
    assert.deepEqual(r.hostile, [], 'not stopped as hostile');
    assert.match(r.out, /^[1-9]\d* False$/m, 'the .envrc written at its end was undone while it ran');
    assert.ok(r.maxLagMs < 2_000, `the event loop was held ${r.maxLagMs} ms`);
    assert.ok(r.busy < 0.8, `the event loop was busy ${Math.round(r.busy * 100)} % of the time`);
  },
);

test('a hot directory is read until it cools (1 s), then watched again; hot again within 10 s, it cools twice as long, up to 30 s', () => {
  const c = new Cooling();
  const reads: string[] = [];
  const again: string[] = [];
  let n = 0;
  const isDir = () => `changed ${++n}`;
  c.start('/t/a', () => reads.push('a'), 0);
  assert.ok(c.holds('/t/a', () => reads.push('a2')));
  c.poll(COOL_MS - 1, isDir, (d) => again.push(d));
  assert.deepEqual([reads, again, c.size], [['a2'], [], 1]);
  c.poll(COOL_MS, isDir, (d) => again.push(d));
  assert.deepEqual([again, c.size], [['/t/a'], 0]);
  c.start('/t/a', () => {}, COOL_MS + 10);
  c.poll(COOL_MS + 10 + 2 * COOL_MS - 1, isDir, (d) => again.push(d));
  assert.equal(c.size, 1, 'hot again soon: twice as long');
  let now = 3 * COOL_MS + 10;
  c.poll(now, isDir, () => {});
  for (let i = 0; i < 10; i++) {
    c.start('/t/a', () => {}, now);
    now += COOL_MAX_MS;
    c.poll(now, isDir, () => {});
  }
  c.start('/t/a', () => {}, now);
  c.poll(now + COOL_MAX_MS - 1, isDir, () => {});
  assert.equal(c.size, 1, 'at most COOL_MAX_MS');
  c.poll(now + COOL_MAX_MS, isDir, () => {});
  c.start('/t/a', () => {}, now + COOL_MAX_MS + REHEAT_MS + 1);
  c.poll(now + COOL_MAX_MS + REHEAT_MS + 1 + COOL_MS, isDir, () => {});
  assert.equal(c.size, 0, 'hot again after REHEAT_MS: COOL_MS again');
  c.start('/t/gone', () => {}, 0);
  c.poll(
    1,
    () => undefined,
    (d) => again.push(d),
  );
  assert.equal(c.size, 0, 'a directory gone (or no longer one) is not read');
  // Read again only when its entries changed (its stamp): 20,000 quiet directories are not announced again and again.
  const quiet: string[] = [];
  c.start('/t/q', () => quiet.push('read'), 0);
  for (const now of [1, 2, 3])
    c.poll(
      now,
      () => 'same',
      () => {},
    );
  c.poll(
    4,
    () => 'changed',
    () => {},
  );
  assert.deepEqual(quiet, ['read', 'read']);
});

// S5 (red team s): a flood of writes INTO files keeps a new repository's `.git` watch closed (cooling)
// for up to COOL_MAX_MS, and its config rewritten in place changes no time of the directory. The
// cooling directory's stamp takes its control entries' too, so the poll reads it again. The end to
// end row (24 s of flood) is unit/red-issue30-s S5 (R30S_SLOW=1).
test('S5: a cooling git directory is read again when its config is rewritten in place; a protected entry in a cooling directory too', () => {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-s5-')));
  try {
    const git = path.join(root, '.git');
    mkdirSync(git);
    writeFileSync(path.join(git, 'config'), '[core]\n');
    writeFileSync(path.join(git, 'x'), '');
    const stat = (p: string) => {
      try {
        return lstatSync(p);
      } catch {
        return undefined;
      }
    };
    const before = { dir: dirStamp(stat(git)), control: controlStamp(git, true, [], stat) };
    appendFileSync(path.join(git, 'x'), 'flood');
    assert.equal(controlStamp(git, true, [], stat), before.control, 'writes into other files change nothing');
    appendFileSync(path.join(git, 'config'), '\tfsmonitor = touch FSMON\n');
    assert.equal(dirStamp(stat(git)), before.dir, "the directory's own stamp misses the in-place rewrite");
    assert.notEqual(controlStamp(git, true, [], stat), before.control, 'the control stamp sees it');
    // Not a git directory: the protected entries recorded there count, others do not.
    const envrc = path.join(root, '.envrc');
    writeFileSync(envrc, 'true\n');
    const plain = controlStamp(root, false, [envrc], stat);
    appendFileSync(envrc, 'PATH_add bin\n');
    assert.notEqual(controlStamp(root, false, [envrc], stat), plain, 'a recorded entry rewritten in place');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
