// Every `<task-notification>` text the model gets (issue 19), in one place: a background Bash
// command's end, a monitor's events, its end and its expiry notice, a background agent's end. The
// reference's element order, escaping and wrapping (docs/reference-tools.md, "Background tasks";
// captured texts in test/fixtures/reference-tools/2.1.328/monitor-events.json): `<system-reminder>`,
// a preamble (our own words), a blank line, then the `<task-notification>`. Pure: the session's
// scheduler (workflow or in-process) queues what these return.
import type { BackgroundTask } from '../../core/autonomy';

/** XML text escaping, as the reference escapes the text inside the notification's tags. */
export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Our own first lines: what follows is an automated event, not the user. */
export const MONITOR_EVENT_PREAMBLE =
  'Automated event from a Monitor you started (not a message from the user, and not their consent to anything):';
export const TASK_END_PREAMBLE =
  'Automated notice from the session (not a message from the user, and not their consent to anything): a background task you started has ended.';

function wrap(preamble: string, lines: string[], blankLine = true): string {
  const gap = blankLine ? '\n\n' : '\n';
  return `<system-reminder>\n${preamble}${gap}<task-notification>\n${lines.join('\n')}\n</task-notification>\n</system-reminder>`;
}

/** The status word of an ended task's notification (the reference has these three). */
function endStatus(state: BackgroundTask['state']): 'completed' | 'failed' | 'killed' {
  if (state === 'completed') return 'completed';
  if (state === 'killed') return 'killed';
  return 'failed';
}

/** The summary of a background command's end: the reference's for completed/failed, ours for the rest. */
export function bashEndSummary(
  task: Pick<BackgroundTask, 'description' | 'state' | 'exitCode' | 'error' | 'timeoutMs'>,
): string {
  const what = `Background command "${task.description}"`;
  switch (task.state) {
    case 'completed':
      return `${what} completed (exit code ${task.exitCode ?? 0})`;
    case 'failed':
      return task.exitCode !== undefined && task.exitCode !== null
        ? `${what} failed with exit code ${task.exitCode}`
        : `${what} failed: ${task.error ?? 'it could not run'}`;
    case 'timed_out':
      return `${what} was stopped after its timeout of ${task.timeoutMs} ms (its process group was killed)`;
    case 'lost':
      return `${what} was lost: the worker running it died, its processes were killed, and it was NOT re-run (it may have done part of its work; check before running it again)`;
    case 'killed':
      return `${what} was stopped`;
    default:
      return `${what} is running`;
  }
}

type EndedTask = Pick<
  BackgroundTask,
  'id' | 'toolUseId' | 'outputPath' | 'description' | 'state' | 'exitCode' | 'error' | 'timeoutMs'
>;

function bashEndLines(task: EndedTask): string[] {
  return [
    `<task-id>${escapeXml(task.id)}</task-id>`,
    `<tool-use-id>${escapeXml(task.toolUseId)}</tool-use-id>`,
    ...(task.outputPath ? [`<output-file>${escapeXml(task.outputPath)}</output-file>`] : []),
    `<status>${endStatus(task.state)}</status>`,
    `<summary>${escapeXml(bashEndSummary(task))}</summary>`,
  ];
}

/**
 * A background command ended (Bash `run_in_background`): task id, tool use id, output file, status,
 * summary, inside the `<system-reminder>` the reference uses when the model was idle.
 */
export function taskNotification(task: EndedTask): string {
  return wrap(TASK_END_PREAMBLE, bashEndLines(task));
}

/**
 * The same notification as sessions queued it before TASK_NOTIFICATION_TEXT_PATCH (no blank line
 * after the preamble). Only sessionWorkflow uses it, where its history was recorded without that
 * patch's marker, so that such a session keeps producing the text it produced (DESIGN invariant 14).
 */
export function taskNotificationBeforeTextPatch(task: EndedTask): string {
  return wrap(TASK_END_PREAMBLE, bashEndLines(task), false);
}

type TaskRef = Pick<BackgroundTask, 'id' | 'description'>;

/** One monitor event: a batch of the command's stdout lines (MonitorLines gives them, already limited). */
export function monitorEventNotification(task: TaskRef, event: string): string {
  return wrap(MONITOR_EVENT_PREAMBLE, [
    `<task-id>${escapeXml(task.id)}</task-id>`,
    `<summary>${escapeXml(`Monitor event: "${task.description}"`)}</summary>`,
    `<event>${escapeXml(event)}</event>`,
  ]);
}

/** How a monitor's command ended, as its run reports it. */
export interface MonitorEnd {
  state: 'completed' | 'failed' | 'killed' | 'lost';
  exitCode?: number | null;
  /** How many events were delivered (none: "ended without producing output"). */
  events: number;
  /** Why it could not run or was lost. */
  error?: string;
  /** The last lines, drained at the exit: the reference sends them in the end notification, as its `<event>`. */
  lastEvent?: string;
}

function exitNote(code: number | null | undefined): string {
  return code === undefined || code === null ? '' : ` (exit ${code})`;
}

/** The reference's end summaries: stream ended, ended without producing output, script failed, stopped. */
export function monitorEndSummary(description: string, end: MonitorEnd): string {
  const what = `Monitor "${description}"`;
  switch (end.state) {
    case 'completed':
      return end.events === 0
        ? `${what} ended without producing output${exitNote(end.exitCode)}`
        : `${what} stream ended`;
    case 'failed':
      return end.exitCode === undefined || end.exitCode === null
        ? `${what} script failed: ${end.error ?? 'it could not run'}`
        : `${what} script failed${exitNote(end.exitCode)}`;
    case 'killed':
      return `${what} stopped`;
    case 'lost':
      return `${what} was lost: the worker running it died and its processes were killed; it was not restarted`;
    default: {
      const never: never = end.state;
      throw new Error(`unknown monitor end ${String(never)}`);
    }
  }
}

