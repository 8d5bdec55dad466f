// What a session keeps running or waiting on between turns (issue 19): background tasks (Bash
// `run_in_background`, Monitor, background Agent), a wake-up the model scheduled, and its cron
// jobs. Tools never start or time anything themselves: they return context modifiers (data, in
// block order, invariant 4) that record a task, a wake-up or a job in `AgentContext.autonomy`; the
// session's scheduler (workflow or in-process) acts on what the context holds after each turn —
// starts the task's activity, sets the timer — and folds what happened back in (a task ended, a
// firing is due), each event becoming one queued message. Pure and deterministic.

import type { AgentWorktreeReady } from './agentWorktree';

/** A kind of background task (the reference's task types). */
export type TaskKind = 'local_bash' | 'monitor' | 'local_agent';
export type TaskState = 'running' | 'completed' | 'failed' | 'killed' | 'timed_out' | 'lost';

export interface BackgroundTask {
  /** The id the model sees (TaskStop's `task_id`). */
  id: string;
  kind: TaskKind;
  /** The tool call that started it. */
  toolUseId: string;
  /** What it runs: the command, or the agent's description (at most MAX_TASK_TEXT characters). */
  description: string;
  startedAt: number;
  /** Stopped after this long (Bash: `timeout`, default 30 min, at most 2 h; Monitor: `timeout_ms`). */
  timeoutMs: number;
  /** Where its output is written, readable by Read (the session's task output file). */
  outputPath?: string;
  state: TaskState;
  /** TaskStop asked for it; the scheduler cancels the task's activity. */
  stopRequested?: boolean;
  endedAt?: number;
  exitCode?: number | null;
  outputBytes?: number;
  /** What a `local_bash` task runs (at most MAX_TASK_TEXT characters; kept while it runs, the ended record keeps `description`). */
  command?: string;
  /** The directory it runs in (the session's cwd when it was started). */
  cwd?: string;
  /** Approved to run outside the OS sandbox (Bash `dangerouslyDisableSandbox`). */
  unsandboxed?: boolean;
  /** Its output in the store, once it ended (`taskoutput-<sha256>`), for the audit. */
  outputRef?: string;
  /** Why it failed to run or was lost (not its own exit). */
  error?: string;
  /** A `local_agent` task: its child session (started by the Agent call) and its worktree (`isolation: "worktree"`). */
  agent?: { sessionId: string; worktree?: AgentWorktreeReady };
}

export interface Wakeup {
  /** Epoch ms it fires at (workflow time). */
  at: number;
  prompt: string;
  reason: string;
  toolUseId: string;
}

export interface CronJob {
  id: string;
  cron: string;
  prompt: string;
  recurring: boolean;
  /** IANA zone the expression is read in (the session's, fixed when the job was created). */
  timeZone: string;
  createdAt: number;
  /** Recurring jobs end after this (the reference: 7 days). */
  expiresAt?: number;
  /** The next firing (computed outside workflow code and recorded); null: none left. */
  nextFireAt: number | null;
  fired: number;
}

export interface Autonomy {
  tasks: BackgroundTask[];
  wakeup?: Wakeup;
  crons: CronJob[];
}

export type AutonomyModifier =
  | { type: 'taskStarted'; task: BackgroundTask }
  | { type: 'taskStopRequested'; taskId: string }
  | { type: 'wakeupScheduled'; wakeup: Wakeup }
  | { type: 'wakeupCancelled' }
  | { type: 'cronCreated'; job: CronJob }
  | { type: 'cronDeleted'; id: string };

export const MAX_TASK_TEXT = 500;
/** Ended tasks kept in the context (the newest); running ones are always kept. */
export const MAX_ENDED_TASKS = 20;
export const WAKEUP_MIN_SECONDS = 60;
export const WAKEUP_MAX_SECONDS = 3600;
export const CRON_RECURRING_TTL_MS = 7 * 24 * 3600_000;

export function emptyAutonomy(): Autonomy {
  return { tasks: [], crons: [] };
}

function keepTasks(tasks: BackgroundTask[]): BackgroundTask[] {
  const ended = tasks.filter((t) => t.state !== 'running');
  const drop = new Set(ended.slice(0, Math.max(0, ended.length - MAX_ENDED_TASKS)));
  return tasks.filter((t) => !drop.has(t));
}

/** Applies one modifier. Pure: returns a new value. */
export function applyAutonomyModifier(a: Autonomy | undefined, mod: AutonomyModifier): Autonomy {
  const cur = a ?? emptyAutonomy();
  switch (mod.type) {
    case 'taskStarted':
      return { ...cur, tasks: keepTasks([...cur.tasks.filter((t) => t.id !== mod.task.id), mod.task]) };
    case 'taskStopRequested':
      return {
        ...cur,
        tasks: cur.tasks.map((t) => (t.id === mod.taskId && t.state === 'running' ? { ...t, stopRequested: true } : t)),
      };
    case 'wakeupScheduled':
      return { ...cur, wakeup: mod.wakeup };
    case 'wakeupCancelled': {
      const { wakeup: _w, ...rest } = cur;
      return rest;
    }
    case 'cronCreated':
      return { ...cur, crons: [...cur.crons.filter((j) => j.id !== mod.job.id), mod.job] };
    case 'cronDeleted':
      return { ...cur, crons: cur.crons.filter((j) => j.id !== mod.id) };
    default: {
      const never: never = mod;
      throw new Error(`unknown autonomy modifier ${JSON.stringify(never)}`);
    }
  }
}

