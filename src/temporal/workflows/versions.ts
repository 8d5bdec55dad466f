// The registry of every `patched()` id in workflow code: why it exists, what changes in the
// command sequence, the recorded histories that replay each side of it, and the step that retires
// it. Not workflow code (nothing in the workflows imports it): it is read by test/unit/versions,
// which fails the build when a `patched('…')`/`deprecatePatch('…')` id in src/ is missing here or
// an entry has no fixture in test/fixtures/histories that holds that patch's marker.
//
// The rules (DESIGN invariant 14):
// - A new workflow behaviour goes behind a NEW id, added here with a fixture recorded after it
//   (scripts/record-histories.ts) and, when the command sequence differs, one recorded before it
//   (run the same scenario in a worktree of the commit before the patch; the `-before-patches`
//   scenarios show how). Never change behaviour under an existing id — not even its failure path.
// - Retiring an id, in two releases: (1) `deprecatePatch(id)` in place of `patched(id)` once no
//   running session can still hold a history without the marker (every session started before the
//   patch has ended: `durable-agent ls`, or a visibility query on the start time), keeping only the
//   patched branch; (2) a release later, remove the call once no running session holds a history
//   WITH the `patched` marker but without the deprecation. Each step ships with a fixture that replays.
// - Releases (CHANGELOG.md, docs/releasing.md): each id carries the release that introduced it
//   (`release`; an id new on main carries the next one) and the release that deprecates it
//   (`retireIn`; the one after removes it), no earlier than scripts/releases.ts earliestRetirement
//   allows: one release after it shipped for a turn, two for a session (counted from 0.2.0).
//   unit/versions fails when package.json's version has reached a step the source has not taken,
//   and when a release introduces more than one id that guards the session workflow.
import {
  APPROVAL_OUTCOME_PATCH,
  LOCAL_TURN_STORES_PATCH,
  TURN_END_ONE_WRITE_PATCH,
  TURN_STEP_WRITES_PATCH,
  MAX_TOKENS_CUT_OFF_PATCH,
  SESSION_START_SOURCES_PATCH,
  SUBAGENT_HOOKS_PATCH,
  TOOL_SETTINGS_REF_PATCH,
  CHECKPOINT_OWN_SIZE_PATCH,
  BACKGROUND_TASKS_PATCH,
  SKILL_MODEL_SUBAGENT_PATCH,
  TASK_NOTIFICATION_TEXT_PATCH,
  MONITOR_TASKS_PATCH,
  AGENT_STOP_NOTICE_PATCH,
  BACKGROUND_AGENTS_PATCH,
  QUEUED_AFTER_TURN_PATCH,
  LATE_PROMPTS_PATCH,
  CONTEXT_WINDOW_CUT_OFF_PATCH,
  SESSION_030_PATCH,
} from './definitions';

export interface PatchVersion {
  /** The id passed to `patched()`. */
  id: string;
  /** The commit that introduced it (for the newest: the main commit it landed on). */
  since: string;
  /** Which workflow, and what it does differently under the patch. */
  why: string;
  /** Fixtures (test/fixtures/histories) recorded under the patch: each holds its marker. */
  fixtures: string[];
  /** Fixtures recorded before the patch (no marker): the old command sequence still replays. */
  before: string[];
  /** The next step of its life cycle. */
  deprecate: string;
  /** The workflows whose histories hold its marker: a session lives days, a turn minutes. */
  workflows: ReadonlyArray<'session' | 'turn'>;
  /** The release that introduced it (CHANGELOG.md lists it in that release's Patches line). */
  release: string;
  /**
   * The release that makes it `deprecatePatch()`; the one after removes it. unit/versions fails
   * when package.json's version has reached either step and the source has not (scripts/releases.ts).
   */
  retireIn: string;
  /** Why that release: from `deprecate` and the lifetime of the workflows it guards. */
  retireWhy: string;
  /** Changes made under the id after it shipped (there must be none; see the rules above). */
  amendments?: string[];
}

