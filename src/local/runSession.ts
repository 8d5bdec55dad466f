// The same session without Temporal: an in-process scheduler for fast tests, for library users who
// want no server, and as the baseline of the overhead benchmark. One algorithm, two schedulers:
// the session loop is the engine's `runSession`, each turn the engine's `executeTurn`, the model
// and tool calls the same cores the activities run. This file only schedules them in-process.
import { firstMessage, memoryRefOf } from '../engine/memory';
import { randomUUID } from 'node:crypto';
import { callModelWith, ModelCallError, type CallModelResult } from '../calls/model';
import type { CallRuntime } from '../calls/runtime';
import { compactContextWith } from '../calls/compact';
import type { CompactionRecord } from '../engine/contextView';
import {
  managedModelStep,
  newModelStepState,
  type ManagedModelStep as EngineModelStep,
} from '../engine/managedModelStep';
import { initialContext, type AgentContext } from '../engine/context';
import type { Message, ToolUseBlock } from '../engine/messages';
import type { ToolCallRecord } from '../engine/records';
import { retryPolicy, type OutageState } from '../engine/retry';
import {
  approvalTimeoutDenial,
  hookFailureRuns,
  notifyApprovalPending,
  transientFailureFromDetails,
  waitOutStoreOutage,
} from '../engine/schedulerGlue';
import {
  DEFAULT_APPROVAL_TIMEOUT_MS,
  END_REASONS,
  initialSessionState,
  runSession,
  sessionConfig,
  type SessionExecutor,
  type SessionPhase,
  type SessionState,
  type SessionStatusName,
  type TurnReport,
} from '../engine/session';
import {
  executeTurn,
  type Approval,
  type ToolUseDescription,
  type TurnExecutor,
  type TurnOutcome,
} from '../engine/turn';
import { localStreaming, withStreamedToolUses } from './streaming';
import { sessionInput, withAgents, type SessionOptions } from '../sessionInput';
import { checkSessionInput } from '../sessionInput';
import { localSubagentRunner, localToolSession } from './subagents';
import { createAgentActivities, type AgentDepsOptions } from '../workerDeps';
import { oneLinePreview } from '../engine/messages';
import type { AgentDefinition } from '../agents/definitions';
import type { McpServers } from '../mcp/config';
import type { PendingApproval, SessionResult } from '../engine/session';

type ManagedModelStep = EngineModelStep<CallModelResult>;

export interface LocalSessionOptions extends SessionOptions {
  sessionId?: string;
  /** Resolves `ask` decisions (the approver); without one an ask is denied at once, saying so. */
  onAsk?: (ask: { toolUseId: string; toolName: string; summary: string; message: string }) => Promise<Approval>;
  /** Abort to interrupt the running turn (like `interrupt()`); see runLocalSession for the default onInterrupt. */
  signal?: AbortSignal;
  onTurn?: (turn: number, outcome: TurnOutcome) => void;
}

export interface LocalSessionResult extends SessionResult {
  sessionId: string;
  records: ToolCallRecord[];
  /** Per turn: its end, its batches, and the calls started while streaming that the final message discarded. */
  turnsDetail: Array<{
    turn: number;
    reason: string;
    batches: TurnOutcome['batches'];
    discarded?: TurnOutcome['discarded'];
  }>;
  context: AgentContext;
  /** Compactions of the model's view (the transcript under `head` keeps everything). */
  compactions: CompactionRecord[];
  /** The last text the model answered, whole (`lastText` is a one-line preview). */
  finalText: string;
}

export interface LocalSessionStatus {
  sessionId: string;
  status: SessionStatusName;
  phase: SessionPhase;
  turn: number;
  pendingApprovals: PendingApproval[];
  usage: SessionState['usage'];
  head: string | null;
  lastText: string;
  outage?: OutageState;
  endReason?: string;
  /** Writes the session's calls made to its control files (the last 100). */
  controlWrites?: SessionState['controlWrites'];
}

