import { CancellationScope } from '@temporalio/workflow';
import type { BackgroundTask, TaskOutcome } from '../engine/autonomy';
import type { AgentEnd } from '../engine/taskNotifications';
import type { AgentTaskResult } from '../activities/subagents';
import type { SessionInput } from './definitions';
export interface AgentTaskEnd {
    outcome: TaskOutcome;
    /** The notification to queue (absent when it was stopped: no notification, as Bash). */
    notification?: string;
}
/** The notification's view of a finished child session. */
export declare function agentEndOf(r: AgentTaskResult, durationMs: number): AgentEnd;
/** Waits for the agent's child session in `scope` (cancelled by TaskStop or the session's end). */
export declare function runAgentTask(task: BackgroundTask, input: SessionInput, scope: CancellationScope): Promise<AgentTaskEnd>;
