import type { CallRuntime } from '../calls/runtime';
import type { ToolSessionSettings } from '../calls/tools';
import { type Message, type ToolUseBlock } from '../engine/messages';
import type { ToolCallRecord } from '../engine/records';
import { type OutageState } from '../engine/retry';
import type { SessionState, TurnReport } from '../engine/session';
import { type ToolUseDescription, type TurnExecutor, type TurnOutcome } from '../engine/turn';
import type { ToolUseContext } from '../tools/Tool';
import type { sessionInput } from '../sessionInput';
import type { createAgentActivities } from '../workerDeps';
export type LocalDeps = ReturnType<typeof createAgentActivities>;
/** What a turn takes from its session (src/local/sessionRun.ts). */
export interface LocalTurnHost {
    readonly input: ReturnType<typeof sessionInput>;
    readonly sessionId: string;
    readonly deps: LocalDeps;
    readonly session: ToolSessionSettings;
    readonly state: SessionState;
    readonly priorRecords: Map<string, ToolCallRecord>;
    /** The subagents' definitions are read (awaited before the first model call). */
    readonly agentsReady: Promise<void>;
    readonly runSubagent: NonNullable<ToolUseContext['runSubagent']>;
    runtime(signal: AbortSignal, key: string): CallRuntime;
    /** A key for the next tool call's runtime (unique within the run). */
    nextToolKey(toolUseId: string): string;
    onTurnOutage(o: OutageState | undefined): void;
    ask(block: ToolUseBlock, message: string, description: ToolUseDescription, signal: AbortSignal): ReturnType<TurnExecutor['awaitApproval']>;
    storeCall<T>(call: () => Promise<T>): Promise<T>;
    /** The turn ended (not failed): the caller's onTurn, its detail and its records. */
    onTurnEnd(turn: number, outcome: TurnOutcome): void;
    /** The model's last text, whole (a subagent's result). */
    onText(text: string): void;
}
export declare function abortableSleep(ms: number, signal: AbortSignal): Promise<'done' | 'interrupted'>;
export declare class LocalTurn {
    private readonly host;
    private readonly turn;
    private readonly append;
    /** Aborted by an interrupt: stops the model call, every tool call and the approval waits. */
    readonly abort: AbortController;
    private model;
    private step;
    private readonly stepState;
    private readonly streaming;
    constructor(host: LocalTurnHost, turn: number, append: Message[]);
    private get signal();
    /** Streaming tool execution, as the turn workflow does it (src/local/streaming.ts). */
    private startStreaming;
    run(): Promise<TurnReport>;
    private failed;
    private executor;
    /** The same model step as the turn workflow (clearing, auto/reactive compaction), called directly. */
    private callModel;
    /** As in the turn workflow: the tool results enter the transcript at the end of their turn, by reference. */
    private report;
}
