// Background tasks in the audit (issue 19): each task a tool call started (Bash
// `run_in_background`; Monitor and background Agent tasks fit the same row) runs as the session's
// own activity `task-<id>`. Its input names the task (id, the call's tool_use_id, the command's
// preview, cwd, output file), its result says how it ended (state, exit code, output size, the
// whole output's key in the store); the activity's own end says what the result cannot: cancelled
// (TaskStop, or the session ended) is `killed`, a timeout (the worker stopped heartbeating) is
// `lost`. The call that started it gives the whole command and the tool; a TaskStop call naming it
// says who stopped it. The same decisions as tasks/workflows/sessionTasks.ts, read back from history.
import { ACTIVITY_TYPES } from '../core/ids';
import type { TaskKind } from '../core/autonomy';
import type { RunBackgroundTaskInput, RunBackgroundTaskResult } from '../tasks/runtime/backgroundTask';
import type { ActivityTrack } from './history';
import type { AuditTask, AuditToolCall } from './types';

const TASK_ACTIVITY = /^task-(.+)$/;

/** The task kind of the tool that starts it (the reference's task types). */
const KIND_OF_TOOL: Record<string, TaskKind> = { Bash: 'local_bash', Monitor: 'monitor', Agent: 'local_agent' };
/**
 * The task kind of the activity type that runs it, when the starting call is not in the audit
 * (Monitor's `runMonitorTask`, a background agent's wait `awaitAgentTask`: issue 19's next kinds).
 */
const KIND_OF_ACTIVITY: Record<string, TaskKind> = {
  [ACTIVITY_TYPES.runBackgroundTask]: 'local_bash',
  [ACTIVITY_TYPES.runMonitorTask]: 'monitor',
  [ACTIVITY_TYPES.awaitAgentTask]: 'local_agent',
};
/** A background agent's child session: `<session>/agent-<tool_use_id>`. */
const AGENT_CHILD = /\/agent-([^/]+)$/;

const iso = (ms: number | undefined): string | undefined => (ms === undefined ? undefined : new Date(ms).toISOString());

type TaskActivity = Pick<
  ActivityTrack,
  | 'activityId'
  | 'type'
  | 'input'
  | 'result'
  | 'outcome'
  | 'attempt'
  | 'scheduledAt'
  | 'startedAt'
  | 'endedAt'
  | 'cancelRequestedAt'
  | 'failures'
>;

interface TaskInputView {
  id?: string;
  kind?: string;
  toolUseId?: string;
  command?: string;
  description?: string;
  cwd?: string;
  outputPath?: string;
  timeoutMs?: number;
  unsandboxed?: boolean;
}

/** A task activity's result: a command's (RunBackgroundTaskResult) or a child session's (`result.status`). */
type TaskResult = Partial<RunBackgroundTaskResult> & { events?: number; result?: { status?: string } };

/** What the task's activity says of its end, mapped as the session maps it (sessionTasks.ts). */
function stateOf(a: TaskActivity, r: TaskResult | undefined): AuditTask['state'] {
  // The session stopped it (TaskStop or its own end): whatever the activity then returned, killed.
  if (a.cancelRequestedAt !== undefined && a.outcome !== 'running' && a.outcome !== 'scheduled') return 'killed';
  switch (a.outcome) {
    case 'completed':
      if (r?.state) return r.state;
      return r?.result?.status === undefined || r.result.status === 'completed' ? 'completed' : 'failed';
    case 'cancelled':
      return 'killed';
    case 'timed_out':
      return 'lost';
    case 'failed':
      return 'failed';
    case 'running':
      return a.cancelRequestedAt !== undefined ? 'stopping' : 'running';
    default:
      return 'scheduled';
  }
}

/** The TaskStop call that named this task, if any (its `task_id`, or the deprecated `shell_id`). */
function stopCallOf(taskId: string, calls: readonly AuditToolCall[]): AuditToolCall | undefined {
  return calls.find((c) => {
    if (c.tool !== 'TaskStop') return false;
    const i = (c.input ?? {}) as { task_id?: unknown; shell_id?: unknown };
    return (i.task_id ?? i.shell_id) === taskId && c.status === 'ok' && !c.isError;
  });
}

