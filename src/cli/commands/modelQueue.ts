// `worker` and `dev`: the model queue's flags (issue 34, docs/deployment.md "One rate limit for many
// workers"). Each flag beats its env var; a bad value is one usage line naming the flag.
import type { Command } from 'commander';
import { modelLimitFromEnv } from '../../temporal/workerLimits';
import { UsageError } from '../options';

export interface ModelQueueOpts {
  modelTaskQueue?: string;
  modelRpm?: string;
  modelTpm?: string;
  modelTokensPerCall?: string;
}

/** The four flags on `cmd`. */
export function addModelQueueOptions(cmd: Command): Command {
  return cmd
    .option(
      '--model-task-queue <name>',
      'poll this task queue for model calls too, with the shared limit below (sessions started with the same DURABLE_AGENT_MODEL_TASK_QUEUE send their calls there; env DURABLE_AGENT_MODEL_TASK_QUEUE)',
    )
    .option(
      '--model-rpm <n>',
      'model requests per minute across every worker of the model queue, enforced by the Temporal server (env DURABLE_AGENT_MODEL_RPM)',
    )
    .option(
      '--model-tpm <n>',
      'model tokens per minute: fewer requests when calls of --model-tokens-per-call tokens would pass it (env DURABLE_AGENT_MODEL_TPM; needs --model-rpm)',
    )
    .option(
      '--model-tokens-per-call <n>',
      "a call's input and output tokens, for --model-tpm (env DURABLE_AGENT_MODEL_TOKENS_PER_CALL, default 8000)",
    );
}

function wholeAbove0(flag: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(n) || n < 1)
    throw new UsageError(`${flag} must be a whole number above 0, got ${JSON.stringify(raw)}`);
  return String(n);
}

/** The worker's model queue and its limit: each flag over its env var (`env`, default process.env). */
export function modelQueueOptions(
  o: ModelQueueOpts,
  env: NodeJS.ProcessEnv = process.env,
): { modelTaskQueue?: string; modelLimit?: NonNullable<ReturnType<typeof modelLimitFromEnv>> } {
  if (o.modelTaskQueue !== undefined && o.modelTaskQueue.trim() === '')
    throw new UsageError('--model-task-queue needs a task queue name');
  const merged: NodeJS.ProcessEnv = { ...env };
  const set = (name: string, v: string | undefined) => {
    if (v !== undefined) merged[name] = v;
  };
  set('DURABLE_AGENT_MODEL_RPM', wholeAbove0('--model-rpm', o.modelRpm));
  set('DURABLE_AGENT_MODEL_TPM', wholeAbove0('--model-tpm', o.modelTpm));
  set('DURABLE_AGENT_MODEL_TOKENS_PER_CALL', wholeAbove0('--model-tokens-per-call', o.modelTokensPerCall));
  let modelLimit: ReturnType<typeof modelLimitFromEnv>;
  try {
    modelLimit = modelLimitFromEnv(merged);
  } catch (err) {
    const msg = (err as Error).message;
    throw new UsageError(
      /TPM needs/.test(msg)
        ? '--model-tpm (or DURABLE_AGENT_MODEL_TPM) needs --model-rpm (or DURABLE_AGENT_MODEL_RPM) too'
        : msg,
    );
  }
  const modelTaskQueue = o.modelTaskQueue ?? (env.DURABLE_AGENT_MODEL_TASK_QUEUE || undefined);
  if (modelLimit && !modelTaskQueue && (o.modelRpm !== undefined || o.modelTpm !== undefined))
    throw new UsageError(
      '--model-rpm and --model-tpm limit the model queue: give --model-task-queue <name> (or DURABLE_AGENT_MODEL_TASK_QUEUE) too',
    );
  return { ...(modelTaskQueue ? { modelTaskQueue } : {}), ...(modelLimit ? { modelLimit } : {}) };
}

/** The worker's start-up line about its model queue. */
export function modelQueueLine(q: ReturnType<typeof modelQueueOptions>): string {
  if (!q.modelTaskQueue) return 'none (model calls run on the session task queue, no shared limit)';
  const l = q.modelLimit;
  return `${q.modelTaskQueue}${l ? `, ${l.requestsPerMinute} requests/min${l.tokensPerMinute !== undefined ? `, ${l.tokensPerMinute} tokens/min` : ''} across its workers` : ', no shared limit'}`;
}
