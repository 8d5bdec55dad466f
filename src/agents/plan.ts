// What a validated Agent call runs — the agent's prompt, system prompt, model, tool subset and
// turn limit — planned the same way by both schedulers (the Agent pre-phase activity and the
// in-process runner).
import {
  agentTypeOf,
  disallowedMcpRules,
  resolveAgentModel,
  sessionAgents,
  subagentTools,
  type AgentDefinition,
} from './definitions';
import { AGENT_TOOL_NAMES, type SubagentCall } from '../core/subagents';
import type { AgentInput } from '../tools/agent';

/** What a validated Agent call runs: the agent's prompt, system prompt, model, tool subset and limit (both schedulers). */
export function subagentPlan(
  data: Omit<AgentInput, 'model'> & { model?: string | undefined },
  session: { agents?: readonly AgentDefinition[] | undefined; toolNames: string[] },
): Omit<SubagentCall, 'resume'> & { dropped: string[] } {
  const type = agentTypeOf(data);
  const def = sessionAgents(session.agents).find((a) => a.name === type);
  if (!def) throw new Error(`agent type ${type} vanished after validation`);
  const { tools, dropped } = subagentTools(def, session.toolNames, AGENT_TOOL_NAMES);
  const alias = data.model ?? def.model;
  return {
    agentType: def.name,
    description: data.description,
    prompt: data.prompt,
    system: def.systemPrompt,
    ...(alias ? { model: resolveAgentModel(alias, alias) } : {}),
    tools,
    ...(def.maxTurns !== undefined ? { maxTurns: def.maxTurns } : {}),
    ...(!def.tools || def.tools.some((t) => t.startsWith('mcp__')) ? { mcp: true } : {}),
    ...(disallowedMcpRules(def).length > 0 ? { denyRules: disallowedMcpRules(def) } : {}),
    ...(data.run_in_background !== undefined ? { background: data.run_in_background } : {}),
    ...(data.isolation === 'worktree' ? { isolation: 'worktree' as const } : {}),
    dropped,
  };
}
