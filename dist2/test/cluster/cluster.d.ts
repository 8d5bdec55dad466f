import { type ChildProcess } from 'node:child_process';
import { Client, Connection } from '@temporalio/client';
import { type PostgresServer } from '../support/postgres';
import type { ServerBinaries } from './server';
export declare const REPO_ROOT: string;
export declare const DEPLOY_DIR: string;
export declare const SERVER_ENV_FILE: string;
export declare const DYNAMIC_CONFIG_FILE: string;
/** Rendered by the server from `--root deploy --config temporal --env cluster`. */
export declare const CLUSTER_CONFIG_FILE: string;
export declare const STORE_DB_INIT_FILE: string;
/** `KEY=VALUE` lines (`#` comments, blank lines), as docker-compose's `env_file` reads them. */
export declare function readEnvFile(file: string): Record<string, string>;
export type Role = 'frontend' | 'history' | 'matching' | 'worker';
export interface ServiceProc {
    /** `frontend`, `history-1`, `history-2`, `matching`, `worker` (the server's internal worker service). */
    name: string;
    role: Role;
    grpcPort: number;
    env: Record<string, string>;
    logFile: string;
    child?: ChildProcess;
    exited: Promise<void>;
}
export interface TemporalClusterOptions {
    /** Logs of every process. */
    dir: string;
    bin: ServerBinaries;
    /** Default 2. */
    historyNodes?: number;
    /** Default deploy/temporal/dynamicconfig.yaml (a measurement passes a variant of it). */
    dynamicConfigFile?: string;
    /** Over deploy/temporal/server.env (a measurement may try another NUM_HISTORY_SHARDS). */
    serverEnv?: Record<string, string>;
    /** Server log level (default info: the shard moves are read from the history nodes' logs). */
    logLevel?: string;
    log?: (line: string) => void;
    namespace?: string;
}
export declare class TemporalCluster {
    readonly opts: TemporalClusterOptions;
    readonly services: ServiceProc[];
    pg: PostgresServer;
    connection: Connection;
    client: Client;
    address: string;
    readonly namespace: string;
    readonly shards: number;
    readonly serverEnv: Record<string, string>;
    private stopped;
    private constructor();
    static start(opts: TemporalClusterOptions): Promise<TemporalCluster>;
    private log;
    /** postgres://…/durable_agent — the workers' shared store, on the same server (as in docker-compose.yml). */
    get storeUrl(): string;
    service(name: string): ServiceProc;
    private sqlTool;
    private boot;
    /** Registers the namespace and our search attribute, then waits until a workflow can start. */
    private setupNamespace;
    /** Starts a service process (again after a kill: same ports, same environment) and waits for its gRPC port. */
    startService(name: string): Promise<void>;
    private logTail;
    /** SIGKILL of the service's process (no shutdown: what a crashed node or the OOM killer does). */
    kill(name: string): Promise<void>;
    /** The log's size now: `shardsAcquired(name, since)` counts what was logged after it. */
    logOffset(name: string): number;
    /** Distinct history shards a history node acquired since `offset` of its log. */
    shardsAcquired(name: string, offset: number): number[];
    private acquisitions;
    /** Which history node holds each shard now, from the nodes' logs (the last to acquire it). */
    shardOwners(): Map<number, string>;
    stop(): Promise<void>;
}
