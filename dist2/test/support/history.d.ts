import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
type History = temporal.api.history.v1.IHistory;
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
export declare function eventBytes(e: HistoryEvent): number;
/** Encoded size of a whole history, as the server counts it (sum of its events). */
export declare function historyBytes(h: History): number;
export interface RunHistory {
    runId: string;
    history: History;
    bytes: number;
    events: number;
}
/** Every run of a workflow id, oldest first, following ContinuedAsNew from the first run. */
export declare function sessionRuns(client: Client, workflowId: string, firstRunId: string): Promise<RunHistory[]>;
export interface TurnBytes {
    turn: number;
    /** Index of the session run the turn was started in. */
    run: number;
    /** Session-run events from this turn's StartChildWorkflowExecutionInitiated to the next turn's (or the run's end). */
    sessionBytes: number;
    /** The turn child workflow's whole history. */
    childBytes: number;
    total: number;
}
/** Bytes of session-run history attributable to each turn, by the turn's child workflow id `<session>/turn-N`. */
export declare function sessionBytesPerTurn(runs: RunHistory[], sessionId: string): Map<number, {
    run: number;
    bytes: number;
}>;
export declare function turnBytes(client: Client, sessionId: string, runs: RunHistory[], turns: number[]): Promise<TurnBytes[]>;
export declare function fmtBytes(n: number): string;
/**
 * Which worker ran each tool call of a workflow (a turn): tool_use id → the identity on the
 * ActivityTaskStarted event of the activity whose input carries that block (any activity type:
 * the tool activities take `{ block: { id } }`). The last attempt's identity wins.
 */
export declare function toolCallIdentities(client: Client, workflowId: string): Promise<Record<string, string>>;
export {};
