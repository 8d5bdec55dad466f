// The Agent tool under Temporal: the pipeline's pre-call phase as an activity, the subagent as a
// child session workflow `<session>/agent-<tool_use_id>`, the post-call phase as an activity
// (docs/architecture.md "Subagents"). The child id is derived from the tool_use_id, so one call
// never starts two children: replay re-attaches to the child this turn started, and a child
// that already exists (ALREADY_STARTED) is awaited instead of started again.
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import {
  CancellationScope,
  ChildWorkflowFailure,
  isCancellation,
  patched,
  startChild,
  type ActivityInterfaceFor,
} from '@temporalio/workflow';
import { sessionRootOf, type AgentContext } from '../../core/context';
import type { ToolUseBlock } from '../../core/apiMessages';
import {
  agentLaunchedOutput,
  agentLaunchTask,
  agentTaskId,
  agentWorktreeName,
  childInherited,
  childModelSettings,
  childRules,
  subagentResultOutput,
  subagentSessionId,
  type AgentWorktreeReady,
  type SubagentCall,
  type SubagentOutput,
} from '../../core/subagents';
import { activityIds } from '../../core/ids';
import type { Approval, ToolRunResult, ToolUseDescription } from '../../core/turn';
import type { SubagentPrepared, ToolSessionInput, RunToolUseInput } from '../../toolCall/tools';
import type { AgentWorktreeRequest, SubagentResume } from '../../core/subagents';
import {
  BACKGROUND_AGENTS_PATCH,
  oneLinePreview,
  SKILL_MODEL_SUBAGENT_PATCH,
  type SessionInput,
  type SessionResult,
  type TurnWorkflowInput,
} from './definitions';

export interface SubagentActivities {
  prepareSubagent(input: RunToolUseInput): Promise<SubagentPrepared>;
  finishSubagent(
    input: RunToolUseInput & { resume: SubagentResume; output: SubagentOutput; childHead?: string | null },
  ): Promise<ToolRunResult>;
  awaitSubagent(input: { workflowId: string }): Promise<SessionResult>;
  prepareAgentWorktree(input: AgentWorktreeRequest): Promise<AgentWorktreeReady | { error: string }>;
  settleAgentWorktree(input: { worktree: AgentWorktreeReady }): Promise<{ path: string; branch: string } | null>;
}

export interface SubagentEnv {
  input: TurnWorkflowInput;
  session: ToolSessionInput;
  messageRef: string | null;
  /** The turn's interrupt scope: cancelling it cancels the child session (and its running tools). */
  scope: CancellationScope;
  activities: ActivityInterfaceFor<SubagentActivities>;
}

/**
 * The parent's model as a subagent inherits it at this call: the turn's model already has the
 * skills loaded before the turn; one loaded earlier in this turn (the call's context) names it
 * under SKILL_MODEL_SUBAGENT_PATCH (the marker is written only when it differs).
 */
function parentModel(input: TurnWorkflowInput, context: AgentContext): TurnWorkflowInput['model'] {
  const granted = context.skillGrants?.model;
  if (!granted || granted === input.model.model || !patched(SKILL_MODEL_SUBAGENT_PATCH)) return input.model;
  return { ...input.model, model: granted };
}

/** The child session's input: the parent's settings, the agent's prompt, tools, model and limits. */
export function childSessionInput(
  env: SubagentEnv,
  call: SubagentCall,
  block: ToolUseBlock,
  context: AgentContext,
  worktree?: AgentWorktreeReady,
  background = false,
): SessionInput {
  const { input } = env;
  const sub = input.subagents ?? {};
  // An isolated child works in its worktree: its cwd, its system prompt, its sandbox (plus what git needs there).
  const cwd = worktree ? worktree.path : context.cwd;
  const sandbox = worktree && input.sandbox ? worktreeSandbox(input.sandbox, worktree) : input.sandbox;
  return {
    prompt: call.prompt,
    // A subagent does not think (core/subagents.ts childModelSettings).
    model: childModelSettings(parentModel(input, context), call, cwd, !!input.model.thinking),
    tools: call.tools,
    permissionMode: input.permissionMode,
    rules: childRules(input.rules, call.denyRules),
    cwd,
    ...(context.additionalDirectories.length > 0 ? { additionalDirectories: [...context.additionalDirectories] } : {}),
    ...childInherited(
      {
        hooks: input.hooks,
        hookPins: input.hookPins,
        memory: sub.memory,
        mcpServers: input.mcpServers,
        sandbox,
        maxTurns: sub.maxTurns,
        maxTotalTokens: sub.maxTotalTokens,
        maxStepsPerTurn: sub.maxStepsPerTurn,
      },
      call,
    ),
    approvalTimeoutMs: input.approvalTimeoutMs,
    // A subagent has nobody to send it a follow-up: an interrupt ends it.
    onInterrupt: 'end',
    maxConcurrency: input.maxConcurrency,
    ...(input.retry?.retryCapMs !== undefined ? { retryCapMs: input.retry.retryCapMs } : {}),
    ...(input.retry?.maxOutageMs !== undefined ? { maxOutageMs: input.retry.maxOutageMs } : {}),
    ...(input.toolTaskQueue ? { toolTaskQueue: input.toolTaskQueue } : {}),
    ...(input.modelTaskQueue ? { modelTaskQueue: input.modelTaskQueue } : {}),
    ...(input.toolHeartbeatTimeoutMs ? { toolHeartbeatTimeoutMs: input.toolHeartbeatTimeoutMs } : {}),
    ...(sub.useSearchAttributes ? { useSearchAttributes: true } : {}),
    parent: { sessionId: input.sessionId, toolUseId: block.id, agentType: call.agentType },
    // The root's budget holds the child too: its model calls are charged to the root and held by it.
    ...(sub.budgetRoot
      ? {
          budgetLink: {
            rootId: sub.budgetRoot,
            chargeTo: `${background ? 'bg' : 'fg'}:${subagentSessionId(input.sessionId, block.id)}`,
          },
        }
      : {}),
  };
}

