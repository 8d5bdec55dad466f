import { type CallDeps } from '../calls';
import { createModelActivities } from './model';
import { createCompactActivities } from './compact';
import { createToolActivities } from './tools';
import { createHookActivities } from './hooks';
import { createSubagentActivities } from './subagents';
import { createScheduleActivities } from './schedule';
import { createBackgroundTaskActivities } from './backgroundTask';
import { createMonitorTaskActivities } from './monitorTask';
type Model = ReturnType<typeof createModelActivities>;
type Tools = ReturnType<typeof createToolActivities>;
/** `callModel`: one streamed model request (proxy `model`). */
export type ModelActivities = Pick<Model, 'callModel'>;
/** `compactContext`: the summarizing call of a compaction (proxy `compaction`). */
export type CompactionActivities = ReturnType<typeof createCompactActivities>;
/** The session's stored state: the transcript chain and the read-file state (proxy `store`). */
export type StoreActivities = Pick<Model, 'appendTranscript' | 'loadTranscript'> & Pick<Tools, 'storeReadFiles'>;
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
export type AgentWorktreeActivities = Pick<ReturnType<typeof createSubagentActivities>, 'prepareAgentWorktree' | 'settleAgentWorktree'>;
/** `awaitAgentTask`: a background agent's wait in its parent session (proxy per task, `task-<id>`). */
export type AgentTaskActivities = Pick<ReturnType<typeof createSubagentActivities>, 'awaitAgentTask'>;
/** `nextCronFires`: the next firing of recurring cron jobs, a local activity (proxy `cron`). */
export type ScheduleActivities = ReturnType<typeof createScheduleActivities>;
/** `runBackgroundTask`: a background task's whole run, heartbeating (proxy per task, `task-<id>`). */
export type BackgroundTaskActivities = ReturnType<typeof createBackgroundTaskActivities>;
/** `runMonitorTask`: a Monitor task's whole run, heartbeating, its events as signals to the session (proxy per task, `task-<id>`). */
export type MonitorTaskActivities = ReturnType<typeof createMonitorTaskActivities>;
/** `runSessionHooks`: SessionStart/SessionEnd/Stop hooks of the session (proxy `hooks`). */
export type HookActivities = ReturnType<typeof createHookActivities>;
export type ActivityDeps = CallDeps;
/**
 * Every activity of a worker, by its registered name (a DurableAgentError thrown by one fails it
 * with its code as the failure type), plus the in-process runner's direct entries.
 */
export declare function createActivities(deps: ActivityDeps): {
    activities: {
        callModel: (input: import("../calls/model").CallModelInput) => Promise<import("../calls/model").ModelCallOutcome>;
        appendTranscript: (input: {
            head: string | null;
            messages: import("../engine/payloads").MessageByRef[];
        }) => Promise<string | null>;
        loadTranscript: (input: {
            head: string | null;
        }) => Promise<import("..").Message[]>;
        compactContext: (input: import("../calls/compact").CompactContextInput) => Promise<import("../calls/compact").CompactContextResult>;
        describeToolUses: (wire: import("../calls/tools").DescribeToolUsesInput) => Promise<import("../pipeline").ToolUseDescription[]>;
        runToolUse: (input: import("../calls/tools").RunToolUseInput) => Promise<import("../engine/turn").ToolRunResult>;
        storeReadFiles: (input: {
            base: string | null;
            delta: import("../stores/readFilesStore").ReadFiles;
        }) => Promise<string | null>;
        storeToolSettings: (settings: import("../calls/tools").StoredToolSettings) => Promise<string>;
        runSessionHooks: (input: import("../calls/sessionHooks").RunSessionHooksInput) => Promise<import("../calls/sessionHooks").RunSessionHooksResult>;
        prepareSubagent: (input: import("../calls/tools").RunToolUseInput) => Promise<import("../calls/tools").SubagentPrepared>;
        finishSubagent: (input: import("../calls/tools").FinishSubagentInput) => Promise<import("../engine/turn").ToolRunResult>;
        awaitSubagent: (input: {
            workflowId: string;
        }) => Promise<import("..").SessionResult>;
        nextCronFires: (input: import("./schedule").NextCronFiresInput) => Promise<import("./schedule").NextCronFiresResult>;
        runBackgroundTask: (input: import("../calls/backgroundTask").RunBackgroundTaskInput) => Promise<import("../calls/backgroundTask").RunBackgroundTaskResult>;
        runMonitorTask: (input: import("../calls/backgroundTask").RunBackgroundTaskInput) => Promise<import("../calls/monitorTask").RunMonitorTaskResult>;
        prepareAgentWorktree: (input: {
            cwd: string;
            name: string;
        }) => Promise<import("./subagents").AgentWorktreeReady | {
            error: string;
        }>;
        settleAgentWorktree: (input: {
            worktree: import("./subagents").AgentWorktreeReady;
        }) => Promise<{
            path: string;
            branch: string;
        } | null>;
        awaitAgentTask: (input: {
            workflowId: string;
            worktree?: import("./subagents").AgentWorktreeReady;
        }) => Promise<import("./subagents").AgentTaskResult>;
    };
    runToolCall: (input: import("../calls/tools").RunToolUseInput, ctx: import("../calls").CallRuntime, extra?: import("../calls/toolLedger").RunExtra) => Promise<import("../engine/turn").ToolRunResult>;
    runSessionHooks: (input: import("../calls/sessionHooks").RunSessionHooksInput, signal?: AbortSignal) => Promise<import("../calls/sessionHooks").RunSessionHooksResult>;
    runBackgroundTask: (input: import("../calls/backgroundTask").RunBackgroundTaskInput, rt: import("../calls").CallRuntime) => Promise<import("../calls/backgroundTask").RunBackgroundTaskResult>;
    runMonitorTask: (input: import("../calls/monitorTask").RunMonitorTaskInput, rt: import("../calls").CallRuntime, deliver: import("../calls/monitorTask").DeliverMonitorBatch) => Promise<import("../calls/monitorTask").RunMonitorTaskResult>;
};
/** The registered activity types, by name (what histories record). */
export type AgentActivities = ReturnType<typeof createActivities>['activities'];
export {};
