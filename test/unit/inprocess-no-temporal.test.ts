// unit: the in-process runner loads no Temporal (issue 32). A fresh Node process requires the
// runner's entry (src/inprocess/runSession.ts: what `durable-agent/worker` and the main entry re-export
// as runLocalSession/startLocalSession, and what the benchmarks run) and RUNS a session against the
// fake Messages API, with a tool call through the one pipeline (model call, tool pool, ledger,
// transcript store, hooks): every module loaded at start-up or lazily on the way is then in
// require.cache. Any `@temporalio/*` module among them fails the test, named with the chain of
// requires from the entry that loaded it. scripts/rooms.mjs keeps the rooms this entry may reach free
// of @temporalio/* at lint time; this test is the check at run time (dynamic and computed requires
// included).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { lastToolResults, startFakeAnthropic, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';

const root = (() => {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'tsconfig.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`package root not found above ${__dirname}`);
  }
})();

/** The in-process runner's entry, as built. */
const ENTRY = join(root, 'dist/src/inprocess/runSession.js');

/**
 * Runs in the child: requires the entry, runs one session, then reports every loaded
 * `@temporalio/*` module with the shortest chain of requires from the entry (module.children,
 * which node fills for every require, cached or not).
 */
const CHILD = `
const { relative } = require('node:path');
const entry = require.resolve(process.env.ENTRY);
const { runLocalSession } = require(entry);
const short = (f) => relative(process.env.ROOT, f);
const pkgOf = (f) => /node_modules\\/(@temporalio\\/[^/]+)/.exec(f)?.[1];
runLocalSession({
  prompt: 'read a.txt',
  cwd: process.env.WORK,
  tools: ['Read'],
  permissionMode: 'default',
  model: { model: 'claude-test', maxTokens: 256 },
}).then((r) => {
  const chains = {};
  const seen = new Set([entry]);
  const queue = [[entry]];
  while (queue.length > 0) {
    const chain = queue.shift();
    const mod = require.cache[chain[chain.length - 1]];
    for (const child of mod?.children ?? []) {
      if (seen.has(child.filename)) continue;
      seen.add(child.filename);
      const pkg = pkgOf(child.filename);
      // The first @temporalio module on a chain names its package; what it loads itself is its own business.
      if (pkg) chains[pkg] ??= [...chain, child.filename].map(short).join(' → ');
      else queue.push([...chain, child.filename]);
    }
  }
  const loaded = Object.keys(require.cache).filter(pkgOf).map(short);
  process.stdout.write(JSON.stringify({ status: r.status, finalText: r.finalText, loaded, chains }));
}, (err) => {
  process.stderr.write(String(err && err.stack || err));
  process.exit(1);
});
`;

const STORE_ENV = ['DURABLE_AGENT_STORE_DIR', 'DURABLE_AGENT_STORE', 'DURABLE_AGENT_BLOB_STORE'];

function runChild(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', CHILD], {
      cwd: root,
      // No store configured by the caller's environment: the session's own temporary store.
      env: {
        ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !STORE_ENV.includes(k))),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

test('unit: a session run by the in-process runner (model call, Read through the pipeline) loads no @temporalio/* module', async () => {
  assert.ok(existsSync(ENTRY), `${ENTRY} is missing: run \`npm run build\``);
  const fake = await startFakeAnthropic();
  const work = await mkdtemp(join(tmpdir(), 'da-inproc-'));
  const home = await mkdtemp(join(tmpdir(), 'da-inproc-home-'));
  try {
    await writeFile(join(work, 'a.txt'), 'hello from a.txt\n');
    fake.enqueue(
      toolUseResponse([{ id: 'toolu_read', name: 'Read', input: { file_path: 'a.txt' } }]),
      textResponse('read it'),
    );
    // The child's default Anthropic client reads these, as a library user's would.
    const r = await runChild({
      ENTRY,
      ROOT: root,
      WORK: work,
      ANTHROPIC_BASE_URL: fake.baseURL,
      ANTHROPIC_API_KEY: 'test-key',
      DURABLE_AGENT_HOME: home,
    });
    assert.equal(r.code, 0, `the child failed:\n${r.stderr}`);
    const out = JSON.parse(r.stdout) as {
      status: string;
      finalText: string;
      loaded: string[];
      chains: Record<string, string>;
    };
    // The session really ran: the Read's result went back to the model, which answered.
    assert.equal(out.status, 'completed');
    assert.equal(out.finalText, 'read it');
    const results = lastToolResults(fake.messageRequests()[1]!);
    assert.deepEqual(
      results.map((b) => b.tool_use_id),
      ['toolu_read'],
    );
    assert.match(JSON.stringify(results[0]?.content), /hello from a\.txt/);
    assert.deepEqual(
      out.chains,
      {},
      `the in-process runner loaded Temporal (${out.loaded.length} modules). First require of each package:\n  ${Object.entries(
        out.chains,
      )
        .map(([pkg, chain]) => `${pkg}: ${chain}`)
        .join('\n  ')}`,
    );
    assert.deepEqual(out.loaded, []);
  } finally {
    await fake.close();
    await rm(work, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  }
});

test('unit: lint keeps the rooms the in-process runner reaches free of @temporalio/* (scripts/rooms.mjs, temporalFree)', () => {
  // The real table passes; the table as it was before issue 32 (the in-process runner importing the
  // activities, sessionInput the whole of the workflows) is refused, naming the chain of rooms.
  const code = `
    import { temporalFreeProblems, ROOMS } from './scripts/rooms.mjs';
    const before = ROOMS.map((r) =>
      r.room === 'inprocess' ? { ...r, imports: [...r.imports, 'activities'] }
      : r.room === 'sessionInput' ? { ...r, imports: [...r.imports, 'workflows'] }
      : r);
    process.stdout.write(JSON.stringify({ now: temporalFreeProblems(), before: temporalFreeProblems(before) }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { now: string[]; before: string[] };
  assert.deepEqual(out.now, []);
  assert.deepEqual(out.before, [
    'the inprocess room runs without Temporal, but it reaches @temporalio/activity: inprocess → activities',
    'the inprocess room runs without Temporal, but it reaches @temporalio/workflow: inprocess → sessionInput → workflows',
  ]);
});
