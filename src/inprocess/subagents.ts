// The in-process runner's session settings and its subagents: a subagent here is an in-process
// child session run by the same runner (the Temporal path runs it as a child session workflow),
// with the plan the Agent tool's activity would use (tool subset, model, system prompt, memory).
import { randomUUID } from 'node:crypto';
import type { ToolSessionSettings } from '../toolCall/tools';
import { subagentPlan } from '../toolCall/tools';
import type { sessionInput } from '../sessionInput';
import {
  agentFailureEnd,
  agentHookFields,
  agentSessionEnd,
  agentTaskEnd,
  agentTaskId,
  childSystemPrompt,
  subagentCounters,
  subagentSessionId,
  type SubagentOutput,
} from '../core/subagents';
import { MAX_TASK_TEXT, type BackgroundTask, type TaskOutcome } from '../core/autonomy';
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
export type LocalAgentLaunch = (signal: AbortSignal) => Promise<{ outcome: TaskOutcome; notification?: string }>;

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
    const maxTurns = plan.maxTurns ?? input.maxTurns;
    const child = (signal: AbortSignal): LocalSessionOptions => ({
      sessionId: childId,
      prompt: plan.prompt,
      // The parent's model as of this call: a skill loaded earlier with `model` applies (the reference's subagents inherit it).
      model: {
        ...modelWithSkillGrants(input.model, ctx.agent),
        ...(plan.model ? { model: plan.model } : {}),
        system: childSystemPrompt(plan.system, ctx.agent.cwd),
        // A subagent does not think, as in the reference (src/temporal/workflows/subagent.ts childSessionInput).
        ...(input.model.thinking ? { thinking: { type: 'disabled' as const } } : {}),
      },
      tools: plan.tools,
      permissionMode: input.permissionMode,
      rules: plan.denyRules?.length ? { ...input.rules, deny: [...input.rules.deny, ...plan.denyRules] } : input.rules,
      cwd: ctx.agent.cwd,
      additionalDirectories: [...ctx.agent.additionalDirectories],
      ...(input.hooks ? { hooks: input.hooks } : {}),
      // The parent's pins and project root: the child's hooks run from there, checked against them.
      ...(input.hookPins ? { hookPins: input.hookPins } : {}),
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
      const task: BackgroundTask = {
        id: agentTaskId(sessionId, ctx.toolUseId),
        kind: 'local_agent',
        toolUseId: ctx.toolUseId,
        description: plan.description.slice(0, MAX_TASK_TEXT),
        startedAt: Date.now(),
        timeoutMs: 0,
        state: 'running',
        agent: { sessionId: childId },
      };
      launches.set(task.id, (signal) => runBackground(task, () => runChild(child(signal)), signal));
      const launched: SubagentOutput = {
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
        ...subagentCounters(r),
        durationMs: Date.now() - started,
        model,
      },
    };
  };
}

/** A background agent's run: its child session to its end, then the task's end (core/subagents.ts, shared). */
async function runBackground(
  task: BackgroundTask,
  run: () => Promise<LocalSessionResult>,
  signal: AbortSignal,
): Promise<{ outcome: TaskOutcome; notification?: string }> {
  try {
    const r = await run();
    const endedAt = Date.now();
    // Stopped (TaskStop, the session's end): killed; the scheduler decides the notice (tasks/core/taskScheduling.ts).
    if (signal.aborted) return { outcome: { state: 'killed', endedAt, exitCode: null } };
    return agentTaskEnd(
      task,
      agentSessionEnd({ ...r, lastText: r.finalText || r.lastText }, endedAt - task.startedAt),
      endedAt,
    );
  } catch (err) {
    const endedAt = Date.now();
    if (signal.aborted) return { outcome: { state: 'killed', endedAt, exitCode: null } };
    const message = err instanceof Error ? err.message : String(err);
    const { notification } = agentTaskEnd(task, agentFailureEnd(message, endedAt - task.startedAt), endedAt);
    return { outcome: { state: 'failed', endedAt, exitCode: null, error: message }, notification };
  }
}
