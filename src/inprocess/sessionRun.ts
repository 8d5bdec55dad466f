// An in-process session's state and handlers, the peer of the session workflow's `SessionRun`: the
// engine's `runSession` decides, this class supplies its executor (turns, the idle wait, hooks,
// approvals, store outages) and answers the handle's calls (send, interrupt, status). Its parts, as
// the workflow's: what it starts from (sessionStart.ts), its approvals (sessionApprovals.ts), its
// session-level hooks (sessionHooks.ts), its status and result (sessionView.ts).
import type { CallRuntime } from '../runtime/runtime';
import type { ToolSessionSettings } from '../toolCall/tools';
import type { AgentDepsOptions } from '../runtime/callDeps';
import type { Message } from '../core/apiMessages';
import type { ToolCallRecord } from '../core/toolRecords';
import { retryPolicy, type OutageState } from '../core/retry';
import { waitOutStoreOutage } from '../core/schedulerShared';
import {
  END_REASONS,
  runSession,
  sessionConfig,
  type SessionExecutor,
  type SessionPhase,
  type SessionState,
  type SessionStatusName,
  type TurnReport,
} from '../core/session';
import type { TurnOutcome } from '../core/turn';
import type { ToolUseContext } from '../toolProtocol/Tool';
import { SessionEvents } from '../core/sessionEvents';
import { endSessionTemp } from '../sandbox/sessionTemp';
import { endMcpSessions } from '../mcp/sandboxed';
import { LocalApprovals } from './sessionApprovals';
import { localSessionHooks } from './sessionHooks';
import { checkoutRefusal, prepareLocalSession, type LocalSessionStart } from './sessionStart';
import { localResultOf, localStatusOf } from './sessionView';
import { localSubagentRunner, type LocalAgentLaunch } from './subagents';
import type { LocalStore } from './store';
import { localTasks, type LocalTasks } from '../tasks/inprocess/tasks';
import { LocalTimers } from './timers';
import { LocalBudget } from './sessionBudget';
import { LocalTurn, type LocalDeps, type LocalTurnHost } from './turn';
import type { LocalSessionOptions, LocalSessionResult, LocalSessionStatus } from './types';

export class LocalSessionRun implements LocalTurnHost {
  readonly input: LocalSessionStart['input'];
  readonly sessionId: string;
  readonly deps: LocalDeps;
  readonly session: ToolSessionSettings;
  readonly state: SessionState;
  /** What the handle's calls, tasks and timers append; the loop applies it (core/sessionEvents.ts). */
  readonly events: SessionEvents<SessionState>;
  readonly priorRecords = new Map<string, ToolCallRecord>();
  readonly agentsReady: Promise<void>;
  readonly runSubagent: NonNullable<ToolUseContext['runSubagent']>;
  /** Background agents launched by Agent calls, by task id: tasks.ts runs each when it starts its task. */
  readonly agentLaunches = new Map<string, LocalAgentLaunch>();
  private readonly allRecords: ToolCallRecord[] = [];
  private readonly turnsDetail: LocalSessionResult['turnsDetail'] = [];
  /** The last model text, whole (state.lastText is its one-line preview): a subagent's result. */
  private finalText = '';
  /** Calls of the running turn waiting for the approver (sessionApprovals.ts). */
  private readonly approvals: LocalApprovals;
  private status: SessionStatusName = 'running';
  private phase: SessionPhase = 'starting';
  private endReason: string | undefined;
  private interruptRequested = false;
  private turnAbort: AbortController | undefined;
  private wakeWaiter: (() => void) | undefined;
  private outage: OutageState | undefined;
  private calls = 0;

  /** Wake-ups and cron firings between turns, and stop (timers.ts; the workflow's SessionTimers). */
  readonly timers: LocalTimers;
  /** Background tasks (Bash run_in_background, Monitor) run in this process (tasks.ts; the workflow's SessionTasks). */
  readonly tasks: LocalTasks;
  /** The session's store: the caller's, or a temporary one removed at the end (store.ts). */
  readonly store: LocalStore;
  private readonly worker: AgentDepsOptions;
  /** The tree's budget: the wait in budget_exceeded and the handle's raise (sessionBudget.ts). */
  readonly budget: LocalBudget;

