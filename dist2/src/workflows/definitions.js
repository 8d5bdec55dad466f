"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.oneLinePreview = exports.turnProgressQuery = exports.outageSignal = exports.streamedToolUseSignal = exports.BACKGROUND_AGENTS_PATCH = exports.monitorEventSignal = exports.QUEUED_AFTER_TURN_PATCH = exports.MONITOR_TASKS_PATCH = exports.TASK_NOTIFICATION_TEXT_PATCH = exports.SKILL_MODEL_SUBAGENT_PATCH = exports.BACKGROUND_TASKS_PATCH = exports.CHECKPOINT_OWN_SIZE_PATCH = exports.TOOL_SETTINGS_REF_PATCH = exports.LOCAL_TURN_STORES_PATCH = exports.SESSION_START_SOURCES_PATCH = exports.MAX_TOKENS_CUT_OFF_PATCH = exports.SUBAGENT_HOOKS_PATCH = exports.APPROVAL_OUTCOME_PATCH = exports.approvalResolvedSignal = exports.approvalPendingSignal = exports.turnApprovalSignal = exports.turnInterruptSignal = exports.transcriptHeadQuery = exports.statusQuery = exports.denyUpdate = exports.approveUpdate = exports.stopSignal = exports.sendMessageSignal = exports.interruptSignal = exports.STATUS_SEARCH_ATTRIBUTE = exports.TASK_QUEUE_DEFAULT = void 0;
exports.approvalAnswer = approvalAnswer;
// Shared, sandbox-safe definitions of the session and turn workflows: inputs, results, and the
// signals/updates/queries that clients and workflows use to talk. Imports only pure code: the
// engine and @temporalio/workflow (test/unit/rooms.test.ts).
const workflow_1 = require("@temporalio/workflow");
const ids_1 = require("../engine/ids");
exports.TASK_QUEUE_DEFAULT = 'durable-agent';
exports.STATUS_SEARCH_ATTRIBUTE = 'DurableAgentStatus';
// Session API (clients talk to the session only).
exports.interruptSignal = (0, workflow_1.defineSignal)(ids_1.SIGNALS.interrupt);
exports.sendMessageSignal = (0, workflow_1.defineSignal)(ids_1.SIGNALS.sendMessage);
/** Ends the session's loop: its wake-up and cron jobs are dropped, it ends at its next idle point. */
exports.stopSignal = (0, workflow_1.defineSignal)(ids_1.SIGNALS.stop);
exports.approveUpdate = (0, workflow_1.defineUpdate)(ids_1.UPDATES.approve);
exports.denyUpdate = (0, workflow_1.defineUpdate)(ids_1.UPDATES.deny);
/** What to answer an approve/deny once the turn said what it did (undefined: the turn ended without saying). */
function approvalAnswer(toolUseId, requested, actual) {
    if (!actual || !actual.decision)
        return {
            toolUseId,
            decision: requested,
            applied: false,
            outcome: 'the turn ended before it took the decision; check the session',
        };
    if (actual.source === 'human' && actual.decision === requested)
        return { toolUseId, decision: requested, applied: true };
    const why = actual.source === 'timeout'
        ? 'no approval arrived within the approval timeout: it was denied by default first'
        : actual.source === 'interrupted'
            ? 'the turn was interrupted first: the call did not run'
            : `it was already decided (${actual.decision} by ${actual.source ?? 'someone else'})`;
    return { toolUseId, decision: actual.decision, applied: false, outcome: `too late: ${why}` };
}
exports.statusQuery = (0, workflow_1.defineQuery)(ids_1.QUERIES.status);
exports.transcriptHeadQuery = (0, workflow_1.defineQuery)(ids_1.QUERIES.transcriptHead);
// Turn <-> session (internal).
exports.turnInterruptSignal = (0, workflow_1.defineSignal)(ids_1.SIGNALS.turnInterrupt);
exports.turnApprovalSignal = (0, workflow_1.defineSignal)(ids_1.SIGNALS.turnApproval);
exports.approvalPendingSignal = (0, workflow_1.defineSignal)(ids_1.SIGNALS.approvalPending);
/** The turn decided an ask: what it did (turns recorded before APPROVAL_OUTCOME_PATCH send only the id, and only on timeout/interrupt). */
exports.approvalResolvedSignal = (0, workflow_1.defineSignal)(ids_1.SIGNALS.approvalResolved);
/** Turns and sessions report the real outcome of every ask (versioned: older histories replay without it). */
exports.APPROVAL_OUTCOME_PATCH = 'approval-outcome';
/** A subagent's session fires SubagentStart/SubagentStop instead of SessionStart/Stop, and no UserPromptSubmit/SessionEnd. */
exports.SUBAGENT_HOOKS_PATCH = 'subagent-hook-events';
/** Turns recorded before it ran a tool_use cut off by max_tokens; after it, the call is answered without running (engine/cutOff.ts). */
exports.MAX_TOKENS_CUT_OFF_PATCH = 'max-tokens-cut-off';
/** SessionStart fires again with source `compact` / `resume` (not only `startup`). */
exports.SESSION_START_SOURCES_PATCH = 'session-start-sources';
/**
 * The end-of-turn store writes (tool results into the transcript, the read-file state) run as
 * LOCAL activities in the workflow task that has the last tool result, instead of two activities
 * and a further workflow task (versioned: turns recorded before replay with the activities).
 */
