// Agent (alias Task): starts a subagent — a child session with its own transcript, tools, system
// prompt and limits — and returns its final text. The tool itself decides nothing about how the
// child runs: the scheduler does (a child workflow under Temporal, an in-process session locally;
// see docs/architecture.md "Subagents"). Its call() asks the scheduler through ctx.runSubagent.
import { z } from 'zod';
import { agentTypeOf, GENERAL_PURPOSE_AGENT, sessionAgents, type AgentDefinition } from '../agents/definitions';
import {
  AGENT_TOOL_NAMES,
  agentLaunchedText,
  subagentSummary,
  subagentUsageNote,
  type SubagentOutput,
} from '../core/subagents';
import { buildTool } from '../toolProtocol/Tool';

const inputSchema = z.strictObject({
  description: z.string().describe('A short (3-5 word) description of the task'),
  prompt: z.string().describe('The task for the agent to perform'),
  subagent_type: z
    .string()
    .optional()
    .describe(`The type of specialized agent to use for this task (default: ${GENERAL_PURPOSE_AGENT.name})`),
  model: z
    .enum(['sonnet', 'opus', 'haiku', 'fable'])
    .optional()
    .describe("Optional model for this agent; it overrides the agent definition's model. Omit it to inherit."),
  effort: z
    .enum(['low', 'medium', 'high', 'xhigh', 'max'])
    .optional()
    .describe('Reasoning effort for this agent. Accepted; this runner has no effort setting yet, so it has no effect.'),
  run_in_background: z
    .boolean()
    .optional()
    .describe(
      "Run the agent in the background (the default in a durable session): the call returns at once with its task id, and its report arrives later as a task notification. Set false to wait for the report as this call's result.",
    ),
  isolation: z
    .enum(['worktree', 'remote'])
    .optional()
    .describe(
      '"worktree": the agent works in a new git worktree of this repository (.claude/worktrees/agent-<id>); removed again if the agent changed nothing. "remote" is not available here.',
    ),
});

export type AgentInput = z.infer<typeof inputSchema>;

/** An agent type's tools as its line in the listing says them. */
function agentToolsText(a: AgentDefinition): string {
  const but = [...new Set(['Agent', ...(a.disallowedTools ?? [])])];
  if (a.tools) return a.tools.filter((t) => !but.includes(t)).join(', ');
  return `all tools but ${but.join(', ')}`;
}

/** The description the model sees, listing the session's agent types. */
export function agentToolPrompt(agents: readonly AgentDefinition[] | undefined): string {
  const list = sessionAgents(agents)
    .map((a) => `- ${a.name}: ${a.description.replace(/\s+/g, ' ')} (Tools: ${agentToolsText(a)})`)
    .join('\n');
  return `Launch a new agent to handle complex, multi-step tasks autonomously. Each agent runs as its own session with its own context and tools and returns one final report.

Available agent types and the tools they have access to:
${list}

When using the Agent tool, set subagent_type to select an agent type (default: ${GENERAL_PURPOSE_AGENT.name}).

Usage notes:
- Launch several agents concurrently whenever possible: put several Agent calls in one message.
- The agent's final message is returned to you as the tool result; the user does not see it. Summarize it for the user.
- Each invocation starts fresh: give a detailed task description in prompt, and say exactly what the agent should return.
- Agents cannot start agents of their own.`;
}

export const AgentTool = buildTool<AgentInput, SubagentOutput>({
  name: 'Agent',
  aliases: AGENT_TOOL_NAMES.filter((n) => n !== 'Agent'),
  inputSchema,
  prompt: () => agentToolPrompt(undefined),
  summary: (input) => subagentSummary(agentTypeOf(input), input.description),
  // Agents run side by side; the child's own calls are checked by its own pipeline (rules, mode,
  // hooks), so starting one needs no approval of its own.
  isConcurrencySafe: () => true,
  isReadOnly: () => true,
  // The child session's id is derived from the tool_use_id: a re-run attaches to the same child.
  isIdempotent: () => true,
  // `Agent(reviewer)` / `Task(reviewer)` rules name an agent type, as the reference's do
  // (`"deny": ["Agent(Explore)"]` turns one agent off).
  getRuleContent: (input) => agentTypeOf(input),
  async validateInput(input, ctx) {
    for (const f of ['description', 'prompt', 'subagent_type'] as const) {
      if (input[f] === '') return { result: false, message: `${f} must not be empty` };
    }
    if (input.isolation === 'remote')
      return {
        result: false,
        message: 'isolation "remote" is not available in durable-agent: use "worktree" or omit it.',
      };
    // Only the session workflow makes an agent's worktree: the in-process runner (it runs the child
    // itself, ctx.runSubagent) and a bare pipeline call refuse it rather than run the child unisolated.
    if (input.isolation === 'worktree' && (ctx.runSubagent || !ctx.backgroundTasks))
      return {
        result: false,
        message:
          'isolation "worktree" needs a durable session: this runner (in-process) does not run agents in worktrees. Omit isolation, or use EnterWorktree.',
      };
    const agents = sessionAgents(ctx.agents);
    const type = agentTypeOf(input);
    if (!agents.some((a) => a.name === type)) {
      return {
        result: false,
        message: `Agent type '${type}' not found. Available agents: ${agents.map((a) => a.name).join(', ')}`,
      };
    }
    return { result: true };
  },
  async call(input, ctx) {
    if (!ctx.runSubagent) throw new Error('this runner cannot start subagents');
    // A background launch comes with its task's `taskStarted` modifier (the runner runs the child later).
    return await ctx.runSubagent(input, ctx);
  },
  mapToolResultToToolResultBlockParam(data, toolUseId) {
    if (data.launched)
      return {
        type: 'tool_result',
        tool_use_id: toolUseId,
        content: [{ type: 'text', text: agentLaunchedText(data.launched.taskId, data.sessionId) }],
      };
    const text = data.text.trim() === '' ? '(the agent returned no text)' : data.text;
    if (data.status === 'completed') {
      // As the reference: the final text, then a block with the child's counters.
      const note = subagentUsageNote(data);
      return {
        type: 'tool_result',
        tool_use_id: toolUseId,
        content: [{ type: 'text', text }, ...(note ? [{ type: 'text' as const, text: note }] : [])],
      };
    }
    return {
      type: 'tool_result',
      tool_use_id: toolUseId,
      is_error: true,
      content: `The ${data.agentType} agent did not finish (${data.status}: ${data.endReason}). Its last text: ${text}`,
    };
  },
});
