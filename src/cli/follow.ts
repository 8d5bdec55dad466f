// Following a session live: turns, tool calls with their summaries, progress of long tools,
// pending approvals; returns when the session ends. Polls queries (cheap, no history growth).
import { turnWorkflowId } from '../engine/ids';
import { subagentSessionId } from '../engine/subagents';
import type { Client } from '@temporalio/client';
import { sessionHandle, sessionStatus } from '../client';
import { defaultPayloadConverter } from '@temporalio/common';
import { describeOutage } from '../engine/retry';
import {
  turnProgressQuery,
  type CompactRecord,
  type SessionResult,
  type SessionStatus,
} from '../workflows/definitions';

/** The last line of output each running tool reported in its heartbeats, by tool_use_id. */
async function toolProgress(client: Client, turnWorkflowId: string): Promise<Map<string, string>> {
  const desc = await client.workflow.getHandle(turnWorkflowId).describe();
  const out = new Map<string, string>();
  for (const a of desc.raw.pendingActivities ?? []) {
    const payload = a.heartbeatDetails?.payloads?.[0];
    if (!payload) continue;
    const details = defaultPayloadConverter.fromPayload<{ toolUseId?: string; progress?: { output?: string } }>(
      payload,
    );
    const output = details?.progress?.output?.trimEnd().split('\n').pop();
    if (details?.toolUseId && output) out.set(details.toolUseId, output.slice(0, 160));
  }
  return out;
}

/** The approvals the running subagents of a turn wait for (each waits on its own child session). */
export async function subagentApprovals(
  client: Client,
  sessionId: string,
  turnWorkflowId: string,
): Promise<Array<{ childId: string; via: string; approval: SessionStatus['pendingApprovals'][number] }>> {
  const p = await client.workflow.getHandle(turnWorkflowId).query(turnProgressQuery);
  const out: Array<{ childId: string; via: string; approval: SessionStatus['pendingApprovals'][number] }> = [];
  for (const r of p.running.filter((x) => x.summary.startsWith('Agent '))) {
    const childId = subagentSessionId(sessionId, r.toolUseId);
    const child = await sessionStatus(client, childId).catch(() => undefined);
    for (const approval of child?.pendingApprovals ?? []) out.push({ childId, via: r.summary, approval });
  }
  return out;
}

export interface FollowOptions {
  json?: boolean;
  intervalMs?: number;
  out?: (line: string) => void;
  /** Resolves when the user detaches (Ctrl-C). */
  detach?: Promise<void>;
  onApprovalPending?: (p: SessionStatus['pendingApprovals'][number]) => void;
}

export type FollowOutcome =
  { kind: 'ended'; result?: SessionResult; error?: string; status: string } | { kind: 'detached' };

const ICON: Record<string, string> = { ok: '✓', error: '✗', denied: '⊘', interrupted: '■', unknown_outcome: '?' };

/** A control file's path as the user reads it: relative to the session's cwd when inside it. */
export function controlPathText(path: string, cwd: string | undefined): string {
  return cwd && path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path;
}

/** One line per control file a call changed (run, attach and status show them). */
export function controlWriteText(w: { path: string; change: string }, cwd: string | undefined): string {
  return `control file ${controlPathText(w.path, cwd)} ${w.change}`;
}

