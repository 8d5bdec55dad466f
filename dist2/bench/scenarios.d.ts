import { type MessagesRequest } from '../src/testing/fakeAnthropic';
import type { MessageSpec, ResponseSpec } from '../src/testing/fakeAnthropic/types';
export type Script = (turn: number, req: MessagesRequest) => ResponseSpec;
export declare function firstUserText(req: MessagesRequest): string;
/** Routes each request to the script its session was started with (prompt `bench:<key>`). */
export declare class ScriptBook {
    private scripts;
    add(key: string, script: Script): string;
    answer(req: MessagesRequest): ResponseSpec;
}
/** N turns of three parallel Reads, then a text answer (the overhead-per-turn script). */
export declare function readsScript(turns: number, files: string[]): Script;
/** N turns of `k` Writes each (Write is not concurrency-safe: each call is its own batch). */
export declare function writesScript(turns: number, k: number, dir: string): Script;
/** One turn of `n` parallel sleeps of `ms` (the batch row). */
export declare function batchScript(n: number, ms: number): Script;
/** Deterministic pseudo-random numbers (mulberry32). */
export declare function rng(seed: number): () => number;
export interface Pace {
    /** Time to first token range (ms). */
    ttftMs: [number, number];
    tokensPerSecond: number;
}
export declare const REALISTIC_PACE: Pace;
/** Streams `spec` at `pace`: one ≈4-character token per event. */
export declare function paced(spec: MessageSpec, pace: Pace, random: () => number): MessageSpec;
/** A copy of a real source tree for the realistic session (each run edits its own copy). */
export declare function copyTree(from: string, to: string): string;
/**
 * 20 turns on a copy of a source tree mixing Glob, Grep, Read, Edit and Bash; the model streams at
 * `pace` (text before the calls, the calls' JSON). The plan is fixed by the tree and the seed, so
 * the in-process and Temporal runs see the same messages.
 */
export declare function realisticScript(tree: string, pace: Pace, seed?: number, turns?: number): Script;
/**
 * Streaming execution: each turn's message streams `blocks` safe calls over ~2.5 s (some text
 * before each), the first calls the slowest — the case the reference's streaming executor wins.
 */
export declare function streamingScript(turns: number, blocks?: number, streamMs?: number): Script;