export const PATCHES: readonly PatchVersion[] = [
  {
    id: APPROVAL_OUTCOME_PATCH,
    since: 'dcb485c',
    workflows: ['turn', 'session'],
    release: '0.1.0',
    retireIn: '0.4.0',
    retireWhy:
      'Guards the session too (its approve/deny answer): a session run lives until continue-as-new, and an idle session waits up to 7 days for a follow-up, and it can ask again after days. Shipped before releases, so counted from 0.2.0: deprecate in 0.4.0, remove in 0.5.0.',
    why: 'turnWorkflow signals approvalResolved (decision and source) for every ask it decides, and sessionWorkflow answers approve/deny with what counted; before, the turn signalled only on timeout or interrupt and the update answered what was asked.',
    fixtures: ['approval-outcome.session.json', 'approval-outcome.turn-1.json'],
    before: ['approval.session.json', 'approval.turn-1.json'],
    deprecate:
      'deprecatePatch once no session started before dcb485c can still be waiting for an approval (approval timeout default 24 h, but an idle session waits up to 7 days for a follow-up and can ask again).',
  },
  {
    id: SUBAGENT_HOOKS_PATCH,
    since: 'dff3c14',
    workflows: ['session'],
    release: '0.1.0',
    retireIn: '0.4.0',
    retireWhy:
      "A subagent's own sessionWorkflow: a foreground one lives within one Agent call, but a background agent (0.2.0) runs as long as its work: the session rule, counted from 0.2.0.",
    why: "A subagent's sessionWorkflow (parent set, session hooks configured) fires SubagentStart/SubagentStop instead of SessionStart/UserPromptSubmit/Stop/SessionEnd: other hook-<event>-<n> activities.",
    fixtures: ['subagent.agent-toolu_agent.session.json'],
    before: ['subagent-before-patches.agent-toolu_agent.session.json'],
    deprecate:
      'deprecatePatch once no subagent session started before dff3c14 is running (a subagent lives inside one Agent call of its parent turn).',
  },
  {
    id: MAX_TOKENS_CUT_OFF_PATCH,
    since: 'b384a47',
    workflows: ['turn'],
    release: '0.1.0',
    retireIn: '0.3.0',
    retireWhy:
      'Turn only: a turn lives minutes, hours at most (an approval wait, 24 h by default; a foreground subagent). Shipped before releases, so counted from 0.2.0: deprecate in 0.3.0.',
    why: 'turnWorkflow answers a tool_use cut off by max_tokens (the last block of a max_tokens response) without running it: no runToolUse for that block; before, it ran with whatever input the partial parse kept.',
    fixtures: ['cut-off.turn-1.json'],
    before: ['cut-off-before-patches.turn-1.json'],
    deprecate:
      'deprecatePatch once no turn started before b384a47 is open (a turn lives minutes, or as long as an approval wait in it).',
  },
  {
    id: SESSION_START_SOURCES_PATCH,
    since: '37fa4f7',
    workflows: ['session'],
    release: '0.1.0',
    retireIn: '0.4.0',
    retireWhy:
      'Asked at the start of every session run: a session run lives until continue-as-new, and an idle session waits up to 7 days for a follow-up. Counted from 0.2.0.',
    why: 'sessionWorkflow (not a subagent, SessionStart hooks configured) fires SessionStart again with source compact (before the turn after a compacting turn) and resume; before, it fired once, at startup. Evaluated at the start of every run, so a session continued-as-new after the deploy takes the patched branch in its new run.',
    fixtures: ['compaction.session.json', 'subagent.session.json'],
    before: ['compaction-before-patches.session.json', 'subagent-before-patches.session.json'],
    deprecate:
      'deprecatePatch once no run started before 37fa4f7 is open (a run ends at continue-as-new, by default every 2 MiB of history).',
  },
  {
    id: LOCAL_TURN_STORES_PATCH,
    since: 'ffc15d7',
    workflows: ['turn'],
    release: '0.1.0',
    retireIn: '0.3.0',
    retireWhy:
      'Turn only: a turn lives minutes, hours at most (an approval wait, 24 h by default; a foreground subagent). Counted from 0.2.0; its deprecation also ends the exposure of the amendment below (a turn of ffc15d7..b249c32 cannot be open by then).',
    why: 'turnWorkflow runs the end-of-turn writes (appendTranscript, storeReadFiles) as local activities in the workflow task that has the last tool result; before, two activities (append-<n>, read-files-<n>) and a further workflow task.',
    fixtures: [
      'local-stores.turn-1.json',
      'local-stores-v1.turn-1.json',
      'compaction.turn-1.json',
      'cut-off.turn-1.json',
    ],
    before: [
      'batch.turn-1.json',
      'streamed.turn-1.json',
      'compaction-before-patches.turn-1.json',
      'cut-off-before-patches.turn-1.json',
    ],
    deprecate: 'deprecatePatch once no turn started before ffc15d7 is open.',
    amendments: [
      // Found by the review of issue 21 (finding 2). The evidence for the verdict:
      "b249c32 (30 minutes after ffc15d7, no release tag in between) changed the failure path under this id: the local activities went from 3 local attempts (1 s apart), retried on failure by the turn's store-outage loop (a timer, then the local activities again), to ONE local attempt that falls back to the activities append-<n>/read-files-<n> with their outage loop. The local-stores fixture was re-recorded (on the streamed turn); the original recording is kept as local-stores-v1 (from ffc15d7) and replays on today's code: where the first local attempt succeeded — every turn without a store failure — the command sequence is the same marker. A turn recorded by ffc15d7..b249c32 whose three local attempts ALL failed (a store outage of several seconds at the end of the turn) has a timer where today's code schedules an activity: its replay fails with a nondeterminism error. Affected: only such a turn that was still open when the worker was upgraded. Sessions are not affected otherwise (a completed turn is not replayed; its session reads only its result). The fallback should have had its own id; it is left as it is, since a second change would break the turns recorded since.",
    ],
  },
  {
    id: TOOL_SETTINGS_REF_PATCH,
    since: '51ca980',
    workflows: ['session'],
    release: '0.2.0',
    retireIn: '0.4.0',
    retireWhy:
      "Asked once per session run: a session run lives until continue-as-new, and an idle session waits up to 7 days for a follow-up. The activities' inline path goes with the removal (0.5.0), when no turn started by a pre-0.2.0 run can be open.",
    why: 'sessionWorkflow stores its tool settings (tool names, rules, sandbox, hooks, MCP server configs, agent definitions) once per run — the local activity storeToolSettings, content-addressed — and passes the reference to its turns (toolSettingsRef), whose runToolUse / describeToolUses / Agent-phase inputs carry it instead of the whole settings (invariant 11; runToolUse input per call 30,079 B -> 538 B with 20 hooks, 10 MCP servers, 10 agents). A run recorded before sends them inline; the activities take either. A store failure falls back to inline.',
    fixtures: ['settings-ref.session.json'],
    before: ['batch.session.json', 'subagent-before-patches.session.json', 'continue-as-new.session.json'],
    deprecate:
      "deprecatePatch once no session run started before it is open (a run ends at continue-as-new); keep the activities' inline path for as long as a turn started before it may still be open.",
    amendments: [
      "ref20 (issue 20): the inline fallback (the store refused the settings) dropped the session's skills (storedToolSettings had them, the inline tool session did not: the Skill tool found none). The turn's input now carries `skills` when it has no toolSettingsRef (temporal/workflows/turnInput.ts). Data only: no command is added, removed or reordered, and a recorded turn replays with the input recorded in its history; a session recorded before the patch has no skills in its input (skills landed after it), so only a run whose store refused its settings sends anything different (unit turn-input).",
      "histbytes (issue 33, 0.3.0): the stored settings hold the session's system prompt too, and storeToolSettings answers `{ settingsRef }` instead of the bare key. A run whose marker holds that object starts its turns with `settingsRef` and WITHOUT `tools`, `model.system` and `subagents.agents`; their callModel / compactContext inputs carry the reference instead of the system prompt, tool names and agent definitions (11.2 KB less history per turn of the bench's session). A run whose marker holds a bare key (recorded before) keeps `toolSettingsRef` and the inline settings. Data only: the same local activity, the same child start, the same activities; a marker's answer is replayed as recorded, and the shape of the turns' inputs follows from it (fixtures stored-settings: the object; settings-ref: a bare key; unit stored-settings, turn-input; integration stored-settings). The model activity of such a turn needs a 0.3.0 worker: in a deploy without deployment versions a 0.2.x worker still polling may take it and fail that attempt (no tool names), as it would a runToolUse with a reference after 0.2.0; with deployment versions the turn stays on its build (docs/deployment.md).",
    ],
  },
  {
    id: CHECKPOINT_OWN_SIZE_PATCH,
    since: '4cc34d3',
    workflows: ['session'],
    release: '0.2.0',
    retireIn: '0.4.0',
    retireWhy:
      'Asked at each continue-as-new decision of a run: a session run lives until continue-as-new, and an idle session waits up to 7 days for a follow-up.',
    why: "sessionWorkflow decides continue-as-new from the run's own count — the JSON size of its start payload (input + carry), of every turn child's input and result, plus 2 KiB per turn, or 500 turns — instead of workflowInfo().historySize / continueAsNewSuggested. The server's history size of a retried (transient) workflow task can differ from the value in its recorded WorkflowTaskStarted event (events buffered but not yet counted), so a replay crossed maxHistoryBytesPerRun one task earlier than the live run and failed with a nondeterminism error (test:cluster, two of 24 sessions, after a rolling deploy). A run recorded before keeps the server's value.",
    fixtures: ['checkpoint-own-size.session.json', 'checkpoint-own-size.session.run-2.json'],
    before: ['continue-as-new.session.json'],
    deprecate:
      'deprecatePatch once no session run started before it is open (a run ends at continue-as-new); then drop the historySize branch.',
  },
  {
    id: BACKGROUND_TASKS_PATCH,
    since: '052e82b',
    workflows: ['session'],
    release: '0.2.0',
    retireIn: '0.4.0',
    retireWhy:
      'Session only (a run with a task does not continue-as-new while it runs): a session run lives until continue-as-new, and an idle session waits up to 7 days for a follow-up.',
    why: "sessionWorkflow runs each background task a turn recorded (Bash run_in_background: a taskStarted modifier) as its own activity task-<id> (runBackgroundTask, heartbeating, one attempt) before the next turn or during the wait for work, cancels it on TaskStop (taskStopRequested), queues the task's <task-notification> when it ends, stops running tasks when the session ends, and does not continue-as-new while one runs. Before it, Bash refused run_in_background, so no recorded history holds a task: the marker is written only when a task starts, and every earlier fixture replays unchanged.",
    fixtures: ['background-tasks.session.json'],
    before: ['wakeup.session.json', 'batch.session.json'],
    deprecate:
      'deprecatePatch once no session run started before it is open (a run ends at continue-as-new); nothing else changes, since only a history with a task reaches the call.',
  },
  {
    id: TASK_NOTIFICATION_TEXT_PATCH,
    since: 'f6e2af1',
    workflows: ['session'],
    release: '0.2.0',
    retireIn: '0.4.0',
    retireWhy:
      'Session only: a session run lives until continue-as-new, and an idle session waits up to 7 days for a follow-up; then taskNotificationBeforeTextPatch goes.',
    why: "sessionWorkflow queues a background command's <task-notification> with a blank line after the preamble (the reference's wrapper, and the one the Monitor and Agent notifications have: tasks/core/taskNotifications.ts holds them all); a history recorded under background-tasks without this marker keeps queuing the text without it (taskNotificationBeforeTextPatch). The command sequence is the same but for the marker, written when a task's notification is queued.",
    fixtures: ['task-notification-text.session.json'],
    before: ['background-tasks.session.json'],
    deprecate:
      'deprecatePatch once no session run started before it is open that holds a running task (a run ends at continue-as-new, which waits for its tasks); then drop taskNotificationBeforeTextPatch.',
  },
  {
    id: MONITOR_TASKS_PATCH,
    since: 'c257c4b',
    workflows: ['session'],
    release: '0.2.0',
    retireIn: '0.4.0',
    retireWhy:
      'Session only: a session run lives until continue-as-new, and an idle session waits up to 7 days for a follow-up.',
    why: "sessionWorkflow runs a Monitor task a turn recorded (kind monitor: a taskStarted modifier) as its own activity task-<id> of type runMonitorTask (before: runBackgroundTask), takes each monitorEvent signal once per (task, seq) and queues its event notification, and queues the monitor's end notification, expiry notice or nothing (stopped) from the activity's result. Before it, Monitor was not offered, so no recorded history holds a monitor task: the marker is written only when one starts, and every earlier fixture replays unchanged.",
    fixtures: ['monitor-tasks.session.json'],
    before: ['background-tasks.session.json'],
    deprecate:
      'deprecatePatch once no session run started before it is open (a run ends at continue-as-new); only a history with a monitor task reaches the call.',
  },
  {
    id: BACKGROUND_AGENTS_PATCH,
    since: 'c54ec8e',
    workflows: ['turn', 'session'],
    release: '0.2.0',
    retireIn: '0.4.0',
    retireWhy:
      "Guards the session's wait for the agent too: a session run lives until continue-as-new, and an idle session waits up to 7 days for a follow-up.",
    why: "turnWorkflow runs an Agent call without run_in_background: false in the background (the reference's default): after the pre-call phase it starts the child session outside the turn's interrupt scope with parent close policy ABANDON, records the launched result (finishSubagent) and adds a local_agent taskStarted modifier; with isolation: \"worktree\" it first makes the child's worktree (prepareAgentWorktree agent-worktree-<id>) and, for a foreground child, settles it after (settleAgentWorktree). sessionWorkflow waits for each local_agent task as its activity task-<id> (awaitAgentTask), queues the agent's <task-notification>, and on TaskStop or its end cancels the wait and the child session. Before it, every Agent call ran in the foreground and the schema refused both keys: a turn recorded before replays without the marker (foreground).",
    fixtures: ['background-agents.session.json', 'background-agents.turn-1.json'],
    before: ['subagent-before-patches.turn-1.json', 'subagent.turn-1.json'],
    deprecate:
      'deprecatePatch once no turn started before it is open and no session run started before it is open (a run ends at continue-as-new).',
  },
  {
    id: SKILL_MODEL_SUBAGENT_PATCH,
    since: '8384126',
    workflows: ['turn'],
    release: '0.2.0',
    retireIn: '0.3.0',
    retireWhy:
      'Turn only: a turn lives minutes, hours at most (an approval wait, 24 h by default; a foreground subagent); a foreground subagent keeps it open while it runs, which the check before the release sees (docs/releasing.md).',
    why: "turnWorkflow starts an Agent call's child session on the model of a Skill loaded earlier in the same turn (the call's context: skillGrants.model), as the reference's subagents inherit a skill's model; before, the turn's model at its start (which already has skills loaded in earlier turns). Only the child's input and the Agent result's `model` change, plus the marker, written only when the skill's model differs from the turn's: every earlier fixture replays unchanged.",
    fixtures: ['skill-model-subagent.turn-1.json'],
    before: ['subagent.turn-1.json'],
    deprecate:
      'deprecatePatch once no turn started before it is open (a turn lasts minutes to hours; a subagent keeps its parent turn open while it runs).',
  },
  {
    id: QUEUED_AFTER_TURN_PATCH,
    since: 'c2723dc',
    workflows: ['session'],
    release: '0.2.0',
    retireIn: '0.4.0',
    retireWhy:
      'Session only: a session run lives until continue-as-new, and an idle session waits up to 7 days for a follow-up; a completed session that hit the race is replayed only by a query until retention (days), well inside two releases.',
    why: "sessionWorkflow runs a turn for a message queued after a turn ended the session: a background task (Bash or Monitor) whose end lands in the same activation as the turn's end (after a worker restart, both are in one workflow task) or while Stop hooks run queues its notification after the engine read the queue, and its end leaves no pending work; before, the session ended with the notification unread. Asked (and the marker written) only in that case, so every other history replays unchanged.",
    fixtures: ['queued-after-turn.session.json'],
    before: ['background-tasks.session.json', 'monitor-tasks.session.json'],
    deprecate:
      'deprecatePatch once no session run started before it is open (a completed session that hit the race is replayed only by a query on it: keep the id until such sessions are past retention).',
  },
  {
    id: LATE_PROMPTS_PATCH,
    since: '57be178',
    workflows: ['session'],
    release: '0.2.0',
    retireIn: '0.4.0',
    retireWhy:
      "Asked at a top-level run's start: a session run lives until continue-as-new, and an idle session waits up to 7 days for a follow-up.",
    why: "sessionWorkflow keeps a message queued while UserPromptSubmit hooks run (a follow-up, a background task's or a Monitor's notification) and runs the hooks for it in turn before the next turn (engine checkPrompts with keepsLatePrompts: one more runSessionHooks activity per such message); before, the queue was replaced by the checked prompts and the message was lost. Asked (and the marker written) at the run's start, only by a top-level session with a UserPromptSubmit hook: every other history replays unchanged.",
    fixtures: ['late-prompts.session.json'],
    before: ['late-prompts-before-patch.session.json'],
    deprecate:
      'deprecatePatch once no session run started before it is open (a run ends at continue-as-new; an idle session waits up to 7 days for a follow-up).',
  },
  {
    id: AGENT_STOP_NOTICE_PATCH,
    since: '1c5da93',
    workflows: ['session'],
    release: '0.2.0',
    retireIn: '0.4.0',
    retireWhy:
      'Session only (it waits for its agents): a session run lives until continue-as-new, and an idle session waits up to 7 days for a follow-up.',
    why: "sessionWorkflow queues a notification when a background agent that TaskStop stopped ends (its wait cancelled): <status>killed</status>, `Agent \"<description>\" was stopped by Claude`, our note — the reference 2.1.328's (test:reference 'Agent background TaskStop'); an idle session starts a turn for it. Before, it ended with none (as a stopped command or Monitor still does). Asked (and the marker written) only when such an agent's wait ends after TaskStop, not at the session's end: every other history replays unchanged.",
    fixtures: ['agent-stop-notice.session.json'],
    before: ['background-agents.session.json'],
    deprecate:
      'deprecatePatch once no session run started before it is open (a run ends at continue-as-new; a session waits for its agents).',
  },
  {
    id: CONTEXT_WINDOW_CUT_OFF_PATCH,
    since: '3b16555',
    workflows: ['turn'],
    release: '0.2.0',
    retireIn: '0.3.0',
    retireWhy:
      'Turn only: a turn lives minutes, hours at most (an approval wait, 24 h by default; a foreground subagent).',
    why: 'turnWorkflow answers a tool_use cut off by stop_reason model_context_window_exceeded (the last block of such a response) without running it, as MAX_TOKENS_CUT_OFF_PATCH does for max_tokens: no runToolUse for that block; before, it ran with whatever input the partial parse kept. Asked (and the marker written) only for such a response, so every other history replays unchanged.',
    fixtures: ['context-window-cut-off.turn-1.json'],
    before: ['context-window-cut-off-before-patch.turn-1.json'],
    deprecate:
      'deprecatePatch once no turn started before it is open (a turn lives minutes, or as long as an approval wait in it).',
  },
  {
    id: TURN_END_ONE_WRITE_PATCH,
    since: 'ea02c35',
    workflows: ['turn'],
    release: '0.3.0',
    retireIn: '0.4.0',
    retireWhy:
      'Turn only: a turn lives minutes, hours at most (an approval wait, 24 h by default; a foreground subagent): one release after the release that ships it.',
    why: 'turnWorkflow writes the end of the turn (its tool results into the transcript, its read files) with ONE local activity, recordTurnEnd, asked before local-turn-stores (a turn under it records no local-turn-stores marker); before, two local activities (appendTranscript, storeReadFiles). The failure path is the same: one local attempt, then the activities append-<n>/read-files-<n> with their outage waiting (issue 33: one history event less per turn).',
    fixtures: ['turn-end-one-write.turn-1.json'],
    before: ['local-stores.turn-1.json'],
    deprecate:
      'deprecatePatch once no turn started before it is open (a turn lives minutes, or as long as an approval wait in it).',
  },
  {
    id: TURN_STEP_WRITES_PATCH,
    since: '961f2b6',
    workflows: ['turn'],
    release: '0.3.0',
    retireIn: '0.4.0',
    retireWhy:
      'Turn only: a turn lives minutes, hours at most (an approval wait, 24 h by default; a foreground subagent): one release after the release that ships it.',
    why: "turnWorkflow (a child of several model steps, issue 33): a step that another step of the child follows records no recordTurnEnd local activity; its tool results and read files ride in the next step's callModel input (`stepWrites`), which writes them before it calls the model and returns (and signals with its streamed blocks) the read-file reference. Asked once per child, at the first step boundary where the child goes on; the child's last step writes its end as before, and a later step that fails before its model call answered has the writes made by the turn (recordTurnEnd). Before it (turn-steps.turn-1.json) each step ended with its own recordTurnEnd marker.",
    fixtures: ['turn-step-writes.turn-1.json'],
    before: ['turn-steps.turn-1.json'],
    deprecate:
      'deprecatePatch once no turn started before it is open (a turn lives minutes, or as long as an approval wait in it).',
  },
  {
    id: SESSION_030_PATCH,
    since: 'a462747',
    workflows: ['session'],
    release: '0.3.0',
    retireIn: '0.5.0',
    retireWhy:
      'Session: a session run lives until continue-as-new, and an idle session waits up to 7 days for a follow-up: two releases after the one that ships it.',
    why: "Release 0.3.0's one session-workflow id; each 0.3.0 change asks it at its own point (a run that began before the upgrade answers false at the points it had passed and true afterwards). Issue 33, turn children of several model steps: sessionWorkflow starts each turn child with `steps` (its limits: at most 50 model steps, the maxTurns and maxTotalTokens left), the child runs model step after model step (turns n, n+1, … of the session; activities model-<n>, tool-<id> as before) until the turn ends, a step needs the session (a hook's stop, an unknown outcome, a compaction, control-file writes, background work or skill grants changed) or a limit; while it runs the session signals turnYield to it when a message is queued (a follow-up, a task notification), and the child returns after its current step. The session counts the child's steps as turns. Before it (and in a run that began before the upgrade) one child per model step, no turnYield. Notifications (issue 35, temporal/workflows/sessionNotify.ts): a top-level session with a webhook (`notify.webhook`) or a Notification hook schedules, per event, a `deliverNotification` activity `notify-<kind>-<n>` (needs_approval when a call waits for approval, waiting_for_model once per outage past the threshold, completed/failed at the end, budget_exceeded on that status) and runs the Notification hooks (`hook-Notification-<n>`) on the end and the new kinds; the session awaits them before it closes or continues-as-new. Asked at the first event a run would send; a session with neither asks nothing and records nothing. Budgets (issue 34, temporal/workflows/sessionBudget.ts): a session with a tree budget (maxBudgetUsd / onBudget, inputs that did not exist before) asks it when it enters the budget_exceeded wait (core/session.ts budgetGate: a condition, no timer) and when a child's budgetCharge signal finds it idle and over budget; the status change writes the DurableAgentStatus search attribute where one is registered (fixtures budget-exceeded.*: turn 1 spends past the budget, the session waits, the `budget` Update raises it, turn 2 completes). A schedule's budget per day (issue 34, temporal/workflows/scheduleFiring.ts): a firing whose input has `dailyBudget` (an input that did not exist before) asks it after the checkout check and runs the activity `schedule-day` (scheduleDaySpend: the day's earlier firings' spend), then either runs with min(its own budget, what is left of the day) written into its input, or ends at once with status budget_exceeded (fixtures daily-budget.first.*: the first firing of a day with $0.25 runs with the whole cap and completes; daily-budget.skipped.*: the second finds the day spent and is skipped).",
    fixtures: [
      'turn-steps.session.json',
      'notifications.session.json',
      'budget-exceeded.session.json',
      'daily-budget.first.session.json',
      'daily-budget.skipped.session.json',
    ],
    before: ['batch.session.json', 'approval-outcome.session.json'],
    deprecate:
      'deprecatePatch once no session run started before it is open (an idle session waits up to 7 days; a run lives until continue-as-new).',
  },
];