export async function followSession(
  client: Client,
  sessionId: string,
  opts: FollowOptions = {},
): Promise<FollowOutcome> {
  const out = opts.out ?? ((l: string) => process.stdout.write(`${l}\n`));
  const emit = (event: Record<string, unknown>, text: string) =>
    out(opts.json ? JSON.stringify({ session: sessionId, ...event }) : text);
  const handle = sessionHandle(client, sessionId);
  const seenDone = new Set<string>();
  const seenRunning = new Map<string, number>();
  const seenPending = new Set<string>();
  const seenNotices = new Map<string, number>();
  let lastTurn = 0;
  let lastPhase = '';
  let lastOutage = '';
  let lastOutageWhat = 'model';
  let lastProgressAt = 0;
  let flushedTurn = 0;
  let cwd: string | undefined;
  const ensureHeader = (n: number): void => {
    while (lastTurn < n) {
      lastTurn++;
      emit({ event: 'turn', turn: lastTurn }, `── turn ${lastTurn}`);
    }
  };
  const emitDone = (d: CompactRecord): void => {
    if (seenDone.has(d.toolUseId)) return;
    seenDone.add(d.toolUseId);
    emit(
      { event: 'tool_done', ...d },
      `  ${ICON[d.status] ?? '·'} ${d.summary} — ${d.status}${d.decision ? ` (${d.decision.behavior} by ${d.decision.source}${d.decision.by ? ` ${d.decision.by}` : ''})` : ''}${d.preview ? `: ${d.preview.slice(0, 100)}` : ''}` +
        (d.notices ?? []).map((n) => `\n    ⚑ ${n.replace(/\s+/g, ' ').slice(0, 300)}`).join('') +
        (d.controlWrites ?? []).map((w) => `\n    ⚠ ${controlWriteText(w, cwd)} by this call`).join(''),
    );
  };
  const showPending = (owner: string, a: SessionStatus['pendingApprovals'][number], via: string): void => {
    const key = `${owner} ${a.toolUseId}`;
    if (seenPending.has(key)) return;
    seenPending.add(key);
    if (owner === sessionId) opts.onApprovalPending?.(a);
    emit(
      { event: 'approval_pending', ...a, ...(owner !== sessionId ? { subagentSession: owner } : {}) },
      `  ⏸ approval needed: ${via}${a.summary} — ${a.message}\n    durable-agent approve ${owner} ${a.toolUseId}   |   durable-agent deny ${owner} ${a.toolUseId} --reason "…"`,
    );
  };
  let detached = false;
  opts.detach?.then(() => (detached = true)).catch(() => undefined);
  const resultPromise = handle.result().then(
    (result) => ({ result }),
    (err: Error) => ({ error: (err as { cause?: Error }).cause?.message ?? err.message }),
  );
  let finished: { result?: SessionResult; error?: string } | undefined;
  void resultPromise.then((r) => (finished = r));

  const poll = async (): Promise<void> => {
    let status: SessionStatus;
    try {
      status = await sessionStatus(client, sessionId);
    } catch {
      return; // no worker answering right now, or the session just closed
    }
    cwd ??= status.context?.cwd;
    // Calls of turns that ended between two polls: read them from those turns (their query still answers).
    const lastEnded = status.phase === 'ended' ? status.turn : status.turn - 1;
    for (let n = flushedTurn + 1; n <= lastEnded; n++) {
      ensureHeader(n);
      try {
        const p = await client.workflow.getHandle(turnWorkflowId(sessionId, n)).query(turnProgressQuery);
        for (const d of p.done) emitDone(d);
      } catch {
        for (const d of n === status.lastTurn?.turn ? status.lastTurn.records : []) emitDone(d);
      }
      flushedTurn = n;
    }
    ensureHeader(status.turn);
    if (status.currentTurnWorkflowId) {
      try {
        const p = await client.workflow.getHandle(status.currentTurnWorkflowId).query(turnProgressQuery);
        for (const r of p.running) {
          if (!seenRunning.has(r.toolUseId)) {
            seenRunning.set(r.toolUseId, Date.now());
            emit({ event: 'tool_started', toolUseId: r.toolUseId, summary: r.summary }, `  … ${r.summary}`);
          }
        }
        // Long tools: every few seconds, show their progress (the activity's last heartbeat).
        const long = p.running.filter((r) => Date.now() - (seenRunning.get(r.toolUseId) ?? Date.now()) > 3_000);
        if (long.length > 0 && Date.now() - lastProgressAt > 5_000) {
          lastProgressAt = Date.now();
          const progress = await toolProgress(client, status.currentTurnWorkflowId).catch(
            () => new Map<string, string>(),
          );
          for (const r of long) {
            const seconds = Math.round((Date.now() - (seenRunning.get(r.toolUseId) ?? Date.now())) / 1000);
            const tail = progress.get(r.toolUseId);
            emit(
              { event: 'tool_progress', toolUseId: r.toolUseId, seconds, ...(tail ? { output: tail } : {}) },
              `  … ${r.summary} (${seconds} s)${tail ? `: ${tail}` : ''}`,
            );
          }
        }
        for (const d of p.done) emitDone(d);
        // A running subagent that waits for an approval waits on its own session: say so here,
        // with the command that answers it (else the parent looks stuck on its Agent call).
        for (const c of await subagentApprovals(client, sessionId, status.currentTurnWorkflowId))
          showPending(c.childId, c.approval, `${c.via} › `);
      } catch {
        // the turn just ended
      }
    }
    // Notices of session-level hooks (a systemMessage, a failed or blocking hook): each once, as they appear.
    const counts = new Map<string, number>();
    for (const n of status.hookNotices ?? []) {
      const c = (counts.get(n) ?? 0) + 1;
      counts.set(n, c);
      if ((seenNotices.get(n) ?? 0) >= c) continue;
      seenNotices.set(n, c);
      emit({ event: 'hook_notice', notice: n }, `  ⚑ ${n}`);
    }
    for (const a of status.pendingApprovals) showPending(sessionId, a, '');
    // An outage: say so once when it starts and whenever the next try is rescheduled.
    const outageKey = status.outage ? `${status.outage.what}:${status.outage.attempts}` : '';
    if (outageKey !== lastOutage) {
      lastOutage = outageKey;
      if (status.outage)
        emit({ event: 'waiting', ...status.outage }, `  ⏳ ${describeOutage(status.outage, Date.now())}`);
      else emit({ event: 'waiting_over' }, `  ✓ the ${lastOutageWhat} is back`);
      lastOutageWhat = status.outage?.what ?? lastOutageWhat;
    }
    if (status.phase !== lastPhase) {
      lastPhase = status.phase;
      if (status.phase === 'waiting_for_message') {
        emit(
          { event: 'waiting_for_message' },
          `  ■ interrupted — waiting for a follow-up: durable-agent send ${sessionId} "…"  (or durable-agent cancel ${sessionId})`,
        );
      }
    }
  };

  for (;;) {
    if (detached) return { kind: 'detached' };
    // A query waits for a worker: with none, Ctrl-C must not wait for it.
    await Promise.race([poll(), opts.detach ?? new Promise(() => undefined)]);
    if (detached) return { kind: 'detached' };
    if (finished) {
      await poll().catch(() => undefined);
      const f = finished;
      if (f.result) {
        if (f.result.lastText) emit({ event: 'text', text: f.result.lastText }, `\n${f.result.lastText}\n`);
        emit(
          { event: 'ended', ...f.result },
          `── session ${f.result.status}: ${f.result.endReason} (${f.result.turns} turns, ${f.result.usage.input_tokens} in / ${f.result.usage.output_tokens} out tokens)`,
        );
        return { kind: 'ended', result: f.result, status: f.result.status };
      }
      const desc = await handle.describe().catch(() => undefined);
      const st = desc?.status.name.toLowerCase() ?? 'failed';
      emit({ event: 'ended', status: st, error: f.error }, `── session ${st}: ${f.error ?? ''}`);
      return { kind: 'ended', ...(f.error ? { error: f.error } : {}), status: st };
    }
    await Promise.race([
      new Promise((r) => setTimeout(r, opts.intervalMs ?? 500)),
      resultPromise,
      opts.detach ?? new Promise(() => undefined),
    ]);
  }
}
