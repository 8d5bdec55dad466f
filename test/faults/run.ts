// `npm run test:faults [-- --size reduced|full] [--only kills,restart,model,disk]`: what a
// durable-agent fleet survives, counted. A real Temporal dev server on a SQLite file, worker
// processes, the real Anthropic SDK against the fake Messages API, real tools writing real ledger
// files. Prints its counts and exits non-zero when an invariant fails. Sizes (env
// DURABLE_AGENT_FAULTS_SIZE): `reduced` (CI, ~3 min) and `full` (≥ 20 kills; docs/deployment.md).
import { parseSuiteArgs } from './args';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import '../support/isolatedHome';
import {
  lastUserText,
  startFakeAnthropic,
  type FakeAnthropicServer,
  type ResponseSpec,
} from '../support/fakeAnthropic';
import { Cluster } from './cluster';
import { crashTurn, sessionNameOf, SESSION_MARK, turnOf, type Pacing } from './plan';

/** The start of the summarizing request's instruction (src/core/contextView.ts compactionPrompt). */
const COMPACTION_MARK = 'the conversation is about to be compacted';
import { runScenarios, SCENARIOS, type ScenarioResult, type SuiteContext } from './scenarios';
import { printReport, type Size } from './report';
import { prepareStore, type StoreMount } from './disk';
import { TAG_ENV, countByName, describe, killAll, newTag, waitUntilNoneTagged } from '../support/leftovers';
import { paceGaps, ProgressLog, recoveryAfter, writeSuiteFigures, type SuiteFigures } from '../release/figures';
import { suiteBuildLabel } from '../support/suiteBuild';

/** How long the processes of killed and stopped workers get to go away before they count as left. */
const LEFTOVER_WAIT_MS = 20_000;

export const SIZES: Record<Size, SuiteContext['sizes']> = {
  reduced: { sessions: 5, kills: 6, restarts: 1, minTurns: 6, restartSessions: 5, diskSessions: 3, diskHoldMs: 6_000 },
  full: { sessions: 6, kills: 24, restarts: 2, minTurns: 10, restartSessions: 5, diskSessions: 4, diskHoldMs: 15_000 },
};

/** What test/release/compare.ts compares (written only when DURABLE_AGENT_SUITE_RESULT is set). */
function suiteFigures(
  results: ScenarioResult[],
  ok: boolean,
  recoveryMs: number[],
  killLabels: string[],
  t0: number,
): SuiteFigures {
  const all = results.flatMap((r) => r.sessions);
  const checks = all.flatMap((x) => (x.check ? [x.check] : []));
  const completed = all.filter((x) => x.result && !x.failure).length;
  // As test:cluster counts them: a completed call whose effect is missing, or a call that failed.
  const missing = checks.reduce((n, c) => n + c.violations.filter((v) => /effect is missing|failed/.test(v)).length, 0);
  return {
    suite: 'faults',
    build: suiteBuildLabel(),
    ok,
    sessionsCompleted: completed,
    sessionsStarted: all.length,
    lost: all.length - completed + missing,
    duplicated: checks.reduce((n, c) => n + c.duplicated, 0),
    unknownOutcomes: checks.reduce((n, c) => n + c.unknownOutcomes, 0),
    recoveryMs,
    killLabels,
    drainMs: [],
    wallS: (Date.now() - t0) / 1000,
  };
}

