// Running the fault suite's sessions: start them, answer their approvals (again after a server
// restart, which loses pending updates), wait for each to end however long the faults take, and
// check each one's transcript against its ledgers.
import { mkdir, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { approveToolUse, sessionStatus, startSession } from '../../src/temporal/client';
import { configuredBlobStore } from '../../src/stores/configured';
import { TranscriptStore } from '../../src/stores/messageStore';
import type { Message } from '../../src/core/apiMessages';
import type { SessionResult } from '../../src/temporal/workflows/definitions';
import { checkSession, countLines, type SessionCheck } from './check';
import { SESSION_MARK, ledgerFile, writeFileFor, type EffectKind, type FaultSession } from './plan';
import { TAG_ENV } from '../support/leftovers';

export const CRASH_TOOLS = ['Bash', 'AppendSlow', 'Write', 'Read'];

export interface StartedSession extends FaultSession {
  id: string;
  /** Set once the session ended. */
  result?: SessionResult;
  /** Set when the session ended other than completed, or could not be read. */
  failure?: string;
  transcript?: Message[];
  check?: SessionCheck;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Resolves with `p`, or with `fallback` after `ms` (a query to a dead worker can hang). */
export async function within<T>(p: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((r) => (timer = setTimeout(() => r(fallback), ms)));
  try {
    return await Promise.race([p.catch(() => fallback), late]);
  } finally {
    clearTimeout(timer);
  }
}

export interface SessionSettings {
  taskQueue: string;
  /** Continue-as-new after this many history bytes (small: it happens every few turns). */
  maxHistoryBytesPerRun: number;
  toolHeartbeatTimeoutMs: number;
  /** Longest single wait of an outage (model or store). */
  retryCapMs: number;
}

export async function startFaultSession(
  client: Client,
  workRoot: string,
  name: string,
  settings: SessionSettings,
  extra: { prompt?: string; tools?: string[] } = {},
): Promise<StartedSession> {
  const dir = join(workRoot, name);
  await mkdir(dir, { recursive: true });
  const id = `faults-${name}-${Date.now().toString(36)}`;
  await startSession(client, {
    id,
    taskQueue: settings.taskQueue,
    cwd: dir,
    prompt: `[${SESSION_MARK} ${name}] ${extra.prompt ?? 'Record calls in the ledgers until told to stop.'}`,
    tools: extra.tools ?? CRASH_TOOLS,
    // Reads and ledger calls run; Write asks, so that every fourth turn waits for an approval.
    permissionMode: 'default',
    rules: { allow: ['Bash', 'AppendSlow'], ask: [], deny: [] },
    // Bash gets an allowlist of the worker's environment: the leftover tag must be named to reach its processes.
    sandbox: { passEnv: [TAG_ENV] },
    model: { model: 'claude-test', maxTokens: 4096 },
    maxTurns: 500,
    toolHeartbeatTimeoutMs: settings.toolHeartbeatTimeoutMs,
    maxHistoryBytesPerRun: settings.maxHistoryBytesPerRun,
    retryCapMs: settings.retryCapMs,
    approvalTimeoutMs: 60 * 60_000,
  });
  return { name, dir, id };
}

/**
 * Approves every pending ask after a short random delay, until `stop()`. An approval not applied
 * within `resendMs` (the server restarted and lost the update, or no worker took it) is sent again.
 */
export function startApprover(client: Client, sessions: () => StartedSession[], opts: { resendMs?: number } = {}) {
  const sent = new Map<string, number>();
  const pendingNow = new Set<string>();
  let approvals = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      pendingNow.clear();
      await Promise.all(
        sessions()
          .filter((s) => !s.result && !s.failure)
          .map(async (s) => {
            const status = await within(sessionStatus(client, s.id), 3_000, undefined);
            for (const p of status?.pendingApprovals ?? []) {
              pendingNow.add(p.toolUseId);
              const last = sent.get(p.toolUseId);
              if (last !== undefined && Date.now() - last < (opts.resendMs ?? 15_000)) continue;
              sent.set(p.toolUseId, Date.now());
              void (async () => {
                await sleep(300 + Math.random() * 1200);
                const answer = await within(
                  approveToolUse(client, s.id, p.toolUseId, 'fault-suite'),
                  20_000,
                  undefined,
                );
                if (answer?.status === 'applied') approvals++;
              })();
            }
          }),
      );
      await sleep(250);
    }
  })();
  return {
    /** Tool use ids waiting for an approval at the last look. */
    pending: (): ReadonlySet<string> => pendingNow,
    approvals: (): number => approvals,
    async stop(): Promise<void> {
      stopped = true;
      await loop;
    },
  };
}

/** Waits until every session ended (completed or not), polling describe() so that a server restart does not break the wait. */
export async function waitForSessions(client: Client, sessions: StartedSession[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (sessions.some((s) => !s.result && !s.failure)) {
    if (Date.now() > deadline) {
      for (const s of sessions) {
        if (s.result || s.failure) continue;
        // Say where it stands: the turn, the phase, an outage being waited out.
        const st = await within(sessionStatus(client, s.id), 5_000, undefined);
        const where = st
          ? `turn ${st.turn}, ${st.status}/${st.phase}${st.outage ? `, ${st.outage.what} outage: ${st.outage.lastError.slice(0, 300)}` : ''}`
          : 'status query unanswered';
        s.failure = `did not end within ${Math.round(timeoutMs / 1000)} s (${where})`;
      }
      return;
    }
    for (const s of sessions.filter((x) => !x.result && !x.failure)) {
      const desc = await within(client.workflow.getHandle(s.id).describe(), 5_000, undefined);
      if (!desc || desc.status.name === 'RUNNING' || desc.status.name === 'CONTINUED_AS_NEW') continue;
      if (desc.status.name !== 'COMPLETED') {
        s.failure = `session workflow ${desc.status.name.toLowerCase()}`;
        continue;
      }
      const result = await within(
        client.workflow.getHandle(s.id).result() as Promise<SessionResult>,
        10_000,
        undefined,
      );
      if (!result) continue;
      s.result = result;
      if (result.status !== 'completed') s.failure = `session ended ${result.status}: ${result.endReason}`;
    }
    await sleep(500);
  }
}

/** Reads each ended session's transcript and ledgers and checks the invariants. */
export async function checkSessions(
  storeDir: string,
  sessions: StartedSession[],
  clearFailure?: RegExp,
): Promise<void> {
  const transcripts = new TranscriptStore(configuredBlobStore({ storeDir }));
  for (const s of sessions) {
    if (!s.result) continue;
    try {
      s.transcript = await transcripts.load(s.result.head);
    } catch (err) {
      s.failure = `transcript unreadable: ${(err as Error).message}`;
      continue;
    }
    const ledgers = new Map<EffectKind, Map<string, number>>();
    for (const kind of ['bash', 'count', 'idem'] as const)
      ledgers.set(kind, countLines(await readFile(ledgerFile(s, kind), 'utf8').catch(() => '')));
    const effects = (kind: EffectKind, id: string): number =>
      kind === 'write' ? (existsSync(writeFileFor(s, id)) ? 1 : 0) : (ledgers.get(kind)?.get(id) ?? 0);
    const allIds = [...ledgers.values()].flatMap((m) => [...m.keys()]);
    s.check = checkSession(s.transcript, effects, allIds, clearFailure);
  }
}
