export interface ServiceState {
    /** The `durable-agent dev --service` process (leader of its own process group). */
    pid: number;
    /** The Temporal server's gRPC address and UI. */
    address: string;
    ui?: string;
    taskQueue: string;
    db: string;
    log: string;
    startedAt: string;
}
export interface ServicePaths {
    dir: string;
    state: string;
    log: string;
}
export declare function servicePaths(home?: string): ServicePaths;
/** The running service, if any (a state file whose process is gone is removed). */
export declare function runningService(paths?: ServicePaths): ServiceState | undefined;
/** Written by the service itself once the server answers and the worker runs. */
export declare function writeServiceState(state: ServiceState, paths?: ServicePaths): void;
export declare function removeServiceState(pid: number, paths?: ServicePaths): void;
export type UpResult = {
    status: 'up' | 'already_up';
    state: ServiceState;
};
/**
 * Starts `durable-agent dev --service <args>` detached (its own session: a closed terminal does not
 * reach it), output to the log, and waits until it says it is ready — or fails with the log's last
 * line. Already running: says so.
 */
export declare function serviceUp(devArgs: string[], opts?: {
    paths?: ServicePaths;
    timeoutMs?: number;
    env?: NodeJS.ProcessEnv;
}): Promise<UpResult>;
export type DownResult = {
    status: 'stopped';
    pid: number;
    forced: boolean;
} | {
    status: 'not_running';
};
/**
 * Stops the service: SIGTERM (it stops its worker, then its server, as Ctrl-C stops `dev`), then
 * SIGKILL of its process group and of the server after `graceMs`.
 */
export declare function serviceDown(opts?: {
    paths?: ServicePaths;
    graceMs?: number;
}): Promise<DownResult>;
/** One line on the service for the terminal. */
export declare function serviceLine(r: UpResult): string;
/**
 * Called by `dev --service` once its server answers and its worker runs: writes the state file
 * `up` waits for, and ignores SIGHUP. Returns what removes the file when the service stops.
 */
export declare function announceService(s: Pick<ServiceState, 'address' | 'ui' | 'taskQueue' | 'db'>): () => void;
