// Credential files: what the sandbox hides from Bash, and what the file tools and the config and
// CLAUDE.md readers refuse to open (issue 21.6: in the permission room, below the sandbox and the tools).
import * as os from 'node:os';
import * as path from 'node:path';
import { expandHome, isInside, resolveReal } from './paths';

/**
 * Read-denied in every sandboxed command unless the settings re-open them with `allowRead`:
 * keys, cloud and registry credentials, durable-agent's own user settings. Each entry holds a
 * secret by its tool's convention (docs/tools.md "What sandboxed Bash cannot read").
 */
export const DEFAULT_CREDENTIAL_PATHS = [
  '~/.ssh',
  '~/.aws',
  '~/.gnupg',
  '~/.config/gcloud',
  '~/.azure',
  '~/.kube',
  '~/.docker/config.json',
  '~/.netrc',
  '~/.npmrc',
  '~/.pypirc',
  '~/.git-credentials',
  '~/.config/git/credentials', // git credential-store's XDG location
  '~/.config/gh',
  '~/.config/hub',
  '~/.password-store',
  '~/.local/share/keyrings', // GNOME keyring files
  '~/.vault-token',
  '~/.terraform.d/credentials.tfrc.json',
  '~/.cargo/credentials',
  '~/.cargo/credentials.toml',
  '~/.gem/credentials', // RubyGems API key
  '~/.pgpass', // PostgreSQL passwords (the shared store is PostgreSQL)
  '~/.my.cnf', // MySQL client passwords
  '~/.config/containers/auth.json', // podman/buildah registry logins
  '~/.config/temporalio', // Temporal CLI profiles: API keys, TLS key paths
  '~/.claude.json', // Claude Code's state: OAuth account, MCP servers' env and headers
  '~/.claude.json.backup*',
  '~/.claude/.credentials.json',
  '~/.claude/backups', // copies of ~/.claude.json
  '~/.mozilla', // browser profiles: session cookies, saved passwords
  '~/.config/google-chrome',
  '~/.config/chromium',
  '~/.durable-agent/settings.json',
  // Where people keep the very keys the worker runs with (issue 30, J3): Claude Code's settings
  // (`env.ANTHROPIC_API_KEY`), git's global config (`http.extraHeader`, `url.<token>.insteadOf`; the
  // sandbox gets the person's user.name/email as GIT_AUTHOR_*/GIT_COMMITTER_*, src/hostProcess/gitIdentity.ts),
  // shell start-up files (`export …=`: a non-interactive bash reads none of them) and histories.
  '~/.claude/settings.json',
  '~/.claude/settings.local.json',
  '~/.gitconfig',
  '~/.config/git/config',
  '~/.env',
  '~/.bashrc',
  '~/.bash_profile',
  '~/.bash_login',
  '~/.profile',
  '~/.zshrc',
  '~/.zshenv',
  '~/.zprofile',
  '~/.zlogin',
  '~/.config/fish/config.fish',
  '~/.bash_history',
  '~/.zsh_history',
  '~/.python_history',
  '~/.node_repl_history',
  '~/.psql_history',
  '~/.mysql_history',
  '~/.sqlite_history',
  '~/.rediscli_history',
];

/**
 * Credential files the worker's environment points at, beyond the default paths: the XDG and
 * CLAUDE_CONFIG_DIR forms of DEFAULT_CREDENTIAL_PATHS, and files named by variables such as
 * TEMPORAL_TLS_CLIENT_KEY_PATH, GOOGLE_APPLICATION_CREDENTIALS or KUBECONFIG. Absolute paths.
 */
export function credentialPathsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  home: string,
  cwd: string,
): string[] {
  const out: string[] = [];
  const abs = (p: string) => path.resolve(cwd, expandHome(p, home));
  const relocate = (prefix: string, dir: string | undefined) => {
    if (!dir) return;
    for (const p of DEFAULT_CREDENTIAL_PATHS)
      if (p.startsWith(`${prefix}/`)) out.push(path.join(abs(dir), p.slice(prefix.length + 1)));
  };
  relocate('~/.config', env.XDG_CONFIG_HOME);
  relocate('~/.local/share', env.XDG_DATA_HOME);
  if (env.CLAUDE_CONFIG_DIR) {
    const d = abs(env.CLAUDE_CONFIG_DIR);
    out.push(
      path.join(d, '.claude.json'),
      path.join(d, '.claude.json.backup*'),
      path.join(d, '.credentials.json'),
      path.join(d, 'backups'),
    );
  }
  // A value that names a file (not key material itself: that never reaches Bash's environment).
  const looksLikePath = (v: string) =>
    v !== '' &&
    !/\s/.test(v) &&
    !v.startsWith('-----') &&
    (v.includes('/') || /\.(pem|key|crt|json|toml|ya?ml)$/i.test(v));
  const file = (v: string | undefined) => {
    if (v && looksLikePath(v)) out.push(abs(v));
  };
  for (const [name, value] of Object.entries(env)) {
    // The worker's Temporal client: TLS keys and certificates, the envconfig profile file.
    if (/^TEMPORAL_/.test(name) && /TLS|KEY|CONFIG_FILE/.test(name)) file(value);
  }
  for (const name of [
    'GOOGLE_APPLICATION_CREDENTIALS',
    'AWS_SHARED_CREDENTIALS_FILE',
    'AWS_CONFIG_FILE',
    'PGPASSFILE',
    'NPM_CONFIG_USERCONFIG',
    'GNUPGHOME',
    'PASSWORD_STORE_DIR',
  ])
    file(env[name]);
  for (const p of (env.KUBECONFIG ?? '').split(':')) file(p);
  if (env.DOCKER_CONFIG) file(path.join(env.DOCKER_CONFIG, 'config.json'));
  if (env.CARGO_HOME) for (const f of ['credentials', 'credentials.toml']) file(path.join(env.CARGO_HOME, f));
  return [...new Set(out)];
}

/**
 * The credential files and directories the sandbox hides: DEFAULT_CREDENTIAL_PATHS under both
 * forms of home, and the files the worker's environment points at (credentialPathsFromEnv).
 */
export function credentialRoots(home: string = os.homedir()): string[] {
  const homes = [...new Set([home, resolveReal(home)])];
  const fromEnv = credentialPathsFromEnv(process.env, home, home);
  return [
    ...new Set([
      ...homes.flatMap((h) => DEFAULT_CREDENTIAL_PATHS.map((p) => (p.startsWith('~/') ? path.join(h, p.slice(2)) : p))),
      ...fromEnv,
    ]),
  ];
}

export function isCredentialPath(real: string, home?: string): boolean {
  return credentialRoots(home).some((c) => {
    if (!c.includes('*')) return isInside(real, c);
    // A name pattern (`.claude.json.backup*`): the file, or anything under a match.
    const re = new RegExp(
      `^${c
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*')}(?:/.*)?$`,
      's',
    );
    return re.test(real);
  });
}
