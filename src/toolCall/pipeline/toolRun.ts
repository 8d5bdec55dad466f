// The typed context every stage of the pipeline works on, once the tool is found: the call's state,
// its environment, the tool, the ToolUseContext the tool sees and the abort controller of the call.
import type { AgentContext } from '../../core/context';
import type { HookPermissionDecision } from '../../permissions/decide';
import type { ToolPermissionContext } from '../../toolProtocol/permissionTypes';
import type { AnyTool, ToolUseContext } from '../../toolProtocol/Tool';
import type { RunState } from './runState';
import type { PipelineEnv, PipelinePhase } from './types';

export interface ToolRun {
  readonly state: RunState;
  readonly env: PipelineEnv;
  readonly tool: AnyTool;
  readonly ctx: ToolUseContext;
  /** Aborted with the caller's signal; the tool and the hooks see this one. */
  readonly controller: AbortController;
  /** Phase 'post': the checks ran in phase 'pre'; the run continues from its state with the scheduler's output. */
  readonly resumed: Extract<PipelinePhase, { kind: 'post' }> | undefined;
  /** The input as the schema parsed it (what the hooks, the permission check and call() see). */
  data: unknown;
  /** The PreToolUse hooks' combined permission decision, for the permission check. */
  hookDecision?: HookPermissionDecision;
  /** When call() started (duration_ms of the hooks after it). */
  callStarted: number;
}

/**
 * The session's permission context with the allow rules of the skills loaded so far (their
 * `allowed-tools`, granted by a Skill call: the context modifier the audit shows). Deny and ask
 * rules still come first, as for every allow rule.
 */
export function withSkillGrants(permission: ToolPermissionContext, agent: AgentContext): ToolPermissionContext {
  const granted = agent.skillGrants?.allowedTools ?? [];
  if (granted.length === 0) return permission;
  const allow = [...new Set([...(permission.rules?.allow ?? []), ...granted])];
  return { ...permission, rules: { ...permission.rules, allow } };
}

export function newToolRun(state: RunState, env: PipelineEnv, tool: AnyTool, controller: AbortController): ToolRun {
  const toolUseId = state.toolUseId;
  const ctx: ToolUseContext = {
    sessionId: env.sessionId,
    toolUseId,
    idempotencyKey:
      env.idempotencyScope && env.idempotencyScope !== env.sessionId
        ? `${env.sessionId}/${env.idempotencyScope}/${toolUseId}`
        : `${env.sessionId}/${toolUseId}`,
    agent: env.agent,
    permission: withSkillGrants(env.permission, env.agent),
    abortSignal: controller.signal,
  };
  if (env.resultStore) ctx.resultStore = env.resultStore;
  if (env.privatePaths) ctx.privatePaths = env.privatePaths;
  if (env.sandboxHost) ctx.sandboxHost = env.sandboxHost;
  if (env.agents) ctx.agents = env.agents;
  if (env.skills) ctx.skills = env.skills;
  if (env.runSubagent) ctx.runSubagent = env.runSubagent;
  if (env.backgroundTasks) ctx.backgroundTasks = true;
  if (env.monitorTasks === false) ctx.monitorTasks = false;
  if (env.sideModel) ctx.sideModel = env.sideModel;
  ctx.pool = env.pool;
  const resumed = env.phase?.kind === 'post' ? env.phase : undefined;
  return { state, env, tool, ctx, controller, resumed, data: undefined, callStarted: Date.now() };
}

/** Phase 'post': the state phase 'pre' handed to the scheduler (input, hook text, notices, permission, hook runs). */
export function takeResumed(run: ToolRun, resumed: NonNullable<ToolRun['resumed']>): void {
  const { state } = run;
  run.data = resumed.resume.input;
  state.input = run.data;
  state.context.push(...resumed.resume.context);
  state.hookNotices.push(...resumed.resume.notices);
  if (resumed.resume.permission) state.permission = resumed.resume.permission as typeof state.permission;
  if (resumed.resume.hookRuns) state.hookRuns.push(...(resumed.resume.hookRuns as typeof state.hookRuns));
}
