import type { SessionState } from '../engine/session';
/** The clock of the wait: real time by default; tests pass one that skips ahead. */
export interface LocalClock {
    now(): number;
    /** Calls `fire` after `ms`; returns a cancel. */
    timer(ms: number, fire: () => void): () => void;
}
export declare const realClock: LocalClock;
export declare class LocalTimers {
    private readonly state;
    private readonly clock;
    /** Before each look: the session's background tasks catch up with its context (LocalTasks). */
    private readonly sync;
    stopRequested: boolean;
    private wake;
    constructor(state: SessionState, clock?: LocalClock, 
    /** Before each look: the session's background tasks catch up with its context (LocalTasks). */
    sync?: () => void);
    /** Something the wait waits for changed (a message came, a task ended): look again. */
    poke(): void;
    requestStop(): void;
    /** The engine's `waitForWork` (see SessionExecutor). */
    waitForWork(): Promise<boolean>;
    private fireDue;
}
