// What a process the worker starts gets of its environment: an allowlist of the worker's variables,
// never the worker's whole environment (it carries API keys, database URLs, cloud tokens). Pure.
//
// Bash (sandboxed or not) and hook commands get BASH_ENV_ALLOWLIST plus the user's
// `sandbox.passEnv`; the sandbox runtime then sets its own proxy variables inside the sandbox. The
// door (door.ts) gives each other purpose its own, smaller base (docs/security.md "One door").

/**
 * Names (or `PREFIX_*` patterns) every Bash command gets from the worker: what a shell and the
 * usual toolchains need to work, nothing that holds a secret by convention.
 */
export const BASH_ENV_ALLOWLIST: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'USERNAME',
  'SHELL',
  'PWD',
  'HOSTNAME',
  'LANG',
  'LANGUAGE',
  'LC_*',
  'TERM',
  'COLORTERM',
  'NO_COLOR',
  'FORCE_COLOR',
  'TZ',
  'TMPDIR',
  'TEMP',
  'TMP',
  'CI',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'XDG_CACHE_HOME',
  'XDG_STATE_HOME',
  'JAVA_HOME',
  'GOPATH',
  'GOROOT',
  'GOBIN',
  'CARGO_HOME',
  'RUSTUP_HOME',
  'NVM_DIR',
  'PYENV_ROOT',
  'VIRTUAL_ENV',
  'NODE_PATH',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
];

/**
 * The worker's own credentials: a pattern in `sandbox.passEnv` (`ANTHROPIC_*`, `*`) never passes
 * them; only an entry that names one exactly does.
 */
export const WORKER_SECRET_ENV_VARS: readonly string[] = [
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'CLAUDE_CODE_OAUTH_TOKEN',
  'TEMPORAL_API_KEY',
  'TEMPORAL_TLS_CLIENT_KEY_DATA',
  'DURABLE_AGENT_STORE',
  // Issue 35's credentials: the webhook's and the codec server's auth headers, the OTLP collector's headers.
  'DURABLE_AGENT_NOTIFY_AUTH_HEADER',
  'DURABLE_AGENT_NOTIFY_AUTH_HEADER_FILE',
  'DURABLE_AGENT_CODEC_AUTH_HEADER',
  'DURABLE_AGENT_ENCRYPTION_KEY_FILE',
  'OTEL_EXPORTER_OTLP_HEADERS',
  'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
];

/** A `sandbox.passEnv` entry: a variable name, or a prefix followed by `*` (`*` alone: every variable). */
export const PASS_ENV_ENTRY = /^([A-Za-z_][A-Za-z0-9_]*\*?|\*)$/;

function matches(entry: string, name: string): boolean {
  return entry.endsWith('*') ? name.startsWith(entry.slice(0, -1)) : name === entry;
}

/**
 * The environment a Bash command starts with: the worker's variables that the allowlist or
 * `passEnv` names (patterns never match WORKER_SECRET_ENV_VARS), nothing else.
 */
export function bashEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  passEnv: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    const named = passEnv.includes(name);
    const secret = WORKER_SECRET_ENV_VARS.includes(name);
    const allowed =
      named ||
      (!secret &&
        (BASH_ENV_ALLOWLIST.some((e) => matches(e, name)) || passEnv.some((e) => e.endsWith('*') && matches(e, name))));
    if (allowed) out[name] = value;
  }
  return out;
}
