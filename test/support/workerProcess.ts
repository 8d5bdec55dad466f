// A durable-agent worker as a process of its own, for tests that kill it (SIGKILL) and start
// another one. Started as `node dist/test/support/workerProcess.js`, configured by env vars:
//   TEMPORAL_TEST_ADDRESS   the Temporal frontend (host:port)
//   TEMPORAL_TEST_NAMESPACE default 'default'
//   TASK_QUEUE              the session's task queue
//   STORE_DIR               the store shared by all workers of the test (ledger, transcripts)
//   FAKE_ANTHROPIC_URL      base URL of the fake Messages API (served by the test process)
//   WORKFLOW_BUNDLE_PATH    optional: a prebuilt workflow bundle (saves a webpack run per worker)
//   WORKER_SHUTDOWN_GRACE   optional: how long in-flight activities get after SIGTERM (default 1s)
//   WORKER_IDENTITY         optional: the identity Temporal records (default the SDK's pid@host)
// DURABLE_AGENT_STORE (the shared store) is read by createAgentWorker as in a deployment.
// Prints "worker ready" on stdout once the worker is created and about to poll.
import { readFileSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import type { Duration } from '@temporalio/common';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { createAgentWorker } from '../../src/temporal/worker';
import { TEST_TOOLS } from './testTools';

function required(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`workerProcess: env ${name} is required`);
  return v;
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger((process.env.TEMPORAL_TEST_LOG_LEVEL as 'WARN' | undefined) ?? 'WARN') });
  const address = required('TEMPORAL_TEST_ADDRESS');
  const taskQueue = required('TASK_QUEUE');
  const storeDir = required('STORE_DIR');
  const baseURL = required('FAKE_ANTHROPIC_URL');
  const bundlePath = process.env.WORKFLOW_BUNDLE_PATH;
  const connection = await NativeConnection.connect({ address });
  const worker = await createAgentWorker({
    connection,
    namespace: process.env.TEMPORAL_TEST_NAMESPACE ?? 'default',
    taskQueue,
    storeDir,
    tools: TEST_TOOLS,
    anthropic: () => new Anthropic({ apiKey: 'test-key', baseURL, maxRetries: 0 }),
    ...(bundlePath ? { workflowBundle: { code: readFileSync(bundlePath, 'utf8') } } : {}),
    workerOptions: {
      // A dead worker's sticky queue is abandoned after 1 s instead of 10 s.
      stickyQueueScheduleToStartTimeout: '1s',
      shutdownGraceTime: (process.env.WORKER_SHUTDOWN_GRACE ?? '1s') as Duration,
      ...(process.env.WORKER_IDENTITY ? { identity: process.env.WORKER_IDENTITY } : {}),
    },
  });
  const running = worker.run();
  console.log('worker ready');
  try {
    await running;
  } finally {
    await connection.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`workerProcess: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  },
);
