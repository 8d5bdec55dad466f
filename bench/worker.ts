// The bench's Temporal worker, in its own process (as in a deployment), so that its RSS is its
// own. Forked by bench/run.ts with IPC: answers 'rss', stops on 'stop'.
//   env: BENCH_ADDRESS, BENCH_TASK_QUEUE, BENCH_FAKE_URL, BENCH_STORE_DIR
import Anthropic from '@anthropic-ai/sdk';
import { NativeConnection, Runtime, DefaultLogger } from '@temporalio/worker';
import { bundleAgentWorkflows, createAgentWorker } from '../src/worker';
import { SleepTool } from './sleepTool';

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const env = (k: string): string => {
    const v = process.env[k];
    if (!v) throw new Error(`bench worker: ${k} is not set`);
    return v;
  };
  const connection = await NativeConnection.connect({ address: env('BENCH_ADDRESS') });
  const worker = await createAgentWorker({
    connection,
    taskQueue: env('BENCH_TASK_QUEUE'),
    tools: [SleepTool],
    anthropic: () => new Anthropic({ apiKey: 'bench', baseURL: env('BENCH_FAKE_URL'), maxRetries: 0 }),
    storeDir: env('BENCH_STORE_DIR'),
    workflowBundle: await bundleAgentWorkflows(),
  });
  process.on('message', (m: { type?: string }) => {
    if (m?.type === 'rss') process.send?.({ type: 'rss', rss: process.memoryUsage().rss });
    if (m?.type === 'stop') worker.shutdown();
  });
  process.on('disconnect', () => worker.shutdown());
  const running = worker.run();
  process.send?.({ type: 'ready' });
  await running;
  await connection.close();
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
