// Following a session live: turns, tool calls with their summaries, progress of long tools,
// pending approvals; returns when the session ends. Polls queries (cheap, no history growth).
import { turnWorkflowId } from '../core/ids';
import { subagentSessionId } from '../core/subagents';
import type { Client } from '@temporalio/client';
import { sessionHandle, sessionStatus } from '../temporal/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { describeOutage } from '../core/retry';
import { waitingLine } from './autonomyText';
import {
  turnProgressQuery,
  type CompactRecord,
  type SessionResult,
  type SessionStatus,
} from '../temporal/workflows/definitions';
import { terminalLine, terminalSafe } from './terminalText';

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

type Approval = SessionStatus['pendingApprovals'][number];

/** Follows a session until it ends or the user detaches: a poll of its status every intervalMs, each event once. */
export async function followSession(
  client: Client,
  sessionId: string,
  opts: FollowOptions = {},
): Promise<FollowOutcome> {
  const follower = new Follower(client, sessionId, opts);
  let detached = false;
  opts.detach?.then(() => (detached = true)).catch(() => undefined);
  const resultPromise = sessionHandle(client, sessionId)
    .result()
    .then(
      (result) => ({ result }),
      (err: Error) => ({ error: (err as { cause?: Error }).cause?.message ?? err.message }),
    );
  let finished: { result?: SessionResult; error?: string } | undefined;
  void resultPromise.then((r) => (finished = r));
  for (;;) {
    if (detached) return { kind: 'detached' };
    // A query waits for a worker: with none, Ctrl-C must not wait for it.
    await Promise.race([follower.poll(), opts.detach ?? new Promise(() => undefined)]);
    if (detached) return { kind: 'detached' };
    if (finished) {
      await follower.poll().catch(() => undefined);
      return follower.ended(finished);
    }
    await Promise.race([
      new Promise((r) => setTimeout(r, opts.intervalMs ?? 500)),
      resultPromise,
      opts.detach ?? new Promise(() => undefined),
    ]);
  }
}

/** What followSession has shown so far, and the poll that shows what is new. */
class Follower {
  private readonly seenDone = new Set<string>();
  /** The last turn child that answered (a step without its own child ran in it). */
  private lastChild: string | undefined;
  private readonly seenRunning = new Map<string, number>();
  private readonly seenPending = new Set<string>();
  private readonly seenNotices = new Map<string, number>();
  private lastTurn = 0;
  private lastPhase = '';
  private lastOutage = '';
  private lastOutageWhat = 'model';
  private lastProgressAt = 0;
  private flushedTurn = 0;
  private cwd: string | undefined;
  private readonly out: (line: string) => void;

  constructor(
    private readonly client: Client,
    private readonly sessionId: string,
    private readonly opts: FollowOptions,
  ) {
    this.out = opts.out ?? ((l: string) => process.stdout.write(`${l}\n`));
  }

  private emit(event: Record<string, unknown>, text: string): void {
    // Human text carries the agent's words (commands, paths, results): shown, never obeyed by the terminal.
    this.out(this.opts.json ? JSON.stringify({ session: this.sessionId, ...event }) : terminalSafe(text));
  }

  private ensureHeader(n: number): void {
    while (this.lastTurn < n) {
      this.lastTurn++;
      this.emit({ event: 'turn', turn: this.lastTurn }, `── turn ${this.lastTurn}`);
    }
  }

  private emitDone(d: CompactRecord): void {
    if (this.seenDone.has(d.toolUseId)) return;
    this.seenDone.add(d.toolUseId);
    this.emit(
      { event: 'tool_done', ...d },
      `  ${ICON[d.status] ?? '·'} ${terminalLine(d.summary ?? d.toolUseId)} — ${d.status}${d.decision ? ` (${d.decision.behavior} by ${d.decision.source}${d.decision.by ? ` ${d.decision.by}` : ''})` : ''}${d.preview ? `: ${terminalLine(d.preview.slice(0, 100))}` : ''}` +
        (d.notices ?? []).map((n) => `\n    ⚑ ${n.replace(/\s+/g, ' ').slice(0, 300)}`).join('') +
        (d.controlWrites ?? []).map((w) => `\n    ⚠ ${controlWriteText(w, this.cwd)} by this call`).join(''),
    );
  }

