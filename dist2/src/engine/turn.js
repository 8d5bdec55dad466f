"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.executeTurn = executeTurn;
exports.runToolPhase = runToolPhase;
exports.askSegments = askSegments;
// The turn algorithm, written once against an abstract executor (invariant 9 of the issue):
// the Temporal workflows supply activity-backed executors, src/local supplies an in-process one.
// Pure and deterministic: no I/O, no clocks, no randomness — it is bundled into workflows.
const context_1 = require("./context");
const messages_1 = require("./messages");
const cutOff_1 = require("./cutOff");
const partition_1 = require("./partition");
const records_1 = require("./records");
const payloads_1 = require("./payloads");
const retry_1 = require("./retry");
async function executeTurn(input, executor) {
    const model = await callModelThroughOutages(input, executor);
    // The model call is over: early starts end here; what the final message does not claim is discarded.
    const closeStreaming = async (ids, why) => {
        if (!input.streaming)
            return {};
        const { discarded, ...early } = input.streaming.finish(ids, why);
        const gone = await discarded;
        return { early, ...(gone.length > 0 ? { discarded: gone } : {}) };
    };
    if (model.kind === 'failed' || model.kind === 'interrupted') {
        const { discarded } = await closeStreaming([], model.kind === 'failed' ? 'the model call failed' : 'the turn was interrupted while the model streamed');
        const ended = { records: [], context: input.context, batches: [], ...(discarded ? { discarded } : {}) };
        return model.kind === 'failed'
            ? { reason: 'failed', error: model.error, ...ended }
            : { reason: 'interrupted', ...ended };
    }
    const blocks = (0, messages_1.toolUseBlocksOf)(model.message);
    const { early, discarded } = await closeStreaming(blocks.map((b) => b.id), 'its tool_use id is not in the final message (the stream was abandoned and the answer that replaced it differs)');
    const base = {
        assistant: model.message,
        usage: model.usage,
        stopReason: model.stopReason,
        ...(discarded ? { discarded } : {}),
    };
    if (blocks.length === 0) {
        const reason = model.stopReason === 'max_tokens' ? 'max_tokens' : model.stopReason === 'end_turn' ? 'end_turn' : 'other';
        return { reason, ...base, records: [], context: input.context, batches: [] };
    }
    const cut = (0, cutOff_1.cutOffToolUse)(model.message, model.stopReason);
    const cutOffId = cut && (executor.skipCutOffToolUse?.() ?? true) ? cut.id : undefined;
    const phase = await runToolPhase(blocks, cutOffId ? { ...input, cutOffId } : input, executor, early);
    return {
        reason: executor.isInterrupted() ? 'interrupted' : 'tool_use',
        ...base,
        ...phase,
    };
}
/**
 * Calls the model until it answers: a retryable failure waits (backoff honouring retry-after,
 * capped) and calls again, for as long as the outage limit allows (invariant 10).
 */
async function callModelThroughOutages(input, executor) {
    const policy = input.retry ?? (0, retry_1.retryPolicy)();
    let outage;
    for (let attempt = 1;; attempt++) {
        if (executor.isInterrupted())
            return { kind: 'interrupted' };
        const model = await executor.callModel(attempt);
        if (model.kind !== 'unavailable') {
            if (outage)
                executor.onOutage?.(undefined);
            return model;
        }
        if (!executor.sleep || !executor.now)
            return { kind: 'failed', error: model.failure.message };
        const step = (0, retry_1.nextAttempt)(outage, 'model', model.failure, executor.now(), policy);
        outage = step.state;
        if (step.action === 'give_up') {
            executor.onOutage?.(undefined);
            return { kind: 'failed', error: step.reason };
        }
        executor.onOutage?.(outage);
        if ((await executor.sleep(step.delayMs)) === 'interrupted') {
            executor.onOutage?.(undefined);
            return { kind: 'interrupted' };
        }
    }
}
/**
 * Runs the tool_use blocks of one assistant message: partition, batches in order, safe batches
 * concurrently (bounded), context modifiers applied after each batch in original block order.
 * Every block ends with exactly one record, whatever happens (invariant 1).
 */
