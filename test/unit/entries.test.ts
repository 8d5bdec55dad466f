// unit: the package's entry points, split by where code runs (package.json "exports"). Each entry
// is loaded by its package name (a self-reference, so the "exports" map itself is under test) in
// a fresh child process, and the modules it pulled in are read from require.cache:
// `durable-agent/tools` loads no Temporal package and none of the node-only rooms,
// `durable-agent/workflow` loads nothing of @temporalio/worker or @temporalio/client,
// `durable-agent/client` loads no @temporalio/worker, `durable-agent/local` no Temporal package, and the fake Messages API is only in
// `durable-agent/testing`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

const root = (() => {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'tsconfig.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`package root not found above ${__dirname}`);
  }
})();

/** The files `require(spec)` loads in a fresh process, and the names the entry exports. */
function load(spec: string): { files: string[]; exports: string[] } {
  const code = `const m = require(${JSON.stringify(spec)}); process.stdout.write(JSON.stringify({ files: Object.keys(require.cache), exports: Object.keys(m) }));`;
  const r = spawnSync(process.execPath, ['-e', code], { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as { files: string[]; exports: string[] };
}

const pkgOf = (f: string): string | undefined => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(f)?.[1];
// A folder of src/: the first level, or the second under a folder that groups several
// (src/temporal/workflows, src/tasks/core).
const roomOf = (f: string): string | undefined =>
  /dist\/src\/((?:temporal|tasks|toolCall|worktree)\/[^/.]+|[^/.]+)/.exec(f)?.[1];

test('unit: durable-agent/tools loads no Temporal package and no node-only room', () => {
  const { files, exports } = load('durable-agent/tools');
  assert.deepEqual(
    files.map(pkgOf).filter((p) => p !== undefined && p !== 'zod'),
    [],
  );
  // Only the tool protocol, the pure core and the entry itself.
  assert.deepEqual([...new Set(files.map(roomOf).filter((r) => r !== undefined))].sort(), [
    'core',
    'packageEntries',
    'toolProtocol',
  ]);
  assert.ok(
    !files.some((f) => /dist\/src\/tools\//.test(f)),
    'the built-in tools (node fs, child_process) are not loaded',
  );
  for (const name of ['buildTool', 'PERMISSION_MODES', 'applyContextModifier', 'DurableAgentError'])
    assert.ok(exports.includes(name), name);
});

test('unit: durable-agent/workflow is workflow-safe: no @temporalio/worker, no @temporalio/client', () => {
  const { files, exports } = load('durable-agent/workflow');
  const pkgs = new Set(files.map(pkgOf).filter((p): p is string => p !== undefined));
  assert.ok(pkgs.has('@temporalio/workflow'), 'it does load the workflow API (the definitions)');
  for (const p of pkgs)
    assert.ok(
      !['@temporalio/worker', '@temporalio/client', '@temporalio/activity', '@anthropic-ai/sdk'].includes(p),
      `loads ${p}`,
    );
  for (const r of new Set(files.map(roomOf)))
    assert.ok(
      r === undefined ||
        [
          'core',
          'tasks/core',
          'packageEntries',
          'toolProtocol',
          'temporal/workflows',
          'tasks/workflows',
          'hooks',
        ].includes(r),
      `loads src/${r}`,
    );
  for (const name of ['statusQuery', 'approveUpdate', 'END_REASONS', 'buildTool'])
    assert.ok(exports.includes(name), name);
});

test('unit: durable-agent/client never loads @temporalio/worker', () => {
  const { files, exports } = load('durable-agent/client');
  assert.deepEqual(
    files.filter((f) => pkgOf(f) === '@temporalio/worker'),
    [],
  );
  for (const name of ['startSession', 'approveToolUse', 'buildAudit', 'SessionNotFoundError'])
    assert.ok(exports.includes(name), name);
});

test('unit: durable-agent/local runs sessions in-process and loads no Temporal package', () => {
  const { files, exports } = load('durable-agent/local');
  assert.deepEqual([...new Set(files.map(pkgOf).filter((p) => p?.startsWith('@temporalio/')))], []);
  for (const name of ['runLocalSession', 'startLocalSession', 'buildTool', 'BUILTIN_TOOLS'])
    assert.ok(exports.includes(name), name);
});

test('unit: the main entry and durable-agent/worker have the worker; only durable-agent/testing has the fake Messages API', () => {
  const main = load('durable-agent');
  for (const name of ['createAgentWorker', 'startSession', 'buildTool', 'runToolPipeline', 'startLocalSession'])
    assert.ok(main.exports.includes(name), name);
  assert.ok(!main.exports.includes('startFakeAnthropic'));
  assert.ok(!main.files.some((f) => f.includes('dist/src/testing/')), 'the main entry loads no test utility');
  const worker = load('durable-agent/worker');
  assert.ok(worker.exports.includes('createAgentWorker'));
  assert.ok(!worker.files.some((f) => f.includes('dist/src/testing/')));
  const testing = load('durable-agent/testing');
  assert.ok(testing.exports.includes('startFakeAnthropic'));
});
