// The Agent tool under Temporal: the pipeline's pre-call phase as an activity, the subagent as a
// child session workflow `<session>/agent-<tool_use_id>`, the post-call phase as an activity
// (docs/architecture.md "Subagents"). The child id is derived from the tool_use_id, so one call
// never starts two children: replay re-attaches to the child this turn started, and a child
// that already exists (ALREADY_STARTED) is awaited instead of started again.
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import {
  ChildWorkflowFailure,
  isCancellation,
  startChild,
  type ActivityInterfaceFor,
  type CancellationScope,
} from '@temporalio/workflow';
import type { AgentContext } from '../engine/context';
import type { ToolUseBlock } from '../engine/messages';
import {
  childSystemPrompt,
  subagentCounters,
  subagentSessionId,
  type SubagentCall,
  type SubagentOutput,
} from '../engine/subagents';
import { activityIds } from '../engine/ids';
import type { Approval, ToolRunResult, ToolUseDescription } from '../engine/turn';
import type { SubagentPrepared, ToolSessionInput, RunToolUseInput } from '../calls/tools';
import type { SubagentResume } from '../engine/subagents';
import { oneLinePreview, type SessionInput, type SessionResult, type TurnWorkflowInput } from './definitions';

export interface SubagentActivities {
  prepareSubagent(input: RunToolUseInput): Promise<SubagentPrepared>;
  finishSubagent(
    input: RunToolUseInput & { resume: SubagentResume; output: SubagentOutput; childHead?: string | null },
  ): Promise<ToolRunResult>;
  awaitSubagent(input: { workflowId: string }): Promise<SessionResult>;
}

export interface SubagentEnv {
  input: TurnWorkflowInput;
  session: ToolSessionInput;
  messageRef: string | null;
  /** The turn's interrupt scope: cancelling it cancels the child session (and its running tools). */
  scope: CancellationScope;
  activities: ActivityInterfaceFor<SubagentActivities>;
}

/** The child session's input: the parent's settings, the agent's prompt, tools, model and limits. */
export function childSessionInput(
  env: SubagentEnv,
  call: SubagentCall,
  block: ToolUseBlock,
  context: AgentContext,
): SessionInput {
  const { input } = env;
  const sub = input.subagents ?? {};
  const maxTurns = call.maxTurns ?? sub.maxTurns;
  return {
    prompt: call.prompt,
    model: {
      ...input.model,
      ...(call.model ? { model: call.model } : {}),
      system: childSystemPrompt(call.system, context.cwd),
    },
    tools: call.tools,
    permissionMode: input.permissionMode,
    rules: call.denyRules?.length ? { ...input.rules, deny: [...input.rules.deny, ...call.denyRules] } : input.rules,
    cwd: context.cwd,
    ...(context.additionalDirectories.length > 0 ? { additionalDirectories: [...context.additionalDirectories] } : {}),
    ...(input.hooks ? { hooks: input.hooks } : {}),
    // The parent's memory (CLAUDE.md), as the reference gives a subagent.
    ...(sub.memory ? { memory: sub.memory } : {}),
    ...(call.mcp && input.mcpServers ? { mcpServers: input.mcpServers } : {}),
    ...(input.sandbox ? { sandbox: input.sandbox } : {}),
    ...(maxTurns !== undefined ? { maxTurns } : {}),
    ...(sub.maxTotalTokens !== undefined ? { maxTotalTokens: sub.maxTotalTokens } : {}),
    approvalTimeoutMs: input.approvalTimeoutMs,
    // A subagent has nobody to send it a follow-up: an interrupt ends it.
    onInterrupt: 'end',
    maxConcurrency: input.maxConcurrency,
    ...(input.retry?.retryCapMs !== undefined ? { retryCapMs: input.retry.retryCapMs } : {}),
    ...(input.retry?.maxOutageMs !== undefined ? { maxOutageMs: input.retry.maxOutageMs } : {}),
    ...(input.toolTaskQueue ? { toolTaskQueue: input.toolTaskQueue } : {}),
    ...(input.toolHeartbeatTimeoutMs ? { toolHeartbeatTimeoutMs: input.toolHeartbeatTimeoutMs } : {}),
    ...(sub.useSearchAttributes ? { useSearchAttributes: true } : {}),
    parent: { sessionId: input.sessionId, toolUseId: block.id, agentType: call.agentType },
  };
}

/** Starts the child session (or attaches to the one that exists) and waits for its result. */
async function childResult(
  env: SubagentEnv,
  workflowId: string,
  call: SubagentCall,
  block: ToolUseBlock,
  context: AgentContext,
): Promise<SessionResult> {
  try {
    const child = await startChild('sessionWorkflow', {
      workflowId,
      staticSummary: `Agent ${call.agentType}: ${oneLinePreview(call.description, 80)}`,
      staticDetails: `Subagent of ${env.input.sessionId} (turn ${env.input.turn}, tool_use ${block.id}).\n\nPrompt: ${oneLinePreview(call.prompt, 1000)}`,
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      args: [childSessionInput(env, call, block, context)],
    });
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
  let output: SubagentOutput;
  let childHead: string | null = null;
  const started = Date.now(); // workflow time: deterministic on replay
  try {
    const r = await env.scope.run(() => childResult(env, workflowId, call, block, context));
    childHead = r.head;
    output = {
      agentType: call.agentType,
      sessionId: workflowId,
      status: r.status,
      endReason: r.endReason ?? r.status,
      text: oneLinePreview(r.lastText, 2000),
      turns: r.turns,
      usage: { input_tokens: r.usage.input_tokens, output_tokens: r.usage.output_tokens },
      ...subagentCounters(r),
      durationMs: Date.now() - started,
      model: call.model ?? env.input.model.model,
      // Present only in results of children that wrote a control file (absent in every older history).
      ...(r.controlWrites?.length
        ? { controlWrites: r.controlWrites.map((w) => ({ path: w.path, change: w.change })) }
        : {}),
    };
  } catch (err) {
    if (isCancellation(err)) throw err;
    const cause =
      err instanceof ChildWorkflowFailure && err.cause
        ? err.cause.message
        : err instanceof Error
          ? err.message
          : String(err);
    output = {
      agentType: call.agentType,
      sessionId: workflowId,
      status: 'failed',
      endReason: cause,
      text: '',
      turns: 0,
    };
  }
  // Not interruptible: the child's work is done; its result is recorded.
  return activities.finishSubagent.executeWithOptions(
    { activityId: activityIds.agentPost(block.id), summary: description.summary },
    [{ ...base, resume: call.resume, output, childHead }],
  );
}
