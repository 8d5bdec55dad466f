"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.unknownOutcomeMessage = unknownOutcomeMessage;
exports.withControlWrites = withControlWrites;
exports.runWithLedger = runWithLedger;
// One tool call under the execution ledger (invariant 5), for any runner: a call whose record is
// in the ledger is handed back (never re-run), a non-idempotent call that started on a lost
// worker answers `unknown_outcome`, and any other call is marked 'started' right before the tool
// runs (the pipeline's beforeCall) and 'completed' with its record after — a cancelled call keeps
// 'started', as its outcome may be partial. Around the pipeline: heartbeats with progress,
// cancellation into the tool's abort signal, and the control files the call wrote.
const heartbeat_1 = require("./heartbeat");
const records_1 = require("../engine/records");
const payloads_1 = require("../engine/payloads");
const subagents_1 = require("../engine/subagents");
const transcript_1 = require("../hooks/transcript");
const controlFiles_1 = require("../permissions/controlFiles");
const controlWrites_1 = require("../permissions/controlWrites");
const describe_1 = require("../pipeline/describe");
const records_2 = require("../pipeline/records");
const toolPipeline_1 = require("../pipeline/toolPipeline");
const readFilesStore_1 = require("../stores/readFilesStore");
const sharedResultStore_1 = require("../stores/sharedResultStore");
const storeWait_1 = require("./storeWait");
const toolSearch_1 = require("../tools/toolSearch");
const toolSession_1 = require("./toolSession");
function unknownOutcomeMessage(block, summary) {
    return (`The outcome of this ${block.name} call is unknown: the worker running it was lost while it ran, ` +
        `and it was not re-run because ${block.name} is not idempotent. The call was: ${summary} ` +
        `(input ${inputPreview(block.input)}). Check the current state before deciding whether to run it again.`);
}
function isPlainObject(x) {
    return typeof x === 'object' && x !== null && !Array.isArray(x);
}
function inputPreview(input) {
    const json = JSON.stringify(input) ?? 'undefined';
    return json.length > 1000 ? `${json.slice(0, 999)}… (${json.length} characters)` : json;
}
/** The record with the control files the call changed (at most MAX_CONTROL_WRITES; a notice counts the rest). */
function withControlWrites(record, writes) {
    if (writes.length === 0)
        return record;
    const seen = new Set();
    writes = writes.filter((w) => !seen.has(`${w.change} ${w.path}`) && seen.add(`${w.change} ${w.path}`) !== undefined);
    const more = writes.length - records_1.MAX_CONTROL_WRITES;
    return {
        ...record,
        controlWrites: writes.slice(0, records_1.MAX_CONTROL_WRITES),
        ...(more > 0
            ? { notices: [...(record.notices ?? []), `${more} more control-file changes during this call are not listed`] }
            : {}),
    };
}
/** The tool call with its ledger: the answer the ledger already holds, or the pipeline run and recorded. */
async function runWithLedger(deps, input, ctx, extra = {}) {
    const setup = await setUpCall(deps, input);
    const call = new LedgerCall(deps, input, ctx);
    const answered = await call.answerFromLedger(setup.description);
    if (answered)
        return answered;
    return call.run(setup, extra);
}
async function setUpCall(deps, input) {
    const { session, block } = input;
    let agent = input.context;
    if (input.readFilesRef) {
        if (!deps.readFiles)
            throw new Error('this worker has no read-file store');
        agent = { ...agent, readFiles: (0, readFilesStore_1.mergeReadFiles)(await deps.readFiles.get(input.readFilesRef), agent.readFiles) };
    }
    // An MCP call gets its server's tools; ToolSearch searches every server's.
    const pool = await deps.pool(session.toolNames, session.permission, block.name.startsWith('mcp__')
        ? (0, toolSession_1.sessionMcp)(session, block.name)
        : block.name === toolSearch_1.TOOL_SEARCH_TOOL_NAME
            ? (0, toolSession_1.sessionMcp)(session)
            : undefined);
    const resultStore = deps.resultStore(session.sessionId);
    // A large result saved on another host (shared store): recreate the file the model asks to Read.
    const materialize = resultStore.materialize;
    if (materialize)
        for (const p of (0, sharedResultStore_1.inputPaths)(block.input))
            await materialize.call(resultStore, p);
    return { agent, pool, resultStore, description: (0, describe_1.describeToolUse)(block, pool) };
}
/** One call's ledger entry: read, answered from, marked started, completed. */
class LedgerCall {
    deps;
    input;
    ctx;
    /** Keyed per session, not per workflow id: a new session that reuses an id starts afresh. */
    ledgerKey;
    activityKey;
    block;
    attempts = [];
    marked = false;
    constructor(deps, input, ctx) {
        this.deps = deps;
        this.input = input;
        this.ctx = ctx;
        this.block = input.block;
        this.activityKey = ctx.callKey;
        this.ledgerKey = input.session.ledgerKey ?? input.session.sessionId;
    }
    /** Ledger reads and writes wait out a store outage (storeWait.ts): what a call did must reach the ledger. */
    stored(what, op) {
        return (0, storeWait_1.waitForStore)(what, op, this.ctx, { details: { toolUseId: this.block.id } });
    }
    /**
     * The answer the ledger already holds for this tool_use_id: its record (the same activity
     * retried, or a repeated id: reused, never re-run), or `unknown_outcome` for a non-idempotent
     * call that started on a worker since lost. Undefined: the call runs.
     */
    async answerFromLedger(description) {
        const { block, ledgerKey, activityKey } = this;
        const entry = await this.stored('reading the execution ledger', () => this.deps.ledger.get(ledgerKey, block.id));
        if (entry?.state === 'completed' && entry.record) {
            // The same activity retried after its result was recorded: hand back the record whole.
            // Any other activity with this id (a repeated id in a later response): reuse, never re-run.
            return entry.completedBy === activityKey
                ? { kind: 'done', record: entry.record }
                : { kind: 'done', record: { ...entry.record, contextModifiers: [], reused: true } };
        }
        if (entry?.state === 'started' && !description.idempotent) {
            const record = {
                toolUseId: block.id,
                toolName: block.name,
                input: block.input,
                summary: description.summary,
                status: 'unknown_outcome',
                result: (0, records_1.errorResult)(block.id, unknownOutcomeMessage(block, description.summary)),
                contextModifiers: [],
                attempts: entry.attempts.length,
                endedAt: Date.now(),
            };
            await this.stored('recording the unknown outcome', () => this.deps.ledger.put(ledgerKey, block.id, { ...entry, state: 'completed', record, completedBy: activityKey }));
            return { kind: 'done', record };
        }
        this.attempts = [...(entry?.attempts ?? [])];
        return undefined;
    }
    /** The pipeline's beforeCall: the ledger says 'started' (once) before the side effect may begin. */
    markStarted = async () => {
        if (this.marked)
            return;
        this.marked = true;
        this.attempts.push({ activity: this.activityKey, attempt: this.ctx.attempt, at: Date.now() });
        await this.stored('recording the call before it runs', () => this.deps.ledger.put(this.ledgerKey, this.block.id, { state: 'started', attempts: this.attempts }));
    };
    /** Runs the call through the pipeline, with heartbeats, and records its outcome. */
    async run(setup, extra) {
        const { session } = this.input;
        const hooks = (0, toolSession_1.withWorkerHooks)(this.deps.hooks, session.hooks);
        const permission = (0, toolSession_1.sessionPermission)((0, toolSession_1.withTaskDirectory)(session.permission, session.sessionId), setup.resultStore, hooks, setup.agent.cwd, session.mcpServers);
        const watch = await ControlWatch.start(this.input, setup, permission.controlFiles, hooks);
        const progress = new ProgressBeats(this.ctx, this.block.id, this.deps);
        try {
            const outcome = await (0, toolPipeline_1.runToolPipeline)(this.block, {
                ...this.pipelineEnv(setup, extra, hooks),
                permission,
                beforeCall: this.markStarted,
                onProgress: progress.report,
            });
            return await this.finish(outcome, setup.description, watch);
        }
        finally {
            progress.stop();
        }
    }
    /** The pipeline's environment, but for the permission, beforeCall and progress (run sets those). */
    pipelineEnv(setup, extra, hooks) {
        const { deps, input } = this;
        const { session } = input;
        return {
            pool: setup.pool,
            sessionId: session.sessionId,
            idempotencyScope: this.ledgerKey,
            agent: setup.agent,
            ...(hooks ? { hooks } : {}),
            resultStore: setup.resultStore,
            ...(deps.privatePaths ? { privatePaths: deps.privatePaths } : {}),
            ...(deps.sandboxHost ? { sandboxHost: deps.sandboxHost } : {}),
            abortSignal: this.ctx.signal,
            ...transcriptPathOption(deps, input, setup.agent),
            ...(session.agents ? { agents: session.agents } : {}),
            ...(session.skills ? { skills: session.skills } : {}),
            ...(session.agentHookFields ? { agentHookFields: session.agentHookFields } : {}),
            ...(extra.runSubagent ? { runSubagent: extra.runSubagent } : {}),
            backgroundTasks: extra.backgroundTasks ?? true,
            monitorTasks: extra.monitorTasks ?? true,
            ...(deps.sideModel ? { sideModel: deps.sideModel } : {}),
            ...(input.phase ? { phase: input.phase } : {}),
            ...(input.approval
                ? {
                    approval: {
                        decision: input.approval.decision,
                        source: input.approval.source,
                        ...(input.approval.by ? { by: input.approval.by } : {}),
                        ...(input.approval.reason ? { reason: input.approval.reason } : {}),
                        ...(input.approval.afterMs !== undefined ? { afterMs: input.approval.afterMs } : {}),
                    },
                }
                : {}),
        };
    }
    /** The outcome as the runner's result; a finished call's record goes into the ledger (a cancelled one's does not). */
    async finish(outcome, description, watch) {
        const { block, input } = this;
        if (outcome.status === 'ready' && outcome.ready)
            return { kind: 'ready', resume: outcome.ready };
        if (outcome.status === 'ask') {
            return {
                kind: 'ask',
                message: outcome.ask?.message ?? 'Permission required',
                ...(outcome.ask?.decisionReason ? { detail: JSON.stringify(outcome.ask.decisionReason) } : {}),
            };
        }
        const record = withControlWrites({ ...(0, records_2.recordFromOutcome)(outcome, description.summary), attempts: Math.max(1, this.attempts.length) }, [...(await watch.changes()), ...(input.phase?.kind === 'post' ? (input.phase.output.controlWrites ?? []) : [])]);
        for (const notice of record.notices ?? [])
            this.ctx.warn(`${block.name} ${block.id}: ${notice}`, {
                sessionId: input.session.sessionId,
                toolUseId: block.id,
            });
        if (outcome.status === 'interrupted' && this.ctx.signal.aborted) {
            // Cancelled: the workflow records the interruption itself; the ledger keeps 'started' so a
            // later execution of the same id knows the outcome may be partial.
            return { kind: 'done', record };
        }
        await this.stored('recording the result', () => this.deps.ledger.put(this.ledgerKey, block.id, {
            state: 'completed',
            attempts: this.attempts,
            record,
            completedBy: this.activityKey,
        }));
        return { kind: 'done', record };
    }
}
/** Hooks get the conversation so far as a JSONL file (`transcript_path`), written only when a hook runs. */
function transcriptPathOption(deps, input, agent) {
    const { transcriptFile, transcripts } = deps;
    if (!transcriptFile || !transcripts || !input.messageRef)
        return {};
    const { sessionId } = input.session;
    return {
        transcriptPath: async () => {
            const messages = await transcripts.load(input.messageRef ?? null);
            return (0, transcript_1.writeTranscriptFile)(transcriptFile(sessionId), messages, { sessionId, cwd: agent.cwd });
        },
    };
}
/**
 * The session's control files before and after the call (its hooks included): every write to one
 * is named in the record. A built-in read-only call with no hooks to run writes nothing (an MCP
 * server's read-only hint is its own word; an in-process Agent call runs its child session inside
 * it, whose writes the call then names).
 */
