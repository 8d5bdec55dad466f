"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.sessionWorkflow = sessionWorkflow;
// The session workflow: one per job. The loop's decisions (limits, end reasons, follow-ups,
// interrupts, token accounting) are the engine's `runSession`; this file supplies its Temporal
// executor. The workflow's sequence:
//   1. check the input's shape (a bad input fails the workflow before anything runs);
//   2. the state: carried from the previous run (continue-as-new) or fresh;
//   3. the handlers (status/head queries, follow-ups, interrupts, approvals, outages): `SessionRun`;
//   4. store the tool settings once per run (patched), so that turns carry a reference;
//   5. `runSession`: each turn a child workflow `<session>/turn-<n>`, the idle wait a durable condition;
//   6. at a turn boundary past the run's history budget: drain the handlers and continue-as-new;
//      else finish (ended, stopped, failed, or cancelled) and say why.
const memory_1 = require("../engine/memory");
const ids_1 = require("../engine/ids");
const workflow_1 = require("@temporalio/workflow");
const common_1 = require("@temporalio/common");
const context_1 = require("../engine/context");
const retry_1 = require("../engine/retry");
const toolSettings_1 = require("./toolSettings");
const subagents_1 = require("../engine/subagents");
const hooks_1 = require("../engine/hooks");
const schedulerGlue_1 = require("../engine/schedulerGlue");
const session_1 = require("../engine/session");
const definitions_1 = require("./definitions");
const turn_1 = require("./turn");
const inputShape_1 = require("./inputShape");
const sessionTimers_1 = require("./sessionTimers");
const sessionTasks_1 = require("./sessionTasks");
const toolSettings_2 = require("./toolSettings");
const turnInput_1 = require("./turnInput");
const statusKey = (0, common_1.defineSearchAttributeKey)(definitions_1.STATUS_SEARCH_ATTRIBUTE, 'KEYWORD');
// Content-addressed and idempotent (running it again on replay elsewhere is right).
const toolSettingsStore = (0, workflow_1.proxyLocalActivities)({
    startToCloseTimeout: '1 minute',
    retry: { initialInterval: '1 second', maximumAttempts: 3 },
});
/** Session-level hooks: one activity `hook-<event>-<n>` per firing, on the session's tool task queue. */
function hookActivities(input, event, n) {
    return (0, workflow_1.proxyActivities)({
        activityId: ids_1.activityIds.hook(event, n),
        summary: `${event} hooks`,
        // A hook's own timeout is at most what the settings say (default 600 s): this only catches a lost worker.
        startToCloseTimeout: '11 minutes',
        retry: { initialInterval: '1 second', maximumAttempts: 3 },
        ...(input.toolTaskQueue ? { taskQueue: input.toolTaskQueue } : {}),
    });
}
const DEFAULT_MAX_HISTORY_BYTES = 2 * 1024 * 1024;
/** Under CHECKPOINT_OWN_SIZE_PATCH: what the run's events cost besides the payloads it counts, per turn. */
const EVENT_OVERHEAD_BYTES_PER_TURN = 2048;
/** Under CHECKPOINT_OWN_SIZE_PATCH: a run continues-as-new after this many turns, whatever their size. */
const MAX_TURNS_PER_RUN = 500;
const jsonBytes = (v) => (v === undefined ? 0 : JSON.stringify(v).length);
const toolCallsOf = (state) => Object.values(state.toolCallCounts).reduce((a, b) => a + (b ?? 0), 0);
async function sessionWorkflow(input, carry) {
    const problems = (0, inputShape_1.sessionInputShapeProblems)(input);
    if (problems.length > 0)
        throw workflow_1.ApplicationFailure.nonRetryable(`invalid session input: ${problems.join('; ')}`, 'INVALID_SESSION_INPUT');
    const session = new SessionRun(input, carry);
    session.register();
    try {
        // A subagent fires the reference's subagent events (patched: a child session recorded before fired SessionStart/Stop).
        const subagentEvents = !!input.parent && hooks_1.SESSION_HOOK_EVENT_NAMES.some((e) => session.hasHooks(e)) && (0, workflow_1.patched)(definitions_1.SUBAGENT_HOOKS_PATCH);
        // SessionStart with source compact/resume (patched: a session recorded before fired it once, at startup).
        const startSources = !input.parent && session.hasHooks('SessionStart') && (0, workflow_1.patched)(definitions_1.SESSION_START_SOURCES_PATCH);
        // Decided once per run, not where the race happens (its side depends on the order of one activation's jobs).
        session.queuedWakes = (0, workflow_1.patched)(definitions_1.QUEUED_AFTER_TURN_PATCH);
        await session.storeToolSettings();
        const outcome = await (0, session_1.runSession)(session.state, (0, session_1.sessionConfig)(input, subagentEvents, startSources), session);
        if (outcome.kind === 'checkpoint')
            return await (0, workflow_1.continueAsNew)(input, session.state);
        // Background tasks still running when the session ends are stopped (killed, no notification).
        await session.tasks.stopAll();
        const result = session.finish(outcome.status, outcome.endReason);
        if (outcome.status === 'failed')
            throw workflow_1.ApplicationFailure.nonRetryable(`session failed: ${outcome.endReason}`, 'TURN_FAILED');
        return result;
    }
    catch (err) {
        if ((0, workflow_1.isCancellation)(err)) {
            await workflow_1.CancellationScope.nonCancellable(async () => {
                session.finish('cancelled', session_1.END_REASONS.cancelled);
            });
        }
        throw err;
    }
}
/**
 * One run of a session: its state, its handlers (as methods), and the engine's executor. Where
 * things live:
 * - `state` (the engine's `SessionState`, carried across continue-as-new): the transcript head,
 *   usage, and `state.pendingMessages`, the messages waiting to enter the next turn (follow-ups
 *   now; anything else that should start a turn goes there too, so it survives a checkpoint);
 * - the running turn (`child`, `runningTurn`) and what it asked of the session (approvals, outage);
 * - `waitForMessage`: the one idle wait between turns; `hasWork` is what wakes it.
 */
