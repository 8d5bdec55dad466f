import { type Command } from 'commander';
import type { Client } from '@temporalio/client';
import { type ConnectionOverrides } from '../temporal/connection';
import { DurableAgentError } from '../engine/errors';
export declare class UsageError extends DurableAgentError {
    constructor(message: string);
}
export interface ConnOpts {
    address?: string;
    namespace?: string;
    apiKey?: string;
    tls?: boolean;
    tlsCert?: string;
    tlsKey?: string;
    tlsCa?: string;
    tlsServerName?: string;
    taskQueue?: string;
    json?: boolean;
}
export declare function connectionOverrides(o: ConnOpts): ConnectionOverrides;
export declare function addConnectionOptions(cmd: Command): Command;
/** The embedded server's options, shared by `dev` and `demo`. */
export declare function addServerOptions(cmd: Command): Command;
export declare function withClient<T>(o: ConnOpts, fn: (client: Client) => Promise<T>): Promise<T>;
/** Throws SessionNotFoundError unless the session's workflow exists. */
export declare function sessionExists(client: Client, id: string): Promise<void>;
export declare const positiveInt: (name: string) => (v: string) => number;
export declare const collect: (v: string, prev: string[]) => string[];
export declare const identity: () => string;
export declare function print(o: ConnOpts, value: unknown, text: string): void;
export declare function waitForSignal(): Promise<void>;
/** Follows the session until it ends ('ended') or the user detaches ('detached'); sets the exit code. */
export declare function followAndExit(client: Client, id: string, o: ConnOpts): Promise<'ended' | 'detached'>;
