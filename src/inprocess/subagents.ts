// The in-process runner's session settings and its subagents: a subagent here is an in-process
// child session run by the same runner (the Temporal path runs it as a child session workflow),
// with the plan the Agent tool's activity would use (tool subset, model, system prompt, memory).
import { randomUUID } from 'node:crypto';
import type { ToolSessionSettings } from '../toolCall/tools';
import { subagentPlan } from '../toolCall/tools';
import type { sessionInput } from '../sessionInput';
import {
  agentCompletedTaskEnd,
  agentFailedTaskEnd,
  agentHookFields,
  agentStoppedTaskEnd,
  agentLaunchedOutput,
  agentLaunchTask,
  agentTaskId,
  childInherited,
  childModelSettings,
  childRules,
  subagentResultOutput,
  subagentSessionId,
  type AgentTaskEnd,
} from '../core/subagents';
import type { BackgroundTask } from '../core/autonomy';
import type { ToolUseContext } from '../toolProtocol/Tool';
import { modelWithSkillGrants } from '../core/context';
import type { LocalSessionOptions, LocalSessionResult } from './types';

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
    ...(input.hookPins ? { hookPins: input.hookPins } : {}),
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

/**
 * A background agent launched by an Agent call, not yet run: the session's task scheduler
 * (tasks.ts) runs it when it starts the call's `local_agent` task, after the turn, with the task's
 * stop; it returns the task's end (the notification to queue; none when it was stopped).
 */
export type LocalAgentLaunch = (signal: AbortSignal) => Promise<AgentTaskEnd>;

/**
 * The Agent tool's runner in-process: a foreground child session runs to its end and its final
 * text is the tool_result; a background one (without `run_in_background: false`, as the session
 * workflow's) returns the launched result at once and a `local_agent` task whose run (`launches`,
 * by task id) the session's task scheduler starts after the turn.
 */
export function localSubagentRunner(
  parent: LocalSubagentParent,
  runChild: (opts: LocalSessionOptions) => Promise<LocalSessionResult>,
  launches: Map<string, LocalAgentLaunch>,
): NonNullable<ToolUseContext['runSubagent']> {
  const { input, sessionId, session, approvalTimeoutMs } = parent;
  return async (data, ctx) => {
    const plan = subagentPlan(data, session);
    const childId = subagentSessionId(sessionId, ctx.toolUseId);
    const child = (signal: AbortSignal): LocalSessionOptions => ({
      sessionId: childId,
      prompt: plan.prompt,
      // The parent's model as of this call: a skill loaded earlier with `model` applies (the reference's subagents inherit it).
      // A subagent does not think (core/subagents.ts childModelSettings, shared with the workflow).
      model: childModelSettings(
        modelWithSkillGrants(input.model, ctx.agent),
        plan,
        ctx.agent.cwd,
        !!input.model.thinking,
      ),
      tools: plan.tools,
      permissionMode: input.permissionMode,
      rules: childRules(input.rules, plan.denyRules),
      cwd: ctx.agent.cwd,
      additionalDirectories: [...ctx.agent.additionalDirectories],
      ...childInherited(input, plan),
      approvalTimeoutMs,
      onInterrupt: 'end',
      signal,
      parent: { sessionId, toolUseId: ctx.toolUseId, agentType: plan.agentType },
      ...(parent.onAsk ? { onAsk: parent.onAsk } : {}),
    });
    const model = plan.model ?? input.model.model;
    if (plan.background ?? true) {
      const task = agentLaunchTask({
        taskId: agentTaskId(sessionId, ctx.toolUseId),
        toolUseId: ctx.toolUseId,
        description: plan.description,
        startedAt: Date.now(),
        childSessionId: childId,
      });
      launches.set(task.id, (signal) => runBackground(task, () => runChild(child(signal)), signal));
      const launched = agentLaunchedOutput(plan.agentType, childId, task.id, model);
      return { data: launched, contextModifiers: [{ type: 'taskStarted', task }] };
    }
    const started = Date.now();
    const r = await runChild(child(ctx.abortSignal));
    return {
      data: subagentResultOutput(plan.agentType, childId, r, {
        // Whole, as the Temporal path reads it from the child's transcript (lastText is one line).
        text: r.finalText || r.lastText,
        durationMs: Date.now() - started,
        model,
      }),
    };
  };
}

/** A background agent's run: its child session to its end, then the task's end (core/subagents.ts, shared). */
async function runBackground(
  task: BackgroundTask,
  run: () => Promise<LocalSessionResult>,
  signal: AbortSignal,
): Promise<AgentTaskEnd> {
  try {
    const r = await run();
    // Stopped (TaskStop, the session's end): killed; the scheduler decides the notice (tasks/core/taskScheduling.ts).
    if (signal.aborted) return agentStoppedTaskEnd(Date.now());
    // Its tree's spend was counted when the child ended (sessionRun.ts runChild), not again here.
    const { modelUsage: _counted, ...result } = r;
    return agentCompletedTaskEnd(task, { ...result, lastText: r.finalText || r.lastText }, Date.now());
  } catch (err) {
    if (signal.aborted) return agentStoppedTaskEnd(Date.now());
    return agentFailedTaskEnd(task, err instanceof Error ? err.message : String(err), Date.now());
  }
}
