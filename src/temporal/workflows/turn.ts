// One turn of a session, as a child workflow `<session-id>/turn-<n>`: the model call and every
// tool call are activities; batching, ordering and protocol completeness come from the engine.
// Since issue 33 (an input with `steps`) the child runs model step after model step — turns n,
// n+1, … of the session — until it must return to the session (core/turnSteps.ts decides; the
// session signals turnYield when a message waits); each step is the sequence below.
// A step's sequence:
//   1. the turn's state and handlers (interrupt, approval decisions, progress, streamed blocks): `TurnRun`;
//   2. `executeTurn`: the model call (outages waited out, context managed), then the tool calls in
//      batches (safe ones started while the answer streams), approvals asked of the session;
//   3. the end-of-turn writes (tool results into the transcript, read files), never interrupted;
//   4. the result: compact records, the new head, the context (read files by reference).
import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  condition,
  getExternalWorkflowHandle,
  isCancellation,
  patched,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  sleep,
  workflowInfo,
  type ActivityInterfaceFor,
  type ExternalWorkflowHandle,
} from '@temporalio/workflow';
import type { ErrorCode } from '../../core/errors';
import type { AgentContext } from '../../core/context';
import type { ToolUseBlock } from '../../core/apiMessages';
import { interruptedRecord, type ToolCallRecord } from '../../core/toolRecords';
import { describeOutage, retryPolicy, type OutageState, type RetryPolicy } from '../../core/retry';
import { waitOutStoreOutage } from '../../core/schedulerShared';
import {
  executeTurn,
  type Approval,
  type ModelCallResult,
  type ToolRunResult,
  type ToolUseDescription,
  type TurnExecutor,
} from '../../core/turn';
import type { CallModelInput, CallModelResult } from '../../runtime/model';
import { StepStaticsMemo } from '../../core/stepStatics';
import type { ContextView } from '../../core/contextView';
import { modelAnswerFromHistory, turnResultForHistory, viewForHistory, withSentBlock } from '../../core/payloads';
import type { SubagentPhaseActivities, AgentWorktreeActivities, ToolCallActivities } from '../activities';
import { StreamingToolExecution, streamedItems, type StreamedToolUse } from '../../core/streaming';
import { managedModelStep, newModelStepState, type ManagedModelStep } from './modelStep';
import { toolSession } from './toolSettings';
import { modelCallPlacement } from './modelQueue';
import type { ToolSessionInput } from '../../toolCall/toolTypes';
import { isAgentTool } from '../../core/subagents';
import { activityIds } from '../../core/ids';
import { runSubagentCall } from './subagent';
import {
  MAX_TOKENS_CUT_OFF_PATCH,
  CONTEXT_WINDOW_CUT_OFF_PATCH,
  TURN_STEP_WRITES_PATCH,
  outageSignal,
  streamedToolUseSignal,
  turnApprovalSignal,
  turnInterruptSignal,
  turnProgressQuery,
  type CompactRecord,
  type PendingApproval,
  type TurnWorkflowInput,
  type TurnWorkflowResult,
} from './definitions';
import {
  compact,
  endWrites,
  failedCallRecord,
  recordTurnEnd,
  settleCarry,
  stepCarry,
  transientFailureOf,
  turnResult,
} from './turnEnd';
import { runSteps, type RunStep } from './turnSteps';
import {
  awaitApprovalIn,
  compaction,
  describedByModel,
  describeWith,
  descriptions,
  model,
  subagentWait,
  toolActivityOptions,
} from './turnCalls';

export async function turnWorkflow(input: TurnWorkflowInput): Promise<TurnWorkflowResult> {
  // The child's static step inputs, stored by its first model call and then sent by key (issue 33).
  const statics = new StepStaticsMemo();
  // A turn recorded before issue 33 (no `steps`): one model step, the same commands.
  if (!input.steps) return turnResultForHistory(await runTurnStep(statics, input));
  const step: RunStep = (...args) => runTurnStep(statics, ...args);
  const result = await runSteps(input, input.steps, step, (done) => {
    const run = new TurnRun(input, statics);
    return settleCarry(done, (call) => run.storeCall(call));
  });
  // Without the records its batches say (issue 33): the session and the audit put them back.
  return turnResultForHistory(result);
}

