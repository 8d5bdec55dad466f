import type { Client } from '@temporalio/client';
/**
 * A poller that stopped stays in the server's list for minutes with its last access time; a live
 * one polls again at least every long-poll interval (one minute on the server). Older than this: gone.
 */
export declare const LIVE_POLLER_MS = 90000;
/** The workers (poller identities) that polled the task queue's workflow tasks in the last LIVE_POLLER_MS. */
export declare function livePollers(client: Client, taskQueue: string, now?: number): Promise<string[]>;
/** The one line `run`/`attach` print when no worker polls the queue. */
export declare function noWorkerLine(taskQueue: string): string;
/** Grace before the first check (a worker started at the same moment needs a few seconds): env DURABLE_AGENT_WORKER_GRACE_MS, default 3000. */
export declare function workerGraceMs(env?: NodeJS.ProcessEnv): number;
/**
 * Watches the queue while a session is followed: after the grace period and then every 15 s, until
 * a check finds no live worker (one line on stderr, once) or `stop()` is called. A failed check
 * says nothing (the follow loop reports an unreachable server itself).
 */
export declare function watchForWorker(client: Client, taskQueue: () => Promise<string | undefined>, write?: (line: string) => void): {
    stop(): void;
};
