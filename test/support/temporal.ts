// Harness for integration tests on a real Temporal dev server: a shared test environment,
// unique ids, cached workflow bundles and a worker that always shuts down.
//
// Use in a test file:
//   after(closeTestEnv);
//   test('…', () => withWorker({ taskQueue, workflowsPath, activities }, async ({ client }) => { … }));
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Client } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import {
  bundleWorkflowCode,
  DefaultLogger,
  Runtime,
  Worker,
  type WorkerOptions,
  type WorkflowBundle,
} from '@temporalio/worker';
import { resolveTemporalCli } from '../../src/temporal/service/cli';
import { workflowPreloads } from '../../src/temporal/worker';
import './isolatedHome';
import './workflowThreads';

let envPromise: Promise<TestWorkflowEnvironment> | undefined;

/** Keep the SDK's INFO chatter (worker state changes, bundle sizes) out of test output. */
function quietRuntime(): void {
  try {
    Runtime.install({
      logger: new DefaultLogger((process.env.TEMPORAL_TEST_LOG_LEVEL as 'WARN' | undefined) ?? 'WARN'),
    });
  } catch {
    // Already installed (by us or by the test): keep it.
  }
}

async function createEnv(): Promise<TestWorkflowEnvironment> {
  quietRuntime();
  const address = process.env.TEMPORAL_TEST_ADDRESS;
  if (address) {
    return TestWorkflowEnvironment.createFromExistingServer({
      address,
      namespace: process.env.TEMPORAL_TEST_NAMESPACE ?? 'default',
    });
  }
  // A file run on its own (not through scripts/run-tests.mjs): start a server for this process.
  const cli = await resolveTemporalCli();
  return TestWorkflowEnvironment.createLocal({
    server: {
      executable: cli.kind === 'path' ? { type: 'existing-path', path: cli.path } : { type: 'cached-download' },
      ip: '127.0.0.1',
      log: { format: 'pretty', level: 'warn' },
    },
  });
}

/**
 * The test environment for this process, created on first use: connected to TEMPORAL_TEST_ADDRESS
 * (set by the test runner), or a dev server of its own when the variable is absent.
 */
export function getTestEnv(): Promise<TestWorkflowEnvironment> {
  envPromise ??= createEnv().catch((err: unknown) => {
    envPromise = undefined;
    throw err;
  });
  return envPromise;
}

/** Close the shared environment (and its own server, if it started one). Call it from `after`. */
export async function closeTestEnv(): Promise<void> {
  const p = envPromise;
  envPromise = undefined;
  if (p) await (await p).teardown();
}

/** e.g. `smoke-3f2a…`: one per test, so tests never see each other's tasks. */
export function uniqueTaskQueue(prefix = 'test'): string {
  return `${prefix}-tq-${randomUUID()}`;
}

export function uniqueWorkflowId(prefix = 'test'): string {
  return `${prefix}-wf-${randomUUID()}`;
}

const bundles = new Map<string, Promise<WorkflowBundle>>();

/**
 * Bundle once per workflows file per process: webpack takes seconds. The agent workflows are
 * bundled once per run by scripts/run-tests.mjs (DURABLE_AGENT_TEST_WORKFLOW_BUNDLE, built from
 * DURABLE_AGENT_TEST_WORKFLOWS_PATH): each test file reads that file instead.
 */
export function getWorkflowBundle(workflowsPath: string): Promise<WorkflowBundle> {
  let p = bundles.get(workflowsPath);
  if (!p) {
    const shared = process.env.DURABLE_AGENT_TEST_WORKFLOW_BUNDLE;
    p =
      shared && process.env.DURABLE_AGENT_TEST_WORKFLOWS_PATH === workflowsPath
        ? readFile(shared, 'utf8').then((code) => ({ code }))
        : bundleWorkflowCode({ workflowsPath, preloadModules: workflowPreloads(), logger: new DefaultLogger('WARN') });
    p.catch(() => bundles.delete(workflowsPath));
    bundles.set(workflowsPath, p);
  }
  return p;
}

export interface WithWorkerOptions {
  taskQueue: string;
  /** Absolute path of the workflows module (e.g. `require.resolve('../fixtures/smokeWorkflows')`). */
  workflowsPath: string;
  activities?: object;
  /** Anything else for `Worker.create`. */
  workerOptions?: Partial<
    Omit<WorkerOptions, 'connection' | 'taskQueue' | 'workflowsPath' | 'workflowBundle' | 'activities'>
  >;
}

export interface WorkerContext {
  env: TestWorkflowEnvironment;
  client: Client;
  worker: Worker;
  taskQueue: string;
}

/** Run `fn` while a worker polls `taskQueue`; the worker is shut down afterwards, also when `fn` throws. */
export async function withWorker<T>(opts: WithWorkerOptions, fn: (ctx: WorkerContext) => Promise<T>): Promise<T> {
  const env = await getTestEnv();
  const worker = await Worker.create({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue: opts.taskQueue,
    workflowBundle: await getWorkflowBundle(opts.workflowsPath),
    ...(opts.activities ? { activities: opts.activities } : {}),
    ...opts.workerOptions,
  });
  // runUntil shuts the worker down (and waits for it) whether fn resolves or rejects.
  return worker.runUntil(() => fn({ env, client: env.client, worker, taskQueue: opts.taskQueue }));
}
