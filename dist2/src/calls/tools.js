"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.withControlWrites = exports.unknownOutcomeMessage = exports.withTaskDirectory = exports.withResultDirectory = exports.sessionPermission = exports.subagentPlan = void 0;
exports.resolveToolSession = resolveToolSession;
exports.createToolCalls = createToolCalls;
const bashParser_1 = require("../permissions/bashParser");
const payloads_1 = require("../engine/payloads");
const describe_1 = require("../pipeline/describe");
const pool_1 = require("../tools/pool");
const decide_1 = require("../permissions/decide");
const plan_1 = require("../agents/plan");
const storeWait_1 = require("./storeWait");
const toolLedger_1 = require("./toolLedger");
const toolSession_1 = require("./toolSession");
/** How long describing an MCP call waits for its server's tool list. */
const DESCRIBE_MCP_WAIT_MS = 10_000;
async function raceTimeout(p, ms, fallback) {
    let timer;
    const late = new Promise((r) => {
        timer = setTimeout(() => r('late'), ms);
    });
    try {
        const r = await Promise.race([p, late]);
        return r === 'late' ? await fallback() : r;
    }
    finally {
        clearTimeout(timer);
    }
}
/** The whole settings of a session given either way (a reference is loaded from the store, cached per worker). */
async function resolveToolSession(session, store) {
    if (!('settingsRef' in session))
        return session;
    if (!store)
        throw new Error("this worker has no store to read the session's tool settings from");
    const s = await store.get(session.settingsRef);
    return {
        sessionId: session.sessionId,
        ...(session.ledgerKey ? { ledgerKey: session.ledgerKey } : {}),
        toolNames: s.toolNames,
        permission: {
            mode: session.mode,
            rules: s.rules,
            workingDirectories: session.workingDirectories,
            ...(s.sandbox ? { sandbox: s.sandbox } : {}),
        },
        ...(s.hooks ? { hooks: s.hooks } : {}),
        ...(s.mcpServers ? { mcpServers: s.mcpServers } : {}),
        ...(s.agents ? { agents: s.agents } : {}),
        ...(s.skills ? { skills: s.skills } : {}),
        ...(session.agentHookFields ? { agentHookFields: session.agentHookFields } : {}),
    };
}
// Both schedulers plan an Agent call the same way (src/agents/plan.ts).
var plan_2 = require("../agents/plan");
Object.defineProperty(exports, "subagentPlan", { enumerable: true, get: function () { return plan_2.subagentPlan; } });
var toolSession_2 = require("./toolSession");
Object.defineProperty(exports, "sessionPermission", { enumerable: true, get: function () { return toolSession_2.sessionPermission; } });
Object.defineProperty(exports, "withResultDirectory", { enumerable: true, get: function () { return toolSession_2.withResultDirectory; } });
Object.defineProperty(exports, "withTaskDirectory", { enumerable: true, get: function () { return toolSession_2.withTaskDirectory; } });
var toolLedger_2 = require("./toolLedger");
Object.defineProperty(exports, "unknownOutcomeMessage", { enumerable: true, get: function () { return toolLedger_2.unknownOutcomeMessage; } });
Object.defineProperty(exports, "withControlWrites", { enumerable: true, get: function () { return toolLedger_2.withControlWrites; } });
/** Every tool call's core bound to the worker's dependencies. */
function createToolCalls(deps) {
    return {
        /** Concurrency safety, idempotency and summaries: needs tool code, so it is an activity. */
        describeToolUses: (wire) => describeToolUses(deps, wire),
        /** The tool call with its ledger, for any runner (a Temporal activity or the in-process one). */
        runToolCall: (input, ctx, extra = {}) => runToolCall(deps, input, ctx, extra),
        /** Stores the read-file state at the end of a turn: the state at `base` plus the turn's entries. */
        storeReadFiles: async (input) => {
            if (!deps.readFiles)
                throw new Error('this worker has no read-file store');
            return deps.readFiles.put(input.base, input.delta);
        },
        /** Stores the session's tool settings once per run; tool activities then carry the returned reference. */
        storeToolSettings: async (settings) => {
            if (!deps.toolSettings)
                throw new Error('this worker has no store for tool settings');
            return deps.toolSettings.put(settings);
        },
        prepareSubagent: (input, ctx) => prepareSubagent(deps, input, ctx),
        finishSubagent: (input, ctx) => finishSubagent(deps, input, ctx),
    };
}
/** The whole block: from the model call's stored message when the workflow sent a reference. */
async function wholeBlock(deps, block, messageRef) {
    if (!messageRef)
        return block;
    if (!deps.transcripts)
        throw new Error('this worker has no transcript store to read tool inputs from');
    const found = (0, payloads_1.findToolUse)(await deps.transcripts.nodeMessages(messageRef), block.id);
    if (!found)
        throw new Error(`tool_use ${block.id} is not in the stored model message ${messageRef}`);
    return found;
}
/** What goes back into history: the result stored, a reference and a preview returned. */
async function forHistory(deps, result, ctx) {
    if (result.kind === 'ask')
        return { ...result, message: (0, payloads_1.askMessageForHistory)(result.message) };
    if (!deps.payloads || result.record.resultRef)
        return result;
    const { payloads } = deps;
    const ref = await (0, storeWait_1.waitForStore)('storing the result block', () => payloads.putToolResult(result.record.result), ctx, {
        details: { toolUseId: result.record.toolUseId },
    });
    return { kind: 'done', record: (0, payloads_1.recordForHistory)(result.record, ref) };
}
/** The tool call with its ledger, for any runner (a Temporal activity or the in-process one). */
async function runToolCall(deps, input, ctx, extra) {
    const r = await (0, toolLedger_1.runWithLedger)(deps, {
        ...input,
        session: await resolveToolSession(input.session, deps.toolSettings),
        block: await wholeBlock(deps, input.block, input.messageRef),
    }, ctx, extra);
    if (r.kind === 'ready')
        throw new Error(`${input.block.name} must run in two phases here (prepareSubagent, finishSubagent)`);
    return forHistory(deps, r, ctx);
}
/** Concurrency safety, idempotency and summaries (and whether rules and mode will ask), per block. */
async function describeToolUses(deps, wire) {
    const session = await resolveToolSession(wire.session, deps.toolSettings);
    const poolFor = describePools(deps, session);
    await (0, bashParser_1.loadShellParser)(); // Bash's read-only/concurrency answers need the parser
    return Promise.all(wire.blocks.map(async (light, i) => {
        const b = await wholeBlock(deps, light, wire.messageRefs ? wire.messageRefs[i] : wire.messageRef);
        const pool = await poolFor(b.name);
        const d = { ...(0, describe_1.describeToolUse)(b, pool), toolUseId: b.id };
        if (!d.known || !wire.context)
            return d;
        return (await mayAsk(deps, session, wire.context, b, pool)) ? { ...d, mayAsk: true } : d;
    }));
}
/** The pools that describe a batch: MCP tools get their own server's, other tools share one pool without MCP. */
function describePools(deps, session) {
    const pools = new Map();
    return (name) => {
        const key = name.startsWith('mcp__') ? name : '';
        let p = pools.get(key);
        if (!p) {
            const full = Promise.resolve(deps.pool(session.toolNames, session.permission, key ? (0, toolSession_1.sessionMcp)(session, key) : undefined));
            // This is a local activity with a short timeout: a server slow to start makes its tool
            // "unknown" here (unsafe: it runs alone); the call itself waits for the server.
            p = key ? raceTimeout(full, DESCRIBE_MCP_WAIT_MS, () => deps.pool(session.toolNames, session.permission)) : full;
            pools.set(key, p);
        }
        return p;
    };
}
/**
 * Will the call ask? Rules and mode only (hooks run with the call): enough to hold back the calls
 * after it in its batch until a human decides. A block that fails its schema does not ask here.
 */