/** Anything that can still wake the session: a running task, a wake-up, a cron job. */
export function hasPendingWork(a: Autonomy | undefined): boolean {
  return (
    !!a && (a.tasks.some((t) => t.state === 'running') || !!a.wakeup || a.crons.some((j) => j.nextFireAt !== null))
  );
}

/** The earliest timer the idle session waits for (undefined: none, only task ends or messages). */
export function nextDeadline(a: Autonomy | undefined): number | undefined {
  if (!a) return undefined;
  const times = [a.wakeup?.at, ...a.crons.map((j) => j.nextFireAt ?? undefined)].filter(
    (t): t is number => t !== undefined,
  );
  return times.length ? Math.min(...times) : undefined;
}

/** One thing that happened between turns, queued as a message for the next turn. */
export interface AutonomyEvent {
  /** Unique per firing/ending: a scheduler never queues the same key twice (no doubled firing). */
  key: string;
  source: 'task' | 'wakeup' | 'cron';
  text: string;
}

/** What is due at `now`: the wake-up and the cron jobs whose time has come (jobs still need their next time). */
export function dueTimers(a: Autonomy | undefined, now: number): { wakeup?: Wakeup; crons: CronJob[] } {
  if (!a) return { crons: [] };
  return {
    ...(a.wakeup && a.wakeup.at <= now ? { wakeup: a.wakeup } : {}),
    crons: a.crons.filter((j) => j.nextFireAt !== null && j.nextFireAt <= now),
  };
}

/** The wake-up fired: it leaves the context and its prompt is queued. */
export function fireWakeup(a: Autonomy, w: Wakeup): { autonomy: Autonomy; event: AutonomyEvent } {
  return {
    autonomy: applyAutonomyModifier(a, { type: 'wakeupCancelled' }),
    event: { key: `wakeup:${w.toolUseId}:${w.at}`, source: 'wakeup', text: w.prompt },
  };
}

/**
 * A job fired at `firedAt`: its prompt is queued; a one-shot job or one past its expiry is deleted,
 * a recurring one moves to `next` (computed by the caller outside workflow code).
 */
export function fireCron(a: Autonomy, job: CronJob, next: number | null): { autonomy: Autonomy; event: AutonomyEvent } {
  const firedAt = job.nextFireAt ?? 0;
  const event: AutonomyEvent = { key: `cron:${job.id}:${firedAt}`, source: 'cron', text: job.prompt };
  const done = !job.recurring || next === null || (job.expiresAt !== undefined && next > job.expiresAt);
  const crons = done
    ? a.crons.filter((j) => j.id !== job.id)
    : a.crons.map((j) => (j.id === job.id ? { ...j, nextFireAt: next, fired: j.fired + 1 } : j));
  return { autonomy: { ...a, crons }, event };
}

/**
 * What is due at `now`, as one step both schedulers take: the recurring jobs whose next firing must
 * be computed outside workflow code (`recurring`), then `apply` with those times folds every due
 * firing into the record and returns the prompts to queue, in order (the wake-up first).
 */
export function dueFirings(
  a: Autonomy,
  now: number,
): {
  recurring: Array<{ id: string; cron: string; timeZone: string; after: number }>;
  apply(next: Record<string, number | null>): { autonomy: Autonomy; events: AutonomyEvent[] };
} {
  const due = dueTimers(a, now);
  return {
    // After `now`, not after the missed slot: firings missed while a turn ran come as one.
    recurring: due.crons
      .filter((j) => j.recurring)
      .map((j) => ({ id: j.id, cron: j.cron, timeZone: j.timeZone, after: now })),
    apply(next) {
      let cur = a;
      const events: AutonomyEvent[] = [];
      if (due.wakeup) {
        const r = fireWakeup(cur, due.wakeup);
        cur = r.autonomy;
        events.push(r.event);
      }
      for (const job of due.crons) {
        const r = fireCron(cur, job, next[job.id] ?? null);
        cur = r.autonomy;
        events.push(r.event);
      }
      return { autonomy: cur, events };
    },
  };
}

/** How a task ended, as its activity (or the loss of it) told the session. */
export interface TaskOutcome {
  state: Exclude<TaskState, 'running'>;
  endedAt: number;
  exitCode?: number | null;
  outputBytes?: number;
  outputRef?: string;
  error?: string;
}

/** A task's activity ended (or was lost): the task records it and its notification is queued. */
export function endTask(
  a: Autonomy,
  taskId: string,
  outcome: TaskOutcome,
  notification: (task: BackgroundTask) => string,
): { autonomy: Autonomy; event?: AutonomyEvent } {
  const task = a.tasks.find((t) => t.id === taskId);
  if (!task || task.state !== 'running') return { autonomy: a };
  const { command: _c, ...kept } = task;
  const ended: BackgroundTask = { ...kept, ...outcome };
  return {
    autonomy: { ...a, tasks: keepTasks(a.tasks.map((t) => (t.id === taskId ? ended : t))) },
    event: { key: `task:${taskId}`, source: 'task', text: notification(ended) },
  };
}

/** Clamps a wake-up delay to the reference's bounds. */
export function clampWakeupDelay(seconds: number): { seconds: number; clamped: boolean } {
  const s = Math.min(WAKEUP_MAX_SECONDS, Math.max(WAKEUP_MIN_SECONDS, Math.round(seconds)));
  return { seconds: s, clamped: s !== seconds };
}
