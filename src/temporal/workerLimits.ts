// The worker's concurrency limits, sized from the number of sessions one worker is meant to hold
// (docs/deployment.md "Sizing"; measured with `npm run bench:load`, BENCHMARKS.md "Load").
//   DURABLE_AGENT_WORKER_SESSIONS       concurrent sessions per worker (default 50)
//   DURABLE_AGENT_MAX_CACHED_WORKFLOWS  default 3 × sessions: a session, its running turn, and room
//                                       for subagents; an evicted workflow replays its whole history
//   DURABLE_AGENT_MAX_ACTIVITIES        default 2 × sessions: a model call per session, plus tool batches
//   DURABLE_AGENT_MAX_WORKFLOW_TASKS    default 20: workflow tasks are short and CPU-bound; more at
//                                       once only queue for the CPU
//   DURABLE_AGENT_SHUTDOWN_GRACE_MS     default 2000: after SIGTERM/SIGINT, how long running
//                                       activities may still finish before they are handed back
// Explicit `workerOptions` passed to createAgentWorker win over all of these.
import type { WorkerOptions } from '@temporalio/worker';

export interface WorkerLimits {
  maxCachedWorkflows: number;
  maxConcurrentActivityTaskExecutions: number;
  maxConcurrentLocalActivityExecutions: number;
  maxConcurrentWorkflowTaskExecutions: number;
}

function positiveInt(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name}=${raw}: expected a positive integer`);
  return n;
}

export function workerLimits(
  env: NodeJS.ProcessEnv = process.env,
): WorkerLimits & Pick<WorkerOptions, 'maxCachedWorkflows'> {
  const sessions = positiveInt(env, 'DURABLE_AGENT_WORKER_SESSIONS') ?? 50;
  const activities = positiveInt(env, 'DURABLE_AGENT_MAX_ACTIVITIES') ?? 2 * sessions;
  const workflowTasks = positiveInt(env, 'DURABLE_AGENT_MAX_WORKFLOW_TASKS') ?? 20;
  return {
    maxCachedWorkflows: positiveInt(env, 'DURABLE_AGENT_MAX_CACHED_WORKFLOWS') ?? 3 * sessions,
    maxConcurrentActivityTaskExecutions: activities,
    // describeToolUses (a local activity per tool batch): at most one per running turn.
    maxConcurrentLocalActivityExecutions: Math.max(10, sessions),
    // The SDK needs at least 2 when workflows are cached.
    maxConcurrentWorkflowTaskExecutions: Math.max(2, workflowTasks),
  };
}

/** Default time running activities get to finish after a shutdown begins (ms): a Read or an Edit finishes, a long Bash is handed back. */
export const SHUTDOWN_GRACE_MS_DEFAULT = 2_000;

/**
 * The worker's shutdownGraceTime (ms): after Worker.shutdown (SIGTERM, SIGINT) it polls no more,
 * lets running activities finish for this long, then cancels them with reason WORKER_SHUTDOWN and
 * they hand themselves back (temporal/activities/runtime.ts): retried on another worker at once instead of
 * after a heartbeat timeout. 0: handed back at once.
 */
export function shutdownGraceMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.DURABLE_AGENT_SHUTDOWN_GRACE_MS;
  if (raw === undefined || raw === '') return SHUTDOWN_GRACE_MS_DEFAULT;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`DURABLE_AGENT_SHUTDOWN_GRACE_MS=${raw}: expected a whole number of milliseconds (0 or more)`);
  return n;
}

/** How long a workflow task waits for this worker on its sticky queue before any worker may take it (ms; the SDK's default is 10 s). */
export const STICKY_QUEUE_TIMEOUT_MS = 3_000;

/**
 * The model queue's shared limit (docs/deployment.md "One rate limit for many workers"), from
 *   DURABLE_AGENT_MODEL_RPM              requests per minute across every worker of the model queue
 *   DURABLE_AGENT_MODEL_TPM              tokens per minute (optional): fewer requests when
 *   DURABLE_AGENT_MODEL_TOKENS_PER_CALL  calls of this many tokens (default 8000) would pass it
 * Undefined without DURABLE_AGENT_MODEL_RPM: the model queue is polled without a rate.
 */
export function modelLimitFromEnv(
  env: NodeJS.ProcessEnv = process.env,
): { requestsPerMinute: number; tokensPerMinute?: number; tokensPerCall: number } | undefined {
  const requestsPerMinute = positiveInt(env, 'DURABLE_AGENT_MODEL_RPM');
  const tokensPerMinute = positiveInt(env, 'DURABLE_AGENT_MODEL_TPM');
  const tokensPerCall = positiveInt(env, 'DURABLE_AGENT_MODEL_TOKENS_PER_CALL') ?? 8_000;
  if (requestsPerMinute === undefined) {
    if (tokensPerMinute !== undefined)
      throw new Error('DURABLE_AGENT_MODEL_TPM needs DURABLE_AGENT_MODEL_RPM (the request limit) too');
    return undefined;
  }
  return { requestsPerMinute, ...(tokensPerMinute !== undefined ? { tokensPerMinute } : {}), tokensPerCall };
}
