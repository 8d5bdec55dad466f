// `npm run test:cluster [-- --size reduced|full] [--only faults,hosts]`: durable-agent on a
// production-shaped Temporal — the release server (deploy/'s version and config) as one process
// per service on PostgreSQL with many history shards (test/cluster/cluster.ts) — while each part
// of it fails: SIGKILL of a history node (its shards move to the other), of matching, of the
// frontend, of the internal worker service, a crash of PostgreSQL itself, and a rolling deploy of
// the durable-agent workers. Sessions with Bash side effects, approvals and subagents are counted
// as test:faults counts them (test/faults/: every session's transcript against the side effects
// its tools left). Then two hosts (test/cluster/hosts.ts). Prints one summary line; exits
// non-zero when anything was lost, ran twice or did not end.
import { parseSuiteArgs } from '../faults/args';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import type { Client } from '@temporalio/client';
import { subagentSessionId } from '../../src/core/subagents';
import { configuredBlobStore } from '../../src/stores/configured';
import { TranscriptStore } from '../../src/stores/messageStore';
import type { SessionResult } from '../../src/temporal/workflows/definitions';
import { startFakeAnthropic, type FakeAnthropicServer, type ResponseSpec } from '../support/fakeAnthropic';
import { TAG_ENV, countByName, describe, killAll, newTag, waitUntilNoneTagged } from '../support/leftovers';
import { callsOf, checkSession, countLines, type SessionCheck } from '../faults/check';
import {
  crashTurn,
  ledgerFile,
  sessionNameOf,
  SESSION_MARK,
  toolUseId,
  turnOf,
  type EffectKind,
  type FaultSession,
  type Pacing,
} from '../faults/plan';
import {
  CRASH_TOOLS,
  checkSessions,
  sleep,
  startApprover,
  startFaultSession,
  waitForSessions,
  within,
  type SessionSettings,
  type StartedSession,
} from '../faults/sessions';
import { TemporalCluster } from './cluster';
import { ensureServer, serverVersionOf } from './server';
import { WorkerPool } from './workers';
import { runTwoHosts } from './hosts';
import { paceGaps, ProgressLog, recoveryDetail, writeSuiteFigures } from '../release/figures';
import { suiteBuildLabel, suiteWorkflowBundle } from '../support/suiteBuild';

type Size = 'reduced' | 'full';
const SIZES: Record<
  Size,
  { sessions: number; cycles: number; minTurns: number; workers: number; deadlineMin: number }
> = {
  // CI (.ci/run, phase "cluster"): every kind of fault once.
  reduced: { sessions: 8, cycles: 1, minTurns: 5, workers: 2, deadlineMin: 10 },
  full: { sessions: 24, cycles: 2, minTurns: 8, workers: 2, deadlineMin: 20 },
};
const PHASES = ['faults', 'hosts'] as const;

/** Every fifth turn of a cluster session starts a subagent, which records calls in its own ledgers. */
const AGENT_EVERY = 5;
const subName = (parent: string, turn: number): string => `${parent}x${turn}`;
const subSessionOf = (parent: FaultSession, turn: number): FaultSession => ({
  name: subName(parent.name, turn),
  dir: join(parent.dir, `sub-${subName(parent.name, turn)}`),
});

type Handler = (turn: number, stream: boolean) => ResponseSpec | undefined;

/** A cluster session's model: the fault suite's crash turns, with an Agent call every fifth turn. */
function clusterHandler(
  s: FaultSession,
  finish: (turn: number) => boolean,
  pacing: Pacing,
  handlers: Map<string, Handler>,
): Handler {
  return (turn) => {
    if (finish(turn)) return crashTurn(s, turn, true, pacing);
    if (turn % AGENT_EVERY !== AGENT_EVERY - 1) return crashTurn(s, turn, false, pacing);
    const sub = subSessionOf(s, turn);
    mkdirSync(sub.dir, { recursive: true });
    // The child: a Bash call, then two AppendSlow calls, then its answer (no Write: nobody answers a child's ask).
    handlers.set(sub.name, (t) => crashTurn(sub, t, t >= 2, pacing));
    return {
      content: [
        { type: 'text', text: `Turn ${turn} of session ${s.name}: delegating to a subagent.` },
        {
          type: 'tool_use',
          id: toolUseId(s.name, turn, 0),
          name: 'Agent',
          input: {
            run_in_background: false,
            description: 'Record calls',
            prompt: `[${SESSION_MARK} ${sub.name}] Record calls in your ledgers, then say you are done.`,
          },
        },
      ],
      delayMs: pacing.eventDelayMs,
      textChunkSize: 6,
      jsonChunkSize: 24,
    };
  };
}

