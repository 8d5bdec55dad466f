// The fault suite's scenarios, run one after the other on one cluster: worker kills, server
// restarts, model faults, disk faults. Each returns its sessions (checked) and its own counts.
import type { FakeAnthropicServer, ResponseSpec } from '../support/fakeAnthropic';
import type { Cluster } from './cluster';
import type { Pacing } from './plan';
import type { Size } from './report';
import {
  checkSessions,
  sleep,
  startApprover,
  startFaultSession,
  waitForSessions,
  type SessionSettings,
  type StartedSession,
} from './sessions';
import { runKiller, type KillRecord } from './workerKills';
import { runModelFaults } from './modelFaults';
import { runDiskFaults, type StoreMount } from './disk';

export const SCENARIOS = ['kills', 'restart', 'model', 'disk'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export interface SuiteContext {
  size: Size;
  sizes: {
    sessions: number;
    kills: number;
    restarts: number;
    minTurns: number;
    restartSessions: number;
    diskSessions: number;
    diskHoldMs: number;
  };
  cluster: Cluster;
  fake: FakeAnthropicServer;
  store: StoreMount;
  workRoot: string;
  log: (line: string) => void;
  pacing: Pacing;
  settings: SessionSettings;
  /** A crash session's model: `finish(turn)` says whether this turn is the last. */
  crashHandler: (
    name: string,
    finish: (turn: number) => boolean,
  ) => (turn: number, stream: boolean) => ResponseSpec | undefined;
  handlers: Map<string, (turn: number, stream: boolean) => ResponseSpec | undefined>;
}

export interface ScenarioResult {
  name: ScenarioName;
  title: string;
  sessions: StartedSession[];
  kills?: KillRecord[];
  continuesAsNew?: number;
  serverRestarts?: number;
  approvals?: number;
  /** Extra lines for the report (what was injected, what the sessions said). */
  notes: string[];
  /** Invariant failures found by the scenario itself (beyond the per-session checks). */
  violations: string[];
}

/** Starts `n` crash sessions whose last turn comes once `finished()` and `minTurns` turns are done. */
async function startCrashSessions(
  ctx: SuiteContext,
  prefix: string,
  n: number,
  finished: () => boolean,
  minTurns: number,
): Promise<StartedSession[]> {
  const sessions: StartedSession[] = [];
  const maxTurns = minTurns * 12;
  for (let i = 0; i < n; i++) {
    const name = `${prefix}${i + 1}`;
    ctx.handlers.set(
      name,
      ctx.crashHandler(name, (turn) => turn >= maxTurns || (turn >= minTurns && finished())),
    );
    sessions.push(await startFaultSession(ctx.cluster.client, ctx.workRoot, name, ctx.settings));
  }
  return sessions;
}

async function workerKills(ctx: SuiteContext): Promise<ScenarioResult> {
  let killsDone = false;
  const sessions = await startCrashSessions(ctx, 'kill', ctx.sizes.sessions, () => killsDone, ctx.sizes.minTurns);
  ctx.log(`worker kills: ${sessions.length} sessions started`);
  const approver = startApprover(ctx.cluster.client, () => sessions);
  const waiting = waitForSessions(ctx.cluster.client, sessions, 30 * 60_000);
  const ended = (): boolean => sessions.every((s) => s.result || s.failure);
  const { kills, continuesAsNew } = await runKiller(
    ctx.cluster,
    sessions,
    () => approver.pending().size,
    { kills: ctx.sizes.kills, gapMs: [500, 2_000], seekMs: 12_000, workers: 2, log: ctx.log },
    ended,
  );
  killsDone = true;
  await waiting;
  await approver.stop();
  await checkSessions(ctx.store.dir, sessions);
  const violations =
    kills.length < ctx.sizes.kills
      ? [`only ${kills.length} of ${ctx.sizes.kills} kills were performed before the sessions ended`]
      : [];
  return {
    name: 'kills',
    title: 'Worker kills (SIGKILL, two workers)',
    sessions,
    kills,
    continuesAsNew,
    approvals: approver.approvals(),
    notes: [],
    violations,
  };
}

async function serverRestart(ctx: SuiteContext): Promise<ScenarioResult> {
  let restartsDone = false;
  const sessions = await startCrashSessions(ctx, 'restart', ctx.sizes.restartSessions, () => restartsDone, 4);
  ctx.log(`server restart: ${sessions.length} sessions started`);
  const approver = startApprover(ctx.cluster.client, () => sessions);
  const waiting = waitForSessions(ctx.cluster.client, sessions, 20 * 60_000);
  const before = ctx.cluster.serverRestarts;
  const notes: string[] = [];
  for (let i = 0; i < ctx.sizes.restarts; i++) {
    await sleep(4_000 + Math.random() * 3_000);
    const t = Date.now();
    await ctx.cluster.restartServer(1_000 + Math.random() * 2_000);
    ctx.log(
      `server restart ${i + 1}/${ctx.sizes.restarts}: SIGKILL, back after ${Date.now() - t} ms on the same port and SQLite file`,
    );
    const replaced = await ctx.cluster.replaceDead(2);
    if (replaced > 0) notes.push(`${replaced} worker(s) exited during the server outage and were replaced`);
  }
  restartsDone = true;
  await waiting;
  await approver.stop();
  await checkSessions(ctx.store.dir, sessions);
  return {
    name: 'restart',
    title: 'Server restart (SIGKILL of the dev server, SQLite file)',
    sessions,
    serverRestarts: ctx.cluster.serverRestarts - before,
    approvals: approver.approvals(),
    notes,
    violations: [],
  };
}

/**
 * Worker kills and model faults run together (independent sessions on the same workers: a kill may
 * also land in a faulty model call); the server restart and the disk faults run alone, after them.
 */
export async function runScenarios(ctx: SuiteContext, only: readonly ScenarioName[]): Promise<ScenarioResult[]> {
  const run = async (name: ScenarioName): Promise<ScenarioResult> => {
    const t = Date.now();
    ctx.log(`--- scenario ${name}`);
    const r =
      name === 'kills'
        ? await workerKills(ctx)
        : name === 'restart'
          ? await serverRestart(ctx)
          : name === 'model'
            ? await runModelFaults(ctx)
            : await runDiskFaults(ctx, (prefix, n, finished, minTurns) =>
                startCrashSessions(ctx, prefix, n, finished, minTurns),
              );
    ctx.log(`--- scenario ${name} done in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    return r;
  };
  const results: ScenarioResult[] = [];
  const together = (['kills', 'model'] as const).filter((n) => only.includes(n));
  results.push(...(await Promise.all(together.map(run))));
  for (const name of ['restart', 'disk'] as const) if (only.includes(name)) results.push(await run(name));
  return results;
}
