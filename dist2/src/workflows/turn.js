"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.transientFailureOf = transientFailureOf;
exports.compact = compact;
exports.turnWorkflow = turnWorkflow;
// One turn of a session, as a child workflow `<session-id>/turn-<n>`: the model call and every
// tool call are activities; batching, ordering and protocol completeness come from the engine.
// The workflow's sequence:
//   1. the turn's state and handlers (interrupt, approval decisions, progress, streamed blocks): `TurnRun`;
//   2. `executeTurn`: the model call (outages waited out, context managed), then the tool calls in
//      batches (safe ones started while the answer streams), approvals asked of the session;
//   3. the end-of-turn writes (tool results into the transcript, read files), never interrupted;
//   4. the result: compact records, the new head, the context (read files by reference).
const workflow_1 = require("@temporalio/workflow");
const messages_1 = require("../engine/messages");
const records_1 = require("../engine/records");
const retry_1 = require("../engine/retry");
const schedulerGlue_1 = require("../engine/schedulerGlue");
const turn_1 = require("../engine/turn");
const streaming_1 = require("../engine/streaming");
const modelStep_1 = require("./modelStep");
const toolSettings_1 = require("./toolSettings");
const subagents_1 = require("../engine/subagents");
const ids_1 = require("../engine/ids");
const subagent_1 = require("./subagent");
const definitions_1 = require("./definitions");
// One attempt per model activity: the turn itself waits out outages (engine/retry.ts), so that the
// waiting is visible (status, ls, UI details) and bounded only by the session's own limits.
const model = (0, workflow_1.proxyActivities)({
    // A long answer (a large max_tokens) may stream for many minutes; heartbeats detect a lost worker.
    startToCloseTimeout: '60 minutes',
    // Heartbeats come with every streamed event and every 5 s while waiting: 20 s without one
    // means the worker is gone, and the call is tried again (elsewhere) after a backoff.
    heartbeatTimeout: '20 seconds',
    retry: { maximumAttempts: 1 },
    cancellationType: 'WAIT_CANCELLATION_COMPLETED',
});
// A compaction is a model call too: one attempt, heartbeats, waited out by the model step.
const compaction = (0, workflow_1.proxyActivities)({
    startToCloseTimeout: '60 minutes',
    heartbeatTimeout: '20 seconds',
    retry: { maximumAttempts: 1 },
    cancellationType: 'WAIT_CANCELLATION_COMPLETED',
});
// Store activities (transcript, read files) retry a few times quickly on the server; past that
// the turn waits visibly too.
const store = (0, workflow_1.proxyActivities)({
    startToCloseTimeout: '1 minute',
    retry: { initialInterval: '1 second', maximumAttempts: 3 },
});
// The same writes as local activities (LOCAL_TURN_STORES_PATCH): content-addressed and
// idempotent, so running them again (a replay elsewhere) is right. One local attempt: a failure
// falls back to the activities above, whose retries and outage waiting are visible.
const localStore = (0, workflow_1.proxyLocalActivities)({
    startToCloseTimeout: '1 minute',
    retry: { maximumAttempts: 1 },
});
/** A retryable activity failure as the outage handling reads it; undefined when it is permanent. */
function transientFailureOf(err, what) {
    if (!(err instanceof workflow_1.ActivityFailure))
        return undefined;
    const cause = err.cause;
    if (cause instanceof workflow_1.TimeoutFailure)
        return {
            kind: 'timeout',
            message: `${what} activity timed out (${cause.timeoutType ?? 'timeout'}): the worker may be gone`,
        };
    if (cause instanceof workflow_1.ApplicationFailure)
        return cause.nonRetryable ? undefined : (0, schedulerGlue_1.transientFailureFromDetails)(what, cause.message, cause.details);
    return { kind: what === 'store' ? 'store' : 'other', message: cause?.message ?? err.message };
}
// Concurrency safety and summaries need tool code: a local activity, no history of its own.
const descriptions = (0, workflow_1.proxyLocalActivities)({
    startToCloseTimeout: '30 seconds',
    retry: { maximumAttempts: 3 },
});
/** Tool calls and the Agent tool's pipeline phases: retried on the server, heartbeats, the session's tool task queue. */
function toolActivityOptions(input) {
    return {
        startToCloseTimeout: '15 minutes',
        heartbeatTimeout: input.toolHeartbeatTimeoutMs ?? 30_000,
        retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
        cancellationType: 'WAIT_CANCELLATION_COMPLETED',
        ...(input.toolTaskQueue ? { taskQueue: input.toolTaskQueue } : {}),
    };
}
const subagentWait = (0, workflow_1.proxyActivities)({
    // A subagent may run for hours: heartbeats, not the start-to-close timeout, detect a lost worker.
    startToCloseTimeout: '7 days',
    heartbeatTimeout: '30 seconds',
    cancellationType: 'WAIT_CANCELLATION_COMPLETED',
});
function compact(record) {
    const content = (0, messages_1.toolResultText)(record.result);
    return {
        toolUseId: record.toolUseId,
        toolName: record.toolName,
        summary: record.summary,
        status: record.status,
        ...(record.decision ? { decision: record.decision } : {}),
        preview: (0, definitions_1.oneLinePreview)(content),
        ...(record.reused ? { reused: true } : {}),
        ...(record.early ? { early: true } : {}),
        ...(record.stop ? { stop: record.stop } : {}),
        ...(record.notices?.length ? { notices: record.notices } : {}),
        ...(record.controlWrites?.length ? { controlWrites: record.controlWrites } : {}),
    };
}
/**
 * The end of a turn: its tool results into the transcript (always, even when interrupted:
 * invariant 1) and its read-file entries into the store; both by reference, written at once.
 */
