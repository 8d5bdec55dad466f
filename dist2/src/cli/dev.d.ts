import { type Worker } from '@temporalio/worker';
import type { FakeAnthropicServer } from '../testing/fakeAnthropic';
import { type DevServer } from '../temporal/devServer';
export interface DevOptions {
    db: string;
    /** The database is the default one (no --db): say so when an older one sits in ./.durable-agent. */
    defaultDb?: boolean;
    port?: number;
    uiPort?: number;
    ip?: string;
    taskQueue?: string;
    log?: (line: string) => void;
}
export interface DevEnvironment {
    server: DevServer;
    worker: Worker;
    demo?: FakeAnthropicServer;
    running: Promise<void>;
    stop(): Promise<void>;
}
export declare function quietTemporalRuntime(): void;
export declare function startDev(opts: DevOptions): Promise<DevEnvironment>;
/** The dev server's files: its SQLite database with SQLite's side files, and the pid file. */
export declare function serverStatePaths(db: string): string[];