  private showPending(owner: string, a: Approval, via: string): void {
    const key = `${owner} ${a.toolUseId}`;
    if (this.seenPending.has(key)) return;
    this.seenPending.add(key);
    if (owner === this.sessionId) this.opts.onApprovalPending?.(a);
    this.emit(
      { event: 'approval_pending', ...a, ...(owner !== this.sessionId ? { subagentSession: owner } : {}) },
      `  ⏸ approval needed: ${terminalLine(via)}${terminalLine(a.summary)} — ${terminalLine(a.message)}\n    durable-agent approve ${owner} ${a.toolUseId}   |   durable-agent deny ${owner} ${a.toolUseId} --reason "…"`,
    );
  }

  async poll(): Promise<void> {
    let status: SessionStatus;
    try {
      status = await sessionStatus(this.client, this.sessionId);
    } catch {
      return; // no worker answering right now, or the session just closed
    }
    this.cwd ??= status.context?.cwd;
    await this.flushEndedTurns(status);
    this.ensureHeader(status.turn);
    if (status.currentTurnWorkflowId) {
      try {
        await this.followTurn(status.currentTurnWorkflowId);
      } catch {
        // the turn just ended
      }
    }
    this.showHookNotices(status);
    for (const a of status.pendingApprovals) this.showPending(this.sessionId, a, '');
    this.showOutage(status);
    if (status.phase !== this.lastPhase) {
      this.lastPhase = status.phase;
      if (status.phase === 'waiting_for_message') {
        this.emit(
          { event: 'waiting_for_message' },
          `  ■ interrupted — waiting for a follow-up: durable-agent send ${this.sessionId} "…"  (or durable-agent cancel ${this.sessionId})`,
        );
      } else if (status.phase === 'waiting_for_work') {
        const line = waitingLine(status) ?? 'waiting for its background work';
        this.emit(
          { event: 'waiting_for_work', ...(status.waiting ?? {}) },
          `  ⏸ ${line} (the session sleeps durably; end it with durable-agent stop ${this.sessionId})`,
        );
      }
    }
  }

  /** Calls of turns that ended between two polls: read them from those turns (their query still answers). */
  private async flushEndedTurns(status: SessionStatus): Promise<void> {
    const lastEnded = status.phase === 'ended' ? status.turn : status.turn - 1;
    for (let n = this.flushedTurn + 1; n <= lastEnded; n++) {
      this.ensureHeader(n);
      const done = await this.doneOf(n);
      for (const d of done ?? (n === status.lastTurn?.turn ? status.lastTurn.records : [])) this.emitDone(d);
      this.flushedTurn = n;
    }
  }

  /**
   * The calls of step n: its own child's, or those of the child that ran it among several steps
   * (issue 33: the progress query lists the earlier steps); undefined when no child answers.
   */
  private async doneOf(n: number): Promise<CompactRecord[] | undefined> {
    for (const id of [turnWorkflowId(this.sessionId, n), this.lastChild]) {
      if (!id) continue;
      try {
        const p = await this.client.workflow.getHandle(id).query(turnProgressQuery);
        this.lastChild = id;
        if ((p.turn ?? n) === n) return p.done;
        const step = p.steps?.find((s) => s.turn === n);
        if (step) return step.done;
      } catch {
        // no such child (the step ran in another one), or it is gone
      }
    }
    return undefined;
  }