interface SubagentCheck {
  agents: number;
  checks: SessionCheck[];
  violations: string[];
}

/** Each Agent call of a completed session: its child session completed, its calls checked against its own ledgers. */
async function checkSubagents(client: Client, storeDir: string, s: StartedSession): Promise<SubagentCheck> {
  const out: SubagentCheck = { agents: 0, checks: [], violations: [] };
  if (!s.transcript) return out;
  const transcripts = new TranscriptStore(configuredBlobStore({ storeDir }));
  for (const { use, result } of callsOf(s.transcript)) {
    if (use.name !== 'Agent') continue;
    out.agents++;
    const name =
      new RegExp(`\\[${SESSION_MARK} ([A-Za-z0-9-]+)\\]`).exec(
        String((use.input as { prompt?: unknown }).prompt),
      )?.[1] ?? '?';
    const sub: FaultSession = { name, dir: join(s.dir, `sub-${name}`) };
    if (!result || result.is_error) {
      out.violations.push(
        `${s.name}: Agent ${use.id} answered ${result ? `with an error: ${JSON.stringify(result.content).slice(0, 200)}` : 'nothing'}`,
      );
      continue;
    }
    const child = await within(
      client.workflow.getHandle(subagentSessionId(s.id, use.id)).result() as Promise<SessionResult>,
      20_000,
      undefined,
    );
    if (!child || child.status !== 'completed') {
      out.violations.push(`${s.name}: subagent ${sub.name} ${child ? `ended ${child.status}` : 'has no result'}`);
      continue;
    }
    const messages = await transcripts.load(child.head);
    const ledgers = new Map<EffectKind, Map<string, number>>();
    for (const kind of ['bash', 'count', 'idem'] as const)
      ledgers.set(kind, countLines(await readFile(ledgerFile(sub, kind), 'utf8').catch(() => '')));
    const check = checkSession(
      messages,
      (kind, id) => (kind === 'write' ? 0 : (ledgers.get(kind)?.get(id) ?? 0)),
      [...ledgers.values()].flatMap((m) => [...m.keys()]),
    );
    if (check.calls.length < 3)
      out.violations.push(`${s.name}: subagent ${sub.name} made ${check.calls.length} ledger calls (want 3)`);
    out.checks.push(check);
    for (const v of check.violations) out.violations.push(`${s.name} → subagent ${sub.name}: ${v}`);
  }
  return out;
}

interface FaultCounts {
  kills: Record<'history' | 'matching' | 'frontend' | 'worker service' | 'postgres', number>;
  shardsMoved: number;
  rolled: number;
  forcedRolls: number;
  violations: string[];
  /** When each kill happened (ms): recovery is timed from them. */
  killTimes: number[];
  /** What each kill was (history, matching, frontend, postgres, worker service, rolling deploy), in killTimes' order. */
  killLabels: string[];
}