async function main(): Promise<number> {
  const { size, only } = parseSuiteArgs(process.argv.slice(2), {
    sizeEnv: 'DURABLE_AGENT_FAULTS_SIZE',
    parts: SCENARIOS,
    partName: 'scenario',
    usage: 'usage: npm run test:faults -- [--size reduced|full] [--only kills,restart,model,disk]',
  });
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const t0 = Date.now();
  const root = await mkdtemp(join(tmpdir(), 'da-faults-'));
  const log = (line: string): void =>
    console.log(`[faults ${((Date.now() - t0) / 1000).toFixed(1).padStart(6)}s] ${line}`);
  let store: StoreMount | undefined;
  let fake: FakeAnthropicServer | undefined;
  let cluster: Cluster | undefined;
  let cleaned: Promise<void> | undefined;
  const cleanup = (): Promise<void> =>
    (cleaned ??= (async () => {
      await cluster?.stop().catch((err: unknown) => console.error(`stopping the cluster: ${String(err)}`));
      await fake?.close().catch(() => undefined);
      await store?.release().catch((err: unknown) => console.error(`releasing the store: ${String(err)}`));
      if (!process.env.DURABLE_AGENT_FAULTS_KEEP)
        await rm(root, { recursive: true, force: true }).catch(() => undefined);
      else console.log(`kept ${root}`);
    })());
  // Ctrl-C or a CI timeout: no dev server, worker or tmpfs mount is left behind.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`test:faults: ${signal}, stopping the workers and the dev server`);
      void cleanup().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    });
  }
  try {
    store = await prepareStore(join(root, 'store'), only.includes('disk'));
    log(`store: ${store.description}`);
    // Each session's answers come from the handler registered under its name.
    const handlers = new Map<string, (turn: number, stream: boolean) => ResponseSpec | undefined>();
    // A session's turn only moves forward: after a compaction (the 1 MB input fills the window)
    // the model's view restarts, but the plan goes on from the last turn whose results came back.
    const completed = new Map<string, number>();
    // Every session's model requests, timed: recovery after each kill is read from them.
    const progress = new ProgressLog();
    fake = await startFakeAnthropic({
      script: (req) => {
        const name = sessionNameOf(req);
        const h = name ? handlers.get(name) : undefined;
        if (!name || !h) return undefined;
        progress.note(name);
        const seen = turnOf(req);
        completed.set(name, Math.max(completed.get(name) ?? -1, seen - 1));
        if (lastUserText(req).includes(COMPACTION_MARK)) {
          return {
            content: [
              {
                type: 'text',
                text: `<summary>[${SESSION_MARK} ${name}] The calls so far are recorded; continue with the plan.</summary>`,
              },
            ],
          };
        }
        const turn = Math.max(seen, (completed.get(name) ?? -1) + 1);
        if (process.env.DURABLE_AGENT_FAULTS_DEBUG)
          log(`model request for ${name}: stream=${req.stream === true} turn=${turn} (view ${seen})`);
        return h(turn, req.stream === true);
      },
    });
    // Every process below a worker inherits the run's tag: what is left at the end is counted.
    const tag = newTag();
    cluster = new Cluster({
      dir: join(root, 'cluster'),
      taskQueue: `faults-${randomUUID()}`,
      storeDir: store.dir,
      fakeURL: fake.baseURL,
      workerEnv: { [TAG_ENV]: tag },
    });
    await cluster.start(2);
    log(`dev server ${cluster.server.address} (SQLite ${cluster.dbFile}), 2 workers of ${suiteBuildLabel()}`);
    const pacing: Pacing = { eventDelayMs: 45, toolMs: 1200 };
    const ctx: SuiteContext = {
      size,
      sizes: SIZES[size],
      cluster,
      fake,
      store,
      workRoot: join(root, 'work'),
      log,
      pacing,
      settings: {
        taskQueue: cluster.opts.taskQueue,
        maxHistoryBytesPerRun: 12_000,
        toolHeartbeatTimeoutMs: 2_000,
        retryCapMs: 2_000,
      },
      crashHandler: (name, finish) => (turn) =>
        crashTurn({ name, dir: join(root, 'work', name) }, turn, finish(turn), pacing),
      handlers,
    };
    const results = await runScenarios(ctx, only);
    const serverRestarts = cluster.serverRestarts;
    const killTimes = [...cluster.killTimes];
    const killLabels = [...cluster.killLabels];
    await cluster.stop();
    cluster = undefined;
    // Bash calls, sandboxes (bwrap, its socat relays), the sandbox's host bridges: none may outlive
    // the workers, killed or stopped (src/sandbox/reaper.ts).
    const left = await waitUntilNoneTagged(tag, LEFTOVER_WAIT_MS);
    if (left.length > 0) {
      console.error(`processes left by the workers:\n${describe(left)}`);
      killAll(left);
    }
    const ok = printReport(size, results, {
      serverRestarts,
      seconds: (Date.now() - t0) / 1000,
      fake,
      leftovers: left.length === 0 ? 'none' : countByName(left),
    });
    writeSuiteFigures({
      ...suiteFigures(results, ok, recoveryAfter(killTimes, progress.requests), killLabels, t0),
      paceMs: paceGaps(killTimes, progress.requests),
    });
    return ok ? 0 : 1;
  } finally {
    await cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`test:faults: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(2);
  },
);
