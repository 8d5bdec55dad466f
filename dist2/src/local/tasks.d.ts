import type { CallRuntime } from '../calls/runtime';
import type { ToolSessionSettings } from '../calls/tools';
import type { BackgroundTask, TaskOutcome } from '../engine/autonomy';
import type { SessionState } from '../engine/session';
import { TaskScheduling, type TaskRunner } from '../engine/taskScheduling';
import type { LocalAgentLaunch } from './subagents';
import type { LocalDeps } from './turn';
/** What the tasks take from their session (src/local/sessionRun.ts). */
export interface LocalTasksHost {
    readonly state: SessionState;
    readonly session: ToolSessionSettings;
    readonly deps: Pick<LocalDeps, 'runBackgroundTask' | 'runMonitorTask'>;
    runtime(signal: AbortSignal, key: string): CallRuntime;
    /** Background agents the session's Agent calls launched, by task id (subagents.ts). */
    readonly agentLaunches?: Map<string, LocalAgentLaunch>;
}
export declare class LocalTasks implements TaskRunner {
    private readonly host;
    private readonly changed;
    /** Each running task's stop, by id. */
    private readonly aborts;
    private readonly runs;
    readonly scheduling: TaskScheduling;
    /** Monitor batches taken, once per (task, seq). */
    private readonly monitorLog;
    /** Running Monitor tasks: the events queued for each (a failed run's end notification counts them). */
    private readonly monitorEvents;
    constructor(host: LocalTasksHost, changed: () => void);
    start(task: BackgroundTask, ended: (outcome: TaskOutcome, notification?: string | null) => void): void;
    /**
     * A background agent (its Agent call launched it, subagents.ts): its child session runs in this
     * process until it ends (the agent's notification) or the task's stop aborts it (no notification).
     */
    private runAgent;
    stop(taskId: string): void;
    /** The session ends (or `stop()`): every running task is killed (no notification) and awaited. */
    stopAll(): Promise<void>;
    private runCommand;
    /** A Monitor's watch: each batch queued as it comes (an idle session wakes), then its end text. */
    private runMonitor;
    private monitorStopped;
}
