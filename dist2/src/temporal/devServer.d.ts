import { type TemporalCliResolution } from './cli';
export interface DevServerOptions {
    /** A resolved CLI, or a path to the binary. Default: `resolveTemporalCli()`. */
    cli?: TemporalCliResolution | string;
    /** Default 127.0.0.1. */
    ip?: string;
    /** gRPC port. Default: a free port. */
    port?: number;
    /** Serve the Web UI. Default false (headless). */
    ui?: boolean;
    /** UI port when `ui`. Default: a free port. */
    uiPort?: number;
    /** SQLite file to persist to. Default: in-memory. */
    dbFilename?: string;
    /** Default 'default'. */
    namespace?: string;
    /** Server log level. Default 'warn'. */
    logLevel?: 'debug' | 'info' | 'warn' | 'error';
    /** How long to wait for the server to accept connections. Default 60 s. */
    startupTimeoutMs?: number;
    /** Where the server's own output goes: kept (and shown on failure), or passed through. Default 'capture'. */
    output?: 'capture' | 'inherit';
    /**
     * Dynamic config for the server, over DEV_SERVER_DYNAMIC_CONFIG (a key set to null drops the
     * default). Values are JSON, as `temporal server start-dev --dynamic-config-value KEY=VALUE` takes them.
     */
    dynamicConfig?: Record<string, string | number | boolean | null>;
    extraArgs?: string[];
}
/**
 * What the dev server is started with unless the caller says otherwise (measured with
 * bench/floor.ts; numbers in BENCHMARKS.md "Where the time goes"):
 * - history.transferProcessorMaxPollRPS: every new workflow/activity task (and child start or
 *   completion) is dispatched by the history shard's transfer queue reader, which loads at most
 *   this many times a second per shard (default 20). The dev server has ONE shard, so a session's
 *   sequential tasks waited ≈ 40–45 ms each for the next load (50 ms minus the worker's own
 *   processing); at 1000 the wait is 1–3 ms.
 * - system.enableActivityEagerExecution: an activity scheduled by a workflow task completion is
 *   handed back to the same worker in the response, skipping matching (Scheduled→Started 2 ms → 0).
 */
export declare const DEV_SERVER_DYNAMIC_CONFIG: Readonly<Record<string, string | number | boolean>>;
/** The `--dynamic-config-value` arguments for the defaults merged with `overrides`. */
export declare function dynamicConfigArgs(overrides?: DevServerOptions['dynamicConfig']): string[];
export interface DevServer {
    /** host:port of the gRPC frontend. */
    address: string;
    /** http://host:port of the Web UI, when enabled. */
    uiAddress: string | undefined;
    namespace: string;
    /** The binary that runs it, or 'sdk-download' when the SDK fetched it. */
    binary: string;
    pid: number | undefined;
    /** Spawn to first successful namespace lookup. */
    startupMs: number;
    /** Stop the server: SIGTERM, then SIGKILL after `graceMs` (default 5 s). Idempotent. */
    stop(graceMs?: number): Promise<void>;
}
/** A TCP port that was free a moment ago (the kernel picks it). */
export declare function freePort(host?: string): Promise<number>;
/** True when nothing listens on ip:port right now. */
export declare function portIsFree(ip: string, port: number): Promise<boolean>;
export declare function startDevServer(opts?: DevServerOptions): Promise<DevServer>;
