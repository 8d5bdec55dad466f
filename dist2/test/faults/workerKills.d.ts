import { Cluster } from './cluster';
import { type StartedSession } from './sessions';
export type KillPhase = 'model stream' | 'tool call' | 'approval wait' | 'continue-as-new';
export declare const KILL_PHASES: KillPhase[];
export interface KillRecord {
    target: KillPhase;
    /** The phases seen on the victim (or, for approvals and continue-as-new, in the cluster) at the kill. */
    seen: KillPhase[];
    worker: string;
    at: number;
}
export interface KillerOptions {
    kills: number;
    /** Random pause before looking for the next kill's moment. */
    gapMs: [number, number];
    /** How long to look for the targeted phase before killing anyway. */
    seekMs: number;
    workers: number;
    log: (line: string) => void;
}
/** Kills workers until `opts.kills` kills are done or `done()` says the sessions ended; returns the records. */
export declare function runKiller(cluster: Cluster, sessions: StartedSession[], approvalsPending: () => number, opts: KillerOptions, done: () => boolean): Promise<{
    kills: KillRecord[];
    continuesAsNew: number;
}>;
/** `model stream 6, tool call 7, …` — how many kills landed in each phase (a kill may be in several). */
export declare function killsByPhase(kills: readonly KillRecord[]): Record<KillPhase | 'none observed', number>;
