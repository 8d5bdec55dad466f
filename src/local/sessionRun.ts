// An in-process session's state and handlers, the peer of the session workflow's `SessionRun`: the
// engine's `runSession` decides, this class supplies its executor (turns, the idle wait, hooks,
// approvals, store outages) and answers the handle's calls (send, interrupt, status).
import { firstMessage, memoryRefOf } from '../engine/memory';
import { randomUUID } from 'node:crypto';
import type { CallRuntime } from '../calls/runtime';
import type { ToolSessionSettings } from '../calls/tools';
import { initialContext } from '../engine/context';
import { hookProjectDir } from '../hooks/run';
import type { Message, ToolUseBlock } from '../engine/messages';
import type { ToolCallRecord } from '../engine/records';
import { retryPolicy, type OutageState } from '../engine/retry';
import {
  approvalTimeoutDenial,
  hookFailureRuns,
  notifyApprovalPending,
  waitOutStoreOutage,
} from '../engine/schedulerGlue';
import {
  DEFAULT_APPROVAL_TIMEOUT_MS,
  END_REASONS,
  initialSessionState,
  runSession,
  sessionConfig,
  type PendingApproval,
  type SessionExecutor,
  type SessionPhase,
  type SessionState,
  type SessionStatusName,
  type TurnReport,
} from '../engine/session';
import type { Approval, ToolUseDescription, TurnOutcome } from '../engine/turn';
import type { ToolUseContext } from '../tools/Tool';
import { checkoutAtStart, checkSessionInput, sessionInput, withAgents } from '../sessionInput';
import { createCallDeps, type AgentDepsOptions } from '../calls/callDeps';
import { SessionEvents } from '../engine/sessionEvents';
import { localSubagentRunner, localToolSession, type LocalAgentLaunch } from './subagents';
import { disposeNow, localStore, type LocalStore } from './store';
import { LocalTasks } from './tasks';
import { endSessionTemp } from '../sandbox/sessionTemp';
import { LocalTimers } from './timers';
import { LocalTurn, type LocalDeps, type LocalTurnHost } from './turn';
import type { LocalSessionOptions, LocalSessionResult, LocalSessionStatus } from './runSession';

export class LocalSessionRun implements LocalTurnHost {
  readonly input: ReturnType<typeof sessionInput>;
  readonly sessionId: string;
  readonly deps: LocalDeps;
  readonly session: ToolSessionSettings;
  readonly state: SessionState;
  /** What the handle's calls, tasks and timers append; the loop applies it (engine/sessionEvents.ts). */
  readonly events: SessionEvents<SessionState>;
  readonly priorRecords = new Map<string, ToolCallRecord>();
  readonly agentsReady: Promise<void>;
  readonly runSubagent: NonNullable<ToolUseContext['runSubagent']>;
  /** Background agents launched by Agent calls, by task id: tasks.ts runs each when it starts its task. */
  readonly agentLaunches = new Map<string, LocalAgentLaunch>();
  private readonly approvalTimeoutMs: number;
  private readonly allRecords: ToolCallRecord[] = [];
  private readonly turnsDetail: LocalSessionResult['turnsDetail'] = [];
  /** The last model text, whole (state.lastText is its one-line preview): a subagent's result. */
  private finalText = '';
  private readonly pendingApprovals = new Map<string, PendingApproval>();
  private status: SessionStatusName = 'running';
  private phase: SessionPhase = 'starting';
  private endReason: string | undefined;
  private interruptRequested = false;
  private turnAbort: AbortController | undefined;
  private wakeWaiter: (() => void) | undefined;
  private outage: OutageState | undefined;
  private calls = 0;
  /** Notification hook firings still running: the session ends after them. */
  private readonly notifications = new Set<Promise<unknown>>();

  /** Wake-ups and cron firings between turns, and stop (timers.ts; the workflow's SessionTimers). */
  readonly timers: LocalTimers;
  /** Background tasks (Bash run_in_background, Monitor) run in this process (tasks.ts; the workflow's SessionTasks). */
  readonly tasks: LocalTasks;
  /** The session's store: the caller's, or a temporary one removed at the end (store.ts). */
  readonly store: LocalStore;
  private readonly worker: AgentDepsOptions;

