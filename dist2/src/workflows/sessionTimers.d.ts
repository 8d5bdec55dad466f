import type { SessionCarry } from './definitions';
export declare class SessionTimers {
    private readonly state;
    private readonly hasWork;
    /** Before each look at the state: background tasks bring their ends in and start (sessionTasks.ts). */
    private readonly sync;
    /** `stop` was asked: the loop ends at the next idle point. */
    stopRequested: boolean;
    /** Bumped when something outside the state's messages changed what the wait waits for (a task ended). */
    private changes;
    private waitingFor;
    constructor(state: SessionCarry, hasWork: () => boolean, 
    /** Before each look at the state: background tasks bring their ends in and start (sessionTasks.ts). */
    sync?: () => void);
    /** What the session is waiting for now (status, `ls`, the UI), or undefined. */
    waiting(): {
        until?: number;
        reason: string;
    } | undefined;
    /** A wake source outside the timers changed (a task ended, was stopped): the wait looks again. */
    poke(): void;
    requestStop(): void;
    /**
     * The engine's `waitForWork`: true once a message is queued for the next turn; false when nothing
     * is left to wait for, or after `stop` (its wake-up and cron jobs dropped).
     */
    waitForWork(): Promise<boolean>;
    /** Queues what is due now: the wake-up's prompt, each due job's prompt (recurring jobs move on). */
    private fireDue;
    private dropTimers;
    private describe;
}
