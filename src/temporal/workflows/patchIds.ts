// The ids passed to patched(): one per workflow behaviour change (registry: versions.ts).
/** Turns and sessions report the real outcome of every ask (versioned: older histories replay without it). */
export const APPROVAL_OUTCOME_PATCH = 'approval-outcome';
/** A subagent's session fires SubagentStart/SubagentStop instead of SessionStart/Stop, and no UserPromptSubmit/SessionEnd. */
export const SUBAGENT_HOOKS_PATCH = 'subagent-hook-events';
/** Turns recorded before it ran a tool_use cut off by max_tokens; after it, the call is answered without running (core/cutOff.ts). */
export const MAX_TOKENS_CUT_OFF_PATCH = 'max-tokens-cut-off';
/** The same for a tool_use cut off by stop_reason model_context_window_exceeded (issue 31): turns recorded before it ran the call. */
export const CONTEXT_WINDOW_CUT_OFF_PATCH = 'context-window-cut-off';
/** SessionStart fires again with source `compact` / `resume` (not only `startup`). */
export const SESSION_START_SOURCES_PATCH = 'session-start-sources';
/**
 * The end-of-turn store writes (tool results into the transcript, the read-file state) run as
 * LOCAL activities in the workflow task that has the last tool result, instead of two activities
 * and a further workflow task (versioned: turns recorded before replay with the activities).
 */
export const LOCAL_TURN_STORES_PATCH = 'local-turn-stores';
/**
 * The end-of-turn writes as ONE local activity (recordTurnEnd) instead of two (issue 33: one event
 * and its bytes less per turn); asked first, so a turn under it records no local-turn-stores marker.
 */
export const TURN_END_ONE_WRITE_PATCH = 'turn-end-one-write';
/**
 * A step of a turn child that another step follows leaves its end-of-step writes (tool results into
 * the transcript, read files) to the next step's model call (`stepWrites`), instead of a local
 * activity of its own (issue 33: one event, its bytes and its time less per step at the hand-off).
 */
export const TURN_STEP_WRITES_PATCH = 'turn-step-writes';
/**
 * The session stores its tool settings once per run (local activity storeToolSettings) and its
 * turns' tool activities carry the reference (`toolSettingsRef`) instead of the whole settings.
 */
export const TOOL_SETTINGS_REF_PATCH = 'tool-settings-ref';
/**
 * The session's continue-as-new decision reads the run's own count of the bytes it put into and
 * took out of history (and its turns), never the server's `historySize`: that value can differ
 * between the live task and the recorded event (a retried, transient workflow task), so a replay
 * crossed the limit one task earlier than the live run did (found by test:cluster).
 */
export const CHECKPOINT_OWN_SIZE_PATCH = 'checkpoint-own-size';
/**
 * Background tasks (Bash `run_in_background`): the session runs each recorded task as its own
 * activity `task-<id>`, queues its notification when it ends, and does not continue-as-new while one
 * runs. Histories recorded before never held a task (the call was refused).
 */
export const BACKGROUND_TASKS_PATCH = 'background-tasks';
/**
 * A subagent started in the same turn as a Skill call that names a model runs on that model (the
 * child session's input; before, the model of the turn's start). src/temporal/workflows/versions.ts.
 */
export const SKILL_MODEL_SUBAGENT_PATCH = 'skill-model-subagent';
/**
 * A background task's `<task-notification>` has a blank line after its preamble, as the reference's
 * and as every other notification (tasks/core/taskNotifications.ts); a session whose history was
 * recorded without this marker keeps queuing the text without it.
 */
export const TASK_NOTIFICATION_TEXT_PATCH = 'task-notification-text';
/**
 * Monitor tasks: the session runs a recorded `monitor` task as its own activity `task-<id>`
 * (runMonitorTask), takes each `monitorEvent` signal once per (task, seq) and queues its event
 * notification, and queues the monitor's end notification (or expiry notice) when the activity
 * ends. Histories recorded before never held a monitor task (Monitor was not offered).
 */
export const MONITOR_TASKS_PATCH = 'monitor-tasks';
/**
 * A background task that ends in the same workflow activation as a turn that ended the session (or
 * while its Stop hooks run) has its notification queued after the engine decided to end: the session
 * now runs a turn for it; before, it ended with the notification unread.
 */
export const QUEUED_AFTER_TURN_PATCH = 'queued-after-turn';
/**
 * A message queued while the session's UserPromptSubmit hooks run (a follow-up, a task's
 * notification, a Monitor event) is kept and checked in its turn (core/session.ts checkPrompts with
 * the executor's keepsLatePrompts); a run recorded before replaced the queue with the checked prompts
 * and so dropped it. Read at the run's start, only by a top-level session with such a hook.
 */
export const LATE_PROMPTS_PATCH = 'late-prompts';
/**
 * A background agent that TaskStop stopped queues a notification (status killed, "was stopped by
 * Claude"), as the reference 2.1.328 does (test:reference 'Agent background TaskStop'); before, it
 * ended with none, as a stopped command or Monitor still does. Asked when such an agent's wait ends.
 */
export const AGENT_STOP_NOTICE_PATCH = 'agent-stop-notice';
/**
 * Background agents (issue 19): an Agent call without `run_in_background: false` starts its child
 * session (parent close policy ABANDON) and returns the launched result at once, with a
 * `local_agent` task; the session waits for the child as the task's activity (awaitAgentTask) and
 * queues its notification. `isolation: "worktree"` makes the child's worktree first. A turn
 * recorded before ran every Agent call in the foreground (and refused both keys).
 */
export const BACKGROUND_AGENTS_PATCH = 'background-agents';
/**
 * The ONE session-workflow patch id of release 0.3.0 (docs/releasing.md: at most one per release).
 * Every 0.3.0 change to the session workflow's command sequence asks this id at its own point;
 * a session run that began on 0.2.0 answers false at each point it had passed before the upgrade
 * and true afterwards. Its registry entry (versions.ts) lists every behaviour it guards.
 */
export const SESSION_030_PATCH = 'session-0.3.0';
