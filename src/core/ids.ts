// The names a session leaves in Temporal histories, defined once: activity types, signal, query
// and update names, child workflow ids and activity ids. The workflows build them with these
// functions and the audit (src/audit/) reads histories with the same ones, so the two cannot drift.
// Pure; every string here is recorded in running sessions' histories: changing one breaks their
// replay and their audit (docs/architecture.md "Vocabulary").

/** The registered activity types (src/temporal/activities/index.ts uses exactly these keys). */
export const ACTIVITY_TYPES = {
  callModel: 'callModel',
  appendTranscript: 'appendTranscript',
  loadTranscript: 'loadTranscript',
  compactContext: 'compactContext',
  describeToolUses: 'describeToolUses',
  runToolUse: 'runToolUse',
  storeReadFiles: 'storeReadFiles',
  recordTurnEnd: 'recordTurnEnd',
  storeToolSettings: 'storeToolSettings',
  runSessionHooks: 'runSessionHooks',
  prepareSubagent: 'prepareSubagent',
  finishSubagent: 'finishSubagent',
  awaitSubagent: 'awaitSubagent',
  nextCronFires: 'nextCronFires',
  runBackgroundTask: 'runBackgroundTask',
  runMonitorTask: 'runMonitorTask',
  prepareAgentWorktree: 'prepareAgentWorktree',
  settleAgentWorktree: 'settleAgentWorktree',
  awaitAgentTask: 'awaitAgentTask',
  checkCheckoutGuard: 'checkCheckoutGuard',
  scheduleDaySpend: 'scheduleDaySpend',
  deliverNotification: 'deliverNotification',
} as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[keyof typeof ACTIVITY_TYPES];

/** Activity types whose result is a tool call's `ToolRunResult`. */
export const TOOL_ACTIVITY_TYPES: ReadonlySet<string> = new Set([
  ACTIVITY_TYPES.runToolUse,
  ACTIVITY_TYPES.prepareSubagent,
  ACTIVITY_TYPES.finishSubagent,
]);

/** Signals, queries and updates of the session and turn workflows (temporal/workflows/definitions.ts defines them with these names). */
export const SIGNALS = {
  interrupt: 'interrupt',
  sendMessage: 'sendMessage',
  /** Ends a session's loop of wake-ups and cron jobs (core/autonomy.ts). */
  stop: 'stop',
  turnInterrupt: 'turnInterrupt',
  /** Session → turn child (issue 33): return at the next step boundary (a follow-up, a task notification). */
  turnYield: 'turnYield',
  turnApproval: 'turnApproval',
  approvalPending: 'approvalPending',
  approvalResolved: 'approvalResolved',
  outage: 'outage',
  /** From a turn's own model activity: a tool_use block complete while the message streams. */
  streamedToolUse: 'streamedToolUse',
  /** From a Monitor task's activity to its session: one numbered batch of the watch's output (tasks/core/monitorTasks.ts). */
  monitorEvent: 'monitorEvent',
  /** From a child's model activity to its root session: what the call spent (core/budget.ts). */
  budgetCharge: 'budgetCharge',
} as const;
export const QUERIES = {
  status: 'status',
  transcriptHead: 'transcriptHead',
  turnProgress: 'turnProgress',
  /** Is the tree's budget spent? (a model activity asks its root before calling). */
  budget: 'budget',
} as const;
export const UPDATES = { approve: 'approve', deny: 'deny', budget: 'budget' } as const;

// ---------------------------------------------------------------------------------------------
// Child workflow ids

/** The turn child workflow `<session-id>/turn-<n>`. */
export function turnWorkflowId(sessionId: string, turn: number): string {
  return `${sessionId}/turn-${turn}`;
}

/** The turn number of a session's turn workflow id; undefined for any other workflow id. */
export function turnOfWorkflowId(sessionId: string, workflowId: string): number | undefined {
  const prefix = `${sessionId}/turn-`;
  if (!workflowId.startsWith(prefix)) return undefined;
  const rest = workflowId.slice(prefix.length);
  return /^\d+$/.test(rest) ? Number(rest) : undefined;
}

/** The session id of a turn workflow id (`<session-id>/turn-<n>`); undefined if it is not one. */
export function sessionOfTurnWorkflowId(workflowId: string): string | undefined {
  const m = /^(.*)\/turn-\d+$/.exec(workflowId);
  return m ? m[1] : undefined;
}

