export declare const BAIT = "BAIT-SECRET-5f1c";
export interface RaceFixture {
    root: string;
    proj: string;
    /** Outside the working directory: the bait file and the bait directory. */
    outside: string;
    baitFile: string;
    baitDir: string;
}
export declare function createRaceFixture(): RaceFixture;
export interface Flipper {
    /** Stops the swapper, puts the regular file or directory back, and says how many swaps it made. */
    stop(): Promise<number>;
}
/** `at`/`to`: another entry to swap, and the symlink's target (default proj/x or proj/d, and the bait). */
export declare function startFlipper(fx: RaceFixture, kind: 'file' | 'dir', at?: string, to?: string): Flipper;
export type RaceScenario = 'Read file' | 'Read dir' | 'Write file' | 'Write dir' | 'Edit file' | 'Edit dir' | 'Glob dir' | 'Grep dir (rg)' | 'Grep file (rg)' | 'Grep dir (js)' | 'Grep file (js)';
export declare const RACE_SCENARIOS: readonly RaceScenario[];
export interface RaceCounts {
    scenario: RaceScenario;
    attempts: number;
    /** Calls that succeeded (on the project's own file). */
    ok: number;
    /** Calls that ended with an is_error result (a swap seen, a file missing mid-swap, …). */
    errors: number;
    /** Calls whose result showed the bait, or after which the outside had changed. */
    wins: number;
    /** Swaps the flipper made during the run (proof that the race was on). */
    flips: number;
    /** The first winning result, for the report. */
    example?: string;
    /** With the swapper stopped, the same call succeeded (the tool works on the project's file). */
    controlOk?: boolean;
    /** How the failed calls failed: status and the start of the message, counted. */
    failures: Record<string, number>;
}
/** Runs `attempts` calls of one scenario against a flipping swap; counts what the attacker won. */
export declare function runRace(fx: RaceFixture, scenario: RaceScenario, attempts: number): Promise<RaceCounts>;