exports.LOCAL_TURN_STORES_PATCH = 'local-turn-stores';
/**
 * The session stores its tool settings once per run (local activity storeToolSettings) and its
 * turns' tool activities carry the reference (`toolSettingsRef`) instead of the whole settings.
 */
exports.TOOL_SETTINGS_REF_PATCH = 'tool-settings-ref';
/**
 * The session's continue-as-new decision reads the run's own count of the bytes it put into and
 * took out of history (and its turns), never the server's `historySize`: that value can differ
 * between the live task and the recorded event (a retried, transient workflow task), so a replay
 * crossed the limit one task earlier than the live run did (found by test:cluster).
 */
exports.CHECKPOINT_OWN_SIZE_PATCH = 'checkpoint-own-size';
/**
 * Background tasks (Bash `run_in_background`): the session runs each recorded task as its own
 * activity `task-<id>`, queues its notification when it ends, and does not continue-as-new while one
 * runs. Histories recorded before never held a task (the call was refused).
 */
exports.BACKGROUND_TASKS_PATCH = 'background-tasks';
/**
 * A subagent started in the same turn as a Skill call that names a model runs on that model (the
 * child session's input; before, the model of the turn's start). src/workflows/versions.ts.
 */
exports.SKILL_MODEL_SUBAGENT_PATCH = 'skill-model-subagent';
/**
 * A background task's `<task-notification>` has a blank line after its preamble, as the reference's
 * and as every other notification (engine/taskNotifications.ts); a session whose history was
 * recorded without this marker keeps queuing the text without it.
 */
exports.TASK_NOTIFICATION_TEXT_PATCH = 'task-notification-text';
/**
 * Monitor tasks: the session runs a recorded `monitor` task as its own activity `task-<id>`
 * (runMonitorTask), takes each `monitorEvent` signal once per (task, seq) and queues its event
 * notification, and queues the monitor's end notification (or expiry notice) when the activity
 * ends. Histories recorded before never held a monitor task (Monitor was not offered).
 */
exports.MONITOR_TASKS_PATCH = 'monitor-tasks';
/**
 * A background task that ends in the same workflow activation as a turn that ended the session (or
 * while its Stop hooks run) has its notification queued after the engine decided to end: the session
 * now runs a turn for it; before, it ended with the notification unread.
 */
exports.QUEUED_AFTER_TURN_PATCH = 'queued-after-turn';
/** From a Monitor task's activity to its session: one numbered batch of the watch's output. */
exports.monitorEventSignal = (0, workflow_1.defineSignal)(ids_1.SIGNALS.monitorEvent);
/**
 * Background agents (issue 19): an Agent call without `run_in_background: false` starts its child
 * session (parent close policy ABANDON) and returns the launched result at once, with a
 * `local_agent` task; the session waits for the child as the task's activity (awaitAgentTask) and
 * queues its notification. `isolation: "worktree"` makes the child's worktree first. A turn
 * recorded before ran every Agent call in the foreground (and refused both keys).
 */
exports.BACKGROUND_AGENTS_PATCH = 'background-agents';
/** From the turn's own model activity: a tool_use block that is complete while the message streams. */
exports.streamedToolUseSignal = (0, workflow_1.defineSignal)(ids_1.SIGNALS.streamedToolUse);
/** The turn is waiting out a model or store outage (null: it is over). */
exports.outageSignal = (0, workflow_1.defineSignal)(ids_1.SIGNALS.outage);
exports.turnProgressQuery = (0, workflow_1.defineQuery)(ids_1.QUERIES.turnProgress);
var messages_1 = require("../engine/messages");
Object.defineProperty(exports, "oneLinePreview", { enumerable: true, get: function () { return messages_1.oneLinePreview; } });
//# sourceMappingURL=definitions.js.map