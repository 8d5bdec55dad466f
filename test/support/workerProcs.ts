// Worker processes for crash tests: each in its own process group (so SIGKILL takes the whole
// worker), its output prefixed with its name, ready when it prints "worker ready".
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { writeFile } from 'node:fs/promises';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { workflowsPath } from '../../src/temporal/worker';
import { getWorkflowBundle } from './temporal';

const WORKER_SCRIPT = join(__dirname, 'workerProcess.js');

export async function lines(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter((l) => l !== '');
}

/**
 * The environment of worker processes for a `withAgent({ noWorker: true })` test: the test's server
 * and namespace, its task queue, store and fake API, and the workflow bundle, written once into the
 * store directory (each process loads it instead of bundling again). Add what a test needs on top.
 */
export async function workerProcessEnv(ctx: WorkerProcessContext): Promise<NodeJS.ProcessEnv> {
  const bundlePath = join(ctx.storeDir, 'workflow-bundle.js');
  await writeFile(bundlePath, (await getWorkflowBundle(workflowsPath)).code);
  return releaseWorkerEnv({ bundle: bundlePath }, ctx);
}

/** What a worker process of a `withAgent({ noWorker: true })` test is given. */
export interface WorkerProcessContext {
  env: TestWorkflowEnvironment;
  fake: { baseURL: string };
  storeDir: string;
  taskQueue: string;
}

/**
 * The environment of a worker process of an earlier release (`spawnWorker(name, env, procs,
 * release.script)`, release from test/support/previousRelease.ts): as workerProcessEnv's, with the
 * release's own prebuilt workflow bundle (none: the release's worker bundles its workflows itself).
 */
export function releaseWorkerEnv(release: { bundle?: string }, ctx: WorkerProcessContext): NodeJS.ProcessEnv {
  return {
    TEMPORAL_TEST_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS ?? ctx.env.address,
    TEMPORAL_TEST_NAMESPACE: ctx.env.namespace ?? 'default',
    TASK_QUEUE: ctx.taskQueue,
    STORE_DIR: ctx.storeDir,
    FAKE_ANTHROPIC_URL: ctx.fake.baseURL,
    ...(release.bundle ? { WORKFLOW_BUNDLE_PATH: release.bundle } : {}),
  };
}

export interface WorkerProc {
  name: string;
  child: ChildProcess;
  exited: Promise<void>;
}

/**
 * Starts a worker process (its own process group) and waits for its "worker ready" line. `script`:
 * another build's workerProcess.js (an earlier release, test/integration/upgrade).
 */
export async function spawnWorker(
  name: string,
  env: NodeJS.ProcessEnv,
  procs: WorkerProc[],
  script = WORKER_SCRIPT,
): Promise<WorkerProc> {
  // Source maps as in the test processes (scripts/test-plan.mjs: DURABLE_AGENT_TEST_SOURCE_MAPS=1).
  const sourceMaps = process.env.DURABLE_AGENT_TEST_SOURCE_MAPS === '1' ? ['--enable-source-maps'] : [];
  const child = spawn(process.execPath, [...sourceMaps, script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const proc: WorkerProc = { name, child, exited };
  procs.push(proc);
  createInterface({ input: child.stderr! }).on('line', (l) => process.stderr.write(`[${name}] ${l}\n`));
  await new Promise<void>((resolve, reject) => {
    // Generous: on a loaded machine (CI, parallel suites) loading the worker takes a while.
    const timer = setTimeout(() => reject(new Error(`${name} did not report ready within 90 s`)), 90_000);
    createInterface({ input: child.stdout! }).on('line', (l) => {
      if (l.trim() === 'worker ready') {
        clearTimeout(timer);
        resolve();
      } else process.stdout.write(`[${name}] ${l}\n`);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited before it was ready (code ${code}, signal ${signal})`));
    });
  });
  return proc;
}

export function killGroup(proc: WorkerProc): void {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null || proc.child.pid === undefined) return;
  try {
    process.kill(-proc.child.pid, 'SIGKILL');
  } catch {
    try {
      proc.child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
}
