"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.acceptInput = acceptInput;
exports.preToolUse = preToolUse;
exports.permit = permit;
exports.readyToCall = readyToCall;
// The stages before call(): the input's schema and the tool's validateInput, the PreToolUse hooks,
// the permission decision (or a human's answer to an earlier ask), and the last checks before the
// call. Each returns the outcome that ends the run, or undefined when the call may go on.
const decide_1 = require("../permissions/decide");
const fileChecks_1 = require("./fileChecks");
const messages_1 = require("./messages");
const records_1 = require("./records");
const validation_1 = require("./validation");
/** The schema, then the tool's own validation. */
async function validate(run, raw, note) {
    const { tool, state } = run;
    let parsed;
    try {
        parsed = tool.inputSchema.safeParse(raw);
    }
    catch (e) {
        const m = `InputValidationError: ${tool.name} input could not be validated${note ? ` (${note})` : ''}: ${(0, messages_1.errMessage)(e)}`;
        return { ok: false, out: state.failed('error', 'schema', m) };
    }
    if (!parsed.success) {
        return {
            ok: false,
            out: state.failed('error', 'schema', (0, validation_1.formatInputValidationError)(tool.name, parsed.error, raw, note)),
        };
    }
    if (tool.validateInput) {
        let v;
        try {
            v = await tool.validateInput(parsed.data, run.ctx);
        }
        catch (e) {
            return {
                ok: false,
                out: state.failed('error', 'validate', `${tool.name} could not validate its input: ${(0, messages_1.errMessage)(e)}`),
                data: parsed.data,
            };
        }
        if (v && v.result === false) {
            const m = typeof v.message === 'string' && v.message ? v.message : `${tool.name}: invalid input`;
            return { ok: false, out: state.failed('error', 'validate', note ? `${m} (${note})` : m), data: parsed.data };
        }
    }
    return { ok: true, data: parsed.data };
}
/**
 * Takes `raw` as the call's input if it validates. Invalid: its outcome; with 'decide', a path
 * tool's file-system answer is shown only after the permission decision (fileChecks.ts).
 */
async function acceptInput(run, raw, invalid, note) {
    run.state.input = raw;
    const v = await validate(run, raw, note);
    if (v.ok) {
        run.data = v.data;
        run.state.input = v.data;
        return undefined;
    }
    if (invalid === 'report' || v.data === undefined)
        return v.out;
    const d = await (0, fileChecks_1.decisionHidingFileErrors)(run.tool, v.data, run.ctx);
    if (!d)
        return v.out;
    run.state.input = v.data;
    return settle(run, d) ?? v.out;
}
/** Deny / ask / a human's answer for a decision; undefined when the call may go on. */
function settle(run, decision) {
    const { state, env } = run;
    const reasonOf = decision.decisionReason ? { decisionReason: decision.decisionReason } : {};
    state.permission =
        decision.behavior === 'allow'
            ? { behavior: 'allow', ...reasonOf }
            : { behavior: decision.behavior, message: decision.message, ...reasonOf };
    const approval = env.approval;
    if (decision.behavior === 'deny')
        return state.failed('denied', 'permission', decision.message);
    if (decision.behavior === 'ask') {
        state.ask = { message: decision.message, ...reasonOf };
        if (!approval)
            return state.outcome('ask', {});
    }
    else if (!approval || approval.decision !== 'deny') {
        return undefined;
    }
    // A human's answer; their deny for this id stands even if the rules would now allow the call.
    const reason = (0, records_1.humanReason)(approval, env.permission.mode);
    if (approval.decision !== 'approve') {
        state.permission = { behavior: 'deny', decisionReason: reason, message: approval.reason ?? 'rejected' };
        const r = (0, messages_1.rejectionToolResult)(state.toolUseId, approval.reason);
        return state.failed('denied', 'permission', r.content, r);
    }
    state.permission = { behavior: 'allow', decisionReason: reason };
    return undefined;
}
/** PreToolUse hooks: they may stop, block or replace the input (validated again). */
async function preToolUse(run, hooks) {
    const { state, tool } = run;
    const pre = await hooks.preToolUse();
    if (run.controller.signal.aborted)
        return state.interrupted('It was stopped before it ran.');
    if (pre.block) {
        return state.failed('denied', 'hook', `PreToolUse hook blocked this ${tool.name} call: ${pre.block.reason}`);
    }
    run.hookDecision = pre.decision;
    if (pre.updatedInput === undefined)
        return undefined;
    return acceptInput(run, pre.updatedInput, 'decide', 'input replaced by a PreToolUse hook');
}
/** The permission decision (with the hooks' say); an allow may replace the input (validated again). */
async function permit(run) {
    let decision;
    try {
        decision = await (0, decide_1.decidePermission)(run.tool, run.data, run.ctx, run.hookDecision);
    }
    catch (e) {
        decision = {
            behavior: 'deny',
            message: `Permission check failed: ${(0, messages_1.errMessage)(e)}`,
            decisionReason: { type: 'other', reason: 'permission engine error' },
        };
    }
    const stop = settle(run, decision);
    if (stop)
        return stop;
    // What the decision looked at: the file tools open only that (src/tools/safeFs.ts).
    const checked = (0, decide_1.pathsCheckedBy)(decision);
    if (checked)
        run.ctx.permittedPaths = checked;
    if (decision.behavior !== 'allow' || decision.updatedInput === undefined)
        return undefined;
    return acceptInput(run, decision.updatedInput, 'report', 'input replaced by the permission check');
}
/**
 * Right before call(): not aborted; in phase 'pre' the run stops with status 'ready' (the
 * scheduler runs the call itself, a child workflow; phase 'post' continues from here); the
 * scheduler's beforeCall (its execution ledger) must succeed.
 */
async function readyToCall(run) {
    const { state, env } = run;
    if (run.controller.signal.aborted)
        return state.interrupted('It was stopped before it ran.');
    if (env.phase?.kind === 'pre') {
        return state.outcome('ready', {
            ready: {
                input: run.data,
                context: [...state.context],
                notices: [...state.hookNotices],
                hookRuns: state.hookRuns.map(records_1.trimRun),
                ...(state.permission ? { permission: state.permission } : {}),
            },
        });
    }
    if (!env.beforeCall)
        return undefined;
    try {
        await env.beforeCall();
    }
    catch (e) {
        return state.failed('error', 'call', `Error calling tool ${run.tool.name}: could not record the call before running it: ${(0, messages_1.errMessage)(e)}`);
    }
    return undefined;
}
//# sourceMappingURL=checks.js.map