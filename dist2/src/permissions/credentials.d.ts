/**
 * Read-denied in every sandboxed command unless the settings re-open them with `allowRead`:
 * keys, cloud and registry credentials, durable-agent's own user settings. Each entry holds a
 * secret by its tool's convention (docs/tools.md "What sandboxed Bash cannot read").
 */
export declare const DEFAULT_CREDENTIAL_PATHS: string[];
/**
 * Credential files the worker's environment points at, beyond the default paths: the XDG and
 * CLAUDE_CONFIG_DIR forms of DEFAULT_CREDENTIAL_PATHS, and files named by variables such as
 * TEMPORAL_TLS_CLIENT_KEY_PATH, GOOGLE_APPLICATION_CREDENTIALS or KUBECONFIG. Absolute paths.
 */
export declare function credentialPathsFromEnv(env: Readonly<Record<string, string | undefined>>, home: string, cwd: string): string[];
/**
 * The credential files and directories the sandbox hides: DEFAULT_CREDENTIAL_PATHS under both
 * forms of home, and the files the worker's environment points at (credentialPathsFromEnv).
 */
export declare function credentialRoots(home?: string): string[];
export declare function isCredentialPath(real: string, home?: string): boolean;
