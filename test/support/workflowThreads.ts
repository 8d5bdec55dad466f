// Test processes keep their workflow threads between workers (issue 32: suite CPU). Every
// Worker.create starts a worker thread that loads the SDK's workflow runtime (protobufjs and all)
// and evaluates the 1–3 MB workflow bundle: ≈ 0.4 s of CPU, ~200 times a run (a worker per
// withAgent, withWorker, startWorker). Here a worker whose thread holds no workflow any more when
// it shuts down leaves that thread idle instead of ending it; the next worker of the same process
// with the same bundle and settings takes it. A live worker always has a thread of its own, as in
// production, and a production worker's thread too runs one workflow after another for its
// lifetime. A thread that still holds a workflow, failed, or exited is ended as the SDK ends it.
// DURABLE_AGENT_TEST_FRESH_WORKFLOW_THREADS=1 turns this off (a thread per worker).
import { Worker } from '@temporalio/worker';

interface ThreadClient {
  workerThread: { ref(): void; unref(): void };
  workerExited: boolean;
  exitError: unknown;
  getActiveWorkflowCount(): number;
}
interface Creator {
  workerThreadClients?: ThreadClient[];
  createWorkflow(options: unknown): Promise<unknown>;
  destroy(): Promise<void>;
}
interface CompiledOptions {
  debugMode?: boolean;
  reuseV8Context?: boolean;
  workflowThreadPoolSize?: number;
  isolateExecutionTimeoutMs?: number;
  activities?: Map<string, unknown>;
  patchActivationCallback?: unknown;
}
interface Bundle {
  code: string;
  filename?: string;
}
type CreateCreator = (bundle: Bundle, options: CompiledOptions, logger: unknown) => Promise<Creator>;

const idle = new Map<string, Creator[]>();
let codes = new Map<string, number>();

/** Which idle threads a worker may take: the same bundle, run the same way, with the same activities. */
function keyOf(bundle: Bundle, o: CompiledOptions): string | undefined {
  if (o.debugMode || o.patchActivationCallback !== undefined) return undefined;
  let code = codes.get(bundle.code);
  if (code === undefined) {
    code = codes.size;
    codes.set(bundle.code, code);
  }
  return JSON.stringify([
    code,
    bundle.filename,
    o.reuseV8Context,
    o.workflowThreadPoolSize,
    o.isolateExecutionTimeoutMs,
    [...(o.activities?.keys() ?? [])].sort(),
  ]);
}

/** Idle (holds no workflow, never failed): safe to hand to the next worker. */
function reusable(c: Creator): boolean {
  const threads = c.workerThreadClients;
  return (
    Array.isArray(threads) &&
    threads.every((t) => !t.workerExited && t.exitError === undefined && t.getActiveWorkflowCount() === 0)
  );
}

function pooled(key: string, real: Creator): Creator {
  for (const t of real.workerThreadClients ?? []) t.workerThread.ref();
  let released = false;
  return {
    createWorkflow: (options) => real.createWorkflow(options),
    destroy: async () => {
      if (released) return;
      released = true;
      if (!reusable(real)) return real.destroy();
      // An idle thread must not keep the test process alive.
      for (const t of real.workerThreadClients ?? []) t.workerThread.unref();
      idle.set(key, [...(idle.get(key) ?? []), real]);
    },
  };
}

function install(): void {
  const statics = Worker as unknown as { createWorkflowCreator: CreateCreator };
  const original = statics.createWorkflowCreator.bind(Worker);
  statics.createWorkflowCreator = async (bundle, options, logger) => {
    const key = keyOf(bundle, options);
    if (key === undefined) return original(bundle, options, logger);
    const free = idle.get(key) ?? [];
    while (free.length > 0) {
      const c = free.pop() as Creator;
      if (reusable(c)) return pooled(key, c);
      await c.destroy().catch(() => undefined);
    }
    return pooled(key, await original(bundle, options, logger));
  };
}

/** Ends the idle threads (tests of the pool; a test process otherwise just exits). */
export async function endIdleWorkflowThreads(): Promise<void> {
  const all = [...idle.values()].flat();
  idle.clear();
  codes = new Map();
  await Promise.all(all.map((c) => c.destroy().catch(() => undefined)));
}

if (process.env.DURABLE_AGENT_TEST_FRESH_WORKFLOW_THREADS !== '1') install();
