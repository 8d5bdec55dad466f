import { DurableAgentError } from '../engine/errors';
/** The CLI release we build with Go. Later tags carry a `replace` directive that `go install` refuses. */
export declare const TEMPORAL_CLI_VERSION = "v1.5.1";
export declare const TEMPORAL_CLI_MODULE = "github.com/temporalio/cli/cmd/temporal";
export type TemporalCliSource = 'env' | 'path' | 'cache' | 'go-build';
export type TemporalCliResolution = {
    kind: 'path';
    path: string;
    source: TemporalCliSource;
}
/**
 * No local binary: let `@temporalio/testing` download one (needs internet). `tried` lists what
 * was tried first, so a caller whose download also fails can say everything in one error.
 */
 | {
    kind: 'sdk-download';
    tried: string[];
};
export interface ResolveTemporalCliOptions {
    /** Environment to read (TEMPORAL_CLI_PATH, PATH, XDG_CACHE_HOME, DURABLE_AGENT_CACHE_DIR, HOME). Default: process.env. */
    env?: NodeJS.ProcessEnv;
    /** Build with `go install` when Go is on PATH and nothing is cached. Default true. */
    allowGoBuild?: boolean;
    /** Return `{ kind: 'sdk-download' }` as a last resort instead of throwing. Default true. */
    allowSdkDownload?: boolean;
    /** Where progress lines go (the Go build takes minutes cold). Default: stderr. */
    log?: (line: string) => void;
}
export declare class TemporalCliNotFoundError extends DurableAgentError {
    readonly tried: string[];
    constructor(tried: string[], cause?: unknown);
}
/** `$DURABLE_AGENT_CACHE_DIR`, else `$XDG_CACHE_HOME/durable-agent`, else `~/.cache/durable-agent`. */
export declare function cacheRoot(env?: NodeJS.ProcessEnv): string;
export declare function cachedCliDir(env?: NodeJS.ProcessEnv): string;
/** Why `file` is not a usable executable, or undefined if it is. */
export declare function whyNotExecutable(file: string): string | undefined;
/** First executable `name` on `pathVar`, like `command -v`. */
export declare function findOnPath(name: string, pathVar: string | undefined): string | undefined;
/**
 * Resolve the `temporal` binary. Order: TEMPORAL_CLI_PATH (must be executable, else an error);
 * `temporal` on PATH; the cached build; a fresh `go install` into the cache when Go is on PATH;
 * finally `{ kind: 'sdk-download' }` (the SDK downloads the CLI; needs internet).
 */
export declare function resolveTemporalCli(opts?: ResolveTemporalCliOptions): Promise<TemporalCliResolution>;
/** Resolve, and insist on a local binary (no SDK download). */
export declare function resolveTemporalCliPath(opts?: Omit<ResolveTemporalCliOptions, 'allowSdkDownload'>): Promise<string>;
export interface GoInstallOptions {
    /** The `go` binary. */
    go: string;
    /** `module/cmd/x@version`, one or more (one `go install` builds them all). */
    targets: string[];
    /** Where the binaries end up (created if needed). */
    dir: string;
    /** Built name → final name in `dir` (`server` → `temporal-server`). */
    binaries: Record<string, string>;
    env: NodeJS.ProcessEnv;
    log: (line: string) => void;
    /** Prefix of the progress lines. */
    label: string;
}
/**
 * `GOBIN=<tmp> go install <targets>`, then an atomic rename of each binary into `dir`, so a
 * concurrent resolver never sees a half-written one. Progress lines every 30 s (a cold build takes minutes).
 */
export declare function goInstall(opts: GoInstallOptions): Promise<void>;