// ---------------------------------------------------------------------------------------------
// Activity ids inside a turn (the session's own: `hook-<event>-<n>`)

export const activityIds = {
  /**
   * The model call of turn n: `model-<n>`; a retry after an outage `model-<n>-attempt-<k>`; a call
   * after a compaction adds `-<j>` (stepAttempt j-1).
   */
  model: (turn: number, outageAttempt = 1, stepAttempt = 0): string => {
    const base = outageAttempt <= 1 ? `model-${turn}` : `model-${turn}-attempt-${outageAttempt}`;
    return stepAttempt === 0 ? base : `${base}-${stepAttempt + 1}`;
  },
  compact: (n: number): string => `compact-${n}`,
  /** One tool call; re-run with a human/timeout decision as `tool-<id>-approve` / `tool-<id>-deny`. */
  tool: (toolUseId: string, decided?: 'approve' | 'deny'): string =>
    decided ? `tool-${toolUseId}-${decided}` : `tool-${toolUseId}`,
  /** The Agent call's pre-call phase (and its decided re-run) and post-call phase. */
  agentPre: (toolUseId: string, decided?: 'approve' | 'deny'): string =>
    decided ? `agent-pre-${toolUseId}-${decided}` : `agent-pre-${toolUseId}`,
  agentPost: (toolUseId: string): string => `agent-post-${toolUseId}`,
  /** Waiting for a child session that already existed. */
  agentAwait: (toolUseId: string): string => `agent-await-${toolUseId}`,
  /** An isolated agent's worktree: made before the child (`agent-worktree-<id>`), settled after a foreground child. */
  agentWorktree: (toolUseId: string): string => `agent-worktree-${toolUseId}`,
  agentWorktreeSettle: (toolUseId: string): string => `agent-worktree-settle-${toolUseId}`,
  append: (turn: number): string => `append-${turn}`,
  readFiles: (turn: number): string => `read-files-${turn}`,
  hook: (event: string, n: number): string => `hook-${event}-${n}`,
  /** A schedule's firing: the checkout record checked before anything runs (`checkout-guard`). */
  checkoutGuard: (): string => 'checkout-guard',
  /** A schedule's firing with a daily budget: its day's earlier spend summed before anything runs (`schedule-day`). */
  scheduleDay: (): string => 'schedule-day',
  /** A session notification's webhook delivery (issue 35): `notify-<kind>-<n>`, n counting that kind in the run. */
  notify: (kind: string, n: number): string => `notify-${kind}-${n}`,
  /** A background task's own activity in the session (Bash run_in_background, Monitor): `task-<task id>`. */
  task: (taskId: string): string => `task-${taskId}`,
  /** A retried attempt of any of these (the turn waits out outages): `<id>-attempt-<k>`. */
  attempt: (base: string, attempt: number): string => (attempt <= 1 ? base : `${base}-attempt-${attempt}`),
};

/** Every activity id a tool call may have, in the order they run (audit: one call's activities). */
export function toolCallActivityIds(toolUseId: string): string[] {
  return [
    activityIds.tool(toolUseId),
    activityIds.tool(toolUseId, 'approve'),
    activityIds.tool(toolUseId, 'deny'),
    activityIds.agentPre(toolUseId),
    activityIds.agentPre(toolUseId, 'approve'),
    activityIds.agentPre(toolUseId, 'deny'),
    activityIds.agentPost(toolUseId),
  ];
}

/** The decision an approve/deny re-run carries in its activity id, if it is one. */
export function decidedByActivityId(activityId: string): 'approve' | 'deny' | undefined {
  return activityId.endsWith('-approve') ? 'approve' : activityId.endsWith('-deny') ? 'deny' : undefined;
}

/** True for the Agent call's phases (`agent-pre-…`, `agent-post-…`). */
export function isSubagentActivityId(activityId: string): boolean {
  return activityId.startsWith('agent-pre-') || activityId.startsWith('agent-post-');
}

// Each activity type is named after its key (the key is what a workflow proxy calls).
const _selfNamed: { [K in keyof typeof ACTIVITY_TYPES]: K } = ACTIVITY_TYPES;
void _selfNamed;
