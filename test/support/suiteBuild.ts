// Which build's worker the fault suites (test:faults, test:cluster) run. By default ours; with
// DURABLE_AGENT_SUITE_BUILD=<dir> — the root of another build, e.g. a previous release built by
// test/support/previousRelease.ts into ~/.cache/durable-agent/releases/<commit> — the suite's own
// runner (sessions, faults, checks: this build's) starts THAT build's worker process
// (dist/test/support/workerProcess.js, same env interface since 0.2.0) with that build's workflow
// bundle, made by that build's own bundler. test/release/compare.ts runs both in one run.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { workflowsPath } from '../../src/temporal/worker';

export const SUITE_BUILD_ENV = 'DURABLE_AGENT_SUITE_BUILD';

/** Another build's root when set (checked: it has a worker process script); undefined = ours. */
export function suiteBuildDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dir = env[SUITE_BUILD_ENV];
  if (!dir) return undefined;
  const script = join(dir, 'dist', 'test', 'support', 'workerProcess.js');
  if (!existsSync(script))
    throw new Error(`${SUITE_BUILD_ENV}=${dir}: no ${script} (build it: node dist/test/support/previousRelease.js)`);
  return dir;
}

/** The worker process script of the suite's build, or undefined for ours (spawnWorker's default). */
export function suiteWorkerScript(): string | undefined {
  const dir = suiteBuildDir();
  return dir ? join(dir, 'dist', 'test', 'support', 'workerProcess.js') : undefined;
}

/** The suite's build in a word, for the report. */
export function suiteBuildLabel(): string {
  return suiteBuildDir() ?? 'ours';
}

/** The workflow bundle's code for the suite's build: ours, or the other build's, bundled by its own @temporalio/worker. */
export async function suiteWorkflowBundle(): Promise<string> {
  const dir = suiteBuildDir();
  if (!dir) return (await bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') })).code;
  // Where the build keeps its workflows: src/temporal/worker since issue 32's rooms, src/worker before.
  const worker = ['dist/src/temporal/worker.js', 'dist/src/worker.js'].find((p) => existsSync(join(dir, p)));
  if (!worker) throw new Error(`${dir}: no dist/src/temporal/worker.js or dist/src/worker.js`);
  const tmp = await mkdtemp(join(tmpdir(), 'da-suite-bundle-'));
  try {
    const out = join(tmp, 'bundle.js');
    const program = `const { bundleWorkflowCode, DefaultLogger } = require('@temporalio/worker');
const { workflowsPath } = require('./${worker}');
bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') })
  .then((b) => require('node:fs').writeFileSync(process.argv[1], b.code))
  .then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });`;
    execFileSync(process.execPath, ['-e', program, out], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
    return readFileSync(out, 'utf8');
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