/** A running in-process session: the peer of a session workflow's handle. */
export interface LocalSession {
  readonly sessionId: string;
  /** A follow-up message (as `durable-agent send`). */
  send(text: string): void;
  /** Interrupts the running turn (as `durable-agent interrupt`). */
  interrupt(): void;
  status(): LocalSessionStatus;
  readonly result: Promise<LocalSessionResult>;
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<'done' | 'interrupted'> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve('interrupted');
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve('interrupted');
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve('done');
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

type WorkerDeps = AgentDepsOptions;

export function startLocalSession(opts: LocalSessionOptions, worker: WorkerDeps = {}): LocalSession {
  const input = checkSessionInput(sessionInput(opts));
  const sessionId = opts.sessionId ?? `local-${randomUUID()}`;
  const deps = createAgentActivities(worker);
  const session = localToolSession(input, sessionId);
  const approvalTimeoutMs = input.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
  // Subagents: in-process child sessions — the same algorithm as the child workflows. Agent files are read once, at start.
  const agentsReady =
    input.tools.includes('Agent') && !input.parent
      ? withAgents(input).then((i) => void (i.agents && (session.agents = i.agents)))
      : Promise.resolve();
  agentsReady.catch(() => undefined); // reported by the first model call that awaits it
  const runSubagent = localSubagentRunner(
    { input, sessionId, session, approvalTimeoutMs, ...(opts.onAsk ? { onAsk: opts.onAsk } : {}) },
    (child) => runLocalSession(child, worker),
  );
  const state = initialSessionState(
    firstMessage(input.prompt, input.memory),
    initialContext(input.cwd, input.additionalDirectories ?? []),
  );
  if (memoryRefOf(input.memory)) state.memoryRef = memoryRefOf(input.memory);
  const priorRecords = new Map<string, ToolCallRecord>();
  const allRecords: ToolCallRecord[] = [];
  const turnsDetail: LocalSessionResult['turnsDetail'] = [];
  /** The last model text, whole (state.lastText is its one-line preview): a subagent's result. */
  let finalText = '';
  const pendingApprovals = new Map<string, PendingApproval>();
  let status: SessionStatusName = 'running';
  let phase: SessionPhase = 'starting';
  let endReason: string | undefined;
  let interruptRequested = false;
  let turnAbort: AbortController | undefined;
  let wakeWaiter: (() => void) | undefined;
  let outage: OutageState | undefined;
  let calls = 0;
  /** Notification hook firings still running: the session ends after them. */
  const notifications = new Set<Promise<unknown>>();

  const runtime = (signal: AbortSignal, key: string): CallRuntime => ({
    signal,
    heartbeat: () => undefined,
    attempt: 1,
    callKey: `${sessionId}/${key}`,
    warn: () => undefined,
  });

  async function ask(
    block: ToolUseBlock,
    message: string,
    description: ToolUseDescription,
    signal: AbortSignal,
  ): Promise<Approval | 'interrupted'> {
    if (signal.aborted) return 'interrupted';
    if (!opts.onAsk)
      return {
        decision: 'deny',
        source: 'unattended',
        reason: 'No approver is attached to this in-process session (pass onAsk); denied by default.',
      };
    pendingApprovals.set(block.id, {
      turn: state.turn,
      toolUseId: block.id,
      toolName: block.name,
      summary: description.summary,
      message,
      since: Date.now(),
    });
    status = 'awaiting_approval';
    // A call waits for a human: Notification hooks may page one. As in the session workflow (an
    // async signal handler) the wait does not wait for them, and the session ends only after them.
    const notified = notifyApprovalPending(executor, block.name, state.head);
    if (notified) {
      notifications.add(notified);
      void notified.finally(() => notifications.delete(notified));
    }
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    try {
      return await Promise.race([
        opts.onAsk({ toolUseId: block.id, toolName: block.name, summary: description.summary, message }),
        new Promise<Approval>((resolve) => {
          timer = setTimeout(() => resolve(approvalTimeoutDenial(approvalTimeoutMs)), approvalTimeoutMs);
        }),
        new Promise<'interrupted'>((resolve) => {
          onAbort = () => resolve('interrupted');
          signal.addEventListener('abort', onAbort, { once: true });
        }),
      ]);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal.removeEventListener('abort', onAbort);
      pendingApprovals.delete(block.id);
      if (pendingApprovals.size === 0 && status === 'awaiting_approval') status = 'running';
    }
  }

  /** A store write that waits out outages as the turn workflow's does (not interruptible: it records what happened). */
  const storeCall = <T>(call: () => Promise<T>): Promise<T> =>
    waitOutStoreOutage(call, {
      policy: retryPolicy(input),
      now: () => Date.now(),
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      // In-process every store failure is an outage: the cores throw plain errors.
      classify: (err) => ({ kind: 'store', message: err instanceof Error ? err.message : String(err) }),
      onOutage(o) {
        if (o) {
          outage = o;
          status = 'waiting_for_model';
        } else if (outage?.what === 'store') {
          outage = undefined;
          if (status === 'waiting_for_model') status = 'running';
        }
      },
      giveUp: (reason) => new Error(reason),
    });

  /** One turn, as the turn workflow runs it: model, tools, then the tool results into the transcript. */
  async function runTurn(turn: number, append: Message[]): Promise<TurnReport> {
    const abort = new AbortController();
    turnAbort = abort;
    const signal = abort.signal;
    let model: CallModelResult | undefined;
    let step: ManagedModelStep | undefined;
    const stepState = newModelStepState();
    // Streaming tool execution, as the turn workflow does it (src/local/streaming.ts).
    const streaming =
      input.streamingToolExecution === false
        ? undefined
        : localStreaming({
            context: state.context,
            maxConcurrency: input.maxConcurrency ?? 10,
            priorRecords,
            signal,
            describe: (blocks, messageRefs, context) =>
              deps.activities.describeToolUses({ session, blocks, messageRefs, context }),
            run: (call, own) =>
              deps.runToolCall({ session, ...call }, runtime(own, `tool-${call.block.id}-${++calls}`), { runSubagent }),
          });
    const executor: TurnExecutor = {
      now: () => Date.now(),
      onOutage(o) {
        outage = o;
        if (o) status = 'waiting_for_model';
        else if (status === 'waiting_for_model') status = 'running';
      },
      sleep: (ms) => abortableSleep(ms, signal),
      async callModel(attempt) {
        if (signal.aborted) return { kind: 'interrupted' };
        try {
          await agentsReady;
          // The same model step as the turn workflow (clearing, auto/reactive compaction), called directly.
          step = await managedModelStep<AgentDefinition, McpServers, unknown, CallModelResult>(
            {
              sessionId,
              turn,
              head: state.head,
              append,
              ...(state.memoryRef ? { memory: state.memoryRef } : {}),
              model: input.model,
              tools: input.tools,
              rules: input.rules,
              context: state.context,
              ...(streaming ? {} : { streamingToolExecution: false }),
              ...(state.view ? { view: state.view } : {}),
              ...(input.contextManagement ? { contextSettings: input.contextManagement } : {}),
              ...(input.hooks ? { hooks: input.hooks } : {}),
              ...(session.mcpServers ? { mcpServers: session.mcpServers } : {}),
              ...(session.agents ? { subagents: { agents: session.agents } } : {}),
            },
            {
              callModel: (args, id) =>
                callModelWith(deps.modelDeps, args, withStreamedToolUses(runtime(signal, id), streaming, id)),
              compact: (args, id) => compactContextWith(deps.compactDeps, args, runtime(signal, id)),
            },
            stepState,
            attempt,
          );
          if (step.kind === 'interrupted') return { kind: 'interrupted' };
          model = step.result;
        } catch (err) {
          if (signal.aborted) return { kind: 'interrupted' };
          // The core's classification: a retryable failure is waited out, the rest ends the turn.
          if (err instanceof ModelCallError && err.retryable)
            return {
              kind: 'unavailable',
              failure: transientFailureFromDetails('model', err.message, err.transient ? [err.transient] : undefined),
            };
          throw err;
        }
        return { kind: 'message', message: model.message, usage: model.usage, stopReason: model.stopReason };
      },
      describe: (blocks, context) =>
        deps.activities.describeToolUses({ session, blocks: [...blocks], messageRef: model?.head ?? null, context }),
      async runTool(block, context, _description, approval) {
        calls++;
        return deps.runToolCall(
          { session, block, messageRef: model?.head ?? null, context, ...(approval ? { approval } : {}) },
          runtime(signal, `tool-${block.id}-${calls}`),
          { runSubagent },
        );
      },
      awaitApproval: (block, a, description) => ask(block, a.message, description, signal),
      isInterrupted: () => signal.aborted,
    };
    let outcome: TurnOutcome;
    const failed = (error: string): TurnReport => ({
      reason: 'failed',
      consumedAppend: false,
      head: state.head,
      context: state.context,
      records: [],
      text: '',
      error: `model call failed: ${error}`,
    });
    try {
      outcome = await executeTurn(
        {
          context: state.context,
          priorRecords,
          maxConcurrency: input.maxConcurrency ?? 10,
          retry: retryPolicy(input),
          ...(streaming ? { streaming } : {}),
        },
        executor,
      );
    } catch (err) {
      return failed(err instanceof Error ? err.message : String(err));
    } finally {
      turnAbort = undefined;
    }
    if (outcome.reason === 'failed') return failed(outcome.error ?? 'unavailable');
    opts.onTurn?.(turn, outcome);
    turnsDetail.push({
      turn,
      reason: outcome.reason,
      batches: outcome.batches,
      ...(outcome.discarded ? { discarded: outcome.discarded } : {}),
    });
    for (const r of outcome.records) {
      if (!r.reused) priorRecords.set(r.toolUseId, r);
      allRecords.push(r);
    }
    // As in the turn workflow: the tool results enter the transcript at the end of their turn, by reference.
    let head = model ? model.head : state.head;
    if (outcome.toolResults && model) {
      const results = outcome.toolResults;
      const from = head;
      head = await storeCall(() => deps.activities.appendTranscript({ head: from, messages: [results] }));
    }
    const text = model
      ? model.message.content
          .filter((b) => b.type === 'text')
          .map((b) => (b as { text: string }).text)
          .join('\n')
      : '';
    if (text.trim() !== '') finalText = text;
    return {
      reason: outcome.reason,
      consumedAppend: model !== undefined,
      head,
      context: outcome.context,
      ...(outcome.usage ? { usage: outcome.usage } : {}),
      records: outcome.records,
      text: oneLinePreview(text, 2000),
      ...(step ? { view: step.view, compactions: step.compactions } : {}),
      ...(step?.compactionUsage ? { compactionUsage: step.compactionUsage } : {}),
    };
  }

  const executor: SessionExecutor = {
    runTurn,
    takeInterrupt() {
      const was = interruptRequested;
      interruptRequested = false;
      return was;
    },
    waitForMessage: (timeoutMs) =>
      new Promise<boolean>((resolve) => {
        if (state.pendingMessages.length > 0) return resolve(true);
        const timer = setTimeout(() => {
          wakeWaiter = undefined;
          resolve(false);
        }, timeoutMs);
        wakeWaiter = () => {
          clearTimeout(timer);
          wakeWaiter = undefined;
          resolve(true);
        };
      }),
    onStatus(s, p) {
      status = s;
      phase = p;
    },
    hasHooks: (event) => {
      const list = (input.hooks as Record<string, unknown[] | undefined> | undefined)?.[event];
      return Array.isArray(list) && list.length > 0;
    },
    runHooks: async (event, fields, head) => {
      try {
        const r = await deps.runSessionHooks({
          event,
          sessionId,
          cwd: state.context.cwd,
          permissionMode: input.permissionMode,
          head,
          hooks: input.hooks,
          fields,
          ...(session.agentHookFields ? { agentHookFields: session.agentHookFields } : {}),
        });
        return r.runs;
      } catch (err) {
        return hookFailureRuns(event, err);
      }
    },
  };

  const result = (async (): Promise<LocalSessionResult> => {
    let end: { status: SessionStatusName; endReason: string };
    try {
      const outcome = await runSession(state, sessionConfig(input, !!input.parent), executor);
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
    // Notification hooks still running (an approval was answered before they finished) end first.
    await Promise.allSettled([...notifications]);
    // The runner's MCP connections end with the session (unless the caller passed its own manager).
    if (!worker.mcp) await deps.closeMcp().catch(() => undefined);
    status = end.status;
    phase = 'ended';
    endReason = end.endReason;
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
      finalText,
      sessionId,
      records: allRecords,
      turnsDetail,
      context: state.context,
      compactions: state.compactions ?? [],
    };
  })();

  return {
    sessionId,
    result,
    send(text: string) {
      if (typeof text !== 'string' || text.trim() === '') return;
      state.pendingMessages.push(text);
      wakeWaiter?.();
    },
    interrupt() {
      interruptRequested = true;
      turnAbort?.abort();
    },
    status: () => ({
      sessionId,
      status,
      phase: pendingApprovals.size > 0 ? 'awaiting_approval' : phase,
      turn: state.turn,
      pendingApprovals: [...pendingApprovals.values()],
      usage: state.usage,
      head: state.head,
      lastText: state.lastText,
      ...(outage ? { outage } : {}),
      ...(endReason ? { endReason } : {}),
      ...(state.controlWrites?.length ? { controlWrites: state.controlWrites } : {}),
    }),
  };
}

/**
 * Runs a session to its end. `signal` interrupts the running turn; since nothing can send a
 * follow-up here, an interrupted session ends unless `onInterrupt: 'wait'` is given (use
 * startLocalSession to send follow-ups).
 */
export async function runLocalSession(opts: LocalSessionOptions, worker: WorkerDeps = {}): Promise<LocalSessionResult> {
  const s = startLocalSession({ ...opts, onInterrupt: opts.onInterrupt ?? 'end' }, worker);
  if (opts.signal) {
    if (opts.signal.aborted) s.interrupt();
    else opts.signal.addEventListener('abort', () => s.interrupt(), { once: true });
  }
  return s.result;
}
