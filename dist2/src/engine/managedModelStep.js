"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.newModelStepState = newModelStepState;
exports.modelActivityId = modelActivityId;
exports.managedModelStep = managedModelStep;
// The turn's model step as both schedulers run it: `model-<turn>` (and `model-<turn>-<k>` after a
// compaction) and `compact-<n>`, scheduled by `runModelStep`. The turn workflow runs each call as an
// activity, the in-process runner calls the same cores directly. What the step only passes through
// (agent definitions, MCP servers, hooks) is a type parameter: the engine never reads it.
const contextView_1 = require("./contextView");
const contextWindow_1 = require("./contextWindow");
const ids_1 = require("./ids");
const modelStep_1 = require("./modelStep");
function newModelStepState() {
    return { compactions: [], compactTries: {} };
}
/**
 * Model activity ids: the first call keeps `model-<turn>` (audits and recorded histories name it
 * so); a retry after an outage is `model-<turn>-attempt-<k>`, a call after a compaction adds `-<j>`.
 */
function modelActivityId(turn, outageAttempt, stepAttempt) {
    return ids_1.activityIds.model(turn, outageAttempt, stepAttempt);
}
async function managedModelStep(input, run, state = newModelStepState(), outageAttempt = 1) {
    let sentHead = input.head;
    const mcp = input.mcpServers ? { mcp: { servers: input.mcpServers, cwd: input.context.cwd } } : {};
    const step = await (0, modelStep_1.runModelStep)({
        async callModel(view, attempt, opts) {
            const outcome = await run.callModel({
                sessionId: input.sessionId,
                turn: input.turn,
                head: input.head,
                append: input.append,
                ...(input.memory ? { memory: input.memory } : {}),
                settings: input.model,
                toolNames: input.tools,
                denyRules: input.rules.deny,
                ...(input.subagents?.agents ? { agents: input.subagents.agents } : {}),
                view,
                ...(input.contextSettings ? { contextSettings: input.contextSettings } : {}),
                ...(opts.autoCompact ? {} : { autoCompact: false }),
                ...(input.streamingToolExecution === false ? {} : { streamToolUses: true }),
                ...mcp,
            }, modelActivityId(input.turn, outageAttempt, attempt), `Model call (turn ${input.turn}${attempt > 0 ? `, after compaction` : ''}, ${input.model.model})`);
            if (outcome.kind === 'compact') {
                sentHead = outcome.sentHead;
                return { kind: 'compact', trigger: outcome.trigger, tokens: outcome.tokens, view: outcome.view };
            }
            return { kind: 'message', result: outcome, view: outcome.view };
        },
        async compact(view, trigger, n, attempt, tokens) {
            const tries = (state.compactTries[n] ?? 0) + 1;
            state.compactTries[n] = tries;
            const r = await run.compact({
                sessionId: input.sessionId,
                turn: input.turn,
                n,
                trigger,
                attempt,
                head: sentHead,
                view,
                tokensBefore: tokens,
                settings: input.model,
                toolNames: input.tools,
                denyRules: input.rules.deny,
                ...(input.subagents?.agents ? { agents: input.subagents.agents } : {}),
                ...(input.contextSettings ? { contextSettings: input.contextSettings } : {}),
                ...(input.hooks ? { hooks: input.hooks } : {}),
                cwd: input.context.cwd,
                ...mcp,
            }, ids_1.activityIds.attempt(ids_1.activityIds.compact(n), tries), `Compaction ${n} (${trigger === 'reactive' ? 'the API said the prompt is too long' : 'auto'}, ${tokens} tokens)`);
            if (r.kind === 'blocked')
                return r;
            state.compactionUsage = (0, contextWindow_1.addUsage)(state.compactionUsage ?? { input_tokens: 0, output_tokens: 0 }, r.usage);
            state.view = r.view;
            state.compactions.push(r.record);
            return { kind: 'compacted', view: r.view, record: r.record };
        },
    }, state.view ?? input.view ?? contextView_1.INITIAL_VIEW);
    const all = { ...step, compactions: state.compactions };
    return state.compactionUsage ? { ...all, compactionUsage: state.compactionUsage } : all;
}
//# sourceMappingURL=managedModelStep.js.map