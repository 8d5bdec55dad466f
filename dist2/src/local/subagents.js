"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.localToolSession = localToolSession;
exports.localSubagentRunner = localSubagentRunner;
// The in-process runner's session settings and its subagents: a subagent here is an in-process
// child session run by the same runner (the Temporal path runs it as a child session workflow),
// with the plan the Agent tool's activity would use (tool subset, model, system prompt, memory).
const node_crypto_1 = require("node:crypto");
const tools_1 = require("../calls/tools");
const subagents_1 = require("../engine/subagents");
const autonomy_1 = require("../engine/autonomy");
const context_1 = require("../engine/context");
/** What every tool call of an in-process session carries (the Temporal path puts the same in the turn input). */
function localToolSession(input, sessionId) {
    return {
        sessionId,
        // Unique per run of startLocalSession, whatever sessionId the caller reuses.
        ledgerKey: `run-${(0, node_crypto_1.randomUUID)()}`,
        toolNames: input.tools,
        permission: {
            mode: input.permissionMode,
            rules: input.rules,
            workingDirectories: [input.cwd, ...(input.additionalDirectories ?? [])],
            ...(input.sandbox ? { sandbox: input.sandbox } : {}),
        },
        ...(input.hooks ? { hooks: input.hooks } : {}),
        ...(input.mcpServers && Object.keys(input.mcpServers).length > 0 ? { mcpServers: input.mcpServers } : {}),
        ...(input.tools.includes('Skill') && input.skills?.length ? { skills: input.skills } : {}),
        ...(input.parent ? { agentHookFields: (0, subagents_1.agentHookFields)(input.parent, sessionId) } : {}),
    };
}
/**
 * The Agent tool's runner in-process: a foreground child session runs to its end and its final
 * text is the tool_result; a background one (without `run_in_background: false`, as the session
 * workflow's) returns the launched result at once and a `local_agent` task whose run (`launches`,
 * by task id) the session's task scheduler starts after the turn.
 */
function localSubagentRunner(parent, runChild, launches) {
    const { input, sessionId, session, approvalTimeoutMs } = parent;
    return async (data, ctx) => {
        const plan = (0, tools_1.subagentPlan)(data, session);
        const childId = (0, subagents_1.subagentSessionId)(sessionId, ctx.toolUseId);
        const maxTurns = plan.maxTurns ?? input.maxTurns;
        const child = (signal) => ({
            sessionId: childId,
            prompt: plan.prompt,
            // The parent's model as of this call: a skill loaded earlier with `model` applies (the reference's subagents inherit it).
            model: {
                ...(0, context_1.modelWithSkillGrants)(input.model, ctx.agent),
                ...(plan.model ? { model: plan.model } : {}),
                system: (0, subagents_1.childSystemPrompt)(plan.system, ctx.agent.cwd),
            },
            tools: plan.tools,
            permissionMode: input.permissionMode,
            rules: plan.denyRules?.length ? { ...input.rules, deny: [...input.rules.deny, ...plan.denyRules] } : input.rules,
            cwd: ctx.agent.cwd,
            additionalDirectories: [...ctx.agent.additionalDirectories],
            ...(input.hooks ? { hooks: input.hooks } : {}),
            ...(input.memory ? { memory: input.memory } : {}),
            ...(plan.mcp && input.mcpServers ? { mcpServers: input.mcpServers } : {}),
            ...(input.sandbox ? { sandbox: input.sandbox } : {}),
            ...(maxTurns !== undefined ? { maxTurns } : {}),
            ...(input.maxTotalTokens !== undefined ? { maxTotalTokens: input.maxTotalTokens } : {}),
            approvalTimeoutMs,
            onInterrupt: 'end',
            signal,
            parent: { sessionId, toolUseId: ctx.toolUseId, agentType: plan.agentType },
            ...(parent.onAsk ? { onAsk: parent.onAsk } : {}),
        });
        const model = plan.model ?? input.model.model;
        if (plan.background ?? true) {
            const task = {
                id: (0, subagents_1.agentTaskId)(sessionId, ctx.toolUseId),
                kind: 'local_agent',
                toolUseId: ctx.toolUseId,
                description: plan.description.slice(0, autonomy_1.MAX_TASK_TEXT),
                startedAt: Date.now(),
                timeoutMs: 0,
                state: 'running',
                agent: { sessionId: childId },
            };
            launches.set(task.id, (signal) => runBackground(task, () => runChild(child(signal)), signal));
            const launched = {
                agentType: plan.agentType,
                sessionId: childId,
                status: 'launched',
                endReason: 'running in the background',
                text: '',
                turns: 0,
                model,
                launched: { taskId: task.id },
            };
            return { data: launched, contextModifiers: [{ type: 'taskStarted', task }] };
        }
        const started = Date.now();
        const r = await runChild(child(ctx.abortSignal));
        return {
            data: {
                agentType: plan.agentType,
                sessionId: childId,
                status: r.status,
                endReason: r.endReason ?? r.status,
                // Whole, as the Temporal path reads it from the child's transcript (lastText is one line).
                text: r.finalText || r.lastText,
                turns: r.turns,
                usage: { input_tokens: r.usage.input_tokens, output_tokens: r.usage.output_tokens },
                ...(0, subagents_1.subagentCounters)(r),
                durationMs: Date.now() - started,
                model,
            },
        };
    };
}
/** A background agent's run: its child session to its end, then the task's end (engine/subagents.ts, shared). */
async function runBackground(task, run, signal) {
    try {
        const r = await run();
        const endedAt = Date.now();
        // Stopped (TaskStop, the session's end): killed, no notification, as the workflow's.
        if (signal.aborted)
            return { outcome: { state: 'killed', endedAt, exitCode: null } };
        return (0, subagents_1.agentTaskEnd)(task, (0, subagents_1.agentSessionEnd)({ ...r, lastText: r.finalText || r.lastText }, endedAt - task.startedAt), endedAt);
    }
    catch (err) {
        const endedAt = Date.now();
        if (signal.aborted)
            return { outcome: { state: 'killed', endedAt, exitCode: null } };
        const message = err instanceof Error ? err.message : String(err);
        const { notification } = (0, subagents_1.agentTaskEnd)(task, (0, subagents_1.agentFailureEnd)(message, endedAt - task.startedAt), endedAt);
        return { outcome: { state: 'failed', endedAt, exitCode: null, error: message }, notification };
    }
}
//# sourceMappingURL=subagents.js.map