async function recordTurnEnd(input, outcome, modelResult, storeCall) {
    // The tool results always enter the transcript, even when interrupted (invariant 1).
    const sent = modelResult?.head ?? input.head;
    const toolResults = modelResult ? outcome.toolResults : undefined;
    // The read-file state stays out of payloads too: store this turn's entries, carry a reference.
    const delta = outcome.context.readFiles;
    const base = input.readFilesRef ?? null;
    const writes = toolResults !== undefined || Object.keys(delta).length > 0;
    const local = writes && (0, workflow_1.patched)(definitions_1.LOCAL_TURN_STORES_PATCH);
    const appendSummary = `Record ${outcome.records.length} tool result(s)`;
    const readFilesSummary = `Record ${Object.keys(delta).length} read file(s)`;
    /** The local attempt first (under the patch); on failure, or before the patch, the activities. */
    const write = async (localCall, remote) => {
        if (local) {
            try {
                return await localCall();
            }
            catch (err) {
                if ((0, workflow_1.isCancellation)(err))
                    throw err;
            }
        }
        return storeCall(remote);
    };
    return workflow_1.CancellationScope.nonCancellable(() => Promise.all([
        toolResults
            ? write(() => localStore.appendTranscript.executeWithOptions({ summary: appendSummary }, [
                { head: sent, messages: [toolResults] },
            ]), (a) => store.appendTranscript.executeWithOptions({ activityId: ids_1.activityIds.attempt(ids_1.activityIds.append(input.turn), a), summary: appendSummary }, [{ head: sent, messages: [toolResults] }]))
            : sent,
        Object.keys(delta).length > 0
            ? write(() => localStore.storeReadFiles.executeWithOptions({ summary: readFilesSummary }, [{ base, delta }]), (a) => store.storeReadFiles.executeWithOptions({ activityId: ids_1.activityIds.attempt(ids_1.activityIds.readFiles(input.turn), a), summary: readFilesSummary }, [{ base, delta }]))
            : base,
    ]));
}
/** A tool call whose attempts are exhausted. A timed-out, non-idempotent call may have had its effect: say so. */
function failedCallRecord(err, block, description) {
    const timedOut = err instanceof workflow_1.ActivityFailure && err.cause instanceof workflow_1.TimeoutFailure;
    const cause = err instanceof workflow_1.ActivityFailure && err.cause ? err.cause.message : err instanceof Error ? err.message : String(err);
    return timedOut && !description.idempotent
        ? (0, records_1.syntheticRecord)(block, 'unknown_outcome', `The outcome of this ${block.name} call is unknown: it timed out (${cause}) and was not re-run because it is not idempotent. The call was: ${description.summary}.`, description.summary)
        : (0, records_1.syntheticRecord)(block, 'error', `Error calling tool ${block.name}: ${cause}`, description.summary);
}
/** What the turn tells its session: compact records, the new head, the context without its read files (stored by reference). */
function turnResult(input, outcome, modelResult, modelStep, head, readFilesRef) {
    const text = modelResult
        ? modelResult.message.content
            .filter((b) => b.type === 'text')
            .map((b) => b.text)
            .join('\n')
        : '';
    return {
        turn: input.turn,
        reason: outcome.reason,
        records: outcome.records.map(compact),
        batches: outcome.batches,
        ...(outcome.usage ? { usage: outcome.usage } : {}),
        fallback: modelResult?.fallback ?? false,
        text: (0, definitions_1.oneLinePreview)(text, 2000),
        head,
        consumedAppend: modelResult !== undefined,
        context: { ...outcome.context, readFiles: {} },
        ...(readFilesRef ? { readFilesRef } : {}),
        ...(outcome.stopReason ? { stopReason: outcome.stopReason } : {}),
        ...(modelStep ? { view: modelStep.view, compactions: modelStep.compactions } : {}),
        ...(modelStep?.compactionUsage ? { compactionUsage: modelStep.compactionUsage } : {}),
        ...(outcome.discarded ? { discarded: outcome.discarded } : {}),
    };
}
async function turnWorkflow(input) {
    const turn = new TurnRun(input);
    turn.register();
    const outcome = await (0, turn_1.executeTurn)({
        context: input.context,
        priorRecords: new Map(),
        maxConcurrency: input.maxConcurrency,
        retry: turn.policy,
        ...(turn.streaming ? { streaming: turn.streaming } : {}),
    }, turn);
    if (outcome.reason === 'failed')
        throw workflow_1.ApplicationFailure.nonRetryable(`model call failed: ${outcome.error ?? 'unavailable'}`, 'MODEL_UNAVAILABLE');
    turn.phase = 'finishing';
    const [head, readFilesRef] = await recordTurnEnd(input, outcome, turn.modelResult, (call) => turn.storeCall(call));
    return turnResult(input, outcome, turn.modelResult, turn.modelStep, head, readFilesRef);
}
/**
 * One turn: its state as the signal and query handlers see it (the shape of Temporal's
 * safe-message-handlers sample), the handlers as methods, and the engine's executor.
 */
