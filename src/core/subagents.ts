// Subagents as child sessions: what the Agent tool's pre-call phase hands the scheduler, what the
// child session hands back, and the pure rules both schedulers share (ids, summaries, tool
// subsets). Pure and deterministic: bundled into workflows.
import type { ProjectRepository } from './context';
import type { ControlWrite } from './toolRecords';
import type { ModelUsage } from './modelUsage';
import type { AgentWorktreeReady } from './agentWorktree';
import { MAX_TASK_TEXT, type BackgroundTask, type TaskOutcome } from './autonomy';
import { agentNotification, type AgentEnd } from '../tasks/core/taskNotifications';
import { sessionOfTurnWorkflowId } from './ids';

/** The tool's names: `Agent` (the reference's current name) and its old name `Task`. */
export const AGENT_TOOL_NAMES: readonly string[] = ['Agent', 'Task'];

/** A validated Agent call, resolved by the pre-call phase (schema, validateInput, hooks, permission passed). */
export interface SubagentCall {
  agentType: string;
  description: string;
  prompt: string;
  /** The child's system prompt (the agent definition's body). */
  system: string;
  /** The child's model id (alias resolved); absent = the parent's. */
  model?: string;
  /** The child's tools: the definition's within the parent's, never the Agent tool (no nesting). */
  tools: string[];
  maxTurns?: number;
  /** The child gets the parent's MCP servers (its tools inherit all, or name an `mcp__` tool). */
  mcp?: boolean;
  /** Deny rules the child adds to the parent's (the agent's `disallowedTools` MCP names). */
  denyRules?: string[];
  /** `run_in_background` as the model gave it (absent: the scheduler's default, background on the workflow path). */
  background?: boolean;
  /** `isolation: "worktree"`: the child works in a git worktree of its own (`.claude/worktrees/agent-<task id>`). */
  isolation?: 'worktree';
  /** The pipeline state the post-call phase continues from: the validated input, hook context, the decision. */
  resume: SubagentResume;
}

export interface SubagentResume {
  input: unknown;
  /** Text that PreToolUse hooks asked to add to the result (`additionalContext`). */
  context: string[];
  notices: string[];
  permission?: unknown;
  /** The PreToolUse hooks that ran (for the record and the audit). */
  hookRuns?: unknown[];
}

/** What the child session returned: the Agent tool's output (`call()`'s data). */
export interface SubagentOutput {
  agentType: string;
  /** The child session's id (its workflow id under Temporal). */
  sessionId: string;
  status: string;
  endReason: string;
  /** The child's final assistant text, whole. */
  text: string;
  turns: number;
  usage?: { input_tokens: number; output_tokens: number };
  /** Every model call of the child's tree by model, cost included (its session's result); the Agent call's record carries it. */
  modelUsage?: ModelUsage;
  /** The child's tool calls (the reference's `tool_uses` / `totalToolUseCount`). */
  toolUses?: number;
  /** Tokens of the child's last model call, input (cache included) + output (the reference's `subagent_tokens` / `totalTokens`). */
  totalTokens?: number;
  /** How long the child ran (workflow time under Temporal). */
  durationMs?: number;
  /** The model the child ran on (the reference's `resolvedModel`). */
  model?: string;
  /** Control files the child session's calls changed (a child session workflow: its result says; in-process the call's own fingerprint sees them). */
  controlWrites?: ControlWrite[];
  /** A background agent: the call returned at once; its report comes later as a task notification. */
  launched?: { taskId: string };
  /** The child's worktree (`isolation: "worktree"`), when it was kept (the child changed something). */
  worktree?: AgentWorktree;
}

/**
 * What the workflow asks of prepareAgentWorktree: the worktree's name, and where the session's
 * repository is — the one recorded at its start (`repository`, from its sandbox settings), else its
 * start directory (`projectDir`); `cwd` (the agent's current one) only from workflows before issue 30.
 */
