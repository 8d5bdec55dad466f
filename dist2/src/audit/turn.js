"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.auditTurn = auditTurn;
const contextWindow_1 = require("../engine/contextWindow");
const ids_1 = require("../engine/ids");
const compactions_1 = require("./compactions");
const history_1 = require("./history");
const toolCalls_1 = require("./toolCalls");
function partialPreview(content) {
    return (0, history_1.preview)(content
        .map((b) => b.type === 'text'
        ? b.text
        : b.type === 'tool_use'
            ? `[tool_use ${b.id} ${b.name} ${JSON.stringify(b.input)}]`
            : '[thinking]')
        .join(' '));
}
/** A turn's audit; undefined (and a gap) when its history cannot be fetched. */
async function auditTurn(client, converter, ref, opts, gaps) {
    const where = { workflowId: ref.workflowId, ...(ref.runId ? { runId: ref.runId } : {}), turn: ref.turn };
    const events = await (0, history_1.fetchEvents)(client, where, `turn ${ref.turn}: its model call, compactions and tool calls`);
    if (!Array.isArray(events)) {
        gaps.push(events);
        return undefined;
    }
    const decoder = new history_1.HistoryDecoder(converter, where, gaps);
    const { input, result, open, closeError, signals } = await readTurnEvents(events, decoder);
    const turn = input?.turn ?? ref.turn;
    const pending = open && (opts.describeRunningTurns ?? true)
        ? await pendingActivities(client, ref, where, turn, gaps)
        : new Map();
    const activities = await (0, history_1.trackActivities)(events, decoder);
    const byId = new Map();
    for (const a of activities)
        byId.set(a.activityId, a);
    const compactions = compactionsOf(activities, pending, turn, ref.run);
    const { model, blocks } = modelCallOf(activities, pending, input, turn, ref.run);
    const tools = await (0, toolCalls_1.auditToolCalls)({ ref, turn, open, result, blocks, events, decoder, byId, pending, signals });
    if (closeError && model && model.status !== 'ok' && !model.failures.includes(closeError))
        model.failures.push(closeError);
    return {
        ...(model ? { model } : {}),
        tools,
        compactions,
        open,
        ...(result?.reason ? { reason: result.reason } : closeError ? { reason: `failed: ${closeError}` } : {}),
        usage: compactions.reduce((u, c) => (0, contextWindow_1.addUsage)(u, c.usage), (0, contextWindow_1.addUsage)({ input_tokens: 0, output_tokens: 0 }, model?.usage)),
    };
}
/** The turn workflow's own events: its input, its approval and interrupt signals, how it closed. */
async function readTurnEvents(events, decoder) {
    const t = {
        input: undefined,
        result: undefined,
        open: true,
        closeError: undefined,
        signals: { approvals: new Map() },
    };
    for (const e of events) {
        switch (e.eventType) {
            case history_1.ET.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
                t.input = await decoder.at(e.workflowExecutionStartedEventAttributes?.input, e, 'turn input');
                break;
            case history_1.ET.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED:
                await readSignal(e, decoder, t.signals);
                break;
            case history_1.ET.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED:
                t.open = false;
                t.result = await decoder.at(e.workflowExecutionCompletedEventAttributes?.result, e, 'turn result');
                break;
            case history_1.ET.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED:
                t.open = false;
                t.closeError = (0, history_1.failureText)(e.workflowExecutionFailedEventAttributes?.failure);
                break;
            case history_1.ET.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED:
            case history_1.ET.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED:
            case history_1.ET.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT:
                t.open = false;
                t.closeError =
                    e.eventType === history_1.ET.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED
                        ? 'cancelled'
                        : e.eventType === history_1.ET.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED
                            ? 'terminated'
                            : 'timed out';
                break;
            default:
                break;
        }
    }
    return t;
}
/** An approve/deny signal (the first per call counts) or the first interrupt. */
async function readSignal(e, decoder, signals) {
    const s = e.workflowExecutionSignaledEventAttributes;
    if (s?.signalName === ids_1.SIGNALS.turnApproval) {
        const d = await decoder.at(s.input, e, 'approval signal');
        const at = (0, history_1.msOf)(e.eventTime);
        if (d && !signals.approvals.has(d.toolUseId))
            signals.approvals.set(d.toolUseId, { ...d, ...(at !== undefined ? { at } : {}) });
    }
    else if (s?.signalName === ids_1.SIGNALS.turnInterrupt && signals.interruptedAt === undefined) {
        const at = (0, history_1.msOf)(e.eventTime);
        if (at !== undefined)
            signals.interruptedAt = at;
    }
}
/** A running turn's pending activities as the server describes them (attempts so far, last failure); a gap if it cannot. */
async function pendingActivities(client, ref, where, turn, gaps) {
    const pending = new Map();
    try {
        const d = await (0, history_1.describeRaw)(client, ref.workflowId, ref.runId);
        for (const p of d.pendingActivities ?? []) {
            if (!p.activityId)
                continue;
            const lastFailure = (0, history_1.failureText)(p.lastFailure);
            const lastStartedAt = (0, history_1.msOf)(p.lastStartedTime);
            pending.set(p.activityId, {
                attempt: p.attempt ?? 0,
                ...(lastFailure ? { lastFailure } : {}),
                ...(lastStartedAt !== undefined ? { lastStartedAt } : {}),
            });
        }
    }
    catch (err) {
        gaps.push({
            kind: 'gap',
            what: 'pending_activities',
            ...where,
            error: err instanceof Error ? err.message : String(err),
            missing: `turn ${turn}: attempts and last failures of its running activities (the history alone is reported)`,
        });
    }
    return pending;
}
/** Compactions (compact-<n>) of this turn's model step. */
function compactionsOf(activities, pending, turn, run) {
    return activities
        .filter((a) => a.type === ids_1.ACTIVITY_TYPES.compactContext)
        .map((a) => {
        const v = (0, history_1.activityView)(a, pending.get(a.activityId));
        const startedAt = v.startedAt ?? v.scheduledAt;
        return (0, compactions_1.compactionEntry)({
            activityId: a.activityId,
            input: a.input,
            result: a.result,
            attempts: v.attempts,
            status: v.outcome === 'completed' ? 'ok' : v.outcome,
            ...(startedAt ? { startedAt } : {}),
            ...(v.endedAt ? { endedAt: v.endedAt } : {}),
            failures: v.failures,
        }, turn, run);
    });
}
/**
 * The model call. An outage or a compaction makes several model activities in one turn
 * (model-<n>, model-<n>-attempt-<k>, model-<n>-2 after a compaction): one model call with all
 * their attempts and failures; the last one answered.
 */