class TurnRun {
    input;
    interrupted = false;
    phase = 'model';
    decisions = new Map();
    pending = new Map();
    running = new Map();
    done = [];
    modelResult;
    modelStep;
    stepState = (0, modelStep_1.newModelStepState)();
    /** The turn's scope: an interrupt cancels it (the model call and every tool call run in it). */
    scope;
    policy;
    streaming;
    parent;
    session;
    tools;
    /** Agent calls: two pipeline activities around a child session workflow (only when the session offers Agent). */
    subagents;
    /** An isolated agent's worktree (`isolation: "worktree"`), on the tool worker. */
    agentWorktrees;
    constructor(input) {
        this.input = input;
        const parentId = (0, workflow_1.workflowInfo)().parent?.workflowId;
        this.parent = parentId ? (0, workflow_1.getExternalWorkflowHandle)(parentId) : undefined;
        this.tools = (0, workflow_1.proxyActivities)(toolActivityOptions(input));
        this.scope = new workflow_1.CancellationScope();
        this.session = (0, toolSettings_1.toolSession)(input);
        this.subagents = (0, workflow_1.proxyActivities)(toolActivityOptions(input));
        this.agentWorktrees = (0, workflow_1.proxyActivities)(toolActivityOptions(input));
        this.policy = (0, retry_1.retryPolicy)(input.retry ?? {});
        this.streaming = input.streamingToolExecution === false ? undefined : this.streamingExecution();
    }
    register() {
        (0, workflow_1.setHandler)(definitions_1.turnInterruptSignal, () => {
            if (this.interrupted)
                return;
            this.interrupted = true;
            this.scope.cancel();
        });
        (0, workflow_1.setHandler)(definitions_1.turnApprovalSignal, (d) => {
            if (!this.decisions.has(d.toolUseId)) {
                this.decisions.set(d.toolUseId, {
                    decision: d.decision,
                    source: 'human',
                    ...(d.by ? { by: d.by } : {}),
                    ...(d.reason ? { reason: d.reason } : {}),
                });
            }
        });
        (0, workflow_1.setHandler)(definitions_1.turnProgressQuery, () => ({
            phase: this.phase,
            running: [...this.running].map(([toolUseId, summary]) => ({ toolUseId, summary })),
            done: [...this.done],
            pendingApprovals: [...this.pending.values()],
        }));
        const streaming = this.streaming;
        if (streaming)
            (0, workflow_1.setHandler)(definitions_1.streamedToolUseSignal, (item) => streaming.add(item));
    }
    /**
     * Streaming tool execution: the model activity signals each completed tool_use block; a safe
     * one starts here at once (engine/streaming.ts decides which), in its own cancellation scope.
     */
    streamingExecution() {
        const { input, session } = this;
        return new streaming_1.StreamingToolExecution({ context: input.context, maxConcurrency: input.maxConcurrency }, {
            describeStreamed: (items, context) => descriptions.describeToolUses({
                session,
                blocks: items.map((i) => i.block),
                messageRefs: items.map((i) => i.messageRef),
                messageRef: null,
                context,
            }),
            startStreamed: (item, context, description) => {
                // A subagent starts a child session: it waits for the complete message.
                if (input.subagents && (0, subagents_1.isAgentTool)(item.block.name))
                    return undefined;
                const own = new workflow_1.CancellationScope({ cancellable: true, parent: this.scope });
                return {
                    result: this.runToolIn(own, item.block, item.messageRef, context, description),
                    cancel: () => own.cancel(),
                };
            },
            isInterrupted: () => this.interrupted,
        });
    }
    /** Shows an outage in this turn (UI details) and to the session (status, ls, live view). */
    onOutage(o) {
        (0, workflow_1.setCurrentDetails)(o ? (0, retry_1.describeOutage)(o, Date.now()) : '');
        const parent = this.parent;
        if (parent)
            void workflow_1.CancellationScope.nonCancellable(() => parent.signal(definitions_1.outageSignal, o ?? null)).catch(() => undefined);
    }
    /** A store activity that waits out outages like the model does (not interruptible: it records what happened). */
    storeCall(call) {
        return (0, schedulerGlue_1.waitOutStoreOutage)(call, {
            policy: this.policy,
            now: () => Date.now(),
            sleep: (ms) => (0, workflow_1.sleep)(ms),
            classify: (err) => transientFailureOf(err, 'store'),
            onOutage: (o) => this.onOutage(o),
            giveUp: (reason) => workflow_1.ApplicationFailure.nonRetryable(reason, 'STORE_UNAVAILABLE'),
        });
    }
    /**
     * One call through the pipeline activity (or, for Agent, the subagent's activities and child),
     * inside `runScope`: the turn's scope, or an early call's own scope (a child of it) so that a
     * discarded early call can be cancelled alone. Every failure becomes a record.
     */
    async runToolIn(runScope, block, messageRef, context, description, approval) {
        const input = this.input;
        this.running.set(block.id, description.summary);
        try {
            if (input.subagents && (0, subagents_1.isAgentTool)(block.name)) {
                const activities = {
                    prepareSubagent: this.subagents.prepareSubagent,
                    finishSubagent: this.subagents.finishSubagent,
                    awaitSubagent: subagentWait.awaitSubagent,
                    prepareAgentWorktree: this.agentWorktrees.prepareAgentWorktree,
                    settleAgentWorktree: this.agentWorktrees.settleAgentWorktree,
                };
                const call = { input, session: this.session, messageRef, scope: runScope, activities };
                return await (0, subagent_1.runSubagentCall)(call, block, context, description, approval);
            }
            const options = { activityId: ids_1.activityIds.tool(block.id, approval?.decision), summary: description.summary };
            const readFilesRef = input.readFilesRef ? { readFilesRef: input.readFilesRef } : {};
            const args = {
                session: this.session,
                block,
                messageRef,
                context,
                ...readFilesRef,
                ...(approval ? { approval } : {}),
            };
            return await runScope.run(() => this.tools.runToolUse.executeWithOptions(options, [args]));
        }
        catch (err) {
            if (this.interrupted || (0, workflow_1.isCancellation)(err)) {
                // A cancelled early call that was discarded is not an interrupt of the turn.
                if (runScope === this.scope || this.interrupted)
                    this.interrupted = true;
                return { kind: 'done', record: (0, records_1.interruptedRecord)(block, true, description.summary) };
            }
            return { kind: 'done', record: failedCallRecord(err, block, description) };
        }
        finally {
            this.running.delete(block.id);
        }
    }
    // --- The engine's executor (TurnExecutor) ---
    now() {
        return Date.now();
    }
    async sleep(ms) {
        return (await (0, workflow_1.condition)(() => this.interrupted, ms)) ? 'interrupted' : 'done';
    }
    async callModel(attempt) {
        let result;
        try {
            // Context management (clearing, auto/reactive compaction) is the engine's model step;
            // its state survives this turn's outage retries (a compaction is not redone).
            const scope = this.scope;
            this.modelStep = await (0, modelStep_1.managedModelStep)(this.input, {
                callModel: (args, activityId, summary) => scope.run(() => model.callModel.executeWithOptions({ activityId, summary: `${summary}${attempt > 1 ? `, attempt ${attempt}` : ''}` }, [args])),
                compact: (args, activityId, summary) => scope.run(() => compaction.compactContext.executeWithOptions({ activityId, summary }, [args])),
            }, this.stepState, attempt);
            if (this.modelStep.kind === 'interrupted') {
                this.interrupted = true;
                return { kind: 'interrupted' };
            }
            result = this.modelResult = this.modelStep.result;
        }
        catch (err) {
            if (this.interrupted || (0, workflow_1.isCancellation)(err)) {
                this.interrupted = true;
                return { kind: 'interrupted' };
            }
            const failure = transientFailureOf(err, 'model');
            if (failure)
                return { kind: 'unavailable', failure };
            const cause = err instanceof workflow_1.ActivityFailure && err.cause
                ? err.cause.message
                : err instanceof Error
                    ? err.message
                    : String(err);
            throw workflow_1.ApplicationFailure.nonRetryable(`model call failed: ${cause}`, 'MODEL_FAILED');
        }
        this.phase = 'tools';
        return { kind: 'message', message: result.message, usage: result.usage, stopReason: result.stopReason };
    }
    async describe(blocks, context) {
        // Blocks carry previews of large inputs: the activity reads them whole from the model's node.
        return descriptions.describeToolUses({
            session: this.session,
            blocks: [...blocks],
            messageRef: this.modelResult?.head ?? null,
            context,
        });
    }
    async runTool(block, context, description, approval) {
        const messageRef = this.modelResult?.head ?? null;
        const result = await this.runToolIn(this.scope, block, messageRef, context, description, approval);
        if (result.kind === 'done')
            this.done.push(compact(result.record));
        return result;
    }
    onRecord(record) {
        // Calls started while streaming show as done once the tool phase takes them over (a discarded one never does).
        if (record.early)
            this.done.push(compact(record));
    }
    async awaitApproval(block, ask, description) {
        const { input, parent } = this;
        const entry = {
            turn: input.turn,
            toolUseId: block.id,
            toolName: block.name,
            summary: description.summary,
            message: ask.message,
            since: Date.now(),
        };
        this.pending.set(block.id, entry);
        this.phase = 'awaiting_approval';
        if (parent)
            await parent.signal(definitions_1.approvalPendingSignal, entry);
        const decided = await (0, workflow_1.condition)(() => this.decisions.has(block.id) || this.interrupted, input.approvalTimeoutMs);
        this.pending.delete(block.id);
        this.phase = 'tools';
        const result = this.interrupted && !this.decisions.has(block.id)
            ? 'interrupted'
            : (this.decisions.get(block.id) ?? (0, schedulerGlue_1.approvalTimeoutDenial)(input.approvalTimeoutMs));
        // Tell the session what counted, so that an approve racing the timeout is answered truly.
        if (parent && ((0, workflow_1.patched)(definitions_1.APPROVAL_OUTCOME_PATCH) || !decided || this.interrupted)) {
            const outcome = result === 'interrupted'
                ? { decision: 'deny', source: 'interrupted' }
                : { decision: result.decision, source: result.source };
            await workflow_1.CancellationScope.nonCancellable(() => parent.signal(definitions_1.approvalResolvedSignal, { toolUseId: block.id, ...outcome }));
        }
        return result;
    }
    isInterrupted() {
        return this.interrupted;
    }
    skipCutOffToolUse() {
        return (0, workflow_1.patched)(definitions_1.MAX_TOKENS_CUT_OFF_PATCH);
    }
}
//# sourceMappingURL=turn.js.map