class ControlWatch {
    controls;
    before;
    constructor(controls, before) {
        this.controls = controls;
        this.before = before;
    }
    static async start(input, setup, controlFiles, hooks) {
        const { block, session } = input;
        const watch = !(setup.description.readOnly &&
            !hooks &&
            !block.name.startsWith('mcp__') &&
            !subagents_1.AGENT_TOOL_NAMES.includes(block.name));
        const controls = (0, controlFiles_1.controlPathSet)([...session.permission.workingDirectories, setup.agent.cwd, ...setup.agent.additionalDirectories], controlFiles);
        return new ControlWatch(controls, watch ? await (0, controlWrites_1.snapshotControlFiles)(controls) : undefined);
    }
    /** The control-file writes since the start (none when the call was not watched). */
    async changes() {
        return this.before ? (0, controlWrites_1.controlChanges)(this.before, await (0, controlWrites_1.snapshotControlFiles)(this.controls)) : [];
    }
}
/** Heartbeats carrying the call's latest progress (its details end up in history: kept small). */
class ProgressBeats {
    last = undefined;
    beats;
    constructor(ctx, toolUseId, deps) {
        this.beats = (0, heartbeat_1.startHeartbeats)(() => ctx.heartbeat({ toolUseId, progress: this.last }), deps.heartbeats);
    }
    /**
     * Heartbeat details end up in history (a timed-out or cancelled attempt's last details): keep
     * them small. A report that leaves a field out (Bash sends `output` only when it changed)
     * keeps the earlier value, so a watcher polling now and then still sees the last output.
     */
    report = (p) => {
        const merged = isPlainObject(p) && isPlainObject(this.last) && !(0, payloads_1.isStoredInput)(this.last) ? { ...this.last, ...p } : p;
        this.last = (0, payloads_1.inputForHistory)(merged);
        this.beats.progress();
    };
    stop() {
        this.beats.stop();
    }
}
//# sourceMappingURL=toolLedger.js.map