export interface SandboxNetworkSettings {
    allowedDomains?: string[];
    deniedDomains?: string[];
    allowUnixSockets?: string[];
    allowAllUnixSockets?: boolean;
    allowLocalBinding?: boolean;
    allowMachLookup?: string[];
    httpProxyPort?: number;
    socksProxyPort?: number;
    strictAllowlist?: boolean;
}
export interface SandboxFilesystemSettings {
    allowWrite?: string[];
    denyWrite?: string[];
    denyRead?: string[];
    allowRead?: string[];
    disabled?: boolean;
}
/** `sandbox` as the reference documents it (the keys durable-agent honours). */
export interface SandboxSettings {
    /** Default here: true (the reference's default is false; see README "Security model"). */
    enabled?: boolean;
    failIfUnavailable?: boolean;
    autoAllowBashIfSandboxed?: boolean;
    excludedCommands?: string[];
    allowUnsandboxedCommands?: boolean;
    enabledPlatforms?: string[];
    ignoreViolations?: Record<string, string[]>;
    enableWeakerNestedSandbox?: boolean;
    enableWeakerNetworkIsolation?: boolean;
    allowNestedUserNamespaces?: boolean;
    allowAppleEvents?: boolean;
    bwrapPath?: string;
    socatPath?: string;
    ripgrep?: {
        command: string;
        args?: string[];
    };
    network?: SandboxNetworkSettings;
    filesystem?: SandboxFilesystemSettings;
    /**
     * durable-agent only: names (or `PREFIX_*`) of the worker's environment variables that Bash
     * commands get besides the default allowlist (src/sandbox/environment.ts), sandboxed or not.
     */
    passEnv?: string[];
}
export interface SettingsProblem {
    level: 'error' | 'warning';
    /** Dotted key, e.g. `sandbox.network.allowedDomains`. */
    key: string;
    message: string;
}
export declare const SANDBOX_PLATFORMS: readonly ["macos", "linux", "windows", "wsl"];
/**
 * Problems of a `sandbox` settings value. Unknown keys inside `sandbox` are errors (unlike unknown
 * top-level keys): a misspelt `denyRead` would otherwise leave a credential readable.
 */
export declare function validateSandboxSettings(value: unknown, prefix?: string): SettingsProblem[];
/**
 * A settings path as the reference spells it, made absolute: `//x` and `/x` are absolute, `~` and
 * `~/x` stay (the worker that runs the command expands them), anything else is relative to `base`
 * (the project root for project settings, the settings directory for user settings).
 */
export declare function resolveSettingsPath(p: string, base: string): string;
/** The settings' paths resolved against `base` (see resolveSettingsPath). */
export declare function resolveSandboxPaths(s: SandboxSettings, base: string): SandboxSettings;
/** Merges two settings (later wins): lists are concatenated, scalars and objects of scalars overridden. */
export declare function mergeSandboxSettings(a: SandboxSettings | undefined, b: SandboxSettings | undefined): SandboxSettings | undefined;
