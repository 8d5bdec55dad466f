// The same session without Temporal: an in-process scheduler for fast tests, for library users who
// want no server, and as the baseline of the overhead benchmark. One algorithm, two schedulers:
// the session loop is the engine's `runSession`, each turn the engine's `executeTurn`, the model
// and tool calls the same cores the activities run. This file is the public face; sessionRun.ts and turn.ts schedule them in-process.
import type { AgentDepsOptions } from '../runtime/callDeps';
import { LocalSessionRun } from './sessionRun';
import type { LocalSession, LocalSessionOptions, LocalSessionResult } from './types';

export type { LocalSession, LocalSessionOptions, LocalSessionResult, LocalSessionStatus } from './types';

type WorkerDeps = AgentDepsOptions;

/**
 * Starts a session in-process. `worker` builds its dependencies as a worker's (tools, hooks, the
 * Anthropic client…); its store is `worker.storeDir` when given, else a temporary directory that
 * is removed when the session ends (src/inprocess/store.ts): never the machine's store.
 */
export function startLocalSession(opts: LocalSessionOptions, worker: WorkerDeps = {}): LocalSession {
  const run = new LocalSessionRun(opts, worker, runLocalSession);
  return {
    sessionId: run.sessionId,
    storeDir: run.store.storeDir,
    result: run.run(),
    send: (text) => run.send(text),
    interrupt: () => run.interrupt(),
    stop: () => run.stop(),
    status: () => run.statusView(),
    raiseBudget: (raise) => run.budget.raise(raise),
  };
}

/**
 * Runs a session to its end. `signal` interrupts the running turn; since nothing can send a
 * follow-up or raise a budget here, an interrupted session ends unless `onInterrupt: 'wait'` is
 * given, and one over its USD budget ends (`onBudget: 'end'`) unless `onBudget: 'wait'` is (use
 * startLocalSession to send follow-ups and raise budgets).
 */
export async function runLocalSession(opts: LocalSessionOptions, worker: WorkerDeps = {}): Promise<LocalSessionResult> {
  const onBudget = opts.onBudget ?? (opts.maxBudgetUsd !== undefined ? 'end' : undefined);
  const s = startLocalSession(
    { ...opts, onInterrupt: opts.onInterrupt ?? 'end', ...(onBudget ? { onBudget } : {}) },
    worker,
  );
  if (opts.signal) {
    if (opts.signal.aborted) s.interrupt();
    else opts.signal.addEventListener('abort', () => s.interrupt(), { once: true });
  }
  return s.result;
}
