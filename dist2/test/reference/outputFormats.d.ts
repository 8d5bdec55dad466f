import { type ResponseSpec } from '../../src/testing/fakeAnthropic';
type Script = (turn: number, dir: string) => ResponseSpec;
export interface FormatCase {
    name: string;
    /** Arguments after `-p` on both sides (the prompt among them unless `stdin`). */
    args: string[];
    script: Script;
    stdin?: string;
    /** A flag case: nothing starts; exit code and message compared. */
    flags?: boolean;
}
export declare const FORMAT_CASES: FormatCase[];
/**
 * Keys the reference sends that durable-agent does not, per line (docs/tools.md, "Output formats"):
 * the reference's own client, UI and plugin state, timings it measures inside its process, and the
 * tool's structured output on a tool_result line.
 */
export declare const REFERENCE_ONLY_KEYS: Record<string, string[]>;
export interface Side {
    code: number | null;
    stdout: string;
    stderr: string;
}
export declare function referenceSide(c: FormatCase, claudeBin: string): Promise<Side>;
/** durable-agent's side: the real CLI, a dev server (TEMPORAL_TEST_ADDRESS or one of its own) and a worker in this process. */
export declare function durableSide(c: FormatCase): Promise<Side>;
export declare function closeFormatSides(): Promise<void>;
/** What differs between the two sides of a case (empty: they agree). */
export declare function compareFormat(c: FormatCase, ref: Side, ours: Side): string[];
export {};
