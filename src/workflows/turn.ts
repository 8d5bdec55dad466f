// One turn of a session, as a child workflow `<session-id>/turn-<n>`: the model call and every
// tool call are activities; batching, ordering and protocol completeness come from the engine.
import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  TimeoutFailure,
  condition,
  getExternalWorkflowHandle,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { AgentContext } from '../engine/context';
import type { ToolUseBlock } from '../engine/messages';
import { interruptedRecord, syntheticRecord, type ToolCallRecord } from '../engine/records';
import { executeTurn, type Approval, type ModelCallResult, type ToolRunResult, type ToolUseDescription, type TurnExecutor } from '../engine/turn';
import type { createModelActivities, CallModelResult } from '../activities/model';
import type { createToolActivities, ToolSessionSettings } from '../activities/tools';
import {
  approvalPendingSignal,
  approvalResolvedSignal,
  previewOf,
  turnApprovalSignal,
  turnInterruptSignal,
  turnProgressQuery,
  type CompactRecord,
  type PendingApproval,
  type TurnWorkflowInput,
  type TurnWorkflowResult,
} from './definitions';

type ModelActivities = ReturnType<typeof createModelActivities>;
type ToolActivities = ReturnType<typeof createToolActivities>;

const model = proxyActivities<ModelActivities>({
  startToCloseTimeout: '10 minutes',
  // Heartbeats come with every streamed event and every 5 s while waiting: 20 s without one
  // means the worker is gone, and the call is retried elsewhere.
  heartbeatTimeout: '20 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '60 seconds', maximumAttempts: 8 },
  cancellationType: 'WAIT_CANCELLATION_COMPLETED',
});

const store = proxyActivities<ModelActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumAttempts: 10 },
});

const contextStore = proxyActivities<ToolActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumAttempts: 10 },
});

const local = proxyLocalActivities<ToolActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 3 },
});

export function compact(record: ToolCallRecord): CompactRecord {
  const content = typeof record.result.content === 'string' ? record.result.content : record.result.content.map((c) => c.text).join('');
  return {
    toolUseId: record.toolUseId,
    toolName: record.toolName,
    summary: record.summary,
    status: record.status,
    ...(record.decision ? { decision: record.decision } : {}),
    preview: previewOf(content),
    ...(record.reused ? { reused: true } : {}),
    ...(record.stop ? { stop: record.stop } : {}),
  };
}

