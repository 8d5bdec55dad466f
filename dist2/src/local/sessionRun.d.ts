import type { CallRuntime } from '../calls/runtime';
import type { ToolSessionSettings } from '../calls/tools';
import type { ToolUseBlock } from '../engine/messages';
import type { ToolCallRecord } from '../engine/records';
import { type OutageState } from '../engine/retry';
import { type SessionExecutor, type SessionState } from '../engine/session';
import type { Approval, ToolUseDescription, TurnOutcome } from '../engine/turn';
import type { ToolUseContext } from '../tools/Tool';
import { sessionInput } from '../sessionInput';
import { type AgentDepsOptions } from '../workerDeps';
import { type LocalAgentLaunch } from './subagents';
import { type LocalStore } from './store';
import { LocalTasks } from './tasks';
import { LocalTimers } from './timers';
import { type LocalDeps, type LocalTurnHost } from './turn';
import type { LocalSessionOptions, LocalSessionResult, LocalSessionStatus } from './runSession';
export declare class LocalSessionRun implements LocalTurnHost {
    private readonly opts;
    readonly input: ReturnType<typeof sessionInput>;
    readonly sessionId: string;
    readonly deps: LocalDeps;
    readonly session: ToolSessionSettings;
    readonly state: SessionState;
    readonly priorRecords: Map<string, ToolCallRecord>;
    readonly agentsReady: Promise<void>;
    readonly runSubagent: NonNullable<ToolUseContext['runSubagent']>;
    /** Background agents launched by Agent calls, by task id: tasks.ts runs each when it starts its task. */
    readonly agentLaunches: Map<string, LocalAgentLaunch>;
    private readonly approvalTimeoutMs;
    private readonly allRecords;
    private readonly turnsDetail;
    /** The last model text, whole (state.lastText is its one-line preview): a subagent's result. */
    private finalText;
    private readonly pendingApprovals;
    private status;
    private phase;
    private endReason;
    private interruptRequested;
    private turnAbort;
    private wakeWaiter;
    private outage;
    private calls;
    /** Notification hook firings still running: the session ends after them. */
    private readonly notifications;
    /** Wake-ups and cron firings between turns, and stop (timers.ts; the workflow's SessionTimers). */
    readonly timers: LocalTimers;
    /** Background tasks (Bash run_in_background, Monitor) run in this process (tasks.ts; the workflow's SessionTasks). */
    readonly tasks: LocalTasks;
    /** The session's store: the caller's, or a temporary one removed at the end (store.ts). */
    readonly store: LocalStore;
    private readonly worker;
    constructor(opts: LocalSessionOptions, worker: AgentDepsOptions, runChild: (child: LocalSessionOptions, worker: AgentDepsOptions) => Promise<LocalSessionResult>);
    runtime(signal: AbortSignal, key: string): CallRuntime;
    nextToolKey(toolUseId: string): string;
    onTurnOutage(o: OutageState | undefined): void;
    onTurnEnd(turn: number, outcome: TurnOutcome): void;
    onText(text: string): void;
    ask(block: ToolUseBlock, message: string, description: ToolUseDescription, signal: AbortSignal): Promise<Approval | 'interrupted'>;
    /** A store write that waits out outages as the turn workflow's does (not interruptible: it records what happened). */
    storeCall<T>(call: () => Promise<T>): Promise<T>;
    /** One turn, as the turn workflow runs it (src/local/turn.ts). */
    private runTurn;
    private waitForMessage;
    readonly executor: SessionExecutor;
    /** Runs the session to its end. */
    run(): Promise<LocalSessionResult>;
    send(text: string): void;
    /** Ends the session's loop at its next idle point, its wake-up and cron jobs dropped (as `durable-agent stop`). */
    stop(): void;
    interrupt(): void;
    statusView(): LocalSessionStatus;
}