class SessionRun {
    input;
    state;
    sessionId;
    /** The bytes this run put into history and took out of it (CHECKPOINT_OWN_SIZE_PATCH): deterministic. */
    ownHistoryBytes;
    status;
    phase = 'starting';
    interruptRequested = false;
    endReason;
    lastTurn;
    child;
    runningTurn;
    outage;
    toolSettingsRef;
    pendingApprovals = new Map();
    approvalOutcomes = new Map();
    hookCounts = new Map();
    /** Inside a subagent every hook input carries the parent's session_id and the agent (as the reference). */
    agentHooks;
    /** The wait for the session's own work (wake-up, cron jobs, background tasks) and `stop`. */
    timers;
    /** The session's background tasks, each its own activity (sessionTasks.ts). */
    tasks;
    /** QUEUED_AFTER_TURN_PATCH, read at the start of the run. */
    queuedWakes = false;
    constructor(input, carry) {
        this.input = input;
        this.ownHistoryBytes = jsonBytes(input) + jsonBytes(carry);
        const info = (0, workflow_1.workflowInfo)();
        this.sessionId = info.workflowId;
        this.state = carry
            ? (0, session_1.migrateSessionState)(carry)
            : (0, session_1.initialSessionState)((0, memory_1.firstMessage)(input.prompt, input.memory), (0, context_1.initialContext)(input.cwd, input.additionalDirectories ?? []));
        if (carry)
            this.state.runs = carry.runs + 1;
        else if ((0, memory_1.memoryRefOf)(input.memory))
            this.state.memoryRef = (0, memory_1.memoryRefOf)(input.memory);
        // The zone cron jobs and wake-ups read, fixed for the session (a carried context keeps its own).
        if (!carry && input.timeZone)
            this.state.context.timeZone = input.timeZone;
        // The ledger key is the session's first run id (continue-as-new keeps it): unique even when a
        // new session reuses the workflow id. A run carried from before keys stay on the workflow id.
        this.state.ledgerKey ??= carry ? this.sessionId : info.firstExecutionRunId;
        this.agentHooks = input.parent ? (0, subagents_1.agentHookFields)(input.parent, this.sessionId) : undefined;
        this.tasks = new sessionTasks_1.SessionTasks(this.state, input, () => (0, toolSettings_2.toolSession)((0, turnInput_1.turnWorkflowInput)(input, this.state, this.turnRun(this.state.turn, []))), () => this.timers.poke());
        this.timers = new sessionTimers_1.SessionTimers(this.state, () => this.hasWork(), () => this.tasks.sync());
    }
    register() {
        (0, workflow_1.setHandler)(definitions_1.statusQuery, () => this.statusView());
        (0, workflow_1.setHandler)(definitions_1.transcriptHeadQuery, () => this.state.head);
        (0, workflow_1.setHandler)(definitions_1.sendMessageSignal, ({ text }) => {
            if (typeof text === 'string' && text.trim() !== '')
                this.state.pendingMessages.push(text);
        });
        (0, workflow_1.setHandler)(definitions_1.interruptSignal, () => this.onInterrupt());
        (0, workflow_1.setHandler)(definitions_1.stopSignal, () => this.timers.requestStop());
        this.tasks.monitors.register();
        (0, workflow_1.setHandler)(definitions_1.approvalPendingSignal, (p) => this.onApprovalPending(p));
        (0, workflow_1.setHandler)(definitions_1.outageSignal, (o) => this.onOutage(o ?? undefined));
        (0, workflow_1.setHandler)(definitions_1.approvalResolvedSignal, ({ toolUseId, decision, source }) => this.onApprovalResolved(toolUseId, decision, source));
        const validator = (req) => this.validateDecision(req);
        (0, workflow_1.setHandler)(definitions_1.approveUpdate, (req) => this.resolveApproval('approve', req), { validator });
        (0, workflow_1.setHandler)(definitions_1.denyUpdate, (req) => this.resolveApproval('deny', req), { validator });
    }
    // --- Handlers ---
    statusView() {
        const { state, lastTurn, outage, endReason, child } = this;
        return {
            sessionId: this.sessionId,
            status: this.status ?? 'running',
            turn: state.turn,
            phase: this.pendingApprovals.size > 0 ? 'awaiting_approval' : this.phase,
            pendingApprovals: [...this.pendingApprovals.values()],
            usage: state.usage,
            head: state.head,
            toolCalls: toolCallsOf(state),
            toolCallCounts: state.toolCallCounts,
            context: { cwd: state.context.cwd, additionalDirectories: state.context.additionalDirectories },
            runs: state.runs,
            lastText: state.lastText,
            ...(state.hookNotices?.length ? { hookNotices: state.hookNotices } : {}),
            ...(lastTurn ? { lastTurn } : {}),
            ...(outage ? { outage } : {}),
            ...(endReason ? { endReason } : {}),
            ...(child ? { currentTurnWorkflowId: child.workflowId } : {}),
            ...(state.compactions?.length ? { compactions: state.compactions } : {}),
            ...(state.view ? { contextTokens: state.view.baseline.tokens } : {}),
            ...(state.controlWrites?.length ? { controlWrites: state.controlWrites } : {}),
            ...(state.context.autonomy ? { autonomy: state.context.autonomy } : {}),
            ...(this.timers.waiting() ? { waiting: this.timers.waiting() } : {}),
            ...(this.timers.stopRequested ? { stopRequested: true } : {}),
        };
    }
    onInterrupt() {
        this.interruptRequested = true;
        if (this.child) {
            const c = this.child;
            void workflow_1.CancellationScope.nonCancellable(() => c.signal(definitions_1.turnInterruptSignal)).catch(() => undefined);
        }
    }
    async onApprovalPending(p) {
        this.pendingApprovals.set(p.toolUseId, p);
        this.setStatus('awaiting_approval');
        // A call waits for a human: Notification hooks may page one (the handler, not the turn, waits for them).
        const notified = (0, schedulerGlue_1.notifyApprovalPending)(this, p.toolName, this.state.head);
        if (notified)
            await notified;
    }
    onOutage(o) {
        this.outage = o;
        (0, workflow_1.setCurrentDetails)(o ? (0, retry_1.describeOutage)(o, Date.now()) : '');
        if (o)
            this.setStatus('waiting_for_model');
        else if (this.status === 'waiting_for_model')
            this.setStatus(this.pendingApprovals.size > 0 ? 'awaiting_approval' : 'running');
    }
    onApprovalResolved(toolUseId, decision, source) {
        if (decision) {
            this.approvalOutcomes.set(toolUseId, { decision, ...(source ? { source } : {}) });
            // Bounded: an outcome is read by a racing approve/deny at once, or never.
            if (this.approvalOutcomes.size > 100)
                this.approvalOutcomes.delete(this.approvalOutcomes.keys().next().value);
        }
        this.pendingApprovals.delete(toolUseId);
        if (this.pendingApprovals.size === 0 && this.status === 'awaiting_approval')
            this.setStatus('running');
    }
    validateDecision(req) {
        const pending = this.pendingApprovals;
        if (req.toolUseId !== undefined && !pending.has(req.toolUseId)) {
            // Decided a moment ago (the approval timed out, the turn was interrupted): say what counted.
            const decided = this.approvalOutcomes.get(req.toolUseId);
            if (decided)
                throw new Error(`tool call ${req.toolUseId} is no longer waiting for approval: ${(0, definitions_1.approvalAnswer)(req.toolUseId, 'approve', decided).outcome ?? 'it was decided'}`);
            const open = [...pending.keys()];
            throw new Error(`tool call ${req.toolUseId} is not waiting for approval${open.length ? ` (pending: ${open.join(', ')})` : ' (nothing is pending)'}`);
        }
        if (req.toolUseId === undefined && pending.size !== 1) {
            throw new Error(pending.size === 0
                ? 'nothing is waiting for approval'
                : `several calls are pending; name one of: ${[...pending.keys()].join(', ')}`);
        }
    }
    async resolveApproval(decision, req) {
        const toolUseId = req.toolUseId ?? [...this.pendingApprovals.keys()][0];
        if (!toolUseId || !this.pendingApprovals.has(toolUseId) || !this.child)
            throw workflow_1.ApplicationFailure.nonRetryable(`no pending approval ${req.toolUseId ?? ''}`.trim(), 'NOT_PENDING');
        this.pendingApprovals.delete(toolUseId);
        const turn = this.runningTurn;
        await this.child.signal(definitions_1.turnApprovalSignal, {
            toolUseId,
            decision,
            ...(req.by ? { by: req.by } : {}),
            ...(req.reason ? { reason: req.reason } : {}),
        });
        if (this.pendingApprovals.size === 0 && this.status === 'awaiting_approval')
            this.setStatus('running');
        if (!(0, workflow_1.patched)(definitions_1.APPROVAL_OUTCOME_PATCH))
            return { toolUseId, decision };
        // The turn may have decided otherwise meanwhile (the approval timed out): answer what counted.
        await (0, workflow_1.condition)(() => this.approvalOutcomes.has(toolUseId) || this.runningTurn !== turn);
        const actual = this.approvalOutcomes.get(toolUseId);
        this.approvalOutcomes.delete(toolUseId);
        return (0, definitions_1.approvalAnswer)(toolUseId, decision, actual);
    }
    // --- Stages ---
    setStatus(next) {
        if (next === this.status)
            return;
        this.status = next;
        if (this.input.useSearchAttributes)
            (0, workflow_1.upsertSearchAttributes)([{ key: statusKey, value: next }]);
    }
    /** The tool settings, stored once per run: tool activities carry the reference (patched: runs recorded before sent them inline). */
    async storeToolSettings() {
        if (!(0, workflow_1.patched)(definitions_1.TOOL_SETTINGS_REF_PATCH))
            return;
        try {
            this.toolSettingsRef = await toolSettingsStore.storeToolSettings((0, toolSettings_1.storedToolSettings)(this.input));
        }
        catch (err) {
            if ((0, workflow_1.isCancellation)(err))
                throw err;
            // The store refused: the turns send the settings inline, as before the patch.
        }
    }
    finish(s, reason) {
        const state = this.state;
        this.endReason = reason;
        this.phase = 'ended';
        this.setStatus(s);
        return {
            status: s,
            turns: state.turn,
            usage: state.usage,
            head: state.head,
            lastText: state.lastText,
            endReason: reason,
            toolCalls: toolCallsOf(state),
            ...(state.lastUsage ? { lastUsage: state.lastUsage } : {}),
            ...(state.controlWrites?.length ? { controlWrites: state.controlWrites } : {}),
        };
    }
    // --- The engine's executor (SessionExecutor) ---
    /** What the turn's input (and a background task's tool session) is built from. */
    turnRun(turn, append) {
        return {
            sessionId: this.sessionId,
            turn,
            append,
            agentHooks: this.agentHooks,
            toolSettingsRef: this.toolSettingsRef,
        };
    }
    async runTurn(turn, append) {
        this.runningTurn = turn;
        // Tasks the last turn recorded start now; ends that came while it ran are in the context again.
        this.tasks.beforeTurn();
        const turnInput = (0, turnInput_1.turnWorkflowInput)(this.input, this.state, this.turnRun(turn, append));
        this.ownHistoryBytes += jsonBytes(turnInput);
        this.child = await (0, workflow_1.startChild)(turn_1.turnWorkflow, {
            workflowId: (0, ids_1.turnWorkflowId)(this.sessionId, turn),
            staticSummary: `Turn ${turn}${firstTextOf(append)}`,
            args: [turnInput],
        });
        // An interrupt that arrived while the child was starting: forward it now (the engine sees it after the turn).
        if (this.interruptRequested)
            await this.child.signal(definitions_1.turnInterruptSignal);
        let result;
        try {
            result = await this.child.result();
        }
        catch (err) {
            if (err instanceof workflow_1.ChildWorkflowFailure && !(0, workflow_1.isCancellation)(err)) {
                this.child = undefined;
                const s = this.state;
                const error = err.cause?.message ?? err.message;
                return {
                    reason: 'failed',
                    consumedAppend: false,
                    head: s.head,
                    context: s.context,
                    records: [],
                    text: '',
                    error,
                };
            }
            throw err;
        }
        finally {
            this.child = undefined;
            this.runningTurn = undefined;
        }
        return this.turnEnded(result);
    }
    /** A turn's result: what the status shows of it; approvals and outages end with the turn. */
    turnEnded(result) {
        this.ownHistoryBytes += jsonBytes(result);
        this.pendingApprovals.clear();
        if (this.outage) {
            this.outage = undefined;
            (0, workflow_1.setCurrentDetails)('');
        }
        this.lastTurn = {
            turn: result.turn,
            reason: result.reason,
            records: result.records,
            batches: result.batches,
            ...(result.usage ? { usage: result.usage } : {}),
            fallback: result.fallback,
            text: result.text,
        };
        if (this.status === 'awaiting_approval')
            this.setStatus('running');
        return { ...result, reason: result.reason };
    }
    takeInterrupt() {
        const was = this.interruptRequested;
        this.interruptRequested = false;
        return was;
    }
    /** Is there anything for the next turn? The idle wait's wake-up: a new wake source joins here. */
    hasWork() {
        return this.state.pendingMessages.length > 0;
    }
    /** The idle wait between turns (after an interrupt): a durable condition, false after `timeoutMs`. */
    waitForMessage(timeoutMs) {
        return (0, workflow_1.condition)(() => this.hasWork(), timeoutMs);
    }
    /**
     * A task's notification queued after the turn ended the session (the task ended in the same
     * activation as the turn, or while Stop hooks ran): run a turn for it (patched, at the run's start:
     * a run recorded before ended the session there, its notification unread).
     */
    wakesForQueued() {
        return this.queuedWakes;
    }
    /** The engine's wait for the session's own work (sessionTimers.ts). */
    waitForWork() {
        return this.timers.waitForWork();
    }
    shouldCheckpoint(turnsThisRun) {
        // A background task's activity cannot cross continue-as-new: the run goes on while one runs.
        if (this.tasks.active())
            return false;
        const limit = this.input.maxHistoryBytesPerRun ?? DEFAULT_MAX_HISTORY_BYTES;
        if ((0, workflow_1.patched)(definitions_1.CHECKPOINT_OWN_SIZE_PATCH))
            return (turnsThisRun >= MAX_TURNS_PER_RUN || this.ownHistoryBytes + turnsThisRun * EVENT_OVERHEAD_BYTES_PER_TURN > limit);
        const now = (0, workflow_1.workflowInfo)();
        return now.continueAsNewSuggested || now.historySize > limit;
    }
    drain() {
        return (0, workflow_1.condition)(workflow_1.allHandlersFinished);
    }
    onStatus(s, p) {
        this.phase = p;
        this.setStatus(s);
    }
    /** Session-level hooks are scheduled only when the session configures some for the event (histories without them replay unchanged). */
    hasHooks(event) {
        const list = this.input.hooks?.[event];
        return Array.isArray(list) && list.length > 0;
    }
    async runHooks(event, fields, head) {
        const n = (this.hookCounts.get(event) ?? 0) + 1;
        this.hookCounts.set(event, n);
        const input = this.input;
        try {
            const r = await hookActivities(input, event, n).runSessionHooks({
                event,
                sessionId: this.sessionId,
                cwd: this.state.context.cwd,
                permissionMode: input.permissionMode,
                head,
                hooks: input.hooks,
                fields,
                ...(this.agentHooks ? { agentHookFields: this.agentHooks } : {}),
            });
            return r.runs;
        }
        catch (err) {
            if ((0, workflow_1.isCancellation)(err))
                throw err;
            return (0, schedulerGlue_1.hookFailureRuns)(event, err);
        }
    }
}
/** The staticSummary's tail: the turn's first words. */
function firstTextOf(append) {
    if (append.length === 0)
        return '';
    return `: ${(0, definitions_1.oneLinePreview)(append.map((m) => (typeof m.content === 'string' ? m.content : '')).join(' / '), 60)}`;
}
//# sourceMappingURL=session.js.map