export interface AgentWorktreeRequest {
  cwd: string;
  name: string;
  projectDir?: string;
  repository?: ProjectRepository | false;
}

export type { AgentWorktreeReady } from './agentWorktree';

/** Where an isolated agent worked: the reference's `worktreePath` / `worktreeBranch`. */
export interface AgentWorktree {
  path: string;
  branch: string;
}

/**
 * A background agent's launch, for both schedulers: the Agent call's result at once (the report
 * comes later as a task notification) — the session workflow's launchBackground
 * (temporal/workflows/subagent.ts) and the in-process runner's (inprocess/subagents.ts).
 */
export function agentLaunchedOutput(
  agentType: string,
  childSessionId: string,
  taskId: string,
  model: string,
): SubagentOutput {
  return {
    agentType,
    sessionId: childSessionId,
    status: 'launched',
    endReason: 'running in the background',
    text: '',
    turns: 0,
    model,
    launched: { taskId },
  };
}

/** The `local_agent` task a background launch records (a `taskStarted` modifier): the session then holds it. */
export function agentLaunchTask(launch: {
  taskId: string;
  toolUseId: string;
  description: string;
  startedAt: number;
  childSessionId: string;
  worktree?: AgentWorktreeReady | undefined;
}): BackgroundTask {
  return {
    id: launch.taskId,
    kind: 'local_agent',
    toolUseId: launch.toolUseId,
    description: launch.description.slice(0, MAX_TASK_TEXT),
    startedAt: launch.startedAt,
    timeoutMs: 0,
    state: 'running',
    agent: { sessionId: launch.childSessionId, ...(launch.worktree ? { worktree: launch.worktree } : {}) },
  };
}

/**
 * A foreground Agent call's output from its finished child session (both schedulers): `text` is the
 * scheduler's reading of the final text, `modelUsage` what the child's tree spent when the scheduler
 * reports it (the Agent call's record carries it).
 */
export function subagentResultOutput(
  agentType: string,
  childSessionId: string,
  r: Parameters<typeof subagentCounters>[0] & {
    status: string;
    endReason?: string | undefined;
    turns: number;
    usage: { input_tokens: number; output_tokens: number };
  },
  run: { text: string; durationMs: number; model: string; modelUsage?: ModelUsage | undefined },
): SubagentOutput {
  return {
    agentType,
    sessionId: childSessionId,
    status: r.status,
    endReason: r.endReason ?? r.status,
    text: run.text,
    turns: r.turns,
    usage: { input_tokens: r.usage.input_tokens, output_tokens: r.usage.output_tokens },
    ...(run.modelUsage ? { modelUsage: run.modelUsage } : {}),
    ...subagentCounters(r),
    durationMs: run.durationMs,
    model: run.model,
  };
}

/** The counters of a finished child session, as the Agent output carries them. */
export function subagentCounters(r: {
  toolCalls?: number;
  lastUsage?: {
    input_tokens: number;
    output_tokens: number;
    cache_read_input_tokens?: number | null;
    cache_creation_input_tokens?: number | null;
  };
}): Pick<SubagentOutput, 'toolUses' | 'totalTokens'> {
  const u = r.lastUsage;
  return {
    ...(r.toolCalls !== undefined ? { toolUses: r.toolCalls } : {}),
    ...(u
      ? {
          totalTokens:
            u.input_tokens + u.output_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0),
        }
      : {}),
  };
}

/**
 * The reference's second text block of a completed Agent result: `<usage>subagent_tokens: N
 * tool_uses: K duration_ms: D</usage>` (one per line). The reference's leading `agentId: … (use
 * SendMessage …)` line is left out: there is no SendMessage tool here. Absent for outputs recorded
 * before the counters existed.
 */
