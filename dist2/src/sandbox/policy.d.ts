import type { PermissionRules } from '../tools/permissionTypes';
import type { SandboxSettings } from './settings';
import { credentialPathsFromEnv, DEFAULT_CREDENTIAL_PATHS } from '../permissions/credentials';
export { credentialPathsFromEnv, DEFAULT_CREDENTIAL_PATHS };
export interface SandboxHostFacts {
    home: string;
    /** The session's own temp directory (writable, and TMPDIR inside the sandbox). */
    sessionTmpDir: string;
    platform: string;
    /**
     * The protected paths this call may not write (src/sandbox/protect.ts protectedDenyWrite: built
     * per call from the session's working directories, never the worker's cwd).
     */
    protectedDenyWrite?: readonly string[];
    /** The worker's environment and cwd: credential files they point at are read-denied too (credentialPathsFromEnv). */
    env?: Readonly<Record<string, string | undefined>>;
    cwd?: string;
    /**
     * The worker's own state (the store: every session's transcripts and results; the data
     * directory; the Temporal server's database): neither readable nor writable by sandboxed commands.
     */
    privatePaths?: readonly string[];
    /** Inside privatePaths, readable again (not writable): this session's own large results, which Read is pointed at. */
    ownResults?: readonly string[];
}
/** How one Bash call runs. */
export interface CallPlan {
    sandboxed: boolean;
    /** One line: why it is (or is not) sandboxed. */
    reason: string;
    /** True when the sandbox is on for the session but this call leaves it (excluded / requested). */
    escapes: boolean;
}
export declare function sandboxEnabled(s: SandboxSettings | undefined, platform: string): {
    on: boolean;
    reason: string;
};
/** Splits a command into its simple commands at `&&`, `||`, `;`, `|`, `&` and newlines (quotes respected). */
export declare function simpleCommands(command: string): string[];
/**
 * Does an `excludedCommands` entry match one simple command? Entries mean what they mean in the
 * reference: `docker` matches `docker` and `docker …`; `npm run test:*` (legacy prefix) and
 * wildcards (`git push *`) match as patterns. Leading `VAR=value` assignments are skipped.
 */
export declare function excludedEntryMatches(entry: string, simple: string): boolean;
/** The excludedCommands entry that takes this command out of the sandbox, if any. */
export declare function excludedBy(command: string, excluded: readonly string[] | undefined): string | undefined;
/**
 * Whether a Bash call runs in the sandbox. `excludedCommands` is a convenience, not a boundary
 * (as in the reference): a call it takes out of the sandbox always needs a human (see Bash's
 * checkPermissions). `dangerouslyDisableSandbox` counts only when allowUnsandboxedCommands is not false.
 */
export declare function planCall(s: SandboxSettings | undefined, platform: string, command: string, dangerouslyDisableSandbox?: boolean): CallPlan;
export declare function expandTilde(p: string, home: string): string;
/** The worker-wide part of the sandbox-runtime configuration: sessions that share it run side by side. */
export interface GlobalRuntimeConfig {
    network: {
        allowedDomains: string[];
        deniedDomains: string[];
        allowUnixSockets?: string[];
        allowAllUnixSockets?: boolean;
        allowLocalBinding?: boolean;
        allowMachLookup?: string[];
        httpProxyPort?: number;
        socksProxyPort?: number;
    };
    filesystem: {
        denyRead: string[];
        allowWrite: string[];
        denyWrite: string[];
    };
    ignoreViolations?: Record<string, string[]>;
    enableWeakerNestedSandbox?: boolean;
    enableWeakerNetworkIsolation?: boolean;
    allowAppleEvents?: boolean;
    bwrapPath?: string;
    socatPath?: string;
    ripgrep?: {
        command: string;
        args?: string[];
    };
}
/** The per-call part: what this session's command may read and write. */
export interface CallRuntimeConfig {
    filesystem: {
        denyRead: string[];
        allowRead: string[];
        allowWrite: string[];
        denyWrite: string[];
        disabled?: boolean;
    };
    allowNestedUserNamespaces?: boolean;
}
export interface RuntimePlan {
    global: GlobalRuntimeConfig;
    call: CallRuntimeConfig;
    /** Hosts this session's commands may reach (registered per command with the proxy). */
    allowedDomains: string[];
}
/**
 * The sandbox-runtime configuration of one session's Bash calls. Writes: the working directories,
 * the session's temp dir and `filesystem.allowWrite`; reads: everything but the credential paths
 * and `filesystem.denyRead` (minus `allowRead`); network: only `network.allowedDomains`.
 */
export declare function runtimePlan(s: SandboxSettings | undefined, workingDirectories: readonly string[], host: SandboxHostFacts): RuntimePlan;
/**
 * The reference merges path permission rules into the sandbox: `Read(…)` deny rules are read-denied,
 * `Edit(…)` deny rules write-denied, `Edit(…)` allow rules writable, so that `cat .env` in Bash meets
 * the same wall as `Read(.env)`. Rule paths are anchored at the project root: `//x` absolute,
 * `~/x` home, `/x`, `./x` and `x/y` relative to the root, a bare name (`.env`) at any depth.
 */
export declare function sandboxPathsFromRules(rules: PermissionRules, projectRoot: string): {
    denyRead: string[];
    denyWrite: string[];
    allowWrite: string[];
};
/** One line for `run`, `status` and the audit: what the session's Bash is contained by. */
export declare function describeSandbox(s: SandboxSettings | undefined, platform: string, workingDirectories: readonly string[], unavailable?: string): string;