  constructor(
    private readonly opts: LocalSessionOptions,
    worker: AgentDepsOptions,
    runChild: (child: LocalSessionOptions, worker: AgentDepsOptions) => Promise<LocalSessionResult>,
  ) {
    // The checkout options are the start's, not the input's (checked in run(), before anything runs).
    const { trustCheckout: _t, checkoutSince: _s, ...options } = opts;
    const input = checkSessionInput(sessionInput(options));
    this.input = input;
    this.sessionId = opts.sessionId ?? `local-${randomUUID()}`;
    this.store = localStore(worker);
    this.worker = this.store.worker;
    try {
      this.deps = createCallDeps(this.worker);
    } catch (err) {
      disposeNow(this.store);
      throw err;
    }
    const session = localToolSession(input, this.sessionId);
    this.session = session;
    this.approvalTimeoutMs = input.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
    // Subagents: in-process child sessions — the same algorithm as the child workflows. Agent files are read once, at start.
    this.agentsReady =
      input.tools.includes('Agent') && !input.parent
        ? withAgents(input).then((i) => void (i.agents && (session.agents = i.agents)))
        : Promise.resolve();
    this.agentsReady.catch(() => undefined); // reported by the first model call that awaits it
    this.runSubagent = localSubagentRunner(
      {
        input,
        sessionId: this.sessionId,
        session,
        approvalTimeoutMs: this.approvalTimeoutMs,
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
    this.state = initialSessionState(
      firstMessage(input.prompt, input.memory),
      initialContext(input.cwd, input.additionalDirectories ?? []),
    );
    if (memoryRefOf(input.memory)) this.state.memoryRef = memoryRefOf(input.memory);
    // The zone cron jobs and wake-ups read, fixed for the session (as the session workflow does).
    if (input.timeZone) this.state.context.timeZone = input.timeZone;
    this.events = new SessionEvents(this.state);
    this.tasks = new LocalTasks(this, () => this.timers.poke());
    this.timers = new LocalTimers(this.events, opts.clock, () => this.tasks.scheduling.sync());
    this.executor = this.makeExecutor();
  }

  // --- The turn's host (src/local/turn.ts) ---

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

  async ask(
    block: ToolUseBlock,
    message: string,
    description: ToolUseDescription,
    signal: AbortSignal,
  ): Promise<Approval | 'interrupted'> {
    if (signal.aborted) return 'interrupted';
    const onAsk = this.opts.onAsk;
    if (!onAsk)
      return {
        decision: 'deny',
        source: 'unattended',
        reason: 'No approver is attached to this in-process session (pass onAsk); denied by default.',
      };
    this.pendingApprovals.set(block.id, {
      turn: this.state.turn,
      toolUseId: block.id,
      toolName: block.name,
      summary: description.summary,
      message,
      since: Date.now(),
    });
    this.status = 'awaiting_approval';
    // A call waits for a human: Notification hooks may page one. As in the session workflow (an
    // async signal handler) the wait does not wait for them, and the session ends only after them.
    const notified = notifyApprovalPending(this.executor, block.name, this.state.head);
    if (notified) {
      this.notifications.add(notified);
      void notified.finally(() => this.notifications.delete(notified));
    }
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const timeoutMs = this.approvalTimeoutMs;
    try {
      return await Promise.race([
        onAsk({ toolUseId: block.id, toolName: block.name, summary: description.summary, message }),
        new Promise<Approval>((resolve) => {
          timer = setTimeout(() => resolve(approvalTimeoutDenial(timeoutMs)), timeoutMs);
        }),
        new Promise<'interrupted'>((resolve) => {
          onAbort = () => resolve('interrupted');
          signal.addEventListener('abort', onAbort, { once: true });
        }),
      ]);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal.removeEventListener('abort', onAbort);
      this.pendingApprovals.delete(block.id);
      if (this.pendingApprovals.size === 0 && this.status === 'awaiting_approval') this.status = 'running';
    }
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

  /** One turn, as the turn workflow runs it (src/local/turn.ts). */
  private async runTurn(turn: number, append: Message[]): Promise<TurnReport> {
    // Tasks the last turn recorded start now; ends that came while it ran are in the context again.
    this.tasks.scheduling.beforeTurn();
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
      hasHooks: (event) => {
        const list = (this.input.hooks as Record<string, unknown[] | undefined> | undefined)?.[event];
        return Array.isArray(list) && list.length > 0;
      },
      runHooks: async (event, fields, head) => {
        try {
          const r = await this.deps.runSessionHooks({
            event,
            sessionId: this.sessionId,
            cwd: this.state.context.cwd,
            // Where the hooks run: the project root, never the agent's cwd (as the session workflow).
            projectDir: hookProjectDir(this.input.hookPins, this.state.context),
            ...(this.input.hookPins ? { hookPins: this.input.hookPins } : {}),
            ...(this.input.sandbox?.passEnv ? { passEnv: this.input.sandbox.passEnv } : {}),
            // In the session's sandbox, as the session workflow's hooks.
            sandbox: this.input.sandbox ?? {},
            additionalDirectories: this.state.context.additionalDirectories,
            permissionMode: this.input.permissionMode,
            head,
            hooks: this.input.hooks,
            fields,
            ...(this.session.agentHookFields ? { agentHookFields: this.session.agentHookFields } : {}),
          });
          return r.runs;
        } catch (err) {
          return hookFailureRuns(event, err);
        }
      },
    };
  }

  // --- The run and the handle's calls ---

  /** Runs the session to its end. */
  async run(): Promise<LocalSessionResult> {
    const { state } = this;
    let end: { status: SessionStatusName; endReason: string };
    // A linked worktree's control files that came with a checkout: the same check as every start
    // (CheckoutNotTrustedError, the result rejects) before a turn, a hook or an MCP server runs. A
    // child session has its parent's configuration.
    const refused = this.input.parent
      ? undefined
      : await checkoutAtStart(this.input, {
          ...(this.opts.trustCheckout ? { trustCheckout: true } : {}),
          ...(this.opts.checkoutSince ? { checkoutSince: this.opts.checkoutSince } : {}),
        }).then(
          () => undefined,
          (err: unknown) => err,
        );
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
    await Promise.allSettled([...this.notifications]);
    // The runner's MCP connections end with the session (unless the caller passed its own manager).
    if (!this.worker.mcp) await this.deps.closeMcp().catch(() => undefined);
    // A temporary store ends with its session (a child's store is its parent's: never temporary).
    await this.store.dispose().catch(() => undefined);
    // Its temp and spool directories on this machine too (sessions apart, src/sandbox/sessionTemp.ts).
    await endSessionTemp(this.sessionId).catch(() => undefined);
    if (refused) throw refused;
    this.status = end.status;
    this.phase = 'ended';
    this.endReason = end.endReason;
    const toolCalls = Object.values(state.toolCallCounts).reduce((a, b) => a + (b ?? 0), 0);
    return {
      status: end.status,
      turns: state.turn,
      usage: state.usage,
      head: state.head,
      lastText: state.lastText,
      endReason: end.endReason,
      toolCalls,
      ...(state.lastUsage ? { lastUsage: state.lastUsage } : {}),
      ...(state.modelUsage ? { modelUsage: state.modelUsage } : {}),
      finalText: this.finalText,
      sessionId: this.sessionId,
      records: this.allRecords,
      turnsDetail: this.turnsDetail,
      context: state.context,
      compactions: state.compactions ?? [],
    };
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
  }

  interrupt(): void {
    this.interruptRequested = true;
    this.turnAbort?.abort();
  }

  statusView(): LocalSessionStatus {
    // What the loop's next fixed point will make of the state (appended events applied to a copy).
    const state = this.events.view();
    return {
      sessionId: this.sessionId,
      status: this.status,
      phase: this.pendingApprovals.size > 0 ? 'awaiting_approval' : this.phase,
      turn: state.turn,
      pendingApprovals: [...this.pendingApprovals.values()],
      usage: state.usage,
      ...(state.modelUsage ? { modelUsage: state.modelUsage } : {}),
      head: state.head,
      lastText: state.lastText,
      ...(this.outage ? { outage: this.outage } : {}),
      ...(this.endReason ? { endReason: this.endReason } : {}),
      ...(state.controlWrites?.length ? { controlWrites: state.controlWrites } : {}),
    };
  }
}