/**
 * One model step: the model call, its tool calls in batches, the end-of-step writes (a turn before
 * issue 33). A step that another step of the child follows (`continues`, TURN_STEP_WRITES_PATCH)
 * leaves its writes to the next step's model call: its result's `carry`.
 */
async function runTurnStep(
  statics: StepStaticsMemo,
  input: TurnWorkflowInput,
  onRun?: (run: TurnRun) => void,
  earlier: ReadonlyArray<{ turn: number; done: CompactRecord[] }> = [],
  continues?: (step: TurnWorkflowResult) => boolean,
): Promise<TurnWorkflowResult> {
  const turn = new TurnRun(input, statics);
  turn.register(earlier);
  onRun?.(turn);
  const outcome = await executeTurn(
    {
      context: input.context,
      priorRecords: new Map(),
      maxConcurrency: input.maxConcurrency,
      retry: turn.policy,
      ...(turn.streaming ? { streaming: turn.streaming } : {}),
    },
    turn,
  );
  if (outcome.reason === 'failed')
    throw ApplicationFailure.nonRetryable(
      `model call failed: ${outcome.error ?? 'unavailable'}`,
      'MODEL_UNAVAILABLE' satisfies ErrorCode,
    );
  turn.phase = 'finishing';
  if (continues && turn.modelResult) {
    const w = endWrites(input, outcome, turn.modelResult);
    const step = turnResult(input, outcome, turn.modelResult, turn.modelStep, w.sent, w.base);
    if (continues(step) && patched(TURN_STEP_WRITES_PATCH)) return { ...step, carry: stepCarry(w) };
  }
  const [head, readFilesRef] = await recordTurnEnd(input, outcome, turn.modelResult, (call) => turn.storeCall(call));
  return turnResult(input, outcome, turn.modelResult, turn.modelStep, head, readFilesRef);
}

/**
 * One turn: its state as the signal and query handlers see it (the shape of Temporal's
 * safe-message-handlers sample), the handlers as methods, and the engine's executor.
 */
class TurnRun implements TurnExecutor {
  interrupted = false;
  phase = 'model';
  readonly decisions = new Map<string, Approval>();
  readonly pending = new Map<string, PendingApproval>();
  readonly running = new Map<string, string>();
  readonly done: CompactRecord[] = [];
  modelResult: CallModelResult | undefined;
  modelStep: ManagedModelStep | undefined;
  /**
   * The read-file state the step's tool calls read: the input's, or — when the model call wrote the
   * previous step's entries (`carry`) — the one it stored, from its streamed signal or its answer.
   */
  readFilesRef: string | null | undefined;
  private readonly stepState = newModelStepState();
  /** The turn's scope: an interrupt cancels it (the model call and every tool call run in it). */
  readonly scope: CancellationScope;
  readonly policy: RetryPolicy;
  readonly streaming: StreamingToolExecution | undefined;
  private readonly parent: ExternalWorkflowHandle | undefined;
  private readonly session: ToolSessionInput;
  private readonly tools: ActivityInterfaceFor<ToolCallActivities>;
  /** Agent calls: two pipeline activities around a child session workflow (only when the session offers Agent). */
  private readonly subagents: ActivityInterfaceFor<SubagentPhaseActivities>;
  /** An isolated agent's worktree (`isolation: "worktree"`), on the tool worker. */
  private readonly agentWorktrees: ActivityInterfaceFor<AgentWorktreeActivities>;

  constructor(
    private readonly input: TurnWorkflowInput,
    private readonly statics: StepStaticsMemo,
  ) {
    this.readFilesRef = input.readFilesRef;
    const parentId = workflowInfo().parent?.workflowId;
    this.parent = parentId ? getExternalWorkflowHandle(parentId) : undefined;
    this.tools = proxyActivities<ToolCallActivities>(toolActivityOptions(input));
    this.scope = new CancellationScope();
    this.session = toolSession(input);
    this.subagents = proxyActivities<SubagentPhaseActivities>(toolActivityOptions(input));
    this.agentWorktrees = proxyActivities<AgentWorktreeActivities>(toolActivityOptions(input));
    this.policy = retryPolicy(input.retry ?? {});
    this.streaming = input.streamingToolExecution === false ? undefined : this.streamingExecution();
  }