  /** The running turn: calls started, progress of long ones, calls done, subagents' approvals. */
  private async followTurn(currentTurnWorkflowId: string): Promise<void> {
    const p = await this.client.workflow.getHandle(currentTurnWorkflowId).query(turnProgressQuery);
    this.lastChild = currentTurnWorkflowId;
    // A child of several steps: the calls of its earlier steps, under their own headers.
    for (const s of p.steps ?? []) {
      this.ensureHeader(s.turn);
      for (const d of s.done) this.emitDone(d);
    }
    if (p.turn !== undefined) this.ensureHeader(p.turn);
    for (const r of p.running) {
      if (!this.seenRunning.has(r.toolUseId)) {
        this.seenRunning.set(r.toolUseId, Date.now());
        this.emit(
          { event: 'tool_started', toolUseId: r.toolUseId, summary: r.summary },
          `  … ${terminalLine(r.summary)}`,
        );
      }
    }
    await this.showProgress(currentTurnWorkflowId, p.running);
    for (const d of p.done) this.emitDone(d);
    // A running subagent that waits for an approval waits on its own session: say so here,
    // with the command that answers it (else the parent looks stuck on its Agent call).
    for (const c of await subagentApprovals(this.client, this.sessionId, currentTurnWorkflowId))
      this.showPending(c.childId, c.approval, `${c.via} › `);
  }

  /** Long tools: every few seconds, show their progress (the activity's last heartbeat). */
  private async showProgress(
    currentTurnWorkflowId: string,
    running: Array<{ toolUseId: string; summary: string }>,
  ): Promise<void> {
    const long = running.filter((r) => Date.now() - (this.seenRunning.get(r.toolUseId) ?? Date.now()) > 3_000);
    if (long.length === 0 || Date.now() - this.lastProgressAt <= 5_000) return;
    this.lastProgressAt = Date.now();
    const progress = await toolProgress(this.client, currentTurnWorkflowId).catch(() => new Map<string, string>());
    for (const r of long) {
      const seconds = Math.round((Date.now() - (this.seenRunning.get(r.toolUseId) ?? Date.now())) / 1000);
      const tail = progress.get(r.toolUseId);
      this.emit(
        { event: 'tool_progress', toolUseId: r.toolUseId, seconds, ...(tail ? { output: tail } : {}) },
        `  … ${terminalLine(r.summary)} (${seconds} s)${tail ? `: ${tail}` : ''}`,
      );
    }
  }

  /** Notices of session-level hooks (a systemMessage, a failed or blocking hook): each once, as they appear. */
  private showHookNotices(status: SessionStatus): void {
    const counts = new Map<string, number>();
    for (const n of status.hookNotices ?? []) {
      const c = (counts.get(n) ?? 0) + 1;
      counts.set(n, c);
      if ((this.seenNotices.get(n) ?? 0) >= c) continue;
      this.seenNotices.set(n, c);
      this.emit({ event: 'hook_notice', notice: n }, `  ⚑ ${n}`);
    }
  }

  /** An outage: say so once when it starts and whenever the next try is rescheduled. */
  private showOutage(status: SessionStatus): void {
    const outageKey = status.outage ? `${status.outage.what}:${status.outage.attempts}` : '';
    if (outageKey === this.lastOutage) return;
    this.lastOutage = outageKey;
    if (status.outage)
      this.emit({ event: 'waiting', ...status.outage }, `  ⏳ ${describeOutage(status.outage, Date.now())}`);
    else this.emit({ event: 'waiting_over' }, `  ✓ the ${this.lastOutageWhat} is back`);
    this.lastOutageWhat = status.outage?.what ?? this.lastOutageWhat;
  }

  /** The session's end: its last text and a summary line. */
  async ended(f: { result?: SessionResult; error?: string }): Promise<FollowOutcome> {
    if (f.result) {
      if (f.result.lastText) this.emit({ event: 'text', text: f.result.lastText }, `\n${f.result.lastText}\n`);
      this.emit(
        { event: 'ended', ...f.result },
        `── session ${f.result.status}: ${f.result.endReason} (${f.result.turns} turns, ${f.result.usage.input_tokens} in / ${f.result.usage.output_tokens} out tokens)`,
      );
      return { kind: 'ended', result: f.result, status: f.result.status };
    }
    const desc = await sessionHandle(this.client, this.sessionId)
      .describe()
      .catch(() => undefined);
    const st = desc?.status.name.toLowerCase() ?? 'failed';
    this.emit({ event: 'ended', status: st, error: f.error }, `── session ${st}: ${f.error ?? ''}`);
    return { kind: 'ended', ...(f.error ? { error: f.error } : {}), status: st };
  }
}