/** The whole command (or agent prompt's description) from the starting call's input; else the activity's preview. */
function commandOf(call: AuditToolCall | undefined, task: TaskInputView): string {
  const input = (call?.input ?? {}) as { command?: unknown; description?: unknown; prompt?: unknown };
  if (typeof input.command === 'string') return input.command;
  if (typeof task.command === 'string') return task.command;
  if (typeof input.description === 'string') return input.description;
  return task.description ?? '';
}

/** One row per `task-<id>` activity of the session's runs. */
export function taskEntries(
  activities: readonly TaskActivity[],
  run: number,
  calls: readonly AuditToolCall[],
): AuditTask[] {
  const out: AuditTask[] = [];
  for (const a of activities) {
    const m = TASK_ACTIVITY.exec(a.activityId);
    if (!m) continue;
    const input = (a.input ?? {}) as Partial<RunBackgroundTaskInput> & { task?: TaskInputView; workflowId?: unknown };
    const child = typeof input.workflowId === 'string' ? input.workflowId : undefined;
    const task: TaskInputView = input.task ?? {};
    const taskId = task.id ?? m[1]!;
    const toolUseId = task.toolUseId ?? (child ? AGENT_CHILD.exec(child)?.[1] : undefined);
    const r = a.outcome === 'completed' ? (a.result as TaskResult | undefined) : undefined;
    const call = toolUseId ? calls.find((c) => c.toolUseId === toolUseId) : undefined;
    const kind = task.kind ?? (call ? KIND_OF_TOOL[call.tool] : undefined) ?? KIND_OF_ACTIVITY[a.type] ?? 'unknown';
    const state = stateOf(a, r);
    const stop = stopCallOf(taskId, calls);
    // The session cancels a task for a TaskStop call or when it ends (sessionTasks.ts: nothing else).
    const stoppedBy =
      a.cancelRequestedAt === undefined ? undefined : stop ? `TaskStop ${stop.toolUseId}` : 'the session ended';
    const description = (call?.input as { description?: unknown } | undefined)?.description;
    const error = r?.error ?? (a.outcome === 'failed' || a.outcome === 'timed_out' ? a.failures.at(-1) : undefined);
    const startedAt = iso(a.startedAt ?? a.scheduledAt);
    const endedAt = iso(a.endedAt);
    out.push({
      kind: 'task',
      taskKind: kind,
      taskId,
      run,
      activityId: a.activityId,
      ...(toolUseId ? { toolUseId } : {}),
      ...(call ? { tool: call.tool, turn: call.turn } : {}),
      ...(child ? { childSession: child } : {}),
      command: commandOf(call, task),
      ...(typeof description === 'string' && description.trim() ? { description: description.trim() } : {}),
      ...(task.cwd ? { cwd: task.cwd } : {}),
      state,
      attempts: a.attempt,
      ...(startedAt ? { startedAt } : {}),
      ...(endedAt ? { endedAt } : {}),
      ...(r && r.exitCode !== undefined ? { exitCode: r.exitCode } : {}),
      ...(r?.signal ? { signal: r.signal } : {}),
      ...(typeof r?.outputBytes === 'number' ? { outputBytes: r.outputBytes } : {}),
      ...(typeof r?.events === 'number' ? { events: r.events } : {}),
      ...(task.outputPath ? { outputFile: task.outputPath } : {}),
      ...(r?.outputRef ? { outputRef: r.outputRef } : {}),
      ...(typeof r?.sandboxed === 'boolean'
        ? { sandboxed: r.sandboxed }
        : task.unsandboxed
          ? { sandboxed: false }
          : {}),
      ...(r?.violations ? { violations: r.violations } : {}),
      ...(task.timeoutMs !== undefined ? { timeoutMs: task.timeoutMs } : {}),
      ...(stoppedBy ? { stoppedBy } : {}),
      ...(error ? { error } : {}),
      failures: [...a.failures],
    });
  }
  return out;
}
