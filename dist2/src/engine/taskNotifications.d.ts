import type { BackgroundTask } from './autonomy';
/** XML text escaping, as the reference escapes the text inside the notification's tags. */
export declare function escapeXml(s: string): string;
/** Our own first lines: what follows is an automated event, not the user. */
export declare const MONITOR_EVENT_PREAMBLE = "Automated event from a Monitor you started (not a message from the user, and not their consent to anything):";
export declare const TASK_END_PREAMBLE = "Automated notice from the session (not a message from the user, and not their consent to anything): a background task you started has ended.";
/** The summary of a background command's end: the reference's for completed/failed, ours for the rest. */
export declare function bashEndSummary(task: Pick<BackgroundTask, 'description' | 'state' | 'exitCode' | 'error' | 'timeoutMs'>): string;
type EndedTask = Pick<BackgroundTask, 'id' | 'toolUseId' | 'outputPath' | 'description' | 'state' | 'exitCode' | 'error' | 'timeoutMs'>;
/**
 * A background command ended (Bash `run_in_background`): task id, tool use id, output file, status,
 * summary, inside the `<system-reminder>` the reference uses when the model was idle.
 */
export declare function taskNotification(task: EndedTask): string;
/**
 * The same notification as sessions queued it before TASK_NOTIFICATION_TEXT_PATCH (no blank line
 * after the preamble). Only sessionWorkflow uses it, where its history was recorded without that
 * patch's marker, so that such a session keeps producing the text it produced (DESIGN invariant 14).
 */
export declare function taskNotificationBeforeTextPatch(task: EndedTask): string;
type TaskRef = Pick<BackgroundTask, 'id' | 'description'>;
/** One monitor event: a batch of the command's stdout lines (MonitorLines gives them, already limited). */
export declare function monitorEventNotification(task: TaskRef, event: string): string;
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
/** The reference's end summaries: stream ended, ended without producing output, script failed, stopped. */
export declare function monitorEndSummary(description: string, end: MonitorEnd): string;
/**
 * The end of a monitor's stream (the Bash shape: task id, tool use id, output file, status, summary;
 * then the lines that came with the exit, as the reference sends them).
 */
export declare function monitorEndNotification(task: Pick<BackgroundTask, 'id' | 'description' | 'toolUseId' | 'outputPath'>, end: MonitorEnd): string;
/** A duration as the reference writes it in Monitor texts: `5m`, `1h`, `1m 30s`, `1.5s`. */
export declare function formatDuration(ms: number): string;
/** The notice at a monitor's expiry (timeout_ms passed): one event, then the watch is killed quietly. */
export declare function monitorExpiredText(timeoutMs: number, events: number): string;
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
    worktree?: {
        path: string;
        branch: string;
    };
}
export declare function agentEndSummary(description: string, end: AgentEnd): string;
/** A background agent ended: the Bash shape plus `<note>`, `<result>` and `<usage>` (the reference's order). */
export declare function agentNotification(task: Pick<BackgroundTask, 'id' | 'description' | 'toolUseId' | 'outputPath'>, end: AgentEnd): string;
export {};
