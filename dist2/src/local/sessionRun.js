"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.LocalSessionRun = void 0;
// An in-process session's state and handlers, the peer of the session workflow's `SessionRun`: the
// engine's `runSession` decides, this class supplies its executor (turns, the idle wait, hooks,
// approvals, store outages) and answers the handle's calls (send, interrupt, status).
const memory_1 = require("../engine/memory");
const node_crypto_1 = require("node:crypto");
const context_1 = require("../engine/context");
const retry_1 = require("../engine/retry");
const schedulerGlue_1 = require("../engine/schedulerGlue");
const session_1 = require("../engine/session");
const sessionInput_1 = require("../sessionInput");
const workerDeps_1 = require("../workerDeps");
const subagents_1 = require("./subagents");
const store_1 = require("./store");
const tasks_1 = require("./tasks");
const timers_1 = require("./timers");
const turn_1 = require("./turn");
class LocalSessionRun {
    opts;
    input;
    sessionId;
    deps;
    session;
    state;
    priorRecords = new Map();
    agentsReady;
    runSubagent;
    /** Background agents launched by Agent calls, by task id: tasks.ts runs each when it starts its task. */
    agentLaunches = new Map();
    approvalTimeoutMs;
    allRecords = [];
    turnsDetail = [];
    /** The last model text, whole (state.lastText is its one-line preview): a subagent's result. */
    finalText = '';
    pendingApprovals = new Map();
    status = 'running';
    phase = 'starting';
    endReason;
    interruptRequested = false;
    turnAbort;
    wakeWaiter;
    outage;
    calls = 0;
    /** Notification hook firings still running: the session ends after them. */
    notifications = new Set();
    /** Wake-ups and cron firings between turns, and stop (timers.ts; the workflow's SessionTimers). */
    timers;
    /** Background tasks (Bash run_in_background, Monitor) run in this process (tasks.ts; the workflow's SessionTasks). */
    tasks;
    /** The session's store: the caller's, or a temporary one removed at the end (store.ts). */
    store;
    worker;
    constructor(opts, worker, runChild) {
        this.opts = opts;
        const input = (0, sessionInput_1.checkSessionInput)((0, sessionInput_1.sessionInput)(opts));
        this.input = input;
        this.sessionId = opts.sessionId ?? `local-${(0, node_crypto_1.randomUUID)()}`;
        this.store = (0, store_1.localStore)(worker);
        this.worker = this.store.worker;
        try {
            this.deps = (0, workerDeps_1.createAgentActivities)(this.worker);
        }
        catch (err) {
            (0, store_1.disposeNow)(this.store);
            throw err;
        }
        const session = (0, subagents_1.localToolSession)(input, this.sessionId);
        this.session = session;
        this.approvalTimeoutMs = input.approvalTimeoutMs ?? session_1.DEFAULT_APPROVAL_TIMEOUT_MS;
        // Subagents: in-process child sessions — the same algorithm as the child workflows. Agent files are read once, at start.
        this.agentsReady =
            input.tools.includes('Agent') && !input.parent
                ? (0, sessionInput_1.withAgents)(input).then((i) => void (i.agents && (session.agents = i.agents)))
                : Promise.resolve();
        this.agentsReady.catch(() => undefined); // reported by the first model call that awaits it
        this.runSubagent = (0, subagents_1.localSubagentRunner)({
            input,
            sessionId: this.sessionId,
            session,
            approvalTimeoutMs: this.approvalTimeoutMs,
            ...(opts.onAsk ? { onAsk: opts.onAsk } : {}),
        }, 
        // A child session writes into its parent's store (never a temporary one of its own).
        (child) => runChild(child, this.worker), this.agentLaunches);
        this.state = (0, session_1.initialSessionState)((0, memory_1.firstMessage)(input.prompt, input.memory), (0, context_1.initialContext)(input.cwd, input.additionalDirectories ?? []));
        if ((0, memory_1.memoryRefOf)(input.memory))
            this.state.memoryRef = (0, memory_1.memoryRefOf)(input.memory);
        // The zone cron jobs and wake-ups read, fixed for the session (as the session workflow does).
        if (input.timeZone)
            this.state.context.timeZone = input.timeZone;
        this.tasks = new tasks_1.LocalTasks(this, () => this.timers.poke());
        this.timers = new timers_1.LocalTimers(this.state, opts.clock, () => this.tasks.scheduling.sync());
    }
    // --- The turn's host (src/local/turn.ts) ---
    runtime(signal, key) {
        return {
            signal,
            heartbeat: () => undefined,
            attempt: 1,
            callKey: `${this.sessionId}/${key}`,
            warn: () => undefined,
        };
    }
    nextToolKey(toolUseId) {
        return `tool-${toolUseId}-${++this.calls}`;
    }
    onTurnOutage(o) {
        this.outage = o;
        if (o)
            this.status = 'waiting_for_model';
        else if (this.status === 'waiting_for_model')
            this.status = 'running';
    }
    onTurnEnd(turn, outcome) {
        this.opts.onTurn?.(turn, outcome);
        this.turnsDetail.push({
            turn,
            reason: outcome.reason,
            batches: outcome.batches,
            ...(outcome.discarded ? { discarded: outcome.discarded } : {}),
        });
        for (const r of outcome.records) {
            if (!r.reused)
                this.priorRecords.set(r.toolUseId, r);
            this.allRecords.push(r);
        }
    }
    onText(text) {
        if (text.trim() !== '')
            this.finalText = text;
    }
    async ask(block, message, description, signal) {
        if (signal.aborted)
            return 'interrupted';
        const onAsk = this.opts.onAsk;
        if (!onAsk)
            return {
                decision: 'deny',
                source: 'unattended',
                reason: 'No approver is attached to this in-process session (pass onAsk); denied by default.',
            };
        this.pendingApprovals.set(block.id, {
            turn: this.state.turn,
            toolUseId: block.id,
            toolName: block.name,
            summary: description.summary,
            message,
            since: Date.now(),
        });
        this.status = 'awaiting_approval';
        // A call waits for a human: Notification hooks may page one. As in the session workflow (an
        // async signal handler) the wait does not wait for them, and the session ends only after them.
        const notified = (0, schedulerGlue_1.notifyApprovalPending)(this.executor, block.name, this.state.head);
        if (notified) {
            this.notifications.add(notified);
            void notified.finally(() => this.notifications.delete(notified));
        }
        let timer;
        let onAbort;
        const timeoutMs = this.approvalTimeoutMs;
        try {
            return await Promise.race([
                onAsk({ toolUseId: block.id, toolName: block.name, summary: description.summary, message }),
                new Promise((resolve) => {
                    timer = setTimeout(() => resolve((0, schedulerGlue_1.approvalTimeoutDenial)(timeoutMs)), timeoutMs);
                }),
                new Promise((resolve) => {
                    onAbort = () => resolve('interrupted');
                    signal.addEventListener('abort', onAbort, { once: true });
                }),
            ]);
        }
        finally {
            clearTimeout(timer);
            if (onAbort)
                signal.removeEventListener('abort', onAbort);
            this.pendingApprovals.delete(block.id);
            if (this.pendingApprovals.size === 0 && this.status === 'awaiting_approval')
                this.status = 'running';
        }
    }
    /** A store write that waits out outages as the turn workflow's does (not interruptible: it records what happened). */
    storeCall(call) {
        return (0, schedulerGlue_1.waitOutStoreOutage)(call, {
            policy: (0, retry_1.retryPolicy)(this.input),
            now: () => Date.now(),
            sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
            // In-process every store failure is an outage: the cores throw plain errors.
            classify: (err) => ({ kind: 'store', message: err instanceof Error ? err.message : String(err) }),
            onOutage: (o) => {
                if (o) {
                    this.outage = o;
                    this.status = 'waiting_for_model';
                }
                else if (this.outage?.what === 'store') {
                    this.outage = undefined;
                    if (this.status === 'waiting_for_model')
                        this.status = 'running';
                }
            },
            giveUp: (reason) => new Error(reason),
        });
    }
    // --- The engine's session executor ---
    /** One turn, as the turn workflow runs it (src/local/turn.ts). */
    async runTurn(turn, append) {
        // Tasks the last turn recorded start now; ends that came while it ran are in the context again.
        this.tasks.scheduling.beforeTurn();
        const t = new turn_1.LocalTurn(this, turn, append);
        this.turnAbort = t.abort;
        try {
            return await t.run();
        }
        finally {
            this.turnAbort = undefined;
        }
    }
    waitForMessage(timeoutMs) {
        return new Promise((resolve) => {
            if (this.state.pendingMessages.length > 0)
                return resolve(true);
            const timer = setTimeout(() => {
                this.wakeWaiter = undefined;
                resolve(false);
            }, timeoutMs);
            this.wakeWaiter = () => {
                clearTimeout(timer);
                this.wakeWaiter = undefined;
                resolve(true);
            };
        });
    }
    executor = {
        runTurn: (turn, append) => this.runTurn(turn, append),
        takeInterrupt: () => {
            const was = this.interruptRequested;
            this.interruptRequested = false;
            return was;
        },
        waitForMessage: (timeoutMs) => this.waitForMessage(timeoutMs),
        waitForWork: () => this.timers.waitForWork(),
        // A task's notification (a Monitor's event or end) queued after the turn ended the session, while
        // Stop hooks ran: a turn for it, as the session workflow does since patched('queued-after-turn').
        wakesForQueued: () => true,
        onStatus: (s, p) => {
            this.status = s;
            this.phase = p;
        },
        hasHooks: (event) => {
            const list = this.input.hooks?.[event];
            return Array.isArray(list) && list.length > 0;
        },
        runHooks: async (event, fields, head) => {
            try {
                const r = await this.deps.runSessionHooks({
                    event,
                    sessionId: this.sessionId,
                    cwd: this.state.context.cwd,
                    permissionMode: this.input.permissionMode,
                    head,
                    hooks: this.input.hooks,
                    fields,
                    ...(this.session.agentHookFields ? { agentHookFields: this.session.agentHookFields } : {}),
                });
                return r.runs;
            }
            catch (err) {
                return (0, schedulerGlue_1.hookFailureRuns)(event, err);
            }
        },
    };
    // --- The run and the handle's calls ---
    /** Runs the session to its end. */
    async run() {
        const { state } = this;
        let end;
        try {
            const outcome = await (0, session_1.runSession)(state, (0, session_1.sessionConfig)(this.input, !!this.input.parent), this.executor);
            // In-process there is no history to bound: a checkpoint never happens (no shouldCheckpoint).
            end =
                outcome.kind === 'end'
                    ? outcome
                    : { status: 'failed', endReason: session_1.END_REASONS.failed(state.turn, 'unexpected checkpoint') };
        }
        catch (err) {
            end = {
                status: 'failed',
                endReason: session_1.END_REASONS.failed(state.turn, err instanceof Error ? err.message : String(err)),
            };
        }
        // Background tasks still running when the session ends are stopped (killed, no notification).
        await this.tasks.stopAll();
        // Notification hooks still running (an approval was answered before they finished) end first.
        await Promise.allSettled([...this.notifications]);
        // The runner's MCP connections end with the session (unless the caller passed its own manager).
        if (!this.worker.mcp)
            await this.deps.closeMcp().catch(() => undefined);
        // A temporary store ends with its session (a child's store is its parent's: never temporary).
        await this.store.dispose().catch(() => undefined);
        this.status = end.status;
        this.phase = 'ended';
        this.endReason = end.endReason;
        const toolCalls = Object.values(state.toolCallCounts).reduce((a, b) => a + (b ?? 0), 0);
        return {
            status: end.status,
            turns: state.turn,
            usage: state.usage,
            head: state.head,
            lastText: state.lastText,
            endReason: end.endReason,
            toolCalls,
            ...(state.lastUsage ? { lastUsage: state.lastUsage } : {}),
            finalText: this.finalText,
            sessionId: this.sessionId,
            records: this.allRecords,
            turnsDetail: this.turnsDetail,
            context: state.context,
            compactions: state.compactions ?? [],
        };
    }
    send(text) {
        if (typeof text !== 'string' || text.trim() === '')
            return;
        this.state.pendingMessages.push(text);
        this.wakeWaiter?.();
        this.timers.poke();
    }
    /** Ends the session's loop at its next idle point, its wake-up and cron jobs dropped (as `durable-agent stop`). */
    stop() {
        this.timers.requestStop();
    }
    interrupt() {
        this.interruptRequested = true;
        this.turnAbort?.abort();
    }
    statusView() {
        const { state } = this;
        return {
            sessionId: this.sessionId,
            status: this.status,
            phase: this.pendingApprovals.size > 0 ? 'awaiting_approval' : this.phase,
            turn: state.turn,
            pendingApprovals: [...this.pendingApprovals.values()],
            usage: state.usage,
            head: state.head,
            lastText: state.lastText,
            ...(this.outage ? { outage: this.outage } : {}),
            ...(this.endReason ? { endReason: this.endReason } : {}),
            ...(state.controlWrites?.length ? { controlWrites: state.controlWrites } : {}),
        };
    }
}
exports.LocalSessionRun = LocalSessionRun;
//# sourceMappingURL=sessionRun.js.map