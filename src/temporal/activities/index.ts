// The activities entry: every activity a worker registers, built from injected deps, and the
// interface of each group by role, which is what the workflows proxy (type-only imports, so no
// activity code reaches the workflow bundle). The keys are the activity TYPES recorded in
// histories: renaming one breaks the replay of running sessions (docs/architecture.md). Each one is
// a thin adapter over a Temporal-free core of src/runtime (the in-process runner calls those directly).
import type { CallDeps } from '../../runtime';
import { createCallDeps, type AgentDepsOptions } from '../../runtime/callDeps';
import { createModelActivities } from './model';
import { createCompactActivities } from './compact';
import { createToolActivities } from './tools';
import { createHookActivities } from './hooks';
import { createSubagentActivities } from './subagents';
import { createScheduleActivities } from './schedule';
import { createBackgroundTaskActivities } from '../../tasks/activities/backgroundTask';
import { createMonitorTaskActivities } from '../../tasks/activities/monitorTask';
import { createCheckoutGuardActivities } from './checkoutGuard';
import { createScheduleDayActivities } from './scheduleDay';
import { createNotifyActivities } from './notify';
import { ACTIVITY_TYPES, type ActivityType } from '../../core/ids';
import { withErrorCodes } from './errors';
import { recordTurnEndWith, type TurnEndWrites } from './turnEnd';

type Model = ReturnType<typeof createModelActivities>;
type Tools = ReturnType<typeof createToolActivities>;

/** `callModel`: one streamed model request (proxy `model`). */
export type ModelActivities = Pick<Model, 'callModel'>;
/** `compactContext`: the summarizing call of a compaction (proxy `compaction`). */
export type CompactionActivities = ReturnType<typeof createCompactActivities>;
/** The session's stored state: the transcript chain and the read-file state (proxy `store`). */
export type StoreActivities = Pick<Model, 'appendTranscript' | 'loadTranscript'> & Pick<Tools, 'storeReadFiles'>;
/**
 * `recordTurnEnd`: the end of a turn's two writes (its tool results appended to the transcript, its
 * read files stored) in one local activity (TURN_END_ONE_WRITE_PATCH; proxy `localTurnEnd`).
 */
export interface TurnEndActivities {
  recordTurnEnd(input: TurnEndWrites): Promise<[string | null, string | null]>;
}
export type ToolSettingsActivities = Pick<Tools, 'storeToolSettings'>;
/** `describeToolUses`: concurrency safety and summaries, a local activity (proxy `describe`). */
export type DescribeActivities = Pick<Tools, 'describeToolUses'>;
/** `runToolUse`: one tool call through the pipeline with its execution ledger (proxy `tools`). */
export type ToolCallActivities = Pick<Tools, 'runToolUse'>;
/** The Agent call's two pipeline phases around the child session (proxy `subagents`). */
export type SubagentPhaseActivities = Pick<Tools, 'prepareSubagent' | 'finishSubagent'>;
/** `awaitSubagent`: waits for a child session that already exists (proxy `subagentWait`). */
export type SubagentWaitActivities = Pick<ReturnType<typeof createSubagentActivities>, 'awaitSubagent'>;
/** An isolated agent's worktree, on the tool worker (proxy with the tool options). */
export type AgentWorktreeActivities = Pick<
  ReturnType<typeof createSubagentActivities>,
  'prepareAgentWorktree' | 'settleAgentWorktree'
>;
/** `awaitAgentTask`: a background agent's wait in its parent session (proxy per task, `task-<id>`). */
export type AgentTaskActivities = Pick<ReturnType<typeof createSubagentActivities>, 'awaitAgentTask'>;
/** `nextCronFires`: the next firing of recurring cron jobs, a local activity (proxy `cron`). */
export type ScheduleActivities = ReturnType<typeof createScheduleActivities>;
/** `runBackgroundTask`: a background task's whole run, heartbeating (proxy per task, `task-<id>`). */
export type BackgroundTaskActivities = ReturnType<typeof createBackgroundTaskActivities>;
/** `runMonitorTask`: a Monitor task's whole run, heartbeating, its events as signals to the session (proxy per task, `task-<id>`). */
export type MonitorTaskActivities = ReturnType<typeof createMonitorTaskActivities>;
/** `checkCheckoutGuard`: a schedule's firing checks the checkout record first (proxy `checkoutGuard`, on the tool task queue). */
export type CheckoutGuardActivities = ReturnType<typeof createCheckoutGuardActivities>;
/** `scheduleDaySpend`: a schedule's firing sums its day's earlier firings' spend (proxy `scheduleDay`). */
export type ScheduleDayActivities = ReturnType<typeof createScheduleDayActivities>;
/** `runSessionHooks`: SessionStart/SessionEnd/Stop hooks of the session (proxy `hooks`). */
export type HookActivities = ReturnType<typeof createHookActivities>;
/** `deliverNotification`: one webhook delivery of a session notification (proxy `notify-<kind>-<n>`). */
export type NotifyActivities = ReturnType<typeof createNotifyActivities>;

