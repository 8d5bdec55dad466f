import type { Client } from '@temporalio/client';
import type { ResponseSpec } from '../support/fakeAnthropic';
export interface HostsContext {
    client: Client;
    root: string;
    /** Worker env shared by both hosts (address, store URL, fake model URL, bundle, tag). */
    workerEnv: NodeJS.ProcessEnv;
    handlers: Map<string, (turn: number, stream: boolean) => ResponseSpec | undefined>;
    log: (line: string) => void;
}
export interface HostsResult {
    sessions: number;
    violations: string[];
    notes: string[];
}
export declare function runTwoHosts(ctx: HostsContext): Promise<HostsResult>;
