/**
 * The server release everything here runs: docker-compose.yml's image tags must say the same
 * (test/unit/deploy-cluster.test.ts). Upgrade one minor version at a time, with the compose file.
 */
export declare const TEMPORAL_SERVER_VERSION = "1.29.1";
export declare const TEMPORAL_SERVER_MODULE = "go.temporal.io/server";
export interface ServerBinaries {
    dir: string;
    server: string;
    sqlTool: string;
}
/** `<cache>/temporal-server-<version>`: `$DURABLE_AGENT_CACHE_DIR`, else `$XDG_CACHE_HOME/durable-agent`, else `~/.cache/durable-agent`. */
export declare function serverCacheDir(env?: NodeJS.ProcessEnv): string;
/** The cached binaries, or why they are not usable. */
export declare function cachedServer(env?: NodeJS.ProcessEnv): {
    ok: true;
    bin: ServerBinaries;
} | {
    ok: false;
    why: string;
};
/** The cached binaries, built first with `go install` when they are missing. */
export declare function ensureServer(opts?: {
    env?: NodeJS.ProcessEnv;
    log?: (line: string) => void;
}): Promise<ServerBinaries>;
/** What `temporal-server --version` says (`temporal version 1.29.1`), for the drift check. */
export declare function serverVersionOf(bin: ServerBinaries): string;
