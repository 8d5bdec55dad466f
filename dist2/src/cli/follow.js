"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.subagentApprovals = subagentApprovals;
exports.controlPathText = controlPathText;
exports.controlWriteText = controlWriteText;
exports.followSession = followSession;
// Following a session live: turns, tool calls with their summaries, progress of long tools,
// pending approvals; returns when the session ends. Polls queries (cheap, no history growth).
const ids_1 = require("../engine/ids");
const subagents_1 = require("../engine/subagents");
const client_1 = require("../client");
const common_1 = require("@temporalio/common");
const retry_1 = require("../engine/retry");
const autonomyText_1 = require("./autonomyText");
const definitions_1 = require("../workflows/definitions");
/** The last line of output each running tool reported in its heartbeats, by tool_use_id. */
async function toolProgress(client, turnWorkflowId) {
    const desc = await client.workflow.getHandle(turnWorkflowId).describe();
    const out = new Map();
    for (const a of desc.raw.pendingActivities ?? []) {
        const payload = a.heartbeatDetails?.payloads?.[0];
        if (!payload)
            continue;
        const details = common_1.defaultPayloadConverter.fromPayload(payload);
        const output = details?.progress?.output?.trimEnd().split('\n').pop();
        if (details?.toolUseId && output)
            out.set(details.toolUseId, output.slice(0, 160));
    }
    return out;
}
/** The approvals the running subagents of a turn wait for (each waits on its own child session). */
async function subagentApprovals(client, sessionId, turnWorkflowId) {
    const p = await client.workflow.getHandle(turnWorkflowId).query(definitions_1.turnProgressQuery);
    const out = [];
    for (const r of p.running.filter((x) => x.summary.startsWith('Agent '))) {
        const childId = (0, subagents_1.subagentSessionId)(sessionId, r.toolUseId);
        const child = await (0, client_1.sessionStatus)(client, childId).catch(() => undefined);
        for (const approval of child?.pendingApprovals ?? [])
            out.push({ childId, via: r.summary, approval });
    }
    return out;
}
const ICON = { ok: '✓', error: '✗', denied: '⊘', interrupted: '■', unknown_outcome: '?' };
/** A control file's path as the user reads it: relative to the session's cwd when inside it. */
function controlPathText(path, cwd) {
    return cwd && path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path;
}
/** One line per control file a call changed (run, attach and status show them). */
function controlWriteText(w, cwd) {
    return `control file ${controlPathText(w.path, cwd)} ${w.change}`;
}
/** Follows a session until it ends or the user detaches: a poll of its status every intervalMs, each event once. */
async function followSession(client, sessionId, opts = {}) {
    const follower = new Follower(client, sessionId, opts);
    let detached = false;
    opts.detach?.then(() => (detached = true)).catch(() => undefined);
    const resultPromise = (0, client_1.sessionHandle)(client, sessionId)
        .result()
        .then((result) => ({ result }), (err) => ({ error: err.cause?.message ?? err.message }));
    let finished;
    void resultPromise.then((r) => (finished = r));
    for (;;) {
        if (detached)
            return { kind: 'detached' };
        // A query waits for a worker: with none, Ctrl-C must not wait for it.
        await Promise.race([follower.poll(), opts.detach ?? new Promise(() => undefined)]);
        if (detached)
            return { kind: 'detached' };
        if (finished) {
            await follower.poll().catch(() => undefined);
            return follower.ended(finished);
        }
        await Promise.race([
            new Promise((r) => setTimeout(r, opts.intervalMs ?? 500)),
            resultPromise,
            opts.detach ?? new Promise(() => undefined),
        ]);
    }
}
/** What followSession has shown so far, and the poll that shows what is new. */
class Follower {
    client;
    sessionId;
    opts;
    seenDone = new Set();
    seenRunning = new Map();
    seenPending = new Set();
    seenNotices = new Map();
    lastTurn = 0;
    lastPhase = '';
    lastOutage = '';
    lastOutageWhat = 'model';
    lastProgressAt = 0;
    flushedTurn = 0;
    cwd;
    out;
    constructor(client, sessionId, opts) {
        this.client = client;
        this.sessionId = sessionId;
        this.opts = opts;
        this.out = opts.out ?? ((l) => process.stdout.write(`${l}\n`));
    }
    emit(event, text) {
        this.out(this.opts.json ? JSON.stringify({ session: this.sessionId, ...event }) : text);
    }
    ensureHeader(n) {
        while (this.lastTurn < n) {
            this.lastTurn++;
            this.emit({ event: 'turn', turn: this.lastTurn }, `── turn ${this.lastTurn}`);
        }
    }
    emitDone(d) {
        if (this.seenDone.has(d.toolUseId))
            return;
        this.seenDone.add(d.toolUseId);
        this.emit({ event: 'tool_done', ...d }, `  ${ICON[d.status] ?? '·'} ${d.summary} — ${d.status}${d.decision ? ` (${d.decision.behavior} by ${d.decision.source}${d.decision.by ? ` ${d.decision.by}` : ''})` : ''}${d.preview ? `: ${d.preview.slice(0, 100)}` : ''}` +
            (d.notices ?? []).map((n) => `\n    ⚑ ${n.replace(/\s+/g, ' ').slice(0, 300)}`).join('') +
            (d.controlWrites ?? []).map((w) => `\n    ⚠ ${controlWriteText(w, this.cwd)} by this call`).join(''));
    }
    showPending(owner, a, via) {
        const key = `${owner} ${a.toolUseId}`;
        if (this.seenPending.has(key))
            return;
        this.seenPending.add(key);
        if (owner === this.sessionId)
            this.opts.onApprovalPending?.(a);
        this.emit({ event: 'approval_pending', ...a, ...(owner !== this.sessionId ? { subagentSession: owner } : {}) }, `  ⏸ approval needed: ${via}${a.summary} — ${a.message}\n    durable-agent approve ${owner} ${a.toolUseId}   |   durable-agent deny ${owner} ${a.toolUseId} --reason "…"`);
    }
    async poll() {
        let status;
        try {
            status = await (0, client_1.sessionStatus)(this.client, this.sessionId);
        }
        catch {
            return; // no worker answering right now, or the session just closed
        }
        this.cwd ??= status.context?.cwd;
        await this.flushEndedTurns(status);
        this.ensureHeader(status.turn);
        if (status.currentTurnWorkflowId) {
            try {
                await this.followTurn(status.currentTurnWorkflowId);
            }
            catch {
                // the turn just ended
            }
        }
        this.showHookNotices(status);
        for (const a of status.pendingApprovals)
            this.showPending(this.sessionId, a, '');
        this.showOutage(status);
        if (status.phase !== this.lastPhase) {
            this.lastPhase = status.phase;
            if (status.phase === 'waiting_for_message') {
                this.emit({ event: 'waiting_for_message' }, `  ■ interrupted — waiting for a follow-up: durable-agent send ${this.sessionId} "…"  (or durable-agent cancel ${this.sessionId})`);
            }
            else if (status.phase === 'waiting_for_work') {
                const line = (0, autonomyText_1.waitingLine)(status) ?? 'waiting for its background work';
                this.emit({ event: 'waiting_for_work', ...(status.waiting ?? {}) }, `  ⏸ ${line} (the session sleeps durably; end it with durable-agent stop ${this.sessionId})`);
            }
        }
    }
    /** Calls of turns that ended between two polls: read them from those turns (their query still answers). */
    async flushEndedTurns(status) {
        const lastEnded = status.phase === 'ended' ? status.turn : status.turn - 1;
        for (let n = this.flushedTurn + 1; n <= lastEnded; n++) {
            this.ensureHeader(n);
            try {
                const p = await this.client.workflow.getHandle((0, ids_1.turnWorkflowId)(this.sessionId, n)).query(definitions_1.turnProgressQuery);
                for (const d of p.done)
                    this.emitDone(d);
            }
            catch {
                for (const d of n === status.lastTurn?.turn ? status.lastTurn.records : [])
                    this.emitDone(d);
            }
            this.flushedTurn = n;
        }
    }
    /** The running turn: calls started, progress of long ones, calls done, subagents' approvals. */
    async followTurn(currentTurnWorkflowId) {
        const p = await this.client.workflow.getHandle(currentTurnWorkflowId).query(definitions_1.turnProgressQuery);
        for (const r of p.running) {
            if (!this.seenRunning.has(r.toolUseId)) {
                this.seenRunning.set(r.toolUseId, Date.now());
                this.emit({ event: 'tool_started', toolUseId: r.toolUseId, summary: r.summary }, `  … ${r.summary}`);
            }
        }
        await this.showProgress(currentTurnWorkflowId, p.running);
        for (const d of p.done)
            this.emitDone(d);
        // A running subagent that waits for an approval waits on its own session: say so here,
        // with the command that answers it (else the parent looks stuck on its Agent call).
        for (const c of await subagentApprovals(this.client, this.sessionId, currentTurnWorkflowId))
            this.showPending(c.childId, c.approval, `${c.via} › `);
    }
    /** Long tools: every few seconds, show their progress (the activity's last heartbeat). */
    async showProgress(currentTurnWorkflowId, running) {
        const long = running.filter((r) => Date.now() - (this.seenRunning.get(r.toolUseId) ?? Date.now()) > 3_000);
        if (long.length === 0 || Date.now() - this.lastProgressAt <= 5_000)
            return;
        this.lastProgressAt = Date.now();
        const progress = await toolProgress(this.client, currentTurnWorkflowId).catch(() => new Map());
        for (const r of long) {
            const seconds = Math.round((Date.now() - (this.seenRunning.get(r.toolUseId) ?? Date.now())) / 1000);
            const tail = progress.get(r.toolUseId);
            this.emit({ event: 'tool_progress', toolUseId: r.toolUseId, seconds, ...(tail ? { output: tail } : {}) }, `  … ${r.summary} (${seconds} s)${tail ? `: ${tail}` : ''}`);
        }
    }
    /** Notices of session-level hooks (a systemMessage, a failed or blocking hook): each once, as they appear. */
    showHookNotices(status) {
        const counts = new Map();
        for (const n of status.hookNotices ?? []) {
            const c = (counts.get(n) ?? 0) + 1;
            counts.set(n, c);
            if ((this.seenNotices.get(n) ?? 0) >= c)
                continue;
            this.seenNotices.set(n, c);
            this.emit({ event: 'hook_notice', notice: n }, `  ⚑ ${n}`);
        }
    }
    /** An outage: say so once when it starts and whenever the next try is rescheduled. */
    showOutage(status) {
        const outageKey = status.outage ? `${status.outage.what}:${status.outage.attempts}` : '';
        if (outageKey === this.lastOutage)
            return;
        this.lastOutage = outageKey;
        if (status.outage)
            this.emit({ event: 'waiting', ...status.outage }, `  ⏳ ${(0, retry_1.describeOutage)(status.outage, Date.now())}`);
        else
            this.emit({ event: 'waiting_over' }, `  ✓ the ${this.lastOutageWhat} is back`);
        this.lastOutageWhat = status.outage?.what ?? this.lastOutageWhat;
    }
    /** The session's end: its last text and a summary line. */
    async ended(f) {
        if (f.result) {
            if (f.result.lastText)
                this.emit({ event: 'text', text: f.result.lastText }, `\n${f.result.lastText}\n`);
            this.emit({ event: 'ended', ...f.result }, `── session ${f.result.status}: ${f.result.endReason} (${f.result.turns} turns, ${f.result.usage.input_tokens} in / ${f.result.usage.output_tokens} out tokens)`);
            return { kind: 'ended', result: f.result, status: f.result.status };
        }
        const desc = await (0, client_1.sessionHandle)(this.client, this.sessionId)
            .describe()
            .catch(() => undefined);
        const st = desc?.status.name.toLowerCase() ?? 'failed';
        this.emit({ event: 'ended', status: st, error: f.error }, `── session ${st}: ${f.error ?? ''}`);
        return { kind: 'ended', ...(f.error ? { error: f.error } : {}), status: st };
    }
}
//# sourceMappingURL=follow.js.map