  constructor(
    private readonly opts: LocalSessionOptions,
    worker: AgentDepsOptions,
    runChild: (child: LocalSessionOptions, worker: AgentDepsOptions) => Promise<LocalSessionResult>,
  ) {
    const start = prepareLocalSession(opts, worker);
    ({ input: this.input, sessionId: this.sessionId, store: this.store, worker: this.worker } = start);
    ({ deps: this.deps, session: this.session, agentsReady: this.agentsReady, state: this.state } = start);
    this.runSubagent = localSubagentRunner(
      {
        input: this.input,
        sessionId: this.sessionId,
        session: this.session,
        approvalTimeoutMs: start.approvalTimeoutMs,
        ...(opts.onAsk ? { onAsk: opts.onAsk } : {}),
      },
      // A child session writes into its parent's store (never a temporary one of its own). Its
      // tree's spend is the parent's too (foreground or background), counted when it ends.
      (child) =>
        runChild(child, this.worker).then((r) => {
          if (r.modelUsage) this.events.append({ type: 'subagentUsage', modelUsage: r.modelUsage });
          return r;
        }),
      this.agentLaunches,
    );
    this.events = new SessionEvents(this.state);
    this.budget = new LocalBudget(this.events, sessionConfig(this.input, !!this.input.parent).budget);
    this.tasks = localTasks(this, () => this.timers.poke());
    this.timers = new LocalTimers(this.events, opts.clock, () => this.tasks.sync());
    this.executor = this.makeExecutor();
    this.approvals = new LocalApprovals({
      onAsk: opts.onAsk,
      timeoutMs: start.approvalTimeoutMs,
      turn: () => this.state.turn,
      head: () => this.state.head,
      status: () => this.status,
      setStatus: (next) => void (this.status = next),
      hooks: this.executor,
    });
  }

  // --- The turn's host (src/inprocess/turn.ts) ---

  runtime(signal: AbortSignal, key: string): CallRuntime {
    return {
      signal,
      heartbeat: () => undefined,
      attempt: 1,
      callKey: `${this.sessionId}/${key}`,
      warn: () => undefined,
    };
  }

  nextToolKey(toolUseId: string): string {
    return `tool-${toolUseId}-${++this.calls}`;
  }

  onTurnOutage(o: OutageState | undefined): void {
    this.outage = o;
    if (o) this.status = 'waiting_for_model';
    else if (this.status === 'waiting_for_model') this.status = 'running';
  }

  onTurnEnd(turn: number, outcome: TurnOutcome): void {
    this.opts.onTurn?.(turn, outcome);
    this.turnsDetail.push({
      turn,
      reason: outcome.reason,
      batches: outcome.batches,
      ...(outcome.discarded ? { discarded: outcome.discarded } : {}),
    });
    for (const r of outcome.records) {
      if (!r.reused) this.priorRecords.set(r.toolUseId, r);
      this.allRecords.push(r);
    }
  }

  onText(text: string): void {
    if (text.trim() !== '') this.finalText = text;
  }

  ask(...args: Parameters<LocalApprovals['ask']>): ReturnType<LocalApprovals['ask']> {
    return this.approvals.ask(...args);
  }

  /** A store write that waits out outages as the turn workflow's does (not interruptible: it records what happened). */
  storeCall<T>(call: () => Promise<T>): Promise<T> {
    return waitOutStoreOutage(call, {
      policy: retryPolicy(this.input),
      now: () => Date.now(),
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      // In-process every store failure is an outage: the cores throw plain errors.
      classify: (err) => ({ kind: 'store', message: err instanceof Error ? err.message : String(err) }),
      onOutage: (o) => {
        if (o) {
          this.outage = o;
          this.status = 'waiting_for_model';
        } else if (this.outage?.what === 'store') {
          this.outage = undefined;
          if (this.status === 'waiting_for_model') this.status = 'running';
        }
      },
      giveUp: (reason) => new Error(reason),
    });
  }

  // --- The engine's session executor ---

  /** One turn, as the turn workflow runs it (src/inprocess/turn.ts). */
  private async runTurn(turn: number, append: Message[]): Promise<TurnReport> {
    // Tasks the last turn recorded start now; ends that came while it ran are in the context again.
    this.tasks.beforeTurn();
    const t = new LocalTurn(this, turn, append);
    this.turnAbort = t.abort;
    try {
      return await t.run();
    } finally {
      this.turnAbort = undefined;
    }
  }

