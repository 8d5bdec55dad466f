"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.runToolPipeline = runToolPipeline;
// The single execution entry for one tool_use (invariant 2):
// find → schema → validateInput → PreToolUse hooks → permission → call → map → size policy →
// PostToolUse hooks (PostToolUseFailure when the call failed). Every failure becomes an is_error
// tool_result with the same id (invariant 6).
// No Temporal here: activities wrap this function; tests call it directly. Its inputs and outcome
// are in types.ts; what a scheduler asks before running a call is in describe.ts. The stages work
// on one typed context (toolRun.ts) whose state (runState.ts) any stage can end the run with.
const messages_1 = require("../engine/messages");
const toolResponse_1 = require("../hooks/toolResponse");
const bashParser_1 = require("../permissions/bashParser");
const pool_1 = require("../tools/pool");
const callHooks_1 = require("./callHooks");
const checks_1 = require("./checks");
const messages_2 = require("./messages");
const runState_1 = require("./runState");
const toolRun_1 = require("./toolRun");
/** Runs one tool_use through the whole pipeline. Never throws. */
async function runToolPipeline(block, env) {
    const state = new runState_1.RunState(block);
    try {
        const signal = env.abortSignal;
        if (signal?.aborted)
            return state.interrupted('It was not started.');
        // The shell parser loads once (wasm): Bash's declarations and rules need it. If it cannot
        // load, every command is treated as unknown (not read-only, matched by no allow rule).
        await (0, bashParser_1.loadShellParser)();
        // Only a tool in the pool runs.
        const tool = (0, pool_1.findToolByName)(env.pool, state.toolName);
        if (!tool) {
            const r = (0, messages_2.noSuchToolResult)(state.toolUseId, state.toolName, env.pool.map((t) => t.name));
            return state.failed('error', 'unknown_tool', r.content, r);
        }
        const controller = new AbortController();
        const onAbort = () => controller.abort(signal?.reason);
        signal?.addEventListener('abort', onAbort, { once: true });
        try {
            return await runStages((0, toolRun_1.newToolRun)(state, env, tool, controller));
        }
        finally {
            signal?.removeEventListener('abort', onAbort);
        }
    }
    catch (e) {
        return state.failed('error', 'call', `Error calling tool ${state.toolName}: internal pipeline error: ${(0, messages_2.errMessage)(e)}`);
    }
}
async function runStages(run) {
    if (run.resumed)
        (0, toolRun_1.takeResumed)(run, run.resumed);
    else {
        const invalid = await (0, checks_1.acceptInput)(run, run.state.input, 'decide');
        if (invalid)
            return invalid;
    }
    const hooks = await callHooks_1.CallHooks.of(run);
    if (!(hooks instanceof callHooks_1.CallHooks))
        return hooks;
    if (!run.resumed) {
        const stopped = (await (0, checks_1.preToolUse)(run, hooks)) ?? (await (0, checks_1.permit)(run)) ?? (await (0, checks_1.readyToCall)(run));
        if (stopped)
            return stopped;
    }
    const called = await callTool(run, hooks);
    if ('ended' in called)
        return called.ended;
    const mapped = mapResult(run, called.result);
    if ('ended' in mapped)
        return mapped.ended;
    const sized = await sizePolicy(run, mapped.block);
    if (sized.block.is_error === true) {
        await hooks.failure((0, messages_1.toolResultText)(sized.block));
    }
    else {
        await hooks.postToolUse(called.result, (0, toolResponse_1.hookToolResponse)(run.tool.name, called.result.data, run.data, sized.stored));
    }
    return finish(run, called.result, sized);
}
/** call() (phase 'post': the scheduler's output), raced against an abort. A call that threw runs PostToolUseFailure. */
async function callTool(run, hooks) {
    const { state, env, tool, controller, resumed } = run;
    const onProgress = (p) => {
        try {
            env.onProgress?.(p);
        }
        catch {
            // a failing observer must not fail the tool
        }
    };
    let removeAbortWaiter = () => undefined;
    const abortWaiter = new Promise((resolve) => {
        const h = () => resolve({ kind: 'aborted' });
        controller.signal.addEventListener('abort', h, { once: true });
        removeAbortWaiter = () => controller.signal.removeEventListener('abort', h);
    });
    run.callStarted = Date.now();
    const callPromise = Promise.resolve()
        .then(() => (resumed ? { data: resumed.output } : tool.call(run.data, run.ctx, onProgress)))
        .then((value) => ({ kind: 'ok', value }), (error) => ({ kind: 'error', error }));
    const raced = await Promise.race([callPromise, abortWaiter]);
    removeAbortWaiter();
    if (raced.kind === 'aborted')
        return { ended: state.interrupted() };
    if (raced.kind === 'error') {
        if (controller.signal.aborted)
            return { ended: state.interrupted() };
        const message = `Error calling tool ${tool.name}: ${(0, messages_2.errMessage)(raced.error)}`;
        await hooks.failure(message);
        return { ended: state.failed('error', 'call', message) };
    }
    const result = raced.value;
    if (!result || typeof result !== 'object' || !('data' in result)) {
        return { ended: state.failed('error', 'call', `Error calling tool ${tool.name}: call() returned no result`) };
    }
    return { result };
}
/** The tool's output as the API block, with this call's id. */
function mapResult(run, result) {
    const { tool, state } = run;
    try {
        const m = tool.mapToolResultToToolResultBlockParam(result.data, state.toolUseId);
        if (!(0, messages_2.isValidBlock)(m))
            throw new Error('mapToolResultToToolResultBlockParam returned a malformed block');
        const block = { ...m, type: 'tool_result', tool_use_id: state.toolUseId };
        if (m.is_error !== true)
            delete block.is_error;
        return { block };
    }
    catch (e) {
        const message = `Error calling tool ${tool.name}: the tool ran, but its result could not be converted: ${(0, messages_2.errMessage)(e)}`;
        return { ended: state.failed('error', 'call', message) };
    }
}
/** A result over the tool's maxResultSizeChars goes to the result store; the model sees where. */
async function sizePolicy(run, block) {
    const { tool, env, state } = run;
    const text = (0, messages_1.toolResultText)(block);
    const limit = tool.maxResultSizeChars;
    if (typeof limit !== 'number' || !Number.isFinite(limit) || limit < 0 || text.length <= limit)
        return { block };
    if (!env.resultStore) {
        state.hookNotices.push(`The ${tool.name} result (${text.length} chars) exceeds ${limit} chars but no result store is configured; kept it inline.`);
        return { block };
    }
    try {
        const path = await env.resultStore.put(state.toolUseId, text);
        const sized = { block: { ...block, content: (0, messages_2.persistedOutputMessage)(path, text) } };
        // (a store that answers no location: the message says so, and nothing is recorded as stored)
        if (path !== undefined)
            sized.stored = { path, size: Buffer.byteLength(text) };
        return sized;
    }
    catch (e) {
        state.hookNotices.push(`Could not store the large ${tool.name} result (${text.length} chars); kept it inline: ${(0, messages_2.errMessage)(e)}`);
        return { block };
    }
}
/** The outcome of a call that ran: its result with the hooks' text, what it changed and reported. */
function finish(run, result, sized) {
    const { state } = run;
    const contextModifiers = Array.isArray(result.contextModifiers) ? result.contextModifiers : [];
    const newMessages = Array.isArray(result.newMessages) ? result.newMessages : [];
    const extra = { result: state.withContext(sized.block), contextModifiers, newMessages };
    if (sized.stored)
        extra.persistedTo = sized.stored.path;
    if (result.sandbox && typeof result.sandbox === 'object')
        extra.sandbox = result.sandbox;
    if (result.network && typeof result.network === 'object')
        extra.network = result.network;
    if (sized.block.is_error === true) {
        extra.failure = { stage: 'call', message: (0, messages_1.toolResultText)(sized.block).slice(0, messages_2.MAX_ERROR_CHARS) };
        return state.outcome('error', extra);
    }
    return state.outcome('ok', extra);
}
//# sourceMappingURL=toolPipeline.js.map