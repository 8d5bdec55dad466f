"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.HistoryDecoder = exports.converterOf = exports.ET = void 0;
exports.preview = preview;
exports.msOf = msOf;
exports.iso = iso;
exports.mapLimit = mapLimit;
exports.failureText = failureText;
exports.describeRaw = describeRaw;
exports.fetchEvents = fetchEvents;
exports.trackActivities = trackActivities;
exports.activityView = activityView;
exports.describedBlocks = describedBlocks;
const proto_1 = require("@temporalio/proto");
const payloads_1 = require("../temporal/payloads");
Object.defineProperty(exports, "converterOf", { enumerable: true, get: function () { return payloads_1.converterOf; } });
const ids_1 = require("../engine/ids");
exports.ET = proto_1.temporal.api.enums.v1.EventType;
// ---------------------------------------------------------------------------------------------
// Small helpers
const PREVIEW_CHARS = 200;
function preview(text, max = PREVIEW_CHARS) {
    const flat = text.replace(/\s+/g, ' ').trim();
    return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
function num(v) {
    if (v === null || v === undefined)
        return 0;
    if (typeof v === 'number')
        return v;
    return Number(String(v));
}
function msOf(ts) {
    if (!ts)
        return undefined;
    return num(ts.seconds) * 1000 + Math.floor((ts.nanos ?? 0) / 1e6);
}
function iso(ms) {
    return ms === undefined || !Number.isFinite(ms) ? undefined : new Date(ms).toISOString();
}
async function mapLimit(items, limit, fn) {
    const out = new Array(items.length);
    let next = 0;
    const worker = async () => {
        while (next < items.length) {
            const i = next++;
            out[i] = await fn(items[i]);
        }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
    return out;
}
/** A failure and its causes, outermost first: "activity StartToClose timeout", "model API error 529: …". */
function failureText(f) {
    const parts = [];
    for (let c = f, depth = 0; c && depth < 6; c = c.cause, depth++) {
        const type = c.applicationFailureInfo?.type;
        const msg = c.message ?? '';
        if (msg && !parts.includes(msg))
            parts.push(type && !msg.includes(type) ? `${msg} [${type}]` : msg);
    }
    return parts.length > 0 ? parts.join(': ') : undefined;
}
const errorText = (err) => (err instanceof Error ? err.message : String(err)).split('\n')[0];
/**
 * The server's description of a workflow, undecoded (the SDK's describe() decodes the memo with the
 * client's converter, and fails on a payload it cannot read: the audit decodes on its own terms).
 */
async function describeRaw(client, workflowId, runId) {
    return client.workflowService.describeWorkflowExecution({
        namespace: client.options.namespace,
        execution: { workflowId, ...(runId ? { runId } : {}) },
    });
}
/** A workflow's history, or the gap that says why it is missing. */
async function fetchEvents(client, where, missing) {
    try {
        const history = await client.workflow.getHandle(where.workflowId, where.runId).fetchHistory();
        return history.events ?? [];
    }
    catch (err) {
        return {
            kind: 'gap',
            what: 'history',
            workflowId: where.workflowId,
            ...(where.runId ? { runId: where.runId } : {}),
            ...(where.turn !== undefined ? { turn: where.turn } : {}),
            error: errorText(err),
            missing,
        };
    }
}
/**
 * Decodes the payloads of one history with the client's converter (codecs in reverse order, then
 * the payload converter). A payload it cannot decode — a codec this client lacks, a corrupt
 * payload — is recorded as a gap naming the event and the field, and reads as undefined.
 */
class HistoryDecoder {
    converter;
    where;
    gaps;
    constructor(converter, where, gaps) {
        this.converter = converter;
        this.where = where;
        this.gaps = gaps;
    }
    async one(payload, event, field) {
        if (!payload)
            return undefined;
        try {
            return await (0, payloads_1.decodePayload)(this.converter, payload);
        }
        catch (err) {
            this.gaps.push({
                kind: 'gap',
                what: 'payload',
                workflowId: this.where.workflowId,
                ...(this.where.runId ? { runId: this.where.runId } : {}),
                ...(this.where.turn !== undefined ? { turn: this.where.turn } : {}),
                ...(e(event).id !== undefined ? { eventId: e(event).id } : {}),
                eventType: e(event).type,
                field,
                error: errorText(err),
                missing: `the ${field} of event ${e(event).id ?? '?'} (${e(event).type})`,
            });
            return undefined;
        }
    }
    async at(payloads, event, field, index = 0) {
        return this.one(payloads?.payloads?.[index], event, field);
    }
}
exports.HistoryDecoder = HistoryDecoder;
function e(event) {
    const id = event.eventId === null || event.eventId === undefined ? undefined : num(event.eventId);
    const type = (exports.ET[event.eventType ?? 0] ?? String(event.eventType)).replace(/^EVENT_TYPE_/, '');
    return { ...(id !== undefined ? { id } : {}), type };
}
async function trackActivities(events, decoder) {
    const byScheduled = new Map();
    const order = [];
    const get = (id) => byScheduled.get(String(id));
    for (const ev of events) {
        const at = msOf(ev.eventTime);
        switch (ev.eventType) {
            case exports.ET.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED: {
                const a = ev.activityTaskScheduledEventAttributes;
                const summary = ev.userMetadata?.summary
                    ? await decoder.one(ev.userMetadata.summary, ev, 'summary')
                    : undefined;
                const t = {
                    activityId: a?.activityId ?? '',
                    type: a?.activityType?.name ?? '',
                    input: await decoder.at(a?.input, ev, 'activity input'),
                    ...(summary !== undefined ? { summary } : {}),
                    ...(at !== undefined ? { scheduledAt: at } : {}),
                    attempt: 0,
                    failures: [],
                    outcome: 'scheduled',
                };
                byScheduled.set(String(ev.eventId), t);
                order.push(t);
                break;
            }
            case exports.ET.EVENT_TYPE_ACTIVITY_TASK_STARTED: {
                const a = ev.activityTaskStartedEventAttributes;
                const t = get(a?.scheduledEventId);
                if (!t)
                    break;
                t.attempt = a?.attempt ?? 1;
                if (at !== undefined)
                    t.startedAt = at;
                if (t.outcome === 'scheduled')
                    t.outcome = 'running';
                const last = failureText(a?.lastFailure);
                if (last && t.attempt > 1)
                    t.failures.push(last);
                break;
            }
            case exports.ET.EVENT_TYPE_ACTIVITY_TASK_COMPLETED: {
                const a = ev.activityTaskCompletedEventAttributes;
                const t = get(a?.scheduledEventId);
                if (!t)
                    break;
                t.outcome = 'completed';
                t.result = await decoder.at(a?.result, ev, 'activity result');
                if (at !== undefined)
                    t.endedAt = at;
                break;
            }
            case exports.ET.EVENT_TYPE_ACTIVITY_TASK_FAILED:
            case exports.ET.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT: {
                const failed = ev.eventType === exports.ET.EVENT_TYPE_ACTIVITY_TASK_FAILED;
                const a = failed ? ev.activityTaskFailedEventAttributes : ev.activityTaskTimedOutEventAttributes;
                const t = get(a?.scheduledEventId);
                if (!t)
                    break;
                t.outcome = failed ? 'failed' : 'timed_out';
                const f = failureText(a?.failure);
                if (f)
                    t.failures.push(f);
                if (at !== undefined)
                    t.endedAt = at;
                break;
            }
            case exports.ET.EVENT_TYPE_ACTIVITY_TASK_CANCEL_REQUESTED: {
                const t = get(ev.activityTaskCancelRequestedEventAttributes?.scheduledEventId);
                if (t && at !== undefined && t.cancelRequestedAt === undefined)
                    t.cancelRequestedAt = at;
                break;
            }
            case exports.ET.EVENT_TYPE_ACTIVITY_TASK_CANCELED: {
                const t = get(ev.activityTaskCanceledEventAttributes?.scheduledEventId);
                if (!t)
                    break;
                t.outcome = 'cancelled';
                if (at !== undefined)
                    t.endedAt = at;
                break;
            }
            default:
                break;
        }
    }
    return order;
}
function activityView(t, pending) {
    const open = t.outcome === 'scheduled' || t.outcome === 'running';
    const attempts = open && pending ? pending.attempt : t.attempt;
    const failures = [...t.failures];
    if (open && pending?.lastFailure && !failures.includes(pending.lastFailure))
        failures.push(pending.lastFailure);
    const startedAt = t.startedAt ?? (open ? pending?.lastStartedAt : undefined);
    const result = ids_1.TOOL_ACTIVITY_TYPES.has(t.type) && t.outcome === 'completed'
        ? t.result?.kind
        : undefined;
    return {
        activityId: t.activityId,
        attempts,
        ...(t.scheduledAt !== undefined ? { scheduledAt: iso(t.scheduledAt) } : {}),
        ...(startedAt !== undefined ? { startedAt: iso(startedAt) } : {}),
        ...(t.endedAt !== undefined ? { endedAt: iso(t.endedAt) } : {}),
        ...(t.cancelRequestedAt !== undefined ? { cancelRequestedAt: iso(t.cancelRequestedAt) } : {}),
        outcome: open && pending && pending.lastStartedAt !== undefined ? 'running' : t.outcome,
        ...(result ? { result } : {}),
        failures,
    };
}
/**
 * The blocks' descriptions from the turn's describeToolUses markers, by tool_use id: streamed
 * blocks are described in several calls (each description names its block); a description of an
 * older turn names none and is matched by position in the first call.
 */
async function describedBlocks(events, decoder, blocks) {
    const out = new Map();
    let first = true;
    for (const ev of events) {
        if (ev.eventType !== exports.ET.EVENT_TYPE_MARKER_RECORDED)
            continue;
        const m = ev.markerRecordedEventAttributes;
        const data = m?.details?.data
            ? await decoder.at(m.details.data, ev, 'local activity marker')
            : undefined;
        const type = data?.activity_type ?? data?.activityType;
        if (type !== ids_1.ACTIVITY_TYPES.describeToolUses)
            continue;
        const result = m?.details?.result
            ? await decoder.at(m.details.result, ev, 'local activity result')
            : undefined;
        if (!Array.isArray(result))
            continue;
        result.forEach((d, i) => {
            const id = d.toolUseId ?? (first && result.length === blocks.length ? blocks[i]?.id : undefined);
            if (id !== undefined && !out.has(id))
                out.set(id, d);
        });
        first = false;
    }
    return out;
}
//# sourceMappingURL=history.js.map