export function subagentUsageNote(o: SubagentOutput): string | undefined {
  const wt = o.worktree ? `worktreePath: ${o.worktree.path}\nworktreeBranch: ${o.worktree.branch}\n` : '';
  if (o.toolUses === undefined || o.totalTokens === undefined || o.durationMs === undefined)
    return wt ? wt.trimEnd() : undefined;
  return `${wt}<usage>subagent_tokens: ${o.totalTokens}\ntool_uses: ${o.toolUses}\nduration_ms: ${Math.round(o.durationMs)}</usage>`;
}

/** The child session's id: `<session>/agent-<tool_use_id>` — one child per call, ever (invariant 5). */
export function subagentSessionId(sessionId: string, toolUseId: string): string {
  return `${sessionId}/agent-${toolUseId}`;
}

/**
 * The parent and tool_use_id of an id of a subagent's form (`<parent>/agent-<id without "/">`);
 * undefined for any other id. A subagent's results directory lies inside its parent's
 * (runtime/callDeps.ts sessionDirName): a top-level session may not have an id of this form
 * (topLevelSessionIdProblem).
 */
export function subagentSessionParts(sessionId: string): { parent: string; toolUseId: string } | undefined {
  const m = /^(.+)\/agent-([^/]*)$/s.exec(sessionId);
  return m ? { parent: m[1]!, toolUseId: m[2]! } : undefined;
}

/**
 * Why `sessionId` cannot be the id of a session started by a person (not by an Agent call):
 * an id of a subagent's form would put its stored results inside session `<parent>`'s, which
 * reads them (issue 30 round g). Undefined when it may be used.
 */
export function topLevelSessionIdProblem(sessionId: string): string | undefined {
  const owner = sessionOfTurnWorkflowId(sessionId);
  if (owner !== undefined) {
    return `session id ${JSON.stringify(sessionId)} has the form of a turn's workflow id (\`<session>/turn-<n>\`): it would take the place of session ${JSON.stringify(owner)}'s turn ${sessionId.slice(owner.length + 6)}; choose an id without "/turn-<n>" at its end`;
  }
  const child = subagentSessionParts(sessionId);
  if (!child) return undefined;
  return `session id ${JSON.stringify(sessionId)} has the form of a subagent's session id (\`<parent>/agent-<tool_use_id>\`): a subagent's files lie inside its parent's (here session ${JSON.stringify(child.parent)}, which may read them), so a session started on its own may not use it; choose an id without "/agent-" before its last part`;
}

/** Where a subagent's session came from (its SessionInput.parent). */
export interface SubagentParent {
  sessionId: string;
  toolUseId: string;
  /** The agent type (absent in sessions started before it was recorded). */
  agentType?: string;
}

/**
 * What every hook input inside a subagent carries, as the reference sends it: the parent's
 * session_id, the subagent's id and type (src/hooks/types.ts AgentHookFields).
 */
export function agentHookFields(
  parent: SubagentParent,
  childSessionId: string,
): { session_id: string; agent_id: string; agent_type: string } {
  return { session_id: parent.sessionId, agent_id: childSessionId, agent_type: parent.agentType ?? 'general-purpose' };
}

/** The child session's system prompt: the agent's body and where it works (a file with an empty body gets the second part only). */
export function childSystemPrompt(system: string, cwd: string): string {
  const where = `The working directory is ${cwd}.`;
  return system.trim() === '' ? where : `${system}\n\n${where}`;
}

/**
 * The child session's model settings (both schedulers): the parent's as of the call, the agent's
 * model if it names one, its system prompt, and no thinking — as in the reference, whose regular
 * subagents run with thinking disabled to keep their output cost down (only a parent that has the
 * setting passes it).
 */
export function childModelSettings<M extends object>(
  parentModel: M,
  call: { model?: string | undefined; system: string },
  cwd: string,
  parentThinks: boolean,
) {
  return {
    ...parentModel,
    ...(call.model ? { model: call.model } : {}),
    system: childSystemPrompt(call.system, cwd),
    ...(parentThinks ? { thinking: { type: 'disabled' as const } } : {}),
  };
}

