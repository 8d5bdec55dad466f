"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.buildAudit = buildAudit;
const client_1 = require("../client");
const contextWindow_1 = require("../engine/contextWindow");
const ids_1 = require("../engine/ids");
const errors_1 = require("../temporal/errors");
const history_1 = require("./history");
const sessionHooks_1 = require("./sessionHooks");
const tasks_1 = require("./tasks");
const turn_1 = require("./turn");
/** The runs of the session, oldest first: from the latest (or given) run back along continuedExecutionRunId. */
async function sessionRuns(client, sessionId, runId, gaps) {
    let current;
    try {
        current = runId ?? (await (0, history_1.describeRaw)(client, sessionId)).workflowExecutionInfo?.execution?.runId ?? '';
    }
    catch (err) {
        if ((0, errors_1.isWorkflowNotFound)(err))
            throw new client_1.SessionNotFoundError(sessionId);
        throw err;
    }
    const runs = [];
    const seen = new Set();
    while (current && !seen.has(current)) {
        seen.add(current);
        const events = await (0, history_1.fetchEvents)(client, { workflowId: sessionId, runId: current }, 'this run of the session and every run before it (their turns, messages and interrupts)');
        if (!Array.isArray(events)) {
            // The latest run is the session: without it there is no audit. An older run is a gap.
            if (runs.length === 0)
                throw new Error(`cannot read the history of session ${sessionId} (run ${current}): ${events.error}`);
            gaps.push(events);
            break;
        }
        runs.unshift({ runId: current, events });
        const first = events[0];
        current =
            first?.eventType === history_1.ET.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED
                ? (first.workflowExecutionStartedEventAttributes?.continuedExecutionRunId ?? '')
                : '';
    }
    return runs;
}
/** What the session's own histories say: its input, turns, messages, interrupts and how it closed. */
async function readSessionRuns(client, sessionId, runs, gaps) {
    const out = { turnRefs: [], messages: [], interrupts: [] };
    const converter = (0, history_1.converterOf)(client);
    for (const [runIndex, run] of runs.entries()) {
        const decoder = new history_1.HistoryDecoder(converter, { workflowId: sessionId, runId: run.runId }, gaps);
        const initiated = new Map();
        for (const e of run.events) {
            const at = (0, history_1.msOf)(e.eventTime);
            switch (e.eventType) {
                case history_1.ET.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
                    if (runIndex === 0) {
                        const a = e.workflowExecutionStartedEventAttributes;
                        const input = await decoder.at(a?.input, e, 'session input');
                        const sandboxLine = await decoder.one(a?.memo?.fields?.sandbox, e, 'memo sandbox');
                        if (input)
                            out.input = input;
                        if (sandboxLine !== undefined)
                            out.sandboxLine = sandboxLine;
                        if (at !== undefined)
                            out.startedAt = at;
                    }
                    break;
                case history_1.ET.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED: {
                    const workflowId = e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId ?? '';
                    const turn = (0, ids_1.turnOfWorkflowId)(sessionId, workflowId);
                    if (turn === undefined)
                        break;
                    const ref = { turn, run: runIndex, workflowId };
                    initiated.set(String(e.eventId), ref);
                    out.turnRefs.push(ref);
                    break;
                }
                case history_1.ET.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED: {
                    const a = e.childWorkflowExecutionStartedEventAttributes;
                    const ref = initiated.get(String(a?.initiatedEventId));
                    if (ref && a?.workflowExecution?.runId)
                        ref.runId = a.workflowExecution.runId;
                    break;
                }
                case history_1.ET.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_FAILED: {
                    const ref = initiated.get(String(e.startChildWorkflowExecutionFailedEventAttributes?.initiatedEventId));
                    if (ref)
                        out.turnRefs.splice(out.turnRefs.indexOf(ref), 1);
                    break;
                }
                case history_1.ET.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED: {
                    const s = e.workflowExecutionSignaledEventAttributes;
                    if (s?.signalName === ids_1.SIGNALS.sendMessage) {
                        const m = await decoder.at(s.input, e, 'sendMessage signal');
                        if (m && typeof m.text === 'string')
                            out.messages.push({ ...(at !== undefined ? { at: (0, history_1.iso)(at) } : {}), text: m.text });
                    }
                    else if (s?.signalName === ids_1.SIGNALS.interrupt) {
                        const i = (await decoder.at(s.input, e, 'interrupt signal')) ?? {};
                        out.interrupts.push({
                            ...(at !== undefined ? { at: (0, history_1.iso)(at) } : {}),
                            ...(i.by ? { by: i.by } : {}),
                            ...(i.reason ? { reason: i.reason } : {}),
                        });
                    }
                    break;
                }
                case history_1.ET.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED: {
                    const r = await decoder.at(e.workflowExecutionCompletedEventAttributes?.result, e, 'session result');
                    out.closeStatus = r?.status ?? 'completed';
                    if (r?.endReason)
                        out.endReason = r.endReason;
                    if (at !== undefined)
                        out.endedAt = at;
                    break;
                }
                case history_1.ET.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED: {
                    out.closeStatus = 'failed';
                    const reason = (0, history_1.failureText)(e.workflowExecutionFailedEventAttributes?.failure);
                    if (reason)
                        out.endReason = reason;
                    if (at !== undefined)
                        out.endedAt = at;
                    break;
                }
                case history_1.ET.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED:
                case history_1.ET.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT:
                    out.closeStatus = e.eventType === history_1.ET.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED ? 'cancelled' : 'timed_out';
                    if (at !== undefined)
                        out.endedAt = at;
                    break;
                case history_1.ET.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED: {
                    out.closeStatus = 'terminated';
                    const reason = e.workflowExecutionTerminatedEventAttributes?.reason;
                    if (reason)
                        out.endReason = reason;
                    if (at !== undefined)
                        out.endedAt = at;
                    break;
                }
                default:
                    break;
            }
        }
    }
    return out;
}
/** Rebuilds the audit trail of a session from its Temporal histories alone. */
async function buildAudit(client, sessionId, opts = {}) {
    const gaps = [];
    const runs = await sessionRuns(client, sessionId, opts.runId, gaps);
    const s = await readSessionRuns(client, sessionId, runs, gaps);
    const converter = (0, history_1.converterOf)(client);
    // The session's own activities, every run: hook firings (`hook-<event>-<n>`) and background tasks (`task-<id>`).
    const sessionActivities = await Promise.all(runs.map((run) => (0, history_1.trackActivities)(run.events, new history_1.HistoryDecoder(converter, { workflowId: sessionId, runId: run.runId }, gaps))));
    const sessionHooks = sessionActivities.flatMap((acts, i) => (0, sessionHooks_1.sessionHookEntries)(acts, i));
    const turns = await (0, history_1.mapLimit)(s.turnRefs, opts.concurrency ?? 6, (ref) => (0, turn_1.auditTurn)(client, converter, ref, opts, gaps));
    const modelCalls = [];
    const toolCalls = [];
    const compactions = [];
    let usage = { input_tokens: 0, output_tokens: 0 };
    for (const t of turns) {
        if (!t)
            continue;
        if (t.model)
            modelCalls.push(t.model);
        toolCalls.push(...t.tools);
        compactions.push(...t.compactions);
        usage = (0, contextWindow_1.addUsage)(usage, t.usage);
    }
    const tasks = sessionActivities.flatMap((acts, i) => (0, tasks_1.taskEntries)(acts, i, toolCalls));
    let status = s.closeStatus;
    if (!status) {
        const lastTurn = [...turns].reverse().find((t) => t !== undefined);
        if (toolCalls.some((c) => c.status === 'awaiting_approval'))
            status = 'awaiting_approval';
        else if (lastTurn && !lastTurn.open && lastTurn.reason === 'interrupted')
            status = 'interrupted';
        else
            status = 'running';
    }
    // Subagents: each Agent call's child session, audited the same way (the tree: session → agent → …).
    const subagents = [];
    if (opts.subagents !== false) {
        const { runId: _parentRun, ...childOpts } = opts;
        for (const c of toolCalls) {
            if (!c.subagent)
                continue;
            try {
                subagents.push(await buildAudit(client, c.subagent, childOpts));
            }
            catch (err) {
                // A child that never started (denied, interrupted before it ran) is no gap: the call's own entry says so.
                const neverStarted = err instanceof client_1.SessionNotFoundError &&
                    c.status !== 'ok' &&
                    !c.activities.some((a) => a.activityId === ids_1.activityIds.agentPost(c.toolUseId));
                if (!neverStarted)
                    gaps.push({
                        kind: 'gap',
                        what: 'history',
                        workflowId: c.subagent,
                        turn: c.turn,
                        error: err instanceof Error ? err.message : String(err),
                        missing: `the subagent session of ${c.toolUseId} (its model and tool calls)`,
                    });
            }
        }
    }
    // Turns are read concurrently: report the gaps in history order (the session's first, then by turn and event).
    gaps.sort((a, b) => (a.turn ?? -1) - (b.turn ?? -1) || (a.eventId ?? 0) - (b.eventId ?? 0));
    const input = s.input;
    const session = {
        kind: 'session',
        sessionId,
        prompt: input?.prompt ?? '',
        ...(input?.model?.model ? { model: input.model.model } : {}),
        ...(input?.cwd ? { cwd: input.cwd } : {}),
        ...(input?.permissionMode ? { permissionMode: input.permissionMode } : {}),
        ...(typeof s.sandboxLine === 'string' ? { sandbox: s.sandboxLine } : {}),
        ...(input?.sandbox ? { sandboxSettings: input.sandbox } : {}),
        ...(input?.settingsSources ? { settingsSources: input.settingsSources } : {}),
        ...(input?.memory ? { memory: { files: input.memory.files, sha256: input.memory.sha256 } } : {}),
        status,
        ...(s.endReason ? { endReason: s.endReason } : {}),
        runs: runs.length,
        runIds: runs.map((r) => r.runId),
        turns: s.turnRefs.length,
        ...(s.startedAt !== undefined ? { startedAt: (0, history_1.iso)(s.startedAt) } : {}),
        ...(s.endedAt !== undefined ? { endedAt: (0, history_1.iso)(s.endedAt) } : {}),
        usage,
        ...(compactions.length ? { compactions: compactions.length } : {}),
        toolCalls: toolCalls.length,
        modelCalls: modelCalls.length,
        ...(tasks.length ? { tasks: tasks.length } : {}),
        messages: s.messages,
        interrupts: s.interrupts,
        ...(gaps.length ? { gaps: gaps.length } : {}),
    };
    return {
        session,
        ...(gaps.length ? { gaps } : {}),
        modelCalls,
        toolCalls,
        ...(compactions.length ? { compactions } : {}),
        ...(sessionHooks.length ? { sessionHooks } : {}),
        ...(tasks.length ? { tasks } : {}),
        ...(subagents.length ? { subagents } : {}),
    };
}
//# sourceMappingURL=session.js.map