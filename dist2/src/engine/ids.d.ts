/** The registered activity types (src/activities/index.ts uses exactly these keys). */
export declare const ACTIVITY_TYPES: {
    readonly callModel: "callModel";
    readonly appendTranscript: "appendTranscript";
    readonly loadTranscript: "loadTranscript";
    readonly compactContext: "compactContext";
    readonly describeToolUses: "describeToolUses";
    readonly runToolUse: "runToolUse";
    readonly storeReadFiles: "storeReadFiles";
    readonly storeToolSettings: "storeToolSettings";
    readonly runSessionHooks: "runSessionHooks";
    readonly prepareSubagent: "prepareSubagent";
    readonly finishSubagent: "finishSubagent";
    readonly awaitSubagent: "awaitSubagent";
    readonly nextCronFires: "nextCronFires";
    readonly runBackgroundTask: "runBackgroundTask";
    readonly runMonitorTask: "runMonitorTask";
    readonly prepareAgentWorktree: "prepareAgentWorktree";
    readonly settleAgentWorktree: "settleAgentWorktree";
    readonly awaitAgentTask: "awaitAgentTask";
};
export type ActivityType = (typeof ACTIVITY_TYPES)[keyof typeof ACTIVITY_TYPES];
/** Activity types whose result is a tool call's `ToolRunResult`. */
export declare const TOOL_ACTIVITY_TYPES: ReadonlySet<string>;
/** Signals, queries and updates of the session and turn workflows (workflows/definitions.ts defines them with these names). */
export declare const SIGNALS: {
    readonly interrupt: "interrupt";
    readonly sendMessage: "sendMessage";
    /** Ends a session's loop of wake-ups and cron jobs (engine/autonomy.ts). */
    readonly stop: "stop";
    readonly turnInterrupt: "turnInterrupt";
    readonly turnApproval: "turnApproval";
    readonly approvalPending: "approvalPending";
    readonly approvalResolved: "approvalResolved";
    readonly outage: "outage";
    /** From a turn's own model activity: a tool_use block complete while the message streams. */
    readonly streamedToolUse: "streamedToolUse";
    /** From a Monitor task's activity to its session: one numbered batch of the watch's output (engine/monitorTasks.ts). */
    readonly monitorEvent: "monitorEvent";
};
export declare const QUERIES: {
    readonly status: "status";
    readonly transcriptHead: "transcriptHead";
    readonly turnProgress: "turnProgress";
};
export declare const UPDATES: {
    readonly approve: "approve";
    readonly deny: "deny";
};
/** The turn child workflow `<session-id>/turn-<n>`. */
export declare function turnWorkflowId(sessionId: string, turn: number): string;
/** The turn number of a session's turn workflow id; undefined for any other workflow id. */
export declare function turnOfWorkflowId(sessionId: string, workflowId: string): number | undefined;
/** The session id of a turn workflow id (`<session-id>/turn-<n>`); undefined if it is not one. */
export declare function sessionOfTurnWorkflowId(workflowId: string): string | undefined;
export declare const activityIds: {
    /**
     * The model call of turn n: `model-<n>`; a retry after an outage `model-<n>-attempt-<k>`; a call
     * after a compaction adds `-<j>` (stepAttempt j-1).
     */
    model: (turn: number, outageAttempt?: number, stepAttempt?: number) => string;
    compact: (n: number) => string;
    /** One tool call; re-run with a human/timeout decision as `tool-<id>-approve` / `tool-<id>-deny`. */
    tool: (toolUseId: string, decided?: "approve" | "deny") => string;
    /** The Agent call's pre-call phase (and its decided re-run) and post-call phase. */
    agentPre: (toolUseId: string, decided?: "approve" | "deny") => string;
    agentPost: (toolUseId: string) => string;
    /** Waiting for a child session that already existed. */
    agentAwait: (toolUseId: string) => string;
    /** An isolated agent's worktree: made before the child (`agent-worktree-<id>`), settled after a foreground child. */
    agentWorktree: (toolUseId: string) => string;
    agentWorktreeSettle: (toolUseId: string) => string;
    append: (turn: number) => string;
    readFiles: (turn: number) => string;
    hook: (event: string, n: number) => string;
    /** A background task's own activity in the session (Bash run_in_background, Monitor): `task-<task id>`. */
    task: (taskId: string) => string;
    /** A retried attempt of any of these (the turn waits out outages): `<id>-attempt-<k>`. */
    attempt: (base: string, attempt: number) => string;
};
/** Every activity id a tool call may have, in the order they run (audit: one call's activities). */
export declare function toolCallActivityIds(toolUseId: string): string[];
/** The decision an approve/deny re-run carries in its activity id, if it is one. */
export declare function decidedByActivityId(activityId: string): 'approve' | 'deny' | undefined;
/** True for the Agent call's phases (`agent-pre-…`, `agent-post-…`). */
export declare function isSubagentActivityId(activityId: string): boolean;
