// The in-process runner's session settings and its subagents: a subagent here is an in-process
// child session run by the same runner (the Temporal path runs it as a child session workflow),
// with the plan the Agent tool's activity would use (tool subset, model, system prompt, memory).
import { randomUUID } from 'node:crypto';
import type { ToolSessionSettings } from '../calls/tools';
import { subagentPlan } from '../calls/tools';
import type { sessionInput } from '../sessionInput';
import { agentHookFields, childSystemPrompt, subagentCounters, subagentSessionId } from '../engine/subagents';
import type { ToolUseContext } from '../tools/Tool';
import { modelWithSkillGrants } from '../engine/context';
import type { LocalSessionOptions, LocalSessionResult } from './runSession';

type LocalInput = ReturnType<typeof sessionInput>;

/** What every tool call of an in-process session carries (the Temporal path puts the same in the turn input). */
export function localToolSession(input: LocalInput, sessionId: string): ToolSessionSettings {
  return {
    sessionId,
    // Unique per run of startLocalSession, whatever sessionId the caller reuses.
    ledgerKey: `run-${randomUUID()}`,
    toolNames: input.tools,
    permission: {
      mode: input.permissionMode,
      rules: input.rules,
      workingDirectories: [input.cwd, ...(input.additionalDirectories ?? [])],
      ...(input.sandbox ? { sandbox: input.sandbox } : {}),
    },
    ...(input.hooks ? { hooks: input.hooks as ToolSessionSettings['hooks'] } : {}),
    ...(input.mcpServers && Object.keys(input.mcpServers).length > 0 ? { mcpServers: input.mcpServers } : {}),
    ...(input.tools.includes('Skill') && input.skills?.length ? { skills: input.skills } : {}),
    ...(input.parent ? { agentHookFields: agentHookFields(input.parent, sessionId) } : {}),
  };
}

export interface LocalSubagentParent {
  input: LocalInput;
  sessionId: string;
  session: ToolSessionSettings;
  approvalTimeoutMs: number;
  onAsk?: LocalSessionOptions['onAsk'];
}

/** The Agent tool's runner in-process: the child session runs to its end; its final text is the tool_result. */
export function localSubagentRunner(
  parent: LocalSubagentParent,
  runChild: (opts: LocalSessionOptions) => Promise<LocalSessionResult>,
): NonNullable<ToolUseContext['runSubagent']> {
  const { input, sessionId, session, approvalTimeoutMs } = parent;
  return async (data, ctx) => {
    const plan = subagentPlan(data, session);
    const childId = subagentSessionId(sessionId, ctx.toolUseId);
    const maxTurns = plan.maxTurns ?? input.maxTurns;
    const started = Date.now();
    const r = await runChild({
      sessionId: childId,
      prompt: plan.prompt,
      // The parent's model as of this call: a skill loaded earlier with `model` applies (the reference's subagents inherit it).
      model: {
        ...modelWithSkillGrants(input.model, ctx.agent),
        ...(plan.model ? { model: plan.model } : {}),
        system: childSystemPrompt(plan.system, ctx.agent.cwd),
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
      signal: ctx.abortSignal,
      parent: { sessionId, toolUseId: ctx.toolUseId, agentType: plan.agentType },
      ...(parent.onAsk ? { onAsk: parent.onAsk } : {}),
    });
    return {
      agentType: plan.agentType,
      sessionId: childId,
      status: r.status,
      endReason: r.endReason ?? r.status,
      // Whole, as the Temporal path reads it from the child's transcript (lastText is one line).
      text: r.finalText || r.lastText,
      turns: r.turns,
      usage: { input_tokens: r.usage.input_tokens, output_tokens: r.usage.output_tokens },
      ...subagentCounters(r),
      durationMs: Date.now() - started,
      model: plan.model ?? input.model.model,
    };
  };
}
