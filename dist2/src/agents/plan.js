"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.subagentPlan = subagentPlan;
// What a validated Agent call runs — the agent's prompt, system prompt, model, tool subset and
// turn limit — planned the same way by both schedulers (the Agent pre-phase activity and the
// in-process runner).
const definitions_1 = require("./definitions");
const subagents_1 = require("../engine/subagents");
/** What a validated Agent call runs: the agent's prompt, system prompt, model, tool subset and limit (both schedulers). */
function subagentPlan(data, session) {
    const type = (0, definitions_1.agentTypeOf)(data);
    const def = (0, definitions_1.sessionAgents)(session.agents).find((a) => a.name === type);
    if (!def)
        throw new Error(`agent type ${type} vanished after validation`);
    const { tools, dropped } = (0, definitions_1.subagentTools)(def, session.toolNames, subagents_1.AGENT_TOOL_NAMES);
    const alias = data.model ?? def.model;
    return {
        agentType: def.name,
        description: data.description,
        prompt: data.prompt,
        system: def.systemPrompt,
        ...(alias ? { model: (0, definitions_1.resolveAgentModel)(alias, alias) } : {}),
        tools,
        ...(def.maxTurns !== undefined ? { maxTurns: def.maxTurns } : {}),
        ...(!def.tools || def.tools.some((t) => t.startsWith('mcp__')) ? { mcp: true } : {}),
        ...((0, definitions_1.disallowedMcpRules)(def).length > 0 ? { denyRules: (0, definitions_1.disallowedMcpRules)(def) } : {}),
        ...(data.run_in_background !== undefined ? { background: data.run_in_background } : {}),
        ...(data.isolation === 'worktree' ? { isolation: 'worktree' } : {}),
        dropped,
    };
}
//# sourceMappingURL=plan.js.map