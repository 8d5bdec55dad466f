"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ContextOverflowError = exports.MAX_COMPACTIONS_PER_STEP = void 0;
exports.hookMayBlock = hookMayBlock;
exports.runModelStep = runModelStep;
// A turn's model step with context management, written once for both schedulers: call the model;
// if the call says the window is nearly full (auto) or the API refused the prompt as too long
// (reactive), compact — a summarizing model call of its own — and call again. A session never
// fails of its own length: only when compaction cannot make the prompt fit does the step fail.
// Pure: the executor does the I/O (activities under Temporal, direct calls in-process).
const errors_1 = require("./errors");
exports.MAX_COMPACTIONS_PER_STEP = 3;
class ContextOverflowError extends errors_1.DurableAgentError {
    constructor(message) {
        super('CONTEXT_OVERFLOW', message);
    }
}
exports.ContextOverflowError = ContextOverflowError;
/** A hook may hold back an automatic compaction, never one the API forced (the session must go on). */
function hookMayBlock(trigger) {
    return trigger === 'auto';
}
async function runModelStep(exec, start, maxCompactions = exports.MAX_COMPACTIONS_PER_STEP) {
    let view = start;
    let autoCompact = true;
    const compactions = [];
    const notices = [];
    for (let attempt = 0;; attempt++) {
        const r = await exec.callModel(view, attempt, { autoCompact });
        if (r.kind === 'interrupted')
            return { kind: 'interrupted', view, compactions, notices };
        if (r.kind === 'message')
            return { kind: 'message', result: r.result, view: r.view, compactions, notices };
        view = r.view;
        if (compactions.length >= maxCompactions) {
            throw new ContextOverflowError(`the prompt is still too long for the model's window after ${compactions.length} compaction(s) (${r.tokens} tokens)`);
        }
        const c = await exec.compact(view, r.trigger, view.compactions + 1, compactions.length, r.tokens);
        if (c.kind === 'interrupted')
            return { kind: 'interrupted', view, compactions, notices };
        if (c.kind === 'blocked') {
            notices.push(`PreCompact hook blocked auto-compaction: ${c.reason}`);
            autoCompact = false;
            continue;
        }
        view = c.view;
        compactions.push(c.record);
    }
}
//# sourceMappingURL=modelStep.js.map