async function runToolPhase(blocks, input, executor, early) {
    let context = input.context;
    const records = new Map();
    const descriptions = await describeBlocks(blocks, context, executor, early);
    const describe = (i) => descriptions[i] ?? {
        known: false,
        concurrencySafe: false,
        readOnly: false,
        idempotent: false,
        summary: blocks[i]?.name ?? '?',
    };
    const indexOf = new Map(blocks.map((b, i) => [b.id, i]));
    const batches = (0, partition_1.partitionToolCalls)(blocks, (_b, i) => describe(i).concurrencySafe);
    const record = (r) => {
        records.set(r.toolUseId, r);
        executor.onRecord?.(r);
        return r;
    };
    const runOne = async (block, ctx) => {
        const description = describe(indexOf.get(block.id) ?? -1);
        const recorded = input.priorRecords.get(block.id) ?? records.get(block.id);
        if (recorded) {
            // Already executed (an earlier turn, a repeated id after a fallback): reuse, never re-run.
            // Its context modifiers were applied when it first ran.
            return record({ ...recorded, contextModifiers: [], reused: true });
        }
        // Started while the model streamed: its outcome is this call's, whatever came first.
        const started = early?.reuse.get(block.id);
        if (!started && executor.isInterrupted())
            return record((0, records_1.interruptedRecord)(block, false, description.summary));
        // Cut off by max_tokens (and not already started while streaming): answered without running.
        if (!started && block.id === input.cutOffId)
            return record((0, cutOff_1.cutOffRecord)(block, description.summary));
        try {
            let outcome = started ? await started.result : await executor.runTool(block, ctx, description);
            if (started && outcome.kind === 'done')
                return record({ ...outcome.record, early: true });
            while (outcome.kind === 'ask') {
                const approval = await executor.awaitApproval(block, outcome, description);
                if (approval === 'interrupted')
                    return record((0, records_1.interruptedRecord)(block, false, description.summary));
                outcome = await executor.runTool(block, ctx, description, approval);
                if (outcome.kind === 'ask') {
                    // An approval was given but the pipeline still asks: treat as denied rather than loop.
                    return record((0, records_1.syntheticRecord)(block, 'denied', `Permission still required after approval: ${outcome.message}`, description.summary));
                }
            }
            return record(outcome.record);
        }
        catch (err) {
            if (executor.isInterrupted())
                return record((0, records_1.interruptedRecord)(block, true, description.summary));
            const message = err instanceof Error ? err.message : String(err);
            return record((0, records_1.syntheticRecord)(block, 'error', `Error calling tool ${block.name}: ${message}`, description.summary));
        }
    };
    for (const [batchIndex, batch] of batches.entries()) {
        if (executor.isInterrupted())
            break;
        executor.onBatchStart?.(batch, batchIndex);
        if (batch.concurrencySafe) {
            // All calls of the batch see the same context; their modifiers are queued per id and
            // applied after the batch in block order, so the final context never depends on timing.
            // A call that will ask pauses the calls after it in batch order: the batch runs in
            // segments that each end with such a call (the calls before it run alongside it).
            const batchContext = context;
            const done = [];
            for (const segment of askSegments(batch.blocks, (b) => describe(indexOf.get(b.id) ?? -1).mayAsk === true)) {
                if (executor.isInterrupted())
                    break;
                done.push(...(await (0, partition_1.mapWithConcurrency)(segment, input.maxConcurrency, (b) => runOne(b, batchContext))));
            }
            for (const r of done)
                context = (0, context_1.applyContextModifiers)(context, r.contextModifiers);
        }
        else {
            for (const block of batch.blocks) {
                const r = await runOne(block, context);
                context = (0, context_1.applyContextModifiers)(context, r.contextModifiers);
            }
        }
    }
    // Protocol completeness: anything not run (interrupt) gets an interruption result.
    for (const block of blocks) {
        if (!records.has(block.id))
            record((0, records_1.interruptedRecord)(block, false, describe(indexOf.get(block.id) ?? -1).summary));
    }
    const ordered = blocks.map((b) => records.get(b.id));
    return {
        records: ordered,
        toolResults: (0, payloads_1.toolResultsByRef)(ordered),
        context,
        batches: batches.map((b) => ({ concurrencySafe: b.concurrencySafe, toolUseIds: b.blocks.map((x) => x.id) })),
    };
}
/** Descriptions of the blocks: those made while streaming are kept, the rest asked for in one call. */
async function describeBlocks(blocks, context, executor, early) {
    const known = early?.descriptions ?? new Map();
    const missing = blocks.filter((b) => !known.has(b.id));
    let fresh = [];
    if (missing.length > 0) {
        try {
            fresh = await executor.describe(missing, context);
        }
        catch {
            // Safety unknown: everything runs alone (invariant 3).
            fresh = missing.map((b) => ({
                known: false,
                concurrencySafe: false,
                readOnly: false,
                idempotent: false,
                summary: b.name,
            }));
        }
    }
    const byId = new Map(missing.map((b, i) => [b.id, fresh[i]]));
    return blocks.map((b) => known.get(b.id) ??
        byId.get(b.id) ?? { known: false, concurrencySafe: false, readOnly: false, idempotent: false, summary: b.name });
}
/** Splits a batch after every call that will ask: later calls wait until it is decided. */
function askSegments(blocks, mayAsk) {
    const segments = [[]];
    for (const b of blocks) {
        segments[segments.length - 1].push(b);
        if (mayAsk(b))
            segments.push([]);
    }
    return segments.filter((s) => s.length > 0);
}
//# sourceMappingURL=turn.js.map