/** The child's permission rules: the parent's, plus the deny rules the agent adds (its `disallowedTools`). */
export function childRules<R extends { deny: string[] }>(rules: R, denyRules: readonly string[] | undefined): R {
  return denyRules?.length ? { ...rules, deny: [...rules.deny, ...denyRules] } : rules;
}

/**
 * What a child session takes from its parent besides model and rules (both schedulers), each only
 * when the parent has it: the hooks, their pins and project root (the child's hooks run from there,
 * checked against them), the memory (CLAUDE.md, as the reference gives a subagent), the MCP servers
 * when the agent asks for them, the sandbox, and the limits (the agent's `maxTurns` first).
 */
export function childInherited<H, P, M, S, X>(
  parent: {
    hooks?: H | undefined;
    hookPins?: P | undefined;
    memory?: M | undefined;
    mcpServers?: S | undefined;
    sandbox?: X | undefined;
    maxTurns?: number | undefined;
    maxTotalTokens?: number | undefined;
    maxStepsPerTurn?: number | undefined;
  },
  call: { mcp?: boolean | undefined; maxTurns?: number | undefined },
) {
  const maxTurns = call.maxTurns ?? parent.maxTurns;
  return {
    ...(parent.hooks ? { hooks: parent.hooks } : {}),
    ...(parent.hookPins ? { hookPins: parent.hookPins } : {}),
    ...(parent.memory ? { memory: parent.memory } : {}),
    ...(call.mcp && parent.mcpServers ? { mcpServers: parent.mcpServers } : {}),
    ...(parent.sandbox ? { sandbox: parent.sandbox } : {}),
    ...(maxTurns !== undefined ? { maxTurns } : {}),
    ...(parent.maxTotalTokens !== undefined ? { maxTotalTokens: parent.maxTotalTokens } : {}),
    ...(parent.maxStepsPerTurn !== undefined ? { maxStepsPerTurn: parent.maxStepsPerTurn } : {}),
  };
}

/** One line for the UI and the audit: `Agent reviewer: check the diff`. */
export function subagentSummary(agentType: string, description: string): string {
  const d = description.length > 80 ? `${description.slice(0, 79)}…` : description;
  return `Agent ${agentType}: ${d}`;
}

export function isAgentTool(name: string): boolean {
  return AGENT_TOOL_NAMES.includes(name);
}

/**
 * A background agent's task id (TaskStop's `task_id`, the notification's `<task-id>`; its worktree
 * is `agent-<id>`): `a` and 16 hex digits, as the reference's agent ids look, derived from the
 * session and the tool_use_id (FNV-1a, pure: workflow code computes it, replay gets the same).
 */
export function agentTaskId(sessionId: string, toolUseId: string): string {
  const text = `${sessionId}/${toolUseId}`;
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) >>> 0;
    h2 = (h2 ^ (h2 >>> 13)) >>> 0;
  }
  return `a${h1.toString(16).padStart(8, '0')}${h2.toString(16).padStart(8, '0')}`;
}

/** The worktree name of an isolated agent (the reference's: `agent-<agent id>`). */
export function agentWorktreeName(taskId: string): string {
  return `agent-${taskId}`;
}

/**
 * The Agent result of a background launch: the reference's first sentence and `agentId:` line,
 * then our own guidance (no SendMessage here; TaskStop stops it; no output file to read: the
 * child is a session of its own, `durable-agent status <child session>` shows it).
 */
export function agentLaunchedText(taskId: string, childSessionId: string): string {
  return [
    'Async agent launched successfully.',
    `agentId: ${taskId} (internal ID - do not mention to user. TaskStop with this id stops the agent.)`,
    'The agent is working in the background as its own session. You will be notified automatically when it completes. You know nothing about its results until that notification arrives: do not report, assume, or predict them; continue other work or respond to the user in the meantime.',
    "Do not duplicate this agent's work: avoid working with the same files or topics it is using.",
    `session: ${childSessionId}`,
  ].join('\n');
}

