import type { Client } from '@temporalio/client';
import type { Message } from '../../src/engine/messages';
import type { SessionResult } from '../../src/workflows/definitions';
import { type SessionCheck } from './check';
import { type FaultSession } from './plan';
export declare const CRASH_TOOLS: string[];
export interface StartedSession extends FaultSession {
    id: string;
    /** Set once the session ended. */
    result?: SessionResult;
    /** Set when the session ended other than completed, or could not be read. */
    failure?: string;
    transcript?: Message[];
    check?: SessionCheck;
}
export declare const sleep: (ms: number) => Promise<void>;
/** Resolves with `p`, or with `fallback` after `ms` (a query to a dead worker can hang). */
export declare function within<T>(p: Promise<T>, ms: number, fallback: T): Promise<T>;
export interface SessionSettings {
    taskQueue: string;
    /** Continue-as-new after this many history bytes (small: it happens every few turns). */
    maxHistoryBytesPerRun: number;
    toolHeartbeatTimeoutMs: number;
    /** Longest single wait of an outage (model or store). */
    retryCapMs: number;
}
export declare function startFaultSession(client: Client, workRoot: string, name: string, settings: SessionSettings, extra?: {
    prompt?: string;
    tools?: string[];
}): Promise<StartedSession>;
/**
 * Approves every pending ask after a short random delay, until `stop()`. An approval not applied
 * within `resendMs` (the server restarted and lost the update, or no worker took it) is sent again.
 */
export declare function startApprover(client: Client, sessions: () => StartedSession[], opts?: {
    resendMs?: number;
}): {
    /** Tool use ids waiting for an approval at the last look. */
    pending: () => ReadonlySet<string>;
    approvals: () => number;
    stop(): Promise<void>;
};
/** Waits until every session ended (completed or not), polling describe() so that a server restart does not break the wait. */
export declare function waitForSessions(client: Client, sessions: StartedSession[], timeoutMs: number): Promise<void>;
/** Reads each ended session's transcript and ledgers and checks the invariants. */
export declare function checkSessions(storeDir: string, sessions: StartedSession[], clearFailure?: RegExp): Promise<void>;
