"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.LocalTurn = void 0;
exports.abortableSleep = abortableSleep;
// One turn in-process, as the turn workflow runs it: the model step (clearing, auto/reactive
// compaction), the tools (streamed early or after the message), then the tool results into the
// transcript. The decisions are the engine's `executeTurn`; this file supplies its executor.
const model_1 = require("../calls/model");
const compact_1 = require("../calls/compact");
const managedModelStep_1 = require("../engine/managedModelStep");
const context_1 = require("../engine/context");
const messages_1 = require("../engine/messages");
const retry_1 = require("../engine/retry");
const schedulerGlue_1 = require("../engine/schedulerGlue");
const turn_1 = require("../engine/turn");
const streaming_1 = require("./streaming");
function abortableSleep(ms, signal) {
    return new Promise((resolve) => {
        if (signal.aborted)
            return resolve('interrupted');
        const onAbort = () => {
            clearTimeout(timer);
            resolve('interrupted');
        };
        const timer = setTimeout(() => {
            signal.removeEventListener('abort', onAbort);
            resolve('done');
        }, ms);
        signal.addEventListener('abort', onAbort, { once: true });
    });
}
class LocalTurn {
    host;
    turn;
    append;
    /** Aborted by an interrupt: stops the model call, every tool call and the approval waits. */
    abort = new AbortController();
    model;
    step;
    stepState = (0, managedModelStep_1.newModelStepState)();
    streaming;
    constructor(host, turn, append) {
        this.host = host;
        this.turn = turn;
        this.append = append;
        this.streaming = this.startStreaming();
    }
    get signal() {
        return this.abort.signal;
    }
    /** Streaming tool execution, as the turn workflow does it (src/local/streaming.ts). */
    startStreaming() {
        const { host } = this;
        if (host.input.streamingToolExecution === false)
            return undefined;
        return (0, streaming_1.localStreaming)({
            context: host.state.context,
            maxConcurrency: host.input.maxConcurrency ?? 10,
            priorRecords: host.priorRecords,
            signal: this.signal,
            describe: (blocks, messageRefs, context) => host.deps.activities.describeToolUses({ session: host.session, blocks, messageRefs, context }),
            run: (call, own) => host.deps.runToolCall({ session: host.session, ...call }, host.runtime(own, host.nextToolKey(call.block.id)), {
                runSubagent: host.runSubagent,
                backgroundTasks: true,
                monitorTasks: true,
            }),
        });
    }
    async run() {
        const { host } = this;
        let outcome;
        try {
            outcome = await (0, turn_1.executeTurn)({
                context: host.state.context,
                priorRecords: host.priorRecords,
                maxConcurrency: host.input.maxConcurrency ?? 10,
                retry: (0, retry_1.retryPolicy)(host.input),
                ...(this.streaming ? { streaming: this.streaming } : {}),
            }, this.executor());
        }
        catch (err) {
            return this.failed(err instanceof Error ? err.message : String(err));
        }
        if (outcome.reason === 'failed')
            return this.failed(outcome.error ?? 'unavailable');
        return this.report(outcome);
    }
    failed(error) {
        return {
            reason: 'failed',
            consumedAppend: false,
            head: this.host.state.head,
            context: this.host.state.context,
            records: [],
            text: '',
            error: `model call failed: ${error}`,
        };
    }
    executor() {
        const { host, signal } = this;
        return {
            now: () => Date.now(),
            onOutage: (o) => host.onTurnOutage(o),
            sleep: (ms) => abortableSleep(ms, signal),
            callModel: (attempt) => this.callModel(attempt),
            describe: (blocks, context) => host.deps.activities.describeToolUses({
                session: host.session,
                blocks: [...blocks],
                messageRef: this.model?.head ?? null,
                context,
            }),
            runTool: (block, context, _description, approval) => host.deps.runToolCall({
                session: host.session,
                block,
                messageRef: this.model?.head ?? null,
                context,
                ...(approval ? { approval } : {}),
            }, host.runtime(signal, host.nextToolKey(block.id)), { runSubagent: host.runSubagent, backgroundTasks: true, monitorTasks: true }),
            awaitApproval: (block, a, description) => host.ask(block, a.message, description, signal),
            isInterrupted: () => signal.aborted,
        };
    }
    /** The same model step as the turn workflow (clearing, auto/reactive compaction), called directly. */
    async callModel(attempt) {
        const { host, signal, streaming } = this;
        const { state, input, session } = host;
        if (signal.aborted)
            return { kind: 'interrupted' };
        let model;
        try {
            await host.agentsReady;
            const step = await (0, managedModelStep_1.managedModelStep)({
                sessionId: host.sessionId,
                turn: this.turn,
                head: state.head,
                append: this.append,
                ...(state.memoryRef ? { memory: state.memoryRef } : {}),
                model: (0, context_1.modelWithSkillGrants)(input.model, state.context),
                tools: input.tools,
                rules: input.rules,
                context: state.context,
                ...(streaming ? {} : { streamingToolExecution: false }),
                ...(state.view ? { view: state.view } : {}),
                ...(input.contextManagement ? { contextSettings: input.contextManagement } : {}),
                ...(input.hooks ? { hooks: input.hooks } : {}),
                ...(session.mcpServers ? { mcpServers: session.mcpServers } : {}),
                ...(session.agents ? { subagents: { agents: session.agents } } : {}),
            }, {
                callModel: (args, id) => (0, model_1.callModelWith)(host.deps.modelDeps, args, (0, streaming_1.withStreamedToolUses)(host.runtime(signal, id), streaming, id)),
                compact: (args, id) => (0, compact_1.compactContextWith)(host.deps.compactDeps, args, host.runtime(signal, id)),
            }, this.stepState, attempt);
            this.step = step;
            if (step.kind === 'interrupted')
                return { kind: 'interrupted' };
            model = this.model = step.result;
        }
        catch (err) {
            if (signal.aborted)
                return { kind: 'interrupted' };
            // The core's classification: a retryable failure is waited out, the rest ends the turn.
            if (err instanceof model_1.ModelCallError && err.retryable)
                return {
                    kind: 'unavailable',
                    failure: (0, schedulerGlue_1.transientFailureFromDetails)('model', err.message, err.transient ? [err.transient] : undefined),
                };
            throw err;
        }
        return { kind: 'message', message: model.message, usage: model.usage, stopReason: model.stopReason };
    }
    /** As in the turn workflow: the tool results enter the transcript at the end of their turn, by reference. */
    async report(outcome) {
        const { host, model, step } = this;
        host.onTurnEnd(this.turn, outcome);
        let head = model ? model.head : host.state.head;
        if (outcome.toolResults && model) {
            const results = outcome.toolResults;
            const from = head;
            head = await host.storeCall(() => host.deps.activities.appendTranscript({ head: from, messages: [results] }));
        }
        const text = model
            ? model.message.content
                .filter((b) => b.type === 'text')
                .map((b) => b.text)
                .join('\n')
            : '';
        host.onText(text);
        return {
            reason: outcome.reason,
            consumedAppend: model !== undefined,
            head,
            context: outcome.context,
            ...(outcome.usage ? { usage: outcome.usage } : {}),
            records: outcome.records,
            text: (0, messages_1.oneLinePreview)(text, 2000),
            ...(step ? { view: step.view, compactions: step.compactions } : {}),
            ...(step?.compactionUsage ? { compactionUsage: step.compactionUsage } : {}),
        };
    }
}
exports.LocalTurn = LocalTurn;
//# sourceMappingURL=turn.js.map