  private waitForMessage(timeoutMs: number): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      if (this.events.hasMessages()) return resolve(true);
      const timer = setTimeout(() => {
        this.wakeWaiter = undefined;
        resolve(false);
      }, timeoutMs);
      this.wakeWaiter = () => {
        clearTimeout(timer);
        this.wakeWaiter = undefined;
        resolve(true);
      };
    });
  }

  /** The engine's executor (built once the state and its events exist). */
  readonly executor: SessionExecutor;

  private makeExecutor(): SessionExecutor {
    return {
      events: this.events,
      runTurn: (turn, append) => this.runTurn(turn, append),
      takeInterrupt: () => {
        const was = this.interruptRequested;
        this.interruptRequested = false;
        return was;
      },
      waitForMessage: (timeoutMs) => this.waitForMessage(timeoutMs),
      waitForWork: () => this.timers.waitForWork(),
      // A task's notification (a Monitor's event or end) queued after the turn ended the session, while
      // Stop hooks ran: a turn for it, as the session workflow does since patched('queued-after-turn').
      wakesForQueued: () => true,
      // A follow-up or a task's notification queued while UserPromptSubmit hooks ran is kept (the
      // session workflow still loses it: its fix needs a patch id and a recorded history).
      keepsLatePrompts: () => true,
      onStatus: (s, p) => {
        this.status = s;
        this.phase = p;
      },
      waitForBudget: (limits) => this.budget.wait(limits),
      ...localSessionHooks(this),
    };
  }

  // --- The run and the handle's calls ---

  /** Runs the session to its end. */
  async run(): Promise<LocalSessionResult> {
    const { state } = this;
    let end: { status: SessionStatusName; endReason: string };
    const refused = this.input.parent ? undefined : await checkoutRefusal(this.input, this.opts);
    try {
      if (refused) throw refused;
      const outcome = await runSession(state, sessionConfig(this.input, !!this.input.parent), this.executor);
      // In-process there is no history to bound: a checkpoint never happens (no shouldCheckpoint).
      end =
        outcome.kind === 'end'
          ? outcome
          : { status: 'failed', endReason: END_REASONS.failed(state.turn, 'unexpected checkpoint') };
    } catch (err) {
      end = {
        status: 'failed',
        endReason: END_REASONS.failed(state.turn, err instanceof Error ? err.message : String(err)),
      };
    }
    // Background tasks still running when the session ends are stopped (killed, no notification).
    await this.tasks.stopAll();
    this.events.settle();
    // Notification hooks still running (an approval was answered before they finished) end first.
    await this.approvals.settled();
    // The runner's MCP connections end with the session (unless the caller passed its own manager).
    if (!this.worker.mcp) await this.deps.closeMcp().catch(() => undefined);
    // A temporary store ends with its session (a child's store is its parent's: never temporary).
    await this.store.dispose().catch(() => undefined);
    // Its stdio MCP servers in its sandbox (a caller's shared manager keeps only the host ones),
    // then its temp and spool directories on this machine (sessions apart, src/sandbox/sessionTemp.ts).
    await endMcpSessions(this.sessionId);
    await endSessionTemp(this.sessionId).catch(() => undefined);
    if (refused) throw refused;
    this.status = end.status;
    this.phase = 'ended';
    this.endReason = end.endReason;
    return localResultOf(state, end, {
      finalText: this.finalText,
      sessionId: this.sessionId,
      records: this.allRecords,
      turnsDetail: this.turnsDetail,
    });
  }

  send(text: string): void {
    if (typeof text !== 'string' || text.trim() === '') return;
    this.events.append({ type: 'followUp', text });
    this.wakeWaiter?.();
    this.timers.poke();
  }

  /** Ends the session's loop at its next idle point, its wake-up and cron jobs dropped (as `durable-agent stop`). */
  stop(): void {
    this.timers.requestStop();
    // Waiting over budget is an idle point too: the session ends there.
    this.budget.end();
  }

  interrupt(): void {
    this.interruptRequested = true;
    this.turnAbort?.abort();
  }

  statusView(): LocalSessionStatus {
    // What the loop's next fixed point will make of the state (appended events applied to a copy).
    return localStatusOf(this.events.view(), {
      sessionId: this.sessionId,
      status: this.status,
      phase: this.phase,
      pending: this.approvals.pending,
      outage: this.outage,
      endReason: this.endReason,
      ...(this.budget.limits ? { budget: this.budget.view() } : {}),
    });
  }
}