  register(earlier: ReadonlyArray<{ turn: number; done: CompactRecord[] }> = []): void {
    setHandler(turnInterruptSignal, () => {
      if (this.interrupted) return;
      this.interrupted = true;
      this.scope.cancel();
    });
    setHandler(turnApprovalSignal, (d) => {
      if (!this.decisions.has(d.toolUseId)) {
        this.decisions.set(d.toolUseId, {
          decision: d.decision,
          source: 'human',
          ...(d.by ? { by: d.by } : {}),
          ...(d.reason ? { reason: d.reason } : {}),
        });
      }
    });
    setHandler(turnProgressQuery, () => ({
      phase: this.phase,
      running: [...this.running].map(([toolUseId, summary]) => ({ toolUseId, summary })),
      done: [...this.done],
      pendingApprovals: [...this.pending.values()],
      ...(earlier.length > 0 ? { turn: this.input.turn, steps: [...earlier] } : {}),
    }));
    const streaming = this.streaming;
    if (streaming)
      setHandler(streamedToolUseSignal, (s) => {
        if ('readFilesRef' in s && s.readFilesRef !== undefined) this.readFilesRef = s.readFilesRef;
        if ('staticsRef' in s) this.statics.learn(s.staticsRef);
        streamedItems(s).forEach((item) => streaming.add(item));
      });
  }

  /**
   * Streaming tool execution: the model activity signals each completed tool_use block; a safe
   * one starts here at once (core/streaming.ts decides which), in its own cancellation scope.
   */
  private streamingExecution(): StreamingToolExecution {
    const { input, session } = this;
    return new StreamingToolExecution(
      { context: input.context, maxConcurrency: input.maxConcurrency },
      {
        describeStreamed: (items: readonly StreamedToolUse[], context: AgentContext) =>
          descriptions.describeToolUses({
            session,
            blocks: items.map((i) => i.block),
            messageRefs: items.map((i) => i.messageRef),
            messageRef: null,
            context,
          }),
        startStreamed: (item, context, description) => {
          // A subagent starts a child session: it waits for the complete message.
          if (input.subagents && isAgentTool(item.block.name)) return undefined;
          const own = new CancellationScope({ cancellable: true, parent: this.scope });
          return {
            result: this.runToolIn(own, item.block, item.messageRef, context, description),
            cancel: () => own.cancel(),
          };
        },
        isInterrupted: () => this.interrupted,
      },
    );
  }

  /** Shows an outage in this turn (UI details) and to the session (status, ls, live view). */
  onOutage(o: OutageState | undefined): void {
    setCurrentDetails(o ? describeOutage(o, Date.now()) : '');
    const parent = this.parent;
    if (parent)
      void CancellationScope.nonCancellable(() => parent.signal(outageSignal, o ?? null)).catch(() => undefined);
  }

  /** A store activity that waits out outages like the model does (not interruptible: it records what happened). */
  storeCall<T>(call: (attempt: number) => Promise<T>): Promise<T> {
    return waitOutStoreOutage(call, {
      policy: this.policy,
      now: () => Date.now(),
      sleep: (ms) => sleep(ms),
      classify: (err) => transientFailureOf(err, 'store'),
      onOutage: (o) => this.onOutage(o),
      giveUp: (reason) => ApplicationFailure.nonRetryable(reason, 'STORE_UNAVAILABLE' satisfies ErrorCode),
    });
  }

