"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.auditToolCalls = auditToolCalls;
const records_1 = require("../pipeline/records");
const ids_1 = require("../engine/ids");
const messages_1 = require("../engine/messages");
const partition_1 = require("../engine/partition");
const subagents_1 = require("../engine/subagents");
const history_1 = require("./history");
const SOURCES = [
    'rule',
    'mode',
    'hook',
    'tool',
    'workingDirectory',
    'human',
    'timeout',
    'sandbox',
    'safetyCheck',
    'other',
];
function auditDecision(d) {
    if (!d)
        return undefined;
    const source = SOURCES.includes(d.source) ? d.source : 'other';
    return {
        behavior: d.behavior,
        source,
        ...(d.detail !== undefined ? { detail: d.detail } : {}),
        ...(d.by !== undefined ? { by: d.by } : {}),
        ...(d.reason !== undefined ? { reason: d.reason } : {}),
    };
}
function resultText(result) {
    if (!result)
        return '';
    return (0, messages_1.toolResultText)(result);
}
async function auditToolCalls(ctx) {
    const { result, blocks } = ctx;
    const compactById = new Map((result?.records ?? []).map((r) => [r.toolUseId, r]));
    const batchOf = new Map();
    if (result) {
        result.batches.forEach((b, index) => b.toolUseIds.forEach((id) => batchOf.set(id, { index, concurrent: b.concurrencySafe })));
    }
    else if (blocks.length > 0) {
        const described = await (0, history_1.describedBlocks)(ctx.events, ctx.decoder, blocks);
        if (blocks.every((b) => described.has(b.id))) {
            (0, partition_1.partitionToolCalls)(blocks, (b) => described.get(b.id)?.concurrencySafe === true).forEach((b, index) => b.blocks.forEach((x) => batchOf.set(x.id, { index, concurrent: b.concurrencySafe })));
        }
    }
    const ids = blocks.map((b) => b.id);
    for (const r of result?.records ?? [])
        if (!ids.includes(r.toolUseId))
            ids.push(r.toolUseId);
    // Calls started while streaming that the final message did not hold: listed, marked discarded.
    const discardedById = new Map((result?.discarded ?? []).map((d) => [d.toolUseId, d]));
    for (const id of discardedById.keys())
        if (!ids.includes(id))
            ids.push(id);
    return ids.map((toolUseId) => toolCallEntry(ctx, toolUseId, compactById.get(toolUseId), batchOf.get(toolUseId), discardedById.get(toolUseId)));
}
function toolCallEntry(ctx, toolUseId, compact, batch, discarded) {
    const { ref, turn, open, signals } = ctx;
    const block = ctx.blocks.find((b) => b.id === toolUseId);
    // The call's activities: the call (or an Agent call's pre phase), its approve/deny re-run, the post phase.
    const tracks = (0, ids_1.toolCallActivityIds)(toolUseId)
        .map((id) => ctx.byId.get(id))
        .filter((t) => t !== undefined);
    const views = tracks.map((t) => (0, history_1.activityView)(t, ctx.pending.get(t.activityId)));
    const results = tracks.map((t) => (t.outcome === 'completed' ? t.result : undefined));
    let doneIndex = -1;
    results.forEach((r, i) => {
        if (r?.kind === 'done')
            doneIndex = i;
    });
    const record = doneIndex >= 0 ? results[doneIndex].record : undefined;
    const askIndex = results.findIndex((r) => r?.kind === 'ask');
    const ask = askIndex >= 0 ? results[askIndex] : undefined;
    const last = tracks[tracks.length - 1];
    const lastView = views[views.length - 1];
    const approval = ask ? approvalOf(ctx, toolUseId, tracks, askIndex, ask, record, compact) : undefined;
    const dropped = !compact && !block ? discarded : undefined;
    const status = statusOf(open, { dropped, compact, record, asked: ask !== undefined, askIndex, tracks, last });
    const final = compact && record && record.status !== compact.status ? undefined : record;
    let decision = auditDecision(final?.decision ?? compact?.decision);
    if (!decision && approval)
        decision = approval.asked;
    // A timeout's decision record has no text of its own: the reason is the one the turn applied.
    if (decision && decision.source === 'timeout' && !decision.reason && approval?.reason)
        decision = { ...decision, reason: approval.reason };
    const startMs = Math.min(...[
        record?.startedAt,
        ...tracks.map((t) => (t.attempt > 1 ? t.scheduledAt : (t.startedAt ?? t.scheduledAt))),
    ].filter((x) => typeof x === 'number'));
    const endMs = record?.endedAt ?? (last && last.outcome !== 'scheduled' && last.outcome !== 'running' ? last.endedAt : undefined);
    const content = final ? resultText(final.result) : '';
    const reused = record?.reused === true || compact?.reused === true;
    const summary = record?.summary ?? compact?.summary ?? tracks[0]?.summary ?? block?.name ?? '?';
    const sessionId = (0, ids_1.sessionOfTurnWorkflowId)(ref.workflowId) ?? ref.workflowId;
    return {
        kind: 'tool_call',
        turn,
        run: ref.run,
        toolUseId,
        tool: block?.name ?? record?.toolName ?? compact?.toolName ?? '?',
        ...(tracks.some((t) => (0, ids_1.isSubagentActivityId)(t.activityId))
            ? { subagent: (0, subagents_1.subagentSessionId)(sessionId, toolUseId) }
            : {}),
        input: final?.input ?? block?.input ?? tracks[0]?.input?.block.input,
        summary,
        ...(decision ? { decision } : {}),
        ...(approval ? { approval } : {}),
        attempts: lastView?.attempts ?? 0,
        activities: views,
        ...(Number.isFinite(startMs) ? { startedAt: (0, history_1.iso)(startMs) } : {}),
        ...(endMs !== undefined
            ? { endedAt: (0, history_1.iso)(endMs) }
            : status === 'interrupted' && signals.interruptedAt !== undefined
                ? { endedAt: (0, history_1.iso)(signals.interruptedAt) }
                : {}),
        status,
        ...(final ? { isError: final.result.is_error === true } : compact ? { isError: compact.status !== 'ok' } : {}),
        resultPreview: dropped
            ? `never sent to the model (${dropped.state}): ${dropped.reason}`
            : compact
                ? (0, history_1.preview)(compact.preview)
                : final
                    ? (0, history_1.preview)(content)
                    : '',
        ...(batch ? { batch: batch.index, concurrent: batch.concurrent } : {}),
        ...(reused ? { reused: true } : {}),
        ...(compact?.early || record?.early || dropped ? { early: true } : {}),
        ...(dropped ? { discarded: { state: dropped.state, reason: dropped.reason, stream: dropped.stream } } : {}),
        ...(final?.persistedTo ? { persistedTo: final.persistedTo } : {}),
        ...(final?.notices?.length ? { notices: final.notices } : {}),
        ...(final?.hooks ? { hooks: final.hooks } : {}),
        ...(final?.sandbox ? { sandbox: final.sandbox } : {}),
        ...(final?.network ? { network: final.network } : {}),
        ...(final?.controlWrites?.length
            ? { controlWrites: final.controlWrites }
            : compact?.controlWrites?.length
                ? { controlWrites: compact.controlWrites }
                : {}),
    };
}
/** Approval: the ask, then the approve/deny activity and the signal that resolved it. */
function approvalOf(ctx, toolUseId, tracks, askIndex, ask, record, compact) {
    let askedReason;
    try {
        askedReason = ask.detail ? JSON.parse(ask.detail) : undefined;
    }
    catch {
        askedReason = undefined;
    }
    const follow = tracks.slice(askIndex + 1)[0];
    // The approve/deny activity's input carries the resolution the turn applied (human or timeout).
    const applied = follow?.input?.approval;
    const signal = ctx.signals.approvals.get(toolUseId);
    let resolution;
    if (follow) {
        resolution =
            applied?.source === 'timeout' || record?.decision?.source === 'timeout'
                ? 'timeout'
                : ((0, ids_1.decidedByActivityId)(follow.activityId) ?? 'deny');
    }
    else if (!ctx.open || compact) {
        resolution = 'interrupted';
    }
    const by = applied?.by ?? record?.decision?.by ?? signal?.by;
    const reason = applied?.reason ?? signal?.reason;
    const resolvedAt = signal?.at ?? follow?.scheduledAt ?? (resolution === 'interrupted' ? ctx.signals.interruptedAt : undefined);
    return {
        asked: auditDecision((0, records_1.decisionFromReason)('ask', askedReason, ask.message)),
        message: ask.message,
        ...(tracks[askIndex]?.endedAt !== undefined ? { askedAt: (0, history_1.iso)(tracks[askIndex]?.endedAt) } : {}),
        ...(resolution ? { resolution } : {}),
        ...(resolvedAt !== undefined ? { resolvedAt: (0, history_1.iso)(resolvedAt) } : {}),
        ...(by !== undefined ? { by } : {}),
        ...(reason !== undefined ? { reason } : {}),
    };
}
/** Status: the turn's result is final; otherwise what the activities say so far. */
function statusOf(open, c) {
    const { last } = c;
    if (c.dropped)
        return 'discarded';
    if (c.compact)
        return c.compact.status;
    if (c.record)
        return c.record.status;
    if (c.asked && c.tracks.length === c.askIndex + 1)
        return open ? 'awaiting_approval' : 'interrupted';
    if (last && (last.outcome === 'scheduled' || last.outcome === 'running'))
        return open ? 'running' : 'interrupted';
    if (last?.outcome === 'cancelled')
        return 'interrupted';
    if (last?.outcome === 'failed' || last?.outcome === 'timed_out')
        return 'error';
    return open ? 'pending' : 'interrupted';
}
//# sourceMappingURL=toolCalls.js.map