export async function turnWorkflow(input: TurnWorkflowInput): Promise<TurnWorkflowResult> {
  const info = workflowInfo();
  const parentId = info.parent?.workflowId;
  const parent = parentId ? getExternalWorkflowHandle(parentId) : undefined;
  const tools = proxyActivities<ToolActivities>({
    startToCloseTimeout: '15 minutes',
    heartbeatTimeout: input.toolHeartbeatTimeoutMs ?? 30_000,
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
    cancellationType: 'WAIT_CANCELLATION_COMPLETED',
    ...(input.toolTaskQueue ? { taskQueue: input.toolTaskQueue } : {}),
  });

  let interrupted = false;
  let phase = 'model';
  const scope = new CancellationScope();
  const decisions = new Map<string, Approval>();
  const pending = new Map<string, PendingApproval>();
  const running = new Map<string, string>();
  const done: CompactRecord[] = [];

  setHandler(turnInterruptSignal, () => {
    if (interrupted) return;
    interrupted = true;
    scope.cancel();
  });
  setHandler(turnApprovalSignal, (d) => {
    if (!decisions.has(d.toolUseId)) {
      decisions.set(d.toolUseId, { decision: d.decision, source: 'human', ...(d.by ? { by: d.by } : {}), ...(d.reason ? { reason: d.reason } : {}) });
    }
  });
  setHandler(turnProgressQuery, () => ({
    phase,
    running: [...running].map(([toolUseId, summary]) => ({ toolUseId, summary })),
    done: [...done],
    pendingApprovals: [...pending.values()],
  }));

  const session: ToolSessionSettings = {
    sessionId: input.sessionId,
    toolNames: input.tools,
    permission: {
      mode: input.permissionMode,
      rules: input.rules,
      workingDirectories: [input.context.cwd, ...input.context.additionalDirectories],
    },
    ...(input.hooks ? { hooks: input.hooks as ToolSessionSettings['hooks'] } : {}),
  };

  let modelResult: CallModelResult | undefined;
  let modelError: string | undefined;
  const isStopped = (): boolean => interrupted;

  const executor: TurnExecutor = {
    async callModel(): Promise<ModelCallResult> {
      try {
        modelResult = await scope.run(() =>
          model.callModel.executeWithOptions(
            { activityId: `model-${input.turn}`, summary: `Model call (turn ${input.turn}, ${input.model.model})` },
            [{ sessionId: input.sessionId, turn: input.turn, head: input.head, append: input.append, settings: input.model, toolNames: input.tools, denyRules: input.rules.deny }],
          ),
        );
      } catch (err) {
        if (interrupted || isCancellation(err)) {
          interrupted = true;
          return { kind: 'interrupted' };
        }
        modelError = err instanceof ActivityFailure && err.cause ? err.cause.message : err instanceof Error ? err.message : String(err);
        throw ApplicationFailure.nonRetryable(`model call failed: ${modelError}`, 'ModelCallFailed');
      }
      phase = 'tools';
      return { kind: 'message', message: modelResult.message, usage: modelResult.usage, stopReason: modelResult.stopReason };
    },
    async describe(blocks: readonly ToolUseBlock[], context: AgentContext): Promise<ToolUseDescription[]> {
      // Blocks carry previews of large inputs: the activity reads them whole from the model's node.
      return local.describeToolUses({ session, blocks: [...blocks], messageRef: modelResult?.head ?? null, context });
    },
    async runTool(block: ToolUseBlock, context: AgentContext, description: ToolUseDescription, approval?: Approval): Promise<ToolRunResult> {
      running.set(block.id, description.summary);
      try {
        const result = await scope.run(() =>
          tools.runToolUse.executeWithOptions(
            { activityId: approval ? `tool-${block.id}-${approval.decision}` : `tool-${block.id}`, summary: description.summary },
            [{ session, block, messageRef: modelResult?.head ?? null, context, ...(input.readFilesRef ? { readFilesRef: input.readFilesRef } : {}), ...(approval ? { approval } : {}) }],
          ),
        );
        if (result.kind === 'done') done.push(compact(result.record));
        return result;
      } catch (err) {
        if (interrupted || isCancellation(err)) {
          interrupted = true;
          const record = interruptedRecord(block, true, description.summary);
          done.push(compact(record));
          return { kind: 'done', record };
        }
        // Attempts exhausted. A timed-out, non-idempotent call may have had its effect: say so.
        const timedOut = err instanceof ActivityFailure && err.cause instanceof TimeoutFailure;
        const cause = err instanceof ActivityFailure && err.cause ? err.cause.message : err instanceof Error ? err.message : String(err);
        const record = timedOut && !description.idempotent
          ? syntheticRecord(block, 'unknown_outcome', `The outcome of this ${block.name} call is unknown: it timed out (${cause}) and was not re-run because it is not idempotent. The call was: ${description.summary}.`, description.summary)
          : syntheticRecord(block, 'error', `Error calling tool ${block.name}: ${cause}`, description.summary);
        done.push(compact(record));
        return { kind: 'done', record };
      } finally {
        running.delete(block.id);
      }
    },
    async awaitApproval(block, ask, description): Promise<Approval | 'interrupted'> {
      const since = Date.now();
      const entry: PendingApproval = { turn: input.turn, toolUseId: block.id, toolName: block.name, summary: description.summary, message: ask.message, since };
      pending.set(block.id, entry);
      phase = 'awaiting_approval';
      if (parent) await parent.signal(approvalPendingSignal, entry);
      const decided = await condition(() => decisions.has(block.id) || interrupted, input.approvalTimeoutMs);
      pending.delete(block.id);
      phase = 'tools';
      if (parent && (!decided || interrupted)) {
        await CancellationScope.nonCancellable(() => parent.signal(approvalResolvedSignal, { toolUseId: block.id }));
      }
      if (interrupted && !decisions.has(block.id)) return 'interrupted';
      return (
        decisions.get(block.id) ?? {
          decision: 'deny',
          source: 'timeout',
          afterMs: input.approvalTimeoutMs,
          reason: `No approval arrived within ${Math.round(input.approvalTimeoutMs / 1000)} s; denied by default for unattended runs.`,
        }
      );
    },
    isInterrupted: isStopped,
  };

  const outcome = await executeTurn({ context: input.context, ledger: new Map(), maxConcurrency: input.maxConcurrency }, executor);
  phase = 'finishing';
  // The tool results always enter the transcript, even when interrupted (invariant 1).
  const sent = modelResult?.head ?? input.head;
  const toolResults = modelResult ? outcome.toolResults : undefined;
  // The read-file state stays out of payloads too: store this turn's entries, carry a reference.
  const delta = outcome.context.readFiles;
  const base = input.readFilesRef ?? null;
  const [head, readFilesRef] = await CancellationScope.nonCancellable(() =>
    Promise.all([
      toolResults
        ? store.appendTranscript.executeWithOptions({ activityId: `append-${input.turn}`, summary: `Record ${outcome.records.length} tool result(s)` }, [{ head: sent, messages: [toolResults] }])
        : sent,
      Object.keys(delta).length > 0
        ? contextStore.storeReadFiles.executeWithOptions({ activityId: `read-files-${input.turn}`, summary: `Record ${Object.keys(delta).length} read file(s)` }, [{ base, delta }])
        : base,
    ]),
  );
  const text = modelResult ? modelResult.message.content.filter((b) => b.type === 'text').map((b) => (b as { text: string }).text).join('\n') : '';
  return {
    turn: input.turn,
    reason: outcome.reason,
    records: outcome.records.map(compact),
    batches: outcome.batches,
    ...(outcome.usage ? { usage: outcome.usage } : {}),
    fallback: modelResult?.fallback ?? false,
    text: previewOf(text, 2000),
    head,
    consumedAppend: modelResult !== undefined,
    context: { ...outcome.context, readFiles: {} },
    ...(readFilesRef ? { readFilesRef } : {}),
    ...(outcome.stopReason ? { stopReason: outcome.stopReason } : {}),
  };
}
