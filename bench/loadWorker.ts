// One worker process of the load run (bench/load.ts), configured by env:
//   LOAD_ADDRESS, LOAD_TASK_QUEUE, LOAD_STORE_DIR, LOAD_FAKE_URL, LOAD_BUNDLE_PATH, LOAD_IDENTITY
//   DURABLE_AGENT_STORE (optional: the shared store) and the worker limits' env vars (src/temporal/workerLimits.ts).
// Counts its store operations and prints them as one JSON line (`store-ops {…}`) when it stops
// (SIGTERM), so that the run can report store traffic per turn. Prints "worker ready" when polling.
import { readFileSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { createAgentWorker } from '../src/temporal/worker';
import { configuredBlobStore } from '../src/stores/configured';
import type { BlobStore } from '../src/stores/messageStore';

function required(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`loadWorker: env ${name} is required`);
  return v;
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const storeDir = required('LOAD_STORE_DIR');
  const inner = configuredBlobStore({ storeDir });
  const ops = { puts: 0, gets: 0, putBytes: 0, getBytes: 0, putMs: 0, getMs: 0 };
  const counted: BlobStore & { toString(): string } = {
    toString: () => String(inner),
    async put(key, data) {
      const t = performance.now();
      await inner.put(key, data);
      ops.puts++;
      ops.putBytes += data.length;
      ops.putMs += performance.now() - t;
    },
    async get(key) {
      const t = performance.now();
      const v = await inner.get(key);
      ops.gets++;
      ops.getBytes += v?.length ?? 0;
      ops.getMs += performance.now() - t;
      return v;
    },
  };
  const connection = await NativeConnection.connect({ address: required('LOAD_ADDRESS') });
  const baseURL = required('LOAD_FAKE_URL');
  const worker = await createAgentWorker({
    connection,
    taskQueue: required('LOAD_TASK_QUEUE'),
    storeDir,
    blobStore: counted,
    anthropic: () => new Anthropic({ apiKey: 'bench', baseURL, maxRetries: 0 }),
    workflowBundle: { code: readFileSync(required('LOAD_BUNDLE_PATH'), 'utf8') },
    workerOptions: { identity: required('LOAD_IDENTITY'), shutdownGraceTime: '5s' },
  });
  process.once('SIGTERM', () => worker.shutdown());
  const running = worker.run();
  console.log('worker ready');
  try {
    await running;
  } finally {
    console.log(`store-ops ${JSON.stringify(ops)}`);
    await connection.close();
    await (inner as { close?: () => Promise<void> }).close?.();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`loadWorker: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  },
);
