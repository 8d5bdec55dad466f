// Harness for session tests: a real worker on the real dev server, the real Anthropic SDK
// pointed at the fake Messages API, and a temp working directory and store per test.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import type { Client } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import {
  startFakeAnthropic,
  type FakeAnthropicOptions,
  type FakeAnthropicServer,
} from '../../src/testing/fakeAnthropic';
import { startSession, type SessionHandle, type SessionOptions } from '../../src/temporal/client';
import { createAgentWorker, workflowsPath, type AgentWorkerOptions } from '../../src/temporal/worker';
import { getTestEnv, getWorkflowBundle, uniqueTaskQueue, uniqueWorkflowId } from './temporal';

export interface AgentTestContext {
  env: TestWorkflowEnvironment;
  client: Client;
  fake: FakeAnthropicServer;
  taskQueue: string;
  storeDir: string;
  workDir: string;
  start(opts: Partial<SessionOptions> & { prompt: string; id?: string }): Promise<SessionHandle>;
  /** Starts another in-process worker on the same task queue (with `extra` over the test's options); `stop()` shuts it down. */
  startWorker(extra?: Partial<Omit<AgentWorkerOptions, 'connection'>>): Promise<{ stop(): Promise<void> }>;
}

export interface WithAgentOptions {
  fake?: FakeAnthropicOptions;
  worker?: Partial<Omit<AgentWorkerOptions, 'connection'>>;
  /** Start no in-process worker (the test runs its own, e.g. in a child process). */
  noWorker?: boolean;
}

export function fakeAnthropicFactory(fake: FakeAnthropicServer): () => Anthropic {
  return () => new Anthropic({ apiKey: 'test-key', baseURL: fake.baseURL, maxRetries: 0 });
}

export async function withAgent<T>(opts: WithAgentOptions, fn: (ctx: AgentTestContext) => Promise<T>): Promise<T> {
  const env = await getTestEnv();
  const fake = await startFakeAnthropic(opts.fake ?? {});
  const taskQueue = uniqueTaskQueue('agent');
  const storeDir = await mkdtemp(join(tmpdir(), 'da-store-'));
  const workDir = await mkdtemp(join(tmpdir(), 'da-work-'));
  const ctx: AgentTestContext = {
    startWorker: () => Promise.reject(new Error('not ready')),
    env,
    client: env.client,
    fake,
    taskQueue,
    storeDir,
    workDir,
    start: (s) =>
      startSession(env.client, {
        cwd: workDir,
        permissionMode: 'bypassPermissions',
        ...s,
        id: s.id ?? uniqueWorkflowId('session'),
        taskQueue,
        model: { model: 'claude-test', maxTokens: 1024, ...(s.model ?? {}) },
      }),
  };
  const makeWorker = async (extra?: Partial<Omit<AgentWorkerOptions, 'connection'>>) =>
    createAgentWorker({
      connection: env.nativeConnection,
      namespace: env.namespace ?? 'default',
      taskQueue,
      storeDir,
      anthropic: fakeAnthropicFactory(fake),
      workflowBundle: await getWorkflowBundle(workflowsPath),
      ...opts.worker,
      ...extra,
      workerOptions: {
        stickyQueueScheduleToStartTimeout: '1s',
        ...opts.worker?.workerOptions,
        ...extra?.workerOptions,
      },
    });
  ctx.startWorker = async (extra) => {
    const worker = await makeWorker(extra);
    const running = worker.run();
    return {
      stop: async () => {
        worker.shutdown();
        await running;
      },
    };
  };
  try {
    if (opts.noWorker) return await fn(ctx);
    const worker = await makeWorker();
    return await worker.runUntil(() => fn(ctx));
  } finally {
    await fake.close();
  }
}