/** The parent's sandbox settings with what git needs in the child's worktree (as `run --worktree`). */
function worktreeSandbox(
  sandbox: NonNullable<SessionInput['sandbox']>,
  wt: AgentWorktreeReady,
): SessionInput['sandbox'] {
  return {
    ...sandbox,
    filesystem: {
      ...sandbox.filesystem,
      allowWrite: [...(sandbox.filesystem?.allowWrite ?? []), ...wt.allowWrite],
      denyWrite: [...(sandbox.filesystem?.denyWrite ?? []), ...wt.denyWrite],
    },
    ...(wt.worktreeGit ? { worktreeGit: [...(sandbox.worktreeGit ?? []), wt.worktreeGit] } : {}),
  };
}

function childOptions(
  env: SubagentEnv,
  workflowId: string,
  call: SubagentCall,
  block: ToolUseBlock,
  context: AgentContext,
  worktree: AgentWorktreeReady | undefined,
  background = false,
) {
  return {
    workflowId,
    staticSummary: `Agent ${call.agentType}: ${oneLinePreview(call.description, 80)}`,
    staticDetails: `Subagent of ${env.input.sessionId} (turn ${env.input.turn}, tool_use ${block.id}).\n\nPrompt: ${oneLinePreview(call.prompt, 1000)}`,
    workflowIdReusePolicy: 'REJECT_DUPLICATE' as const,
    args: [childSessionInput(env, call, block, context, worktree, background)] as [SessionInput],
  };
}

/** Starts the child session (or attaches to the one that exists) and waits for its result. */
async function childResult(
  env: SubagentEnv,
  workflowId: string,
  call: SubagentCall,
  block: ToolUseBlock,
  context: AgentContext,
  worktree?: AgentWorktreeReady,
): Promise<SessionResult> {
  try {
    const child = await startChild('sessionWorkflow', childOptions(env, workflowId, call, block, context, worktree));
    return (await child.result()) as SessionResult;
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    // A child for this tool_use_id exists already (started by an earlier execution): wait for it, never start a second one.
    return env.activities.awaitSubagent.executeWithOptions(
      { activityId: activityIds.agentAwait(block.id), summary: `Wait for ${workflowId}` },
      [{ workflowId }],
    );
  }
}

type Post = (output: SubagentOutput, childHead: string | null) => Promise<ToolRunResult>;

function failedOutput(call: SubagentCall, sessionId: string, cause: string): SubagentOutput {
  return { agentType: call.agentType, sessionId, status: 'failed', endReason: cause, text: '', turns: 0 };
}

function causeOf(err: unknown): string {
  if (err instanceof ChildWorkflowFailure && err.cause) return err.cause.message;
  return err instanceof Error ? err.message : String(err);
}

/**
 * A background agent (BACKGROUND_AGENTS_PATCH): the child session starts outside the turn's
 * interrupt scope with parent close policy ABANDON (it outlives this turn; TaskStop or the
 * session's end stops it), the call returns the launched result at once, and its `local_agent`
 * task (a `taskStarted` modifier added here, deterministically) makes the session wait for the
 * child as the task's activity and queue its notification.
 */
