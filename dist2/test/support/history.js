"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.eventBytes = eventBytes;
exports.historyBytes = historyBytes;
exports.sessionRuns = sessionRuns;
exports.sessionBytesPerTurn = sessionBytesPerTurn;
exports.turnBytes = turnBytes;
exports.fmtBytes = fmtBytes;
exports.toolCallIdentities = toolCallIdentities;
const proto_1 = require("@temporalio/proto");
const EventType = proto_1.temporal.api.enums.v1.EventType;
function eventBytes(e) {
    return proto_1.temporal.api.history.v1.HistoryEvent.encode(e).finish().length;
}
/** Encoded size of a whole history, as the server counts it (sum of its events). */
function historyBytes(h) {
    return proto_1.temporal.api.history.v1.History.encode(h).finish().length;
}
/** Every run of a workflow id, oldest first, following ContinuedAsNew from the first run. */
async function sessionRuns(client, workflowId, firstRunId) {
    const runs = [];
    let runId = firstRunId;
    while (runId) {
        const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
        runs.push({ runId, history, bytes: historyBytes(history), events: history.events?.length ?? 0 });
        const last = history.events?.[history.events.length - 1];
        runId =
            last?.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW
                ? (last.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined)
                : undefined;
    }
    return runs;
}
/** Bytes of session-run history attributable to each turn, by the turn's child workflow id `<session>/turn-N`. */
function sessionBytesPerTurn(runs, sessionId) {
    const out = new Map();
    runs.forEach((run, runIndex) => {
        let current;
        for (const e of run.history.events ?? []) {
            if (e.eventType === EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED) {
                const id = e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId ?? '';
                const m = id.startsWith(`${sessionId}/turn-`) ? /\/turn-(\d+)$/.exec(id) : null;
                if (m)
                    current = Number(m[1]);
            }
            if (current === undefined)
                continue;
            const entry = out.get(current) ?? { run: runIndex, bytes: 0 };
            entry.bytes += eventBytes(e);
            out.set(current, entry);
        }
    });
    return out;
}
async function turnBytes(client, sessionId, runs, turns) {
    const perTurn = sessionBytesPerTurn(runs, sessionId);
    const out = [];
    for (const turn of turns) {
        const child = await client.workflow.getHandle(`${sessionId}/turn-${turn}`).fetchHistory();
        const s = perTurn.get(turn);
        if (!s)
            throw new Error(`turn ${turn} not found in the session's history`);
        const childBytes = historyBytes(child);
        out.push({ turn, run: s.run, sessionBytes: s.bytes, childBytes, total: s.bytes + childBytes });
    }
    return out;
}
function fmtBytes(n) {
    if (n >= 1024 * 1024)
        return `${(n / (1024 * 1024)).toFixed(2)} MiB`;
    if (n >= 1024)
        return `${(n / 1024).toFixed(1)} KiB`;
    return `${n} B`;
}
/**
 * Which worker ran each tool call of a workflow (a turn): tool_use id → the identity on the
 * ActivityTaskStarted event of the activity whose input carries that block (any activity type:
 * the tool activities take `{ block: { id } }`). The last attempt's identity wins.
 */
async function toolCallIdentities(client, workflowId) {
    const history = await client.workflow.getHandle(workflowId).fetchHistory();
    const blockOf = new Map();
    const out = {};
    for (const e of history.events ?? []) {
        const id = Number(e.eventId ?? 0);
        const scheduled = e.activityTaskScheduledEventAttributes;
        if (scheduled) {
            const data = scheduled.input?.payloads?.[0]?.data;
            if (!data)
                continue;
            try {
                const arg = JSON.parse(Buffer.from(data).toString('utf8'));
                if (typeof arg.block?.id === 'string')
                    blockOf.set(id, arg.block.id);
            }
            catch {
                // not a JSON payload: not a tool call
            }
        }
        const started = e.activityTaskStartedEventAttributes;
        if (started) {
            const block = blockOf.get(Number(started.scheduledEventId ?? 0));
            if (block)
                out[block] = started.identity ?? '';
        }
    }
    return out;
}
//# sourceMappingURL=history.js.map