/** One cycle of every fault, each after a pause in which the sessions go on. */
async function faultCycle(
  cluster: TemporalCluster,
  pool: WorkerPool,
  workers: number,
  counts: FaultCounts,
  log: (line: string) => void,
): Promise<void> {
  const gap = (): Promise<void> => sleep(4_000 + Math.random() * 3_000);
  const historyKill = async (victim: string, survivor: string): Promise<void> => {
    const offset = cluster.logOffset(survivor);
    const owned = [...cluster.shardOwners()].filter(([, node]) => node === victim).map(([shard]) => shard);
    const t = Date.now();
    counts.killTimes.push(t);
    counts.killLabels.push(victim);
    await cluster.kill(victim);
    counts.kills.history++;
    // The survivor takes the victim's shards once the ring notices (seconds): wait for all of them.
    let moved: number[] = [];
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      moved = cluster.shardsAcquired(survivor, offset);
      if (owned.every((x) => moved.includes(x))) break;
      await sleep(250);
    }
    const missed = owned.filter((x) => !moved.includes(x));
    counts.shardsMoved += moved.length;
    if (missed.length > 0)
      counts.violations.push(`${survivor} did not take shards [${missed.join(',')}] of ${victim} within 90 s`);
    log(
      `SIGKILL ${victim} (it held shards [${owned.join(',')}] of ${cluster.shards}): ${survivor} acquired [${moved.join(',')}] within ${Date.now() - t} ms`,
    );
    await cluster.startService(victim);
    log(`${victim} started again (${Date.now() - t} ms after the kill)`);
  };
  const simpleKill = async (name: 'matching' | 'frontend' | 'worker', downMs: number): Promise<void> => {
    const t = Date.now();
    counts.killTimes.push(t);
    counts.killLabels.push(name === 'worker' ? 'worker service' : name);
    await cluster.kill(name);
    counts.kills[name === 'worker' ? 'worker service' : name]++;
    await sleep(downMs);
    await cluster.startService(name);
    log(
      `SIGKILL ${name === 'worker' ? 'the internal worker service' : name}: back after ${Date.now() - t} ms on the same port`,
    );
  };
  const steps: Array<[string, () => Promise<void>]> = [
    ['history-1', () => historyKill('history-1', 'history-2')],
    ['matching', () => simpleKill('matching', 2_000)],
    ['frontend', () => simpleKill('frontend', 2_000)],
    [
      'postgres',
      async () => {
        const t = Date.now();
        counts.killTimes.push(t);
        counts.killLabels.push('postgres');
        await cluster.pg.crash(3_000 + Math.random() * 2_000);
        counts.kills.postgres++;
        log(`SIGKILL PostgreSQL (server and backends): back after ${Date.now() - t} ms (crash recovery)`);
      },
    ],
    ['history-2', () => historyKill('history-2', 'history-1')],
    ['worker', () => simpleKill('worker', 2_000)],
    [
      'rolling deploy',
      async () => {
        // Each SIGTERM is timed as a kill: the old worker's workflows are replayed on the others.
        const r = await pool.roll(60_000, log, (t) => {
          counts.killTimes.push(t);
          counts.killLabels.push('rolling deploy');
        });
        counts.rolled += r.rolled;
        counts.forcedRolls += r.forced;
      },
    ],
  ];
  for (const [, step] of steps) {
    await gap();
    await step();
    const replaced = await pool.fill(workers);
    if (replaced > 0) log(`${replaced} durable-agent worker(s) had exited on their own and were replaced`);
  }
}

async function main(): Promise<number> {
  const { size, only } = parseSuiteArgs(process.argv.slice(2), {
    sizeEnv: 'DURABLE_AGENT_CLUSTER_SIZE',
    parts: PHASES,
    partName: 'phase',
    usage: 'usage: npm run test:cluster -- [--size reduced|full] [--only faults,hosts]',
  });
  const sizes = SIZES[size];
  const t0 = Date.now();
  const log = (line: string): void =>
    console.log(`[cluster ${((Date.now() - t0) / 1000).toFixed(1).padStart(6)}s] ${line}`);
  const bin = await ensureServer({ log });
  log(`server: ${serverVersionOf(bin)} (${bin.dir})`);
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const root = await mkdtemp(join(tmpdir(), 'da-cluster-'));
  let cluster: TemporalCluster | undefined;
  let fake: FakeAnthropicServer | undefined;
  const pools: WorkerPool[] = [];
  let cleaned: Promise<void> | undefined;
  const cleanup = (): Promise<void> =>
    (cleaned ??= (async () => {
      for (const p of pools) await p.stop().catch(() => undefined);
      await cluster?.stop().catch((err: unknown) => console.error(`stopping the cluster: ${String(err)}`));
      await fake?.close().catch(() => undefined);
      if (!process.env.DURABLE_AGENT_CLUSTER_KEEP)
        await rm(root, { recursive: true, force: true }).catch(() => undefined);
      else console.log(`kept ${root}`);
    })());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`test:cluster: ${signal}, stopping the workers, the server and PostgreSQL`);
      void cleanup().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    });
  }
  try {
    const handlers = new Map<string, Handler>();
    const completed = new Map<string, number>();
    // Every session's model requests, timed: recovery after each kill is read from them.
    const progress = new ProgressLog();
    fake = await startFakeAnthropic({
      script: (req) => {
        const name = sessionNameOf(req);
        const h = name ? handlers.get(name) : undefined;
        if (!name || !h) return undefined;
        const at = Date.now();
        progress.note(name, at);
        // A turn only moves forward (a retried or replayed call asks for the same turn again).
        const seen = turnOf(req);
        completed.set(name, Math.max(completed.get(name) ?? -1, seen - 1));
        const spec = h(Math.max(seen, (completed.get(name) ?? -1) + 1), req.stream === true);
        // Its next request waits for the child's whole run: no recovery figure (release/figures.ts).
        if (spec && 'content' in spec && spec.content.some((c) => c.type === 'tool_use' && c.name === 'Agent'))
          progress.delegated(name, at);
        return spec;
      },
    });
    cluster = await TemporalCluster.start({ dir: join(root, 'cluster'), bin, log });
    // This process reads the transcripts from the same shared store the workers write.
    process.env.DURABLE_AGENT_STORE = cluster.storeUrl;
    const bundlePath = join(root, 'workflow-bundle.js');
    // Ours, or DURABLE_AGENT_SUITE_BUILD's (test/support/suiteBuild.ts): its workers run its bundle.
    await writeFile(bundlePath, await suiteWorkflowBundle());
    const tag = newTag();
    const workerEnv: NodeJS.ProcessEnv = {
      TEMPORAL_TEST_ADDRESS: cluster.address,
      TEMPORAL_TEST_NAMESPACE: cluster.namespace,
      FAKE_ANTHROPIC_URL: fake.baseURL,
      WORKFLOW_BUNDLE_PATH: bundlePath,
      DURABLE_AGENT_STORE: cluster.storeUrl,
      // A rolling deploy's SIGTERM lets in-flight calls finish.
      WORKER_SHUTDOWN_GRACE: '30s',
      TEMPORAL_TEST_LOG_LEVEL: process.env.TEMPORAL_TEST_LOG_LEVEL ?? 'ERROR',
      [TAG_ENV]: tag,
    };
    const violations: string[] = [];
    const lines: string[] = [];
    const counts: FaultCounts = {
      kills: { history: 0, matching: 0, frontend: 0, 'worker service': 0, postgres: 0 },
      shardsMoved: 0,
      rolled: 0,
      forcedRolls: 0,
      violations: [],
      killTimes: [],
      killLabels: [],
    };
    const drainMs: number[] = [];
    const sessions: StartedSession[] = [];
    let subagents = 0;
    let duplicated = 0;
    let missing = 0;
    let unknown = 0;
    let ledgerCalls = 0;
    if (only.includes('faults')) {
      const storeDir = join(root, 'store');
      await mkdir(storeDir, { recursive: true });
      const taskQueue = `cluster-${randomUUID()}`;
      const pool = new WorkerPool({ env: { ...workerEnv, TASK_QUEUE: taskQueue, STORE_DIR: storeDir } });
      pools.push(pool);
      await pool.fill(sizes.workers);
      pool.replaced = 0;
      log(`${sizes.workers} durable-agent workers of ${suiteBuildLabel()} on ${taskQueue}, store ${cluster.storeUrl}`);
      const pacing: Pacing = { eventDelayMs: 45, toolMs: 1200 };
      // Heartbeats must outlast an outage of a few seconds (a call whose worker lives is never lost).
      const settings: SessionSettings = {
        taskQueue,
        maxHistoryBytesPerRun: 12_000,
        toolHeartbeatTimeoutMs: 15_000,
        retryCapMs: 2_000,
      };
      let faultsDone = false;
      const workRoot = join(root, 'work');
      for (let i = 0; i < sizes.sessions; i++) {
        const name = `c${i + 1}`;
        const s: FaultSession = { name, dir: join(workRoot, name) };
        handlers.set(
          name,
          clusterHandler(s, (turn) => turn >= 400 || (turn >= sizes.minTurns && faultsDone), pacing, handlers),
        );
        sessions.push(
          await startFaultSession(cluster.client, workRoot, name, settings, { tools: [...CRASH_TOOLS, 'Agent'] }),
        );
      }
      log(
        `${sessions.length} sessions started (Bash and AppendSlow ledgers, approvals of Write, a subagent every ${AGENT_EVERY} turns)`,
      );
      const approver = startApprover(cluster.client, () => sessions);
      // A session that cannot end (say, a blob the store lost) fails the run with its status, in bounded time.
      const waiting = waitForSessions(cluster.client, sessions, sizes.deadlineMin * 60_000);
      try {
        for (let c = 0; c < sizes.cycles; c++) {
          log(`--- fault cycle ${c + 1}/${sizes.cycles}`);
          await faultCycle(cluster, pool, sizes.workers, counts, log);
        }
      } finally {
        faultsDone = true;
      }
      log('faults done; waiting for every session to end');
      await waiting;
      await approver.stop();
      await checkSessions(storeDir, sessions);
      for (const s of sessions) {
        if (s.failure) violations.push(`${s.name} (${s.id}): ${s.failure}`);
        for (const v of s.check?.violations ?? []) violations.push(`${s.name}: ${v}`);
        const sub = await checkSubagents(cluster.client, storeDir, s);
        subagents += sub.agents;
        violations.push(...sub.violations);
        for (const c of [s.check, ...sub.checks]) {
          if (!c) continue;
          ledgerCalls += c.calls.length;
          duplicated += c.duplicated;
          unknown += c.unknownOutcomes;
          missing += c.violations.filter((v) => /effect is missing|failed/.test(v)).length;
        }
      }
      lines.push(
        `faults: ${sessions.filter((s) => s.result && !s.failure).length}/${sessions.length} sessions completed, ${subagents} subagents, ${approver.approvals()} approvals, ` +
          `${ledgerCalls} ledger calls checked (${unknown} unknown outcomes reported); ${counts.shardsMoved} shard moves seen; rolling deploy ${counts.rolled} workers (${counts.forcedRolls} needed SIGKILL)`,
      );
      if (pool.replaced > 0) lines.push(`faults: ${pool.replaced} worker(s) exited on their own and were replaced`);
      violations.push(...counts.violations);
      if (counts.forcedRolls > 0)
        violations.push(`${counts.forcedRolls} worker(s) did not drain within the grace time of the rolling deploy`);
      drainMs.push(...pool.drainMs);
      await pool.stop();
    }
    let hosts = 'skipped';
    if (only.includes('hosts')) {
      const r = await runTwoHosts({ client: cluster.client, root: join(root, 'hosts'), workerEnv, handlers, log });
      for (const n of r.notes) lines.push(`hosts: ${n}`);
      violations.push(...r.violations);
      hosts = r.violations.length === 0 ? `${r.sessions} sessions ok` : 'FAILED';
    }
    // Bash calls and sandboxes the workers started: none may outlive them.
    for (const p of pools) await p.stop();
    const left = await waitUntilNoneTagged(tag, 20_000);
    if (left.length > 0) {
      violations.push(`processes left by the workers: ${countByName(left)}\n${describe(left)}`);
      killAll(left);
    }
    const lost = sessions.filter((s) => !s.result || s.failure).length + missing;
    for (const l of lines) log(l);
    for (const v of violations.slice(0, 60)) console.log(`  ✗ ${v}`);
    const k = counts.kills;
    const ok = violations.length === 0;
    console.log(
      `test:cluster (${size}, ${cluster.shards} shards, ${((Date.now() - t0) / 1000).toFixed(0)} s): ${ok ? 'PASS' : 'FAIL'} — ` +
        `sessions ${sessions.filter((s) => s.result && !s.failure).length}/${sessions.length} (+${subagents} subagents); ` +
        `kills: history ${k.history}, matching ${k.matching}, frontend ${k.frontend}, worker service ${k['worker service']}, postgres ${k.postgres}; ` +
        `rolling restarts ${counts.rolled}; duplicates ${duplicated}, lost ${lost}; two hosts: ${hosts}`,
    );
    const completedSessions = sessions.filter((s) => s.result && !s.failure).length;
    const recovery = recoveryDetail(counts.killTimes, progress.requests, progress.delegations);
    log(
      `recovery per kill (ms, the session that set it): ${recovery.map((r, i) => `${counts.killLabels[i]} ${Math.round(r.ms)} (${r.session ?? '—'})`).join(', ')}`,
    );
    writeSuiteFigures({
      suite: 'cluster',
      build: suiteBuildLabel(),
      ok,
      sessionsCompleted: completedSessions,
      sessionsStarted: sessions.length,
      lost,
      duplicated,
      unknownOutcomes: unknown,
      recoveryMs: recovery.map((r) => r.ms),
      killLabels: counts.killLabels,
      paceMs: paceGaps(counts.killTimes, progress.requests, progress.delegations),
      drainMs,
      wallS: (Date.now() - t0) / 1000,
    });
    return ok ? 0 : 1;
  } finally {
    await cleanup();
  }
}

if (require.main === module) {
  // A client's gRPC retry timer can fire after cleanup() closed its connection (the verdict is out
  // by then): that one error is the shutdown's, not the run's; any other stays fatal.
  process.on('uncaughtException', (err) => {
    if (err instanceof Error && err.message === 'Channel has been shut down') return;
    console.error(`test:cluster: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(2);
  });
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`test:cluster: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      process.exit(2);
    },
  );
}
