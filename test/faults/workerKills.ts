// Scenario: two workers, concurrent crash sessions, SIGKILL of a random worker at chosen moments
// (a model stream, a tool call, an approval wait, a continue-as-new), a new worker after each.
// Which phase a kill hit is read from the server at the moment of the kill: the victim's started
// activities (describe → pending activities → last worker identity), the approvals pending, and
// the sessions whose run changed a moment ago.
import type { Client } from '@temporalio/client';
import { Cluster } from './cluster';
import { sleep, within, type StartedSession } from './sessions';
import type { WorkerProc } from '../support/workerProcs';

export type KillPhase = 'model stream' | 'tool call' | 'approval wait' | 'continue-as-new';
export const KILL_PHASES: KillPhase[] = ['model stream', 'tool call', 'approval wait', 'continue-as-new'];

export interface KillRecord {
  target: KillPhase;
  /** The phases seen on the victim (or, for approvals and continue-as-new, in the cluster) at the kill. */
  seen: KillPhase[];
  worker: string;
  at: number;
}

interface Observation {
  /** Phases per live worker pid. */
  byPid: Map<number, Set<KillPhase>>;
  approvals: boolean;
  continued: boolean;
}

/** Tracks each session's run id; a change seen less than `windowMs` ago counts as "in continue-as-new". */
class RunTracker {
  private runs = new Map<string, string>();
  private changedAt = 0;
  continuesAsNew = 0;
  constructor(private readonly windowMs: number) {}
  async poll(client: Client, live: readonly StartedSession[]): Promise<void> {
    await Promise.all(
      live.map(async (s) => {
        const desc = await within(client.workflow.getHandle(s.id).describe(), 2_000, undefined);
        if (!desc) return;
        const was = this.runs.get(s.id);
        if (was !== undefined && was !== desc.runId) {
          this.changedAt = Date.now();
          this.continuesAsNew++;
        }
        this.runs.set(s.id, desc.runId);
      }),
    );
  }
  recent(): boolean {
    return Date.now() - this.changedAt < this.windowMs;
  }
}

async function observe(
  client: Client,
  sessions: StartedSession[],
  runs: RunTracker,
  approvalsPending: () => number,
): Promise<Observation> {
  const byPid = new Map<number, Set<KillPhase>>();
  const live = sessions.filter((s) => !s.result && !s.failure);
  await runs.poll(client, live);
  // The running turn workflows (`<session>/turn-<n>`) and their started activities.
  const turns: string[] = [];
  for await (const wf of client.workflow.list({ query: 'ExecutionStatus = "Running"' })) {
    if (/\/turn-\d+$/.test(wf.workflowId) && live.some((s) => wf.workflowId.startsWith(`${s.id}/`)))
      turns.push(wf.workflowId);
  }
  await Promise.all(
    turns.map(async (id) => {
      const desc = await within(client.workflow.getHandle(id).describe(), 2_000, undefined);
      for (const a of desc?.raw.pendingActivities ?? []) {
        // PENDING_ACTIVITY_STATE_STARTED = 2
        if (Number(a.state) !== 2) continue;
        const pid = Cluster.identityPid(a.lastWorkerIdentity);
        if (pid === undefined) continue;
        const type = a.activityType?.name ?? '';
        const phase: KillPhase | undefined =
          type === 'callModel' ? 'model stream' : type === 'runToolUse' ? 'tool call' : undefined;
        if (!phase) continue;
        const set = byPid.get(pid) ?? new Set<KillPhase>();
        set.add(phase);
        byPid.set(pid, set);
      }
    }),
  );
  return { byPid, approvals: approvalsPending() > 0, continued: runs.recent() };
}

export interface KillerOptions {
  kills: number;
  /** Random pause before looking for the next kill's moment. */
  gapMs: [number, number];
  /** How long to look for the targeted phase before killing anyway. */
  seekMs: number;
  workers: number;
  log: (line: string) => void;
}

/** Kills workers until `opts.kills` kills are done or `done()` says the sessions ended; returns the records. */
export async function runKiller(
  cluster: Cluster,
  sessions: StartedSession[],
  approvalsPending: () => number,
  opts: KillerOptions,
  done: () => boolean,
): Promise<{ kills: KillRecord[]; continuesAsNew: number }> {
  const kills: KillRecord[] = [];
  const runs = new RunTracker(1_500);
  // Runs are watched all along (not only while looking for a kill's moment): every continue-as-new counts.
  let watching = true;
  const watcher = (async () => {
    while (watching && !done()) {
      await runs.poll(
        cluster.client,
        sessions.filter((s) => !s.result && !s.failure),
      );
      await sleep(300);
    }
  })();
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)] as T;
  while (kills.length < opts.kills && !done()) {
    await sleep(opts.gapMs[0] + Math.random() * (opts.gapMs[1] - opts.gapMs[0]));
    const target = KILL_PHASES[kills.length % KILL_PHASES.length] as KillPhase;
    const until = Date.now() + opts.seekMs;
    let victim: WorkerProc | undefined;
    let seen: KillPhase[] = [];
    while (!done()) {
      const obs = await observe(cluster.client, sessions, runs, approvalsPending);
      const live = cluster.workers.filter((w) => w.child.pid !== undefined);
      const phasesOf = (w: WorkerProc): KillPhase[] => {
        const s = new Set(obs.byPid.get(w.child.pid ?? -1) ?? []);
        if (obs.approvals) s.add('approval wait');
        if (obs.continued) s.add('continue-as-new');
        return KILL_PHASES.filter((p) => s.has(p));
      };
      const candidates = live.filter((w) => phasesOf(w).includes(target));
      if (candidates.length > 0 || Date.now() > until) {
        victim = candidates.length > 0 ? pick(candidates) : live.length > 0 ? pick(live) : undefined;
        seen = victim ? phasesOf(victim) : [];
        break;
      }
      await sleep(100);
    }
    if (!victim) break;
    await cluster.killWorker(victim);
    kills.push({ target, seen, worker: victim.name, at: Date.now() });
    opts.log(
      `kill ${kills.length}/${opts.kills}: ${victim.name} (aimed at ${target}; it was in: ${seen.join(', ') || 'nothing observed'})`,
    );
    await cluster.replaceDead(opts.workers);
  }
  watching = false;
  await watcher;
  return { kills, continuesAsNew: runs.continuesAsNew };
}

/** `model stream 6, tool call 7, …` — how many kills landed in each phase (a kill may be in several). */
export function killsByPhase(kills: readonly KillRecord[]): Record<KillPhase | 'none observed', number> {
  const out: Record<KillPhase | 'none observed', number> = {
    'model stream': 0,
    'tool call': 0,
    'approval wait': 0,
    'continue-as-new': 0,
    'none observed': 0,
  };
  for (const k of kills) {
    if (k.seen.length === 0) out['none observed']++;
    for (const p of k.seen) out[p]++;
  }
  return out;
}
