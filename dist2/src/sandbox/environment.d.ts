/**
 * Names (or `PREFIX_*` patterns) every Bash command gets from the worker: what a shell and the
 * usual toolchains need to work, nothing that holds a secret by convention.
 */
export declare const BASH_ENV_ALLOWLIST: readonly string[];
/**
 * The worker's own credentials: a pattern in `sandbox.passEnv` (`ANTHROPIC_*`, `*`) never passes
 * them; only an entry that names one exactly does.
 */
export declare const WORKER_SECRET_ENV_VARS: readonly string[];
/** A `sandbox.passEnv` entry: a variable name, or a prefix followed by `*` (`*` alone: every variable). */
export declare const PASS_ENV_ENTRY: RegExp;
/**
 * The environment a Bash command starts with: the worker's variables that the allowlist or
 * `passEnv` names (patterns never match WORKER_SECRET_ENV_VARS), nothing else.
 */
export declare function bashEnvironment(env: Readonly<Record<string, string | undefined>>, passEnv?: readonly string[]): Record<string, string>;
