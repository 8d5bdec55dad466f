import { type AgentDefinition } from './definitions';
import { type SubagentCall } from '../engine/subagents';
import type { AgentInput } from '../tools/builtin/agent';
/** What a validated Agent call runs: the agent's prompt, system prompt, model, tool subset and limit (both schedulers). */
export declare function subagentPlan(data: Omit<AgentInput, 'model'> & {
    model?: string | undefined;
}, session: {
    agents?: readonly AgentDefinition[] | undefined;
    toolNames: string[];
}): Omit<SubagentCall, 'resume'> & {
    dropped: string[];
};