async function mayAsk(deps, session, context, b, pool) {
    try {
        const tool = (0, pool_1.findToolByName)(pool, b.name);
        const parsed = tool?.inputSchema.safeParse(b.input);
        if (!tool || !parsed?.success)
            return false;
        const decision = await (0, decide_1.decidePermission)(tool, parsed.data, {
            sessionId: session.sessionId,
            toolUseId: b.id,
            idempotencyKey: session.ledgerKey && session.ledgerKey !== session.sessionId
                ? `${session.sessionId}/${session.ledgerKey}/${b.id}`
                : `${session.sessionId}/${b.id}`,
            agent: context,
            permission: (0, toolSession_1.sessionPermission)((0, toolSession_1.withTaskDirectory)(session.permission, session.sessionId), deps.resultStore(session.sessionId), (0, toolSession_1.withWorkerHooks)(deps.hooks, session.hooks), context.cwd, session.mcpServers),
            abortSignal: new AbortController().signal,
        });
        return decision.behavior === 'ask';
    }
    catch {
        return false;
    }
}
/**
 * The Agent tool's pre-call phase (schema → validateInput → PreToolUse hooks → permission) as an
 * activity: a recorded result, an `ask`, a failure, or the resolved child session to start.
 */
async function prepareSubagent(deps, input, ctx) {
    const block = await wholeBlock(deps, input.block, input.messageRef);
    const session = await resolveToolSession(input.session, deps.toolSettings);
    const r = await (0, toolLedger_1.runWithLedger)(deps, { ...input, session, block, phase: { kind: 'pre' } }, ctx);
    if (r.kind !== 'ready')
        return forHistory(deps, r, ctx);
    const plan = (0, plan_1.subagentPlan)(r.resume.input, session);
    const { dropped, ...call } = plan;
    const resume = dropped.length
        ? {
            ...r.resume,
            notices: [
                ...r.resume.notices,
                `The ${plan.agentType} agent lists tools this session does not offer; it runs without them: ${dropped.join(', ')}`,
            ],
        }
        : r.resume;
    return { kind: 'ready', call: { ...call, resume } };
}
/** The post-call phase: the child's final text (whole, from its transcript) through result mapping, size policy, PostToolUse hooks; recorded in the ledger. */
async function finishSubagent(deps, input, ctx) {
    const output = { ...input.output, text: (await finalText(deps, input.childHead)) ?? input.output.text };
    return runToolCall(deps, { ...input, phase: { kind: 'post', resume: input.resume, output } }, ctx, {});
}
/** The last assistant text of a transcript node (the child's final answer), whole. */
async function finalText(deps, head) {
    if (!head || !deps.transcripts)
        return undefined;
    const messages = await deps.transcripts.nodeMessages(head);
    // The last assistant message that says something (a child stopped by a limit may end on tool_use blocks), as the session's lastText.
    for (const m of [...messages].reverse()) {
        if (m.role !== 'assistant')
            continue;
        const text = typeof m.content === 'string'
            ? m.content
            : m.content
                .filter((b) => b.type === 'text')
                .map((b) => b.text)
                .join('\n');
        if (text.trim() !== '')
            return text;
    }
    return undefined;
}
//# sourceMappingURL=tools.js.map