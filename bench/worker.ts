// The bench's Temporal worker, in its own process (as in a deployment), so that its RSS is its
// own. Forked by bench/run.ts with IPC: answers 'rss' and 'heartbeats', stops on 'stop'.
//   env: BENCH_ADDRESS, BENCH_TASK_QUEUE, BENCH_FAKE_URL, BENCH_STORE_DIR;
//   BENCH_WORKER_OPTIONS: JSON merged into Worker.create's options (bench/levers.ts tries them)
import Anthropic from '@anthropic-ai/sdk';
import { NativeConnection, Runtime, DefaultLogger, type ActivityInterceptorsFactory } from '@temporalio/worker';
import { bundleAgentWorkflows, createAgentWorker } from '../src/temporal/worker';
import { tracingSettings } from '../src/temporal/tracing';
import { SleepTool } from './sleepTool';
import { throttledHeartbeats } from './historyStats';
// The worker's heartbeat throttle (src/temporal/worker.ts: maxHeartbeatThrottleInterval / default).
import { HEARTBEAT_THROTTLE_MS } from '../src/core/heartbeats';

/** Heartbeat calls and estimated sends; by activity type also the sends at the old 500 ms throttle and the attempts' run time (ms). */
export interface HeartbeatCount {
  calls: number;
  sent: number;
  byType: Record<string, { calls: number; sent: number; sentAt500ms: number; ms: number }>;
}

/**
 * Counts heartbeat() calls per activity attempt; 'heartbeats' answers how many calls there were
 * since the last question and how many of them reached the server after the throttle (estimated
 * by throttledHeartbeats: the SDK sends no event we could count here).
 */
function heartbeatCounter(): { factory: ActivityInterceptorsFactory; take: () => HeartbeatCount } {
  const done: Array<{ calls: number[]; start: number; end: number; type: string }> = [];
  const factory: ActivityInterceptorsFactory = (ctx) => {
    if (ctx.info.isLocal) return {}; // a local activity's heartbeat() does nothing
    const calls: number[] = [];
    const c = ctx as unknown as { heartbeatFn: (d?: unknown) => void };
    const orig = c.heartbeatFn;
    c.heartbeatFn = (d?: unknown) => {
      calls.push(performance.now());
      orig(d);
    };
    return {
      inbound: {
        execute: async (input, next) => {
          const start = performance.now();
          try {
            return await next(input);
          } finally {
            done.push({ calls, start, end: performance.now(), type: ctx.info.activityType });
          }
        },
      },
    };
  };
  const take = (): HeartbeatCount => {
    const all = done.splice(0);
    const byType: HeartbeatCount['byType'] = {};
    for (const a of all) {
      const t = (byType[a.type] ??= { calls: 0, sent: 0, sentAt500ms: 0, ms: 0 });
      t.calls += a.calls.length;
      t.sent += throttledHeartbeats(a.calls, a.end, HEARTBEAT_THROTTLE_MS);
      t.sentAt500ms += throttledHeartbeats(a.calls, a.end, 500);
      t.ms += a.end - a.start;
    }
    return {
      calls: all.reduce((n, a) => n + a.calls.length, 0),
      sent: all.reduce((n, a) => n + throttledHeartbeats(a.calls, a.end, HEARTBEAT_THROTTLE_MS), 0),
      byType,
    };
  };
  return { factory, take };
}

/** BENCH_WORKER_OPTIONS: worker options to try (JSON; durations as strings, e.g. "10s"). */
function extraOptions(): Record<string, unknown> {
  const raw = process.env.BENCH_WORKER_OPTIONS;
  if (!raw) return {};
  const v: unknown = JSON.parse(raw);
  if (!v || typeof v !== 'object' || Array.isArray(v))
    throw new Error(`BENCH_WORKER_OPTIONS: expected a JSON object, got ${raw}`);
  return v as Record<string, unknown>;
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const env = (k: string): string => {
    const v = process.env[k];
    if (!v) throw new Error(`bench worker: ${k} is not set`);
    return v;
  };
  const beats = heartbeatCounter();
  const connection = await NativeConnection.connect({ address: env('BENCH_ADDRESS') });
  const worker = await createAgentWorker({
    connection,
    taskQueue: env('BENCH_TASK_QUEUE'),
    tools: [SleepTool],
    anthropic: () => new Anthropic({ apiKey: 'bench', baseURL: env('BENCH_FAKE_URL'), maxRetries: 0 }),
    storeDir: env('BENCH_STORE_DIR'),
    // With OTEL_* set (bench/tracing.ts), the bundle of a tracing worker.
    workflowBundle: await bundleAgentWorkflows({ tracing: tracingSettings() !== undefined }),
    workerOptions: { ...extraOptions(), interceptors: { activity: [beats.factory] } },
  });
  process.on('message', (m: { type?: string }) => {
    if (m?.type === 'rss') process.send?.({ type: 'rss', rss: process.memoryUsage().rss });
    if (m?.type === 'heartbeats') process.send?.({ type: 'heartbeats', ...beats.take() });
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