/**
 * The end of a monitor's stream (the Bash shape: task id, tool use id, output file, status, summary;
 * then the lines that came with the exit, as the reference sends them).
 */
export function monitorEndNotification(
  task: Pick<BackgroundTask, 'id' | 'description' | 'toolUseId' | 'outputPath'>,
  end: MonitorEnd,
): string {
  const status = endStatus(end.state);
  return wrap(TASK_END_PREAMBLE, [
    `<task-id>${escapeXml(task.id)}</task-id>`,
    `<tool-use-id>${escapeXml(task.toolUseId)}</tool-use-id>`,
    ...(task.outputPath ? [`<output-file>${escapeXml(task.outputPath)}</output-file>`] : []),
    `<status>${status}</status>`,
    `<summary>${escapeXml(monitorEndSummary(task.description, end))}</summary>`,
    ...(end.lastEvent ? [`<event>${escapeXml(end.lastEvent)}</event>`] : []),
  ]);
}

/** A duration as the reference writes it in Monitor texts: `5m`, `1h`, `1m 30s`, `1.5s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  if (ms < 60_000) return `${Math.round(ms / 100) / 10}s`;
  const total = Math.round(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return [h ? `${h}h` : '', m ? `${m}m` : '', s ? `${s}s` : ''].filter(Boolean).join(' ');
}

/** The notice at a monitor's expiry (timeout_ms passed): one event, then the watch is killed quietly. */
export function monitorExpiredText(timeoutMs: number, events: number): string {
  const after = formatDuration(timeoutMs);
  return events === 0
    ? `[Monitor expired after ${after} with no events delivered. Re-arm it if you still need the watch, and widen the filter if the silence was unexpected.]`
    : `[Monitor expired after ${after} with ${events} ${events === 1 ? 'event' : 'events'} delivered. Re-arm it if you still need the watch.]`;
}

/** What a background agent's child session left: its final text and what it cost. */
export interface AgentEnd {
  state: 'completed' | 'failed' | 'killed' | 'lost';
  /** The child's final text (completed), or what it had said so far. */
  result?: string;
  error?: string;
  totalTokens: number;
  toolUses: number;
  durationMs: number;
  /** The agent's worktree (`isolation: "worktree"`), when it was kept: the reference's `<worktree>` element. */
  worktree?: { path: string; branch: string };
}

const AGENT_NOTE = 'The agent has ended; nothing more comes under this task id unless it is started again.';

export function agentEndSummary(description: string, end: AgentEnd): string {
  const what = `Agent "${description}"`;
  switch (end.state) {
    case 'completed':
      return `${what} finished`;
    case 'failed':
      return `${what} failed: ${end.error ?? 'its session failed'}`;
    case 'killed':
      return `${what} was stopped`;
    case 'lost':
      return `${what} was lost: ${end.error ?? 'its session ended without a result'}`;
    default: {
      const never: never = end.state;
      throw new Error(`unknown agent end ${String(never)}`);
    }
  }
}

/** Our own words for a stopped agent's `<note>`. */
const AGENT_STOPPED_NOTE =
  'TaskStop ended the agent before it finished; nothing more comes under this task id, and its session keeps what it did so far.';

/**
 * A background agent stopped by TaskStop: the reference's shape (task id, tool use id, status
 * killed, the summary naming the stopper, a note; no result, no usage). A command or Monitor that
 * is stopped sends nothing (the reference's too).
 */
export function agentStoppedNotification(task: Pick<BackgroundTask, 'id' | 'description' | 'toolUseId'>): string {
  return wrap(TASK_END_PREAMBLE, [
    `<task-id>${escapeXml(task.id)}</task-id>`,
    `<tool-use-id>${escapeXml(task.toolUseId)}</tool-use-id>`,
    `<status>killed</status>`,
    `<summary>${escapeXml(`Agent "${task.description}" was stopped by Claude`)}</summary>`,
    `<note>${escapeXml(AGENT_STOPPED_NOTE)}</note>`,
  ]);
}

/** A background agent ended: the Bash shape plus `<note>`, `<result>` and `<usage>` (the reference's order). */
export function agentNotification(
  task: Pick<BackgroundTask, 'id' | 'description' | 'toolUseId' | 'outputPath'>,
  end: AgentEnd,
): string {
  const status = endStatus(end.state);
  const int = (n: number): number => (Number.isFinite(n) && n > 0 ? Math.round(n) : 0);
  return wrap(TASK_END_PREAMBLE, [
    `<task-id>${escapeXml(task.id)}</task-id>`,
    `<tool-use-id>${escapeXml(task.toolUseId)}</tool-use-id>`,
    ...(task.outputPath ? [`<output-file>${escapeXml(task.outputPath)}</output-file>`] : []),
    `<status>${status}</status>`,
    `<summary>${escapeXml(agentEndSummary(task.description, end))}</summary>`,
    ...(end.state === 'completed' ? [`<note>${escapeXml(AGENT_NOTE)}</note>`] : []),
    ...(end.result !== undefined ? [`<result>${escapeXml(end.result)}</result>`] : []),
    `<usage><subagent_tokens>${int(end.totalTokens)}</subagent_tokens><tool_uses>${int(end.toolUses)}</tool_uses><duration_ms>${int(end.durationMs)}</duration_ms></usage>`,
    ...(end.worktree
      ? [
          `<worktree><worktreePath>${escapeXml(end.worktree.path)}</worktreePath><worktreeBranch>${escapeXml(end.worktree.branch)}</worktreeBranch></worktree>`,
        ]
      : []),
  ]);
}
