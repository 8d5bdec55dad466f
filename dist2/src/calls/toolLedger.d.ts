import type { CallRuntime } from './runtime';
import type { ToolUseBlock } from '../engine/messages';
import { type ToolCallRecord } from '../engine/records';
import { type SubagentResume } from '../engine/subagents';
import type { ToolRunResult } from '../engine/turn';
import type { ToolUseContext } from '../tools/Tool';
import type { RunToolUseInput, ToolDeps, ToolSessionSettings } from './tools';
/** A tool call's input with the session's settings loaded (and the whole tool_use block). */
export type ResolvedRunInput = Omit<RunToolUseInput, 'session'> & {
    session: ToolSessionSettings;
};
/** What a runner adds to a call: how it runs a subagent in call() (the in-process runner). */
export interface RunExtra {
    runSubagent?: ToolUseContext['runSubagent'];
    /** The scheduler runs background tasks (default true: the session workflow and the in-process runner do). */
    backgroundTasks?: boolean;
    /** The scheduler runs Monitor tasks (default true; the in-process runner passes false for now). */
    monitorTasks?: boolean;
}
/** A call's end: a result for history, or (the Agent tool's pre phase) the state to start the child with. */
export type LedgerRunResult = ToolRunResult | {
    kind: 'ready';
    resume: SubagentResume;
};
export declare function unknownOutcomeMessage(block: ToolUseBlock, summary: string): string;
/** The record with the control files the call changed (at most MAX_CONTROL_WRITES; a notice counts the rest). */
export declare function withControlWrites(record: ToolCallRecord, writes: NonNullable<ToolCallRecord['controlWrites']>): ToolCallRecord;
/** The tool call with its ledger: the answer the ledger already holds, or the pipeline run and recorded. */
export declare function runWithLedger(deps: ToolDeps, input: ResolvedRunInput, ctx: CallRuntime, extra?: RunExtra): Promise<LedgerRunResult>;