function modelCallOf(activities, pending, input, turn, run) {
    const modelTracks = activities.filter((a) => a.type === ids_1.ACTIVITY_TYPES.callModel);
    const modelTrack = modelTracks[modelTracks.length - 1];
    if (!modelTrack)
        return { blocks: [] };
    const views = modelTracks.map((t) => (0, history_1.activityView)(t, pending.get(t.activityId)));
    const last = views[views.length - 1];
    const view = {
        ...last,
        attempts: views.reduce((n, v) => n + v.attempts, 0),
        failures: views.flatMap((v) => v.failures),
        ...(views[0]?.scheduledAt ? { scheduledAt: views[0].scheduledAt } : {}),
    };
    const mIn = modelTrack.input;
    const out = modelTrack.outcome === 'completed' ? modelTrack.result : undefined;
    const mOut = out && out.kind !== 'compact' ? out : undefined;
    const blocks = (mOut?.message.content ?? []).filter((b) => b.type === 'tool_use');
    const text = (mOut?.message.content ?? [])
        .filter((b) => b.type === 'text')
        .map((b) => b.text)
        .join(' ');
    // A retried call began with its first attempt: history dates only the last start, so take the scheduling time.
    const startedAt = view.attempts > 1 ? view.scheduledAt : (view.startedAt ?? view.scheduledAt);
    const model = {
        kind: 'model_call',
        turn,
        run,
        activityId: modelTrack.activityId,
        model: mIn?.settings?.model ?? input?.model.model ?? '?',
        ...(startedAt ? { startedAt } : {}),
        ...(view.endedAt ? { endedAt: view.endedAt } : {}),
        attempts: view.attempts,
        status: view.outcome === 'completed' ? 'ok' : view.outcome,
        ...(mOut ? { usage: mOut.usage, stopReason: mOut.stopReason, messageId: mOut.messageId } : {}),
        ...(mOut?.requestId ? { requestId: mOut.requestId } : {}),
        fallback: mOut?.fallback ?? false,
        tombstones: (mOut?.tombstones ?? []).map((t) => ({
            attempt: t.attempt,
            error: t.error,
            eventsReceived: t.eventsReceived,
            partialPreview: partialPreview(t.partialContent ?? []),
        })),
        failures: view.failures,
        ...(text ? { textPreview: (0, history_1.preview)(text) } : {}),
        toolUseIds: blocks.map((b) => b.id),
    };
    return { model, blocks };
}
//# sourceMappingURL=turn.js.map