  /**
   * One call through the pipeline activity (or, for Agent, the subagent's activities and child),
   * inside `runScope`: the turn's scope, or an early call's own scope (a child of it) so that a
   * discarded early call can be cancelled alone. Every failure becomes a record.
   */
  private async runToolIn(
    runScope: CancellationScope,
    block: ToolUseBlock,
    messageRef: string | null,
    context: AgentContext,
    description: ToolUseDescription,
    approval?: Approval,
  ): Promise<ToolRunResult> {
    const input = this.input;
    this.running.set(block.id, description.summary);
    try {
      if (input.subagents && isAgentTool(block.name)) {
        const activities = {
          prepareSubagent: this.subagents.prepareSubagent,
          finishSubagent: this.subagents.finishSubagent,
          awaitSubagent: subagentWait.awaitSubagent,
          prepareAgentWorktree: this.agentWorktrees.prepareAgentWorktree,
          settleAgentWorktree: this.agentWorktrees.settleAgentWorktree,
        };
        const stepInput = { ...input, readFilesRef: this.readFilesRef };
        const call = { input: stepInput, session: this.session, messageRef, scope: runScope, activities };
        return await runSubagentCall(call, block, context, description, approval);
      }
      const options = { activityId: activityIds.tool(block.id, approval?.decision), summary: description.summary };
      const extras = toolCallExtras(this.readFilesRef, input, approval);
      // The session and context by the key of the child's stored step inputs when they are its (issue 33).
      const stepRef = this.statics.toolRef(this.session, context);
      const args = stepRef
        ? toolCallByRef(stepRef, block, messageRef, this.readFilesRef, this.modelResult, extras)
        : { session: this.session, block, messageRef, context, ...extras };
      const r = await runScope.run(() => this.tools.runToolUse.executeWithOptions(options, [args]));
      return r.kind === 'done'
        ? { ...r, record: withSentBlock(r.record, block, description.summary, input.permissionMode) }
        : r;
    } catch (err) {
      if (this.interrupted || isCancellation(err)) {
        // A cancelled early call that was discarded is not an interrupt of the turn.
        if (runScope === this.scope || this.interrupted) this.interrupted = true;
        return { kind: 'done', record: interruptedRecord(block, true, description.summary) };
      }
      return { kind: 'done', record: failedCallRecord(err, block, description) };
    } finally {
      this.running.delete(block.id);
    }
  }

  // --- The engine's executor (TurnExecutor) ---

  now(): number {
    return Date.now();
  }

  async sleep(ms: number): Promise<'interrupted' | 'done'> {
    return (await condition(() => this.interrupted, ms)) ? 'interrupted' : 'done';
  }

  async callModel(attempt: number): Promise<ModelCallResult> {
    let result: CallModelResult;
    try {
      // Context management (clearing, auto/reactive compaction) is the engine's model step;
      // its state survives this turn's outage retries (a compaction is not redone).
      const [scope, at] = [this.scope, modelCallPlacement(this.input)]; // `at`: the session's model queue, if any
      this.modelStep = await managedModelStep(
        this.input,
        {
          callModel: async (args, activityId, summary) => {
            const lean = leanModelInput({ ...args, ...describeWith(this.session, this.input.context) });
            const stepWrites = this.statics.readFiles.wire(lean.stepWrites);
            const wire = this.statics.modelInput({ ...lean, ...(stepWrites ? { stepWrites } : {}) });
            const r = await scope.run(() =>
              model.callModel.executeWithOptions(
                { ...at, activityId, summary: `${summary}${attempt > 1 ? `, attempt ${attempt}` : ''}` },
                [wire as CallModelInput],
              ),
            );
            if (r.kind === 'compact') return r;
            this.statics.learn(r.staticsRef);
            this.statics.readFiles.learn(lean.stepWrites, r.readFilesRef);
            return modelAnswerFromHistory(r);
          },
          compact: (args, activityId, summary) =>
            scope.run(() => compaction.compactContext.executeWithOptions({ ...at, activityId, summary }, [args])),
        },
        this.stepState,
        attempt,
      );
      if (this.modelStep.kind === 'interrupted') {
        this.interrupted = true;
        return { kind: 'interrupted' };
      }
      result = this.modelResult = this.modelStep.result;
      if (result.readFilesRef !== undefined) this.readFilesRef = result.readFilesRef;
    } catch (err) {
      if (this.interrupted || isCancellation(err)) {
        this.interrupted = true;
        return { kind: 'interrupted' };
      }
      const failure = transientFailureOf(err, 'model');
      if (failure) return { kind: 'unavailable', failure };
      const cause =
        err instanceof ActivityFailure && err.cause
          ? err.cause.message
          : err instanceof Error
            ? err.message
            : String(err);
      throw ApplicationFailure.nonRetryable(`model call failed: ${cause}`, 'MODEL_FAILED' satisfies ErrorCode);
    }
    this.phase = 'tools';
    return {
      kind: 'message',
      message: result.message,
      usage: result.usage,
      stopReason: result.stopReason,
      ...(result.stopDetails ? { stopDetails: result.stopDetails } : {}),
    };
  }