async function launchBackground(
  env: SubagentEnv,
  call: SubagentCall,
  block: ToolUseBlock,
  context: AgentContext,
  worktree: AgentWorktreeReady | undefined,
  post: Post,
): Promise<ToolRunResult> {
  const workflowId = subagentSessionId(env.input.sessionId, block.id);
  const taskId = agentTaskId(env.input.sessionId, block.id);
  try {
    await CancellationScope.nonCancellable(() =>
      startChild('sessionWorkflow', {
        ...childOptions(env, workflowId, call, block, context, worktree, true),
        parentClosePolicy: 'ABANDON',
      }),
    );
  } catch (err) {
    // A child for this tool_use_id exists already (an earlier execution launched it): it is the task.
    if (!(err instanceof WorkflowExecutionAlreadyStartedError))
      return post(failedOutput(call, workflowId, causeOf(err)), null);
  }
  const r = await post(
    agentLaunchedOutput(call.agentType, workflowId, taskId, call.model ?? env.input.model.model),
    null,
  );
  if (r.kind !== 'done' || r.record.status !== 'ok') return r;
  const task = agentLaunchTask({
    taskId,
    toolUseId: block.id,
    description: call.description,
    startedAt: Date.now(),
    childSessionId: workflowId,
    worktree,
  });
  return {
    ...r,
    record: { ...r.record, contextModifiers: [...r.record.contextModifiers, { type: 'taskStarted', task }] },
  };
}

/** `isolation: "worktree"`: the child's worktree, made on the tool worker before the child starts. */
async function agentWorktree(
  env: SubagentEnv,
  block: ToolUseBlock,
  context: AgentContext,
): Promise<AgentWorktreeReady | { error: string }> {
  const name = agentWorktreeName(agentTaskId(env.input.sessionId, block.id));
  return env.scope.run(() =>
    env.activities.prepareAgentWorktree.executeWithOptions(
      { activityId: activityIds.agentWorktree(block.id), summary: `Worktree ${name} for the agent` },
      // The session's repository as recorded at its start, and its start directory: never only the
      // agent's current cwd (issue 30). Data for the activity only: the command is the same.
      [
        {
          cwd: context.cwd,
          name,
          projectDir: sessionRootOf(context),
          ...(env.input.sandbox?.repository !== undefined ? { repository: env.input.sandbox.repository } : {}),
        },
      ],
    ),
  );
}

/** One Agent call: pre-call checks, the child session, post-call result handling. Interrupts and cancellations propagate (thrown). */
export async function runSubagentCall(
  env: SubagentEnv,
  block: ToolUseBlock,
  context: AgentContext,
  description: ToolUseDescription,
  approval?: Approval,
): Promise<ToolRunResult> {
  const { input, session, messageRef, activities } = env;
  const base: RunToolUseInput = {
    session,
    block,
    messageRef,
    context,
    ...(input.readFilesRef ? { readFilesRef: input.readFilesRef } : {}),
    ...(approval ? { approval } : {}),
  };
  const pre = await env.scope.run(() =>
    activities.prepareSubagent.executeWithOptions(
      { activityId: activityIds.agentPre(block.id, approval?.decision), summary: `${description.summary} (checks)` },
      [base],
    ),
  );
  if (pre.kind !== 'ready') return pre;
  const call = pre.call;
  const workflowId = subagentSessionId(input.sessionId, block.id);
  // Not interruptible: the child's work is done (or launched); its result is recorded.
  const post: Post = (output, childHead) =>
    activities.finishSubagent.executeWithOptions(
      { activityId: activityIds.agentPost(block.id), summary: description.summary },
      [{ ...base, resume: call.resume, output, childHead }],
    );
  // A turn recorded before the patch ran every Agent call in the foreground (and refused both keys).
  const agentsPatch = patched(BACKGROUND_AGENTS_PATCH);
  let worktree: AgentWorktreeReady | undefined;
  if (agentsPatch && call.isolation === 'worktree') {
    const wt = await agentWorktree(env, block, context);
    if ('error' in wt) return post(failedOutput(call, workflowId, `its worktree could not be made: ${wt.error}`), null);
    worktree = wt;
  }
  if (agentsPatch && (call.background ?? true)) return launchBackground(env, call, block, context, worktree, post);
  let output: SubagentOutput;
  let childHead: string | null = null;
  const started = Date.now(); // workflow time: deterministic on replay
  try {
    const r = await env.scope.run(() => childResult(env, workflowId, call, block, context, worktree));
    childHead = r.head;
    output = {
      ...subagentResultOutput(call.agentType, workflowId, r, {
        text: oneLinePreview(r.lastText, 2000),
        durationMs: Date.now() - started,
        model: call.model ?? parentModel(env.input, context).model,
        modelUsage: r.modelUsage,
      }),
      // Present only in results of children that wrote a control file (absent in every older history).
      ...(r.controlWrites?.length
        ? { controlWrites: r.controlWrites.map((w) => ({ path: w.path, change: w.change })) }
        : {}),
    };
  } catch (err) {
    if (isCancellation(err)) throw err;
    output = failedOutput(call, workflowId, causeOf(err));
  }
  if (worktree) {
    const wt = worktree;
    const kept = await activities.settleAgentWorktree.executeWithOptions(
      { activityId: activityIds.agentWorktreeSettle(block.id), summary: `Worktree of the agent: keep or remove` },
      [{ worktree: wt }],
    );
    if (kept) output = { ...output, worktree: kept };
  }
  return post(output, childHead);
}