/**
 * A background agent's end as its notification says it (tasks/core/taskNotifications.ts `agentNotification`),
 * from its child session's result: the session workflow's wait (tasks/workflows/sessionAgentTasks.ts) and
 * the in-process runner's (inprocess/subagents.ts) both read it here.
 */
export function agentSessionEnd(
  r: Parameters<typeof subagentCounters>[0] & { status: string; endReason?: string | undefined; lastText: string },
  durationMs: number,
  worktree?: { path: string; branch: string },
): AgentEnd {
  const counters = subagentCounters(r);
  const completed = r.status === 'completed';
  return {
    state: completed ? 'completed' : 'failed',
    result: r.lastText,
    ...(completed ? {} : { error: `its session ended ${r.status}: ${r.endReason}` }),
    totalTokens: counters.totalTokens ?? 0,
    toolUses: counters.toolUses ?? 0,
    durationMs,
    ...(worktree ? { worktree } : {}),
  };
}

/** A background agent's task end: its outcome (completed or failed) and the notification to queue. */
export function agentTaskEnd(
  task: Pick<BackgroundTask, 'id' | 'description' | 'toolUseId'>,
  end: AgentEnd,
  endedAt: number,
): { outcome: TaskOutcome; notification: string } {
  const outcome: TaskOutcome = {
    state: end.state === 'completed' ? 'completed' : 'failed',
    endedAt,
    exitCode: null,
    ...(end.error ? { error: end.error } : {}),
  };
  const view = { id: task.id, description: task.description, toolUseId: task.toolUseId };
  return { outcome, notification: agentNotification(view, end) };
}

/** A background agent whose child could not be waited for (or run): failed, with why. */
export function agentFailureEnd(error: string, durationMs: number): AgentEnd {
  return { state: 'failed', error, totalTokens: 0, toolUses: 0, durationMs };
}

/**
 * How a background agent's task ended, for both schedulers (the workflow's wait for its child
 * session, tasks/workflows/sessionAgentTasks.ts; the in-process child run, inprocess/subagents.ts).
 */
export interface AgentTaskEnd {
  outcome: TaskOutcome;
  /** The notification to queue (absent when it was stopped: tasks/core/taskScheduling.ts decides that one). */
  notification?: string;
  /** What the child's tree spent by model (its session's result); the parent's session adds it to its own. */
  modelUsage?: ModelUsage;
}

/** The child session ended: its result as the agent's notification, and what its tree spent. */
export function agentCompletedTaskEnd(
  task: Pick<BackgroundTask, 'id' | 'description' | 'toolUseId' | 'startedAt'>,
  result: Parameters<typeof agentSessionEnd>[0] & { modelUsage?: ModelUsage | undefined },
  endedAt: number,
  worktree?: AgentWorktree,
): AgentTaskEnd {
  const end = agentTaskEnd(task, agentSessionEnd(result, endedAt - task.startedAt, worktree), endedAt);
  return result.modelUsage ? { ...end, modelUsage: result.modelUsage } : end;
}

/** The agent's child could not be waited for (or run): failed, and the notification says why. */
export function agentFailedTaskEnd(
  task: Pick<BackgroundTask, 'id' | 'description' | 'toolUseId' | 'startedAt'>,
  error: string,
  endedAt: number,
): AgentTaskEnd {
  const { notification } = agentTaskEnd(task, agentFailureEnd(error, endedAt - task.startedAt), endedAt);
  return { outcome: { state: 'failed', endedAt, exitCode: null, error }, notification };
}

/** TaskStop or the session's end stopped the agent (its child session too): killed, no notification here. */
export function agentStoppedTaskEnd(endedAt: number): AgentTaskEnd {
  return { outcome: { state: 'killed', endedAt, exitCode: null } };
}
