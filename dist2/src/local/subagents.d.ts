import type { ToolSessionSettings } from '../calls/tools';
import type { sessionInput } from '../sessionInput';
import { type TaskOutcome } from '../engine/autonomy';
import type { ToolUseContext } from '../tools/Tool';
import type { LocalSessionOptions, LocalSessionResult } from './runSession';
type LocalInput = ReturnType<typeof sessionInput>;
/** What every tool call of an in-process session carries (the Temporal path puts the same in the turn input). */
export declare function localToolSession(input: LocalInput, sessionId: string): ToolSessionSettings;
export interface LocalSubagentParent {
    input: LocalInput;
    sessionId: string;
    session: ToolSessionSettings;
    approvalTimeoutMs: number;
    onAsk?: LocalSessionOptions['onAsk'];
}
/**
 * A background agent launched by an Agent call, not yet run: the session's task scheduler
 * (tasks.ts) runs it when it starts the call's `local_agent` task, after the turn, with the task's
 * stop; it returns the task's end (the notification to queue; none when it was stopped).
 */
export type LocalAgentLaunch = (signal: AbortSignal) => Promise<{
    outcome: TaskOutcome;
    notification?: string;
}>;
/**
 * The Agent tool's runner in-process: a foreground child session runs to its end and its final
 * text is the tool_result; a background one (without `run_in_background: false`, as the session
 * workflow's) returns the launched result at once and a `local_agent` task whose run (`launches`,
 * by task id) the session's task scheduler starts after the turn.
 */
export declare function localSubagentRunner(parent: LocalSubagentParent, runChild: (opts: LocalSessionOptions) => Promise<LocalSessionResult>, launches: Map<string, LocalAgentLaunch>): NonNullable<ToolUseContext['runSubagent']>;
export {};