  async describe(blocks: readonly ToolUseBlock[], context: AgentContext): Promise<ToolUseDescription[]> {
    const byModel = context === this.input.context ? describedByModel(this.modelResult, blocks) : undefined;
    if (byModel) return byModel;
    // Blocks carry previews of large inputs: the activity reads them whole from the model's node.
    return descriptions.describeToolUses({
      session: this.session,
      blocks: [...blocks],
      messageRef: this.modelResult?.head ?? null,
      context,
    });
  }

  async runTool(
    block: ToolUseBlock,
    context: AgentContext,
    description: ToolUseDescription,
    approval?: Approval,
  ): Promise<ToolRunResult> {
    const messageRef = this.modelResult?.head ?? null;
    const result = await this.runToolIn(this.scope, block, messageRef, context, description, approval);
    if (result.kind === 'done') this.done.push(compact(result.record));
    return result;
  }

  onRecord(record: ToolCallRecord): void {
    // Calls started while streaming show as done once the tool phase takes them over (a discarded one never does).
    if (record.early) this.done.push(compact(record));
  }

  awaitApproval(
    block: ToolUseBlock,
    ask: { message: string },
    description: ToolUseDescription,
  ): Promise<Approval | 'interrupted'> {
    return awaitApprovalIn(this, this.input, this.parent, block, ask, description);
  }

  isInterrupted(): boolean {
    return this.interrupted;
  }

  skipCutOffToolUse(stopReason: string): boolean {
    if (stopReason === 'max_tokens') return patched(MAX_TOKENS_CUT_OFF_PATCH);
    // Its own id: a turn recorded before the context-window check ran that call.
    return patched(CONTEXT_WINDOW_CUT_OFF_PATCH);
  }
}

/** A model call's input without the view's start values and an empty append (issue 33; the activity puts them back). */
function leanModelInput<T extends { append: unknown[]; view?: ContextView }>(input: T) {
  const { append, ...whole } = input;
  return {
    ...whole,
    ...(append.length > 0 ? { append } : {}),
    ...(whole.view ? { view: viewForHistory(whole.view) } : {}),
  };
}

/**
 * A tool call whose session and context are the child's stored statics (`stepRef`), with its block by
 * its id in the stored message: history holds the block once, in the answer or the signal (issue 33).
 * A call of the model's answer sends the answer's key, which names its node and read files too.
 */
function toolCallByRef(
  stepRef: string,
  block: ToolUseBlock,
  messageRef: string | null,
  readFilesRef: string | null | undefined,
  answer: CallModelResult | undefined,
  extras: ReturnType<typeof toolCallExtras>,
) {
  const answerRef =
    messageRef === answer?.head && (readFilesRef ?? null) === (answer.readFilesRef ?? null)
      ? answer.stepRef
      : undefined;
  const { readFilesRef: _inAnswer, ...answerExtras } = extras;
  if (answerRef) return { stepRef: answerRef, toolUseId: block.id, ...answerExtras };
  return { stepRef, ...(messageRef ? { toolUseId: block.id, messageRef } : { block, messageRef }), ...extras };
}

/** A tool call's optional input: the read-files reference, the approval, and a child's budget link (its side calls charged as made). */
function toolCallExtras(
  readFilesRef: string | null | undefined,
  input: TurnWorkflowInput,
  approval: Approval | undefined,
) {
  return {
    ...(readFilesRef ? { readFilesRef } : {}),
    ...(approval ? { approval } : {}),
    ...(input.budget?.chargeTo ? { budget: input.budget } : {}),
  };
}
