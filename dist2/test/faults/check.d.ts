import type { Message, ToolResultBlockParam, ToolUseBlock } from '../../src/engine/messages';
import { type EffectKind } from './plan';
export type CallStatus = 'ok' | 'unknown_outcome' | 'error';
export interface CallCheck {
    id: string;
    kind: EffectKind;
    status: CallStatus;
    /** How many times its side effect happened. */
    effects: number;
    text: string;
}
export interface SessionCheck {
    calls: CallCheck[];
    /** Calls that completed (status ok). */
    completed: number;
    /** Extra effects of completed non-idempotent calls, and of unknown-outcome calls that ran again. Must be 0. */
    duplicated: number;
    unknownOutcomes: number;
    /** Extra runs of idempotent calls (allowed: they were re-run after a lost worker). */
    idempotentReruns: number;
    /** Error results that name the fault and had no effect (only with `clearFailure`). */
    failedClearly: number;
    /** Everything that breaks an invariant, one line each. */
    violations: string[];
}
export declare const UNKNOWN_OUTCOME: RegExp;
/** Protocol completeness: one problem line per tool_use without exactly one answer in the next message. */
export declare function protocolProblems(messages: readonly Message[]): string[];
/** Every tool_use of the transcript with its result (the result in the message after it). */
export declare function callsOf(messages: readonly Message[]): Array<{
    use: ToolUseBlock;
    result: ToolResultBlockParam | undefined;
}>;
/**
 * Checks one session. `effects(kind, id)` counts the side effects of a call (ledger lines equal to
 * the id; 1 or 0 for a Write's file); `allEffectIds` lists every id any ledger holds (orphans).
 */
export declare function checkSession(messages: readonly Message[], effects: (kind: EffectKind, id: string) => number, allEffectIds?: readonly string[], 
/** An error result matching this (a store fault named) is a clear failure, when the call had no effect. */
clearFailure?: RegExp): SessionCheck;
/** Ledger lines → count per id. */
export declare function countLines(text: string): Map<string, number>;