export type ActivityDeps = CallDeps;

/**
 * Every activity of a worker, by its registered name (a DurableAgentError thrown by one fails it
 * with its code as the failure type: `withErrorCodes`, the one conversion to Temporal failures).
 */
export function createActivities(deps: ActivityDeps) {
  const tools = createToolActivities(deps.tools);
  const model = createModelActivities(deps.model, tools.storeReadFiles);
  const compaction = createCompactActivities(deps.compaction);
  const hooks = createHookActivities(deps.hooks);
  const subagentWait = createSubagentActivities();
  const schedule = createScheduleActivities();
  const background = createBackgroundTaskActivities(deps.tools);
  const monitor = createMonitorTaskActivities(deps.tools);
  const guard = createCheckoutGuardActivities();
  const scheduleDay = createScheduleDayActivities();
  const notify = createNotifyActivities();
  const activities = {
    callModel: withErrorCodes(model.callModel),
    appendTranscript: withErrorCodes(model.appendTranscript),
    loadTranscript: withErrorCodes(model.loadTranscript),
    compactContext: withErrorCodes(compaction.compactContext),
    describeToolUses: withErrorCodes(tools.describeToolUses),
    runToolUse: withErrorCodes(tools.runToolUse),
    storeReadFiles: withErrorCodes(tools.storeReadFiles),
    recordTurnEnd: withErrorCodes(recordTurnEndWith(model.appendTranscript, tools.storeReadFiles)),
    storeToolSettings: withErrorCodes(tools.storeToolSettings),
    runSessionHooks: withErrorCodes(hooks.runSessionHooks),
    prepareSubagent: withErrorCodes(tools.prepareSubagent),
    finishSubagent: withErrorCodes(tools.finishSubagent),
    awaitSubagent: withErrorCodes(subagentWait.awaitSubagent),
    nextCronFires: withErrorCodes(schedule.nextCronFires),
    runBackgroundTask: withErrorCodes(background.runBackgroundTask),
    runMonitorTask: withErrorCodes(monitor.runMonitorTask),
    prepareAgentWorktree: withErrorCodes(subagentWait.prepareAgentWorktree),
    settleAgentWorktree: withErrorCodes(subagentWait.settleAgentWorktree),
    awaitAgentTask: withErrorCodes(subagentWait.awaitAgentTask),
    checkCheckoutGuard: withErrorCodes(guard.checkCheckoutGuard),
    scheduleDaySpend: withErrorCodes(scheduleDay.scheduleDaySpend),
    deliverNotification: withErrorCodes(notify.deliverNotification),
  } satisfies ModelActivities &
    CompactionActivities &
    StoreActivities &
    TurnEndActivities &
    ToolSettingsActivities &
    DescribeActivities &
    ToolCallActivities &
    SubagentPhaseActivities &
    SubagentWaitActivities &
    AgentWorktreeActivities &
    AgentTaskActivities &
    ScheduleActivities &
    BackgroundTaskActivities &
    MonitorTaskActivities &
    HookActivities &
    CheckoutGuardActivities &
    ScheduleDayActivities &
    NotifyActivities &
    Record<ActivityType, unknown>;
  // The keys are exactly ACTIVITY_TYPES (the names workflows schedule and the audit reads).
  const _exact: Record<keyof typeof activities, ActivityType> = ACTIVITY_TYPES;
  void _exact;
  return activities;
}

/** The registered activity types, by name (what histories record). */
export type AgentActivities = ReturnType<typeof createActivities>;

/**
 * The activities of a worker built from its options (src/temporal/worker.ts; tests call this directly),
 * with the dependencies and the Temporal-free cores they wrap (src/runtime/callDeps.ts).
 */
export function createAgentActivities(opts: AgentDepsOptions = {}) {
  const built = createCallDeps(opts);
  return { ...built, activities: createActivities(built.deps) };
}
