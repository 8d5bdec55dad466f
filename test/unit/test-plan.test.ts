// unit: the test run's order and lanes (scripts/test-plan.mjs) and its driver (scripts/test-driver.mjs,
// node's runner in the order given). Oracles: the plan a real node process computes from times files,
// and the order in which the driver's test-file processes really start (each appends its name to a
// log), its counts file and its exit code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');
const planModule = path.join(root, 'scripts', 'test-plan.mjs');
const driver = path.join(root, 'scripts', 'test-driver.mjs');

/** planLanes() of scripts/test-plan.mjs, run in a node process (the module is ESM). */
function planLanes(
  files: string[],
  committed: object,
  last: object,
  lane = true,
): { main: string[]; waiting: string[] } {
  const code = `import { planLanes } from ${JSON.stringify(planModule)};
const [files, committed, last, lane] = JSON.parse(process.argv[1]);
process.stdout.write(JSON.stringify(planLanes(files, { keyOf: (f) => f, committed, last, lane })));`;
  const out = execFileSync(
    process.execPath,
    ['--input-type=module', '-e', code, JSON.stringify([files, committed, last, lane])],
    {
      encoding: 'utf8',
    },
  );
  return JSON.parse(out) as { main: string[]; waiting: string[] };
}

test('unit: the plan starts the longest files first; unknown files count as 20 s (integration) or 3 s (unit); the last run wins over the committed figures', () => {
  const committed = {
    waiting: [],
    files: { 'unit/heavy.test.js': 50, 'integration/short.test.js': 5, 'integration/long.test.js': 40 },
  };
  const last = { waiting: [], files: { 'integration/long.test.js': 100 } };
  const files = [
    'integration/short.test.js',
    'unit/new.test.js',
    'integration/new.test.js',
    'integration/long.test.js',
    'unit/heavy.test.js',
  ];
  assert.deepEqual(planLanes(files, committed, last), {
    main: [
      'integration/long.test.js', // 100 (last run)
      'unit/heavy.test.js', // 50
      'integration/new.test.js', // 20 (unknown integration file)
      'integration/short.test.js', // 5
      'unit/new.test.js', // 3 (unknown unit file)
    ],
    waiting: [],
  });
});

test('unit: the files named `waiting` get their own lane (longest first) when the run has others; alone, or without a lane (fewer than three at once), they run in the main lane', () => {
  const committed = {
    waiting: ['integration/wakeups.test.js', 'integration/schedules.test.js'],
    files: { 'integration/wakeups.test.js': 124, 'integration/schedules.test.js': 82, 'integration/a.test.js': 10 },
  };
  const none = { waiting: [], files: {} };
  assert.deepEqual(
    planLanes(
      ['integration/a.test.js', 'integration/schedules.test.js', 'integration/wakeups.test.js'],
      committed,
      none,
    ),
    { main: ['integration/a.test.js'], waiting: ['integration/wakeups.test.js', 'integration/schedules.test.js'] },
  );
  assert.deepEqual(
    planLanes(['integration/a.test.js', 'integration/wakeups.test.js'], committed, none, false),
    { main: ['integration/wakeups.test.js', 'integration/a.test.js'], waiting: [] },
    'no lane where the run does not allow one (fewer than three at once)',
  );
  assert.deepEqual(planLanes(['integration/schedules.test.js'], committed, none), {
    main: ['integration/schedules.test.js'],
    waiting: [],
  });
});

test('unit: the driver starts the files in the plan’s order (not by name), counts like node --test, and fails on a failure that is not a todo', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'test-plan-'));
  try {
    const log = path.join(dir, 'started.log');
    const file = (name: string, body: string): string => {
      const f = path.join(dir, name);
      writeFileSync(
        f,
        `require('node:fs').appendFileSync(${JSON.stringify(log)}, ${JSON.stringify(`${name}\n`)});\n` +
          `const { test } = require('node:test');\n${body}\n`,
      );
      return f;
    };
    const z = file('z-first.test.js', "test('passes', () => {});");
    const a = file(
      'a-second.test.js',
      "test('passes too', () => {}); test('a todo may fail', { todo: 'later' }, () => { throw new Error('x'); });",
    );
    const run = (files: string[]) => {
      rmSync(log, { force: true });
      const planFile = path.join(dir, 'plan.json');
      const countsFile = path.join(dir, 'counts.json');
      writeFileSync(
        planFile,
        JSON.stringify({ files, concurrency: 1, reporter: 'tap', timeoutMs: 60_000, countsFile }),
      );
      const r = spawnSync(process.execPath, [driver], {
        env: { ...process.env, NODE_TEST_CONTEXT: undefined, DURABLE_AGENT_TEST_PLAN: planFile },
        encoding: 'utf8',
      });
      return {
        status: r.status,
        stdout: r.stdout,
        started: readFileSync(log, 'utf8').trim().split('\n'),
        counts: JSON.parse(readFileSync(countsFile, 'utf8')) as Record<string, number>,
      };
    };
    const ok = run([z, a]);
    assert.equal(ok.status, 0, ok.stdout);
    assert.deepEqual(ok.started, ['z-first.test.js', 'a-second.test.js'], 'the plan’s order');
    assert.equal(ok.counts.tests, 3);
    assert.equal(ok.counts.pass, 2);
    assert.equal(ok.counts.todo, 1);
    assert.equal(ok.counts.fail, 0);
    assert.match(ok.stdout, /^# pass 2$/m, 'node’s TAP summary');

    const bad = file('m-fails.test.js', "test('fails', () => { throw new Error('boom'); });");
    const failed = run([bad, a]);
    assert.equal(failed.status, 1, failed.stdout);
    assert.deepEqual(failed.started, ['m-fails.test.js', 'a-second.test.js']);
    assert.equal(failed.counts.fail, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
