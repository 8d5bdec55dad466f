// Credential files: what the sandbox hides from Bash, and what the file tools and the config and
// CLAUDE.md readers refuse to open (issue 21.6: in the permission room, below the sandbox and the tools).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseGitConfig } from '../hostProcess/gitConfigText';
import { expandHome, isInside, resolveReal } from './paths';
import { directoryNames } from './dirListing';

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
  // Round k (issue 30, K2): more tools' tokens by their convention, and the transcripts of earlier
  // Claude Code sessions (every secret they saw). Files that ~/.gitconfig includes are found below.
  '~/.yarnrc.yml', // npmAuthToken
  '~/.yarnrc',
  '~/.m2/settings.xml',
  '~/.m2/settings-security.xml',
  '~/.gradle/gradle.properties',
  '~/.ivy2/.credentials',
  '~/.sbt/credentials',
  '~/.config/github-copilot',
  '~/.codex',
  '~/.gemini',
  '~/.config/pip',
  '~/.pip/pip.conf',
  '~/.config/pypoetry/auth.toml',
  '~/.composer/auth.json',
  '~/.config/composer/auth.json',
  '~/.nuget/NuGet/NuGet.Config',
  '~/.config/NuGet/NuGet.Config',
  '~/.local/share/fish/fish_history',
  '~/.config/rclone',
  '~/.s3cfg',
  '~/.boto',
  '~/.cache/huggingface/token',
  '~/.huggingface',
  '~/.config/doctl',
  '~/.databrickscfg',
  '~/.wrangler',
  '~/.config/.wrangler',
  '~/.config/op',
  '~/.config/sops',
  '~/.config/age',
  '~/.oci',
  '~/.config/hcloud',
  '~/.fly',
  '~/.netlify',
  '~/.config/netlify',
  '~/.vercel',
  '~/.local/share/com.vercel.cli',
  '~/.config/heroku',
  '~/.snowflake',
  '~/.dbt/profiles.yml',
  '~/.config/gh-copilot',
  '~/.claude/projects',
  '~/.claude/todos',
  '~/.claude/shell-snapshots',
  // Round m (issue 30, M2): more tools' tokens, browser and chat profiles, mail clients' passwords,
  // and histories.
  '~/.gitcookies',
  '~/.terraformrc',
  '~/.config/glab-cli',
  '~/.pulumi/credentials.json',
  '~/.config/stripe',
  '~/.cloudflared',
  '~/.config/ngrok',
  '~/.ngrok2',
  '~/.circleci/cli.yml',
  '~/.config/configstore',
  '~/.kaggle',
  '~/.sentryclirc',
  '~/.bundle/config',
  '~/.condarc',
  '~/.mc',
  '~/.passwd-s3fs',
  '~/.config/scw',
  '~/.aliyun',
  '~/.tsh',
  '~/.minikube',
  '~/.config/helm',
  '~/.config/pnpm/rc',
  '~/.bunfig.toml',
  '~/.ollama/id_ed25519',
  '~/.histfile',
  '~/.local/state/zsh',
  '~/.local/share/atuin',
  '~/.ipython',
  '~/.viminfo',
  '~/.lesshst',
  '~/.dbshell',
  '~/.irb_history',
  '~/.pry_history',
  '~/.dockercfg',
  '~/.config/BraveSoftware',
  '~/.config/microsoft-edge',
  '~/.config/vivaldi',
  '~/.config/opera',
  '~/snap/firefox',
  '~/snap/chromium',
  '~/snap/thunderbird',
  '~/.var/app',
  '~/.thunderbird',
  '~/.config/Slack',
  '~/.config/discord',
  '~/.config/Signal',
  '~/.config/Code/User/globalStorage',
  '~/.config/Cursor/User/globalStorage',
  '~/.msmtprc',
  '~/.mbsyncrc',
  '~/.offlineimaprc',
  '~/.fetchmailrc',
  '~/.muttrc',
  '~/.mutt',
  '~/.config/filezilla',
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
  // A space is a path's as well (`~/My Keys/…`, macOS's `Application Support`: red team m, M3); only
  // a line break is not.
  const looksLikePath = (v: string) =>
    v !== '' &&
    !/[\r\n]/.test(v) &&
    !v.startsWith('-----') &&
    (v.includes('/') || /\.(pem|key|crt|json|toml|ya?ml)$/i.test(v));
  const file = (v: string | undefined) => {
    if (!v || !looksLikePath(v)) return;
    const p = abs(v);
    // Never a device (`GIT_CONFIG_GLOBAL=/dev/null`), the root or home itself: hiding those hides everything.
    if (p === '/' || p === path.resolve(home) || p === '/dev' || p.startsWith('/dev/') || p.startsWith('/proc/'))
      return;
    out.push(p);
  };
  for (const [name, value] of Object.entries(env)) {
    // The worker's Temporal client: TLS keys and certificates, the envconfig profile file.
    if (/^TEMPORAL_/.test(name) && /TLS|KEY|CONFIG_FILE/.test(name)) file(value);
  }
  for (const name of [
    'GOOGLE_APPLICATION_CREDENTIALS',
    'AWS_SHARED_CREDENTIALS_FILE',
    'AWS_CONFIG_FILE',
    'AWS_WEB_IDENTITY_TOKEN_FILE',
    'PGPASSFILE',
    'NPM_CONFIG_USERCONFIG',
    'GNUPGHOME',
    'PASSWORD_STORE_DIR',
    // Round k (issue 30, K2c): where tools move their token files when told to.
    'GIT_CONFIG_GLOBAL',
    'GH_CONFIG_DIR',
    'CLOUDSDK_CONFIG',
    'AZURE_CONFIG_DIR',
    'PIP_CONFIG_FILE',
    'HF_TOKEN_PATH',
    'NETRC',
    'BOTO_CONFIG',
    'RCLONE_CONFIG',
    'TF_CLI_CONFIG_FILE',
    'VAULT_CONFIG_PATH',
    'SOPS_AGE_KEY_FILE',
    'OP_CONFIG_DIR',
    'CODEX_HOME',
    'DATABRICKS_CONFIG_FILE',
  ])
    file(env[name]);
  const under = (dir: string | undefined, ...names: string[]) => {
    if (dir) for (const n of names) file(path.join(dir, n));
  };
  under(env.HF_HOME, 'token');
  under(env.XDG_CACHE_HOME, 'huggingface/token');
  under(env.GRADLE_USER_HOME, 'gradle.properties');
  under(env.POETRY_CONFIG_DIR, 'auth.toml');
  under(env.COMPOSER_HOME, 'auth.json');
  for (const p of (env.KUBECONFIG ?? '').split(':')) file(p);
  // Outside HOME (red team m, M12): Kerberos' ticket cache and keytabs (`FILE:`/`DIR:` prefixes;
  // MIT's default cache `/tmp/krb5cc_<uid>`, and its `_<suffix>` forms there now), podman's primary
  // registry login under the runtime directory.
  for (const name of ['KRB5CCNAME', 'KRB5_KTNAME', 'KRB5_CLIENT_KTNAME'])
    file(env[name]?.replace(/^(?:FILE|DIR|WRFILE):/, ''));
  out.push(...kerberosCaches());
  file(env.REGISTRY_AUTH_FILE);
  if (env.XDG_RUNTIME_DIR) file(path.join(env.XDG_RUNTIME_DIR, 'containers'));
  if (env.DOCKER_CONFIG) file(path.join(env.DOCKER_CONFIG, 'config.json'));
  if (env.CARGO_HOME) for (const f of ['credentials', 'credentials.toml']) file(path.join(env.CARGO_HOME, f));
  out.push(...gitIncludedFiles(env, home));
  for (const f of namedKeyFiles(env, home)) file(f);
  return [...new Set(out)];
}

const textCache = new Map<string, { stamp: string; text: string }>();

/** MIT Kerberos' default ticket caches of this user: `/tmp/krb5cc_<uid>` and the `_<suffix>` forms there now. */
function kerberosCaches(): string[] {
  const uid = process.getuid?.();
  if (uid === undefined) return [];
  const own = `krb5cc_${uid}`;
  const out = [`/tmp/${own}`];
  try {
    for (const n of directoryNames('/tmp')) if (n.startsWith(`${own}_`)) out.push(path.join('/tmp', n));
  } catch {
    // no /tmp to read: nothing there
  }
  return out;
}

/** A file's text, or '' (absent, unreadable, not a file, over 1 MiB); read again only when it changed. */
function smallText(file: string): string {
  try {
    const st = statSync(file);
    if (!st.isFile() || st.size > 1 << 20) return '';
    const stamp = `${st.mtimeMs}:${st.size}:${st.ino}`;
    const cached = textCache.get(file);
    if (cached?.stamp === stamp) return cached.text;
    const text = readFileSync(file, 'utf8');
    textCache.set(file, { stamp, text });
    return text;
  } catch {
    return '';
  }
}

/**
 * An ssh config value as ssh reads it (red team m, M4b): `${VAR}` from the environment, `%d` home,
 * `%u` the user, `%%` a percent; any other `%` token (the host, the port…) may be anything: a `*`
 * the caller globs.
 */
function sshValue(v: string, env: Readonly<Record<string, string | undefined>>, home: string): string {
  return v
    .replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, n: string) => (n === 'HOME' ? home : (env[n] ?? '')))
    .replace(/%(.)/g, (_m, c: string) =>
      c === 'd' ? home : c === 'u' ? (env.USER ?? os.userInfo().username) : c === '%' ? '%' : '*',
    );
}

/** The files a pattern with `*`/`?` names now (each component matched by listing); the path itself when it has none. */
export function globFiles(pattern: string): string[] {
  if (!/[*?]/.test(pattern)) return [pattern];
  const parts = pattern.split(path.sep);
  let found = [parts[0] === '' ? path.sep : parts[0]!];
  for (const part of parts.slice(1)) {
    if (part === '') continue;
    if (!/[*?]/.test(part)) {
      found = found.map((d) => path.join(d, part));
      continue;
    }
    const re = new RegExp(
      `^${part
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/\?/g, '.')}$`,
    );
    found = found.flatMap((d) => {
      try {
        return readdirSync(d)
          .filter((n) => re.test(n))
          .map((n) => path.join(d, n));
      } catch {
        return [];
      }
    });
    if (found.length > 200) found = found.slice(0, 200);
  }
  return found;
}

/**
 * The key files that hidden configurations name (red team m, M4): people keep keys where their
 * tools put them, and a hidden config that points there leaves the key readable. A kubeconfig's
 * `client-key`, `client-certificate` and `tokenFile`; an ssh config's `IdentityFile` and
 * `CertificateFile` (with its `Include`s); the global git configs' `http.sslKey`, `http.sslCert`,
 * `http.cookieFile`, `credential.helper = store --file X`, and `-i X` of `core.sshCommand`.
 */
export function namedKeyFiles(env: Readonly<Record<string, string | undefined>>, home: string): string[] {
  const out: string[] = [];
  const tilde = (v: string, base: string) =>
    v.startsWith('~/') ? path.join(home, v.slice(2)) : path.resolve(base, v.replace(/^"(.*)"$/, '$1'));
  // kubeconfigs: the keys of `users[].user` (YAML, read by line: `client-key: <path>`).
  const kubeconfigs = (env.KUBECONFIG ?? '')
    .split(':')
    .filter((p) => p !== '')
    .map((p) => tilde(p, home));
  kubeconfigs.push(path.join(home, '.kube', 'config'));
  for (const k of kubeconfigs)
    for (const m of smallText(k).matchAll(
      /^\s*(?:client-key|client-certificate|tokenFile|token-file)\s*:\s*(\S.*?)\s*$/gm,
    ))
      out.push(tilde(m[1]!.replace(/^["']|["']$/g, ''), path.dirname(k)));
  // ssh configs: `IdentityFile x`, `CertificateFile x`, `Include x` (relative to ~/.ssh), five deep.
  const seen = new Set<string>();
  const ssh = (file: string, depth: number) => {
    if (depth > 5 || seen.has(file)) return;
    seen.add(file);
    for (const m of smallText(file).matchAll(/^\s*(IdentityFile|CertificateFile|Include)\s*=?\s*(.+?)\s*$/gim)) {
      for (const word of m[2]!.split(/\s+(?=(?:[^"]*"[^"]*")*[^"]*$)/)) {
        const v = sshValue(word.replace(/^"(.*)"$/, '$1'), env, home);
        if (v === '' || v.toLowerCase() === 'none') continue;
        for (const abs of globFiles(tilde(v, path.join(home, '.ssh')))) {
          if (m[1]!.toLowerCase() === 'include') ssh(abs, depth + 1);
          else out.push(abs, `${abs}-cert.pub`);
        }
      }
    }
  };
  ssh(path.join(home, '.ssh', 'config'), 0);
  // git: the global configs and what they include.
  const xdg = env.XDG_CONFIG_HOME || path.join(home, '.config');
  const gitFiles = [path.join(home, '.gitconfig'), path.join(xdg, 'git', 'config'), ...gitIncludedFiles(env, home)];
  if (env.GIT_CONFIG_GLOBAL) gitFiles.push(path.resolve(home, expandHome(env.GIT_CONFIG_GLOBAL, home)));
  for (const g of gitFiles) {
    for (const e of parseGitConfig(smallText(g)) ?? []) {
      const v = e.value?.trim();
      if (!v) continue;
      if (e.section === 'http' && ['sslkey', 'sslcert', 'cookiefile'].includes(e.key))
        out.push(tilde(v, path.dirname(g)));
      if (e.section === 'credential' && e.key === 'helper') {
        const m = /(?:^|\s)--file(?:=|\s+)(\S+)/.exec(v);
        if (m) out.push(tilde(m[1]!, home));
        else if (/^store\b/.test(v)) out.push(path.join(home, '.git-credentials'));
      }
      if (e.section === 'core' && e.key === 'sshcommand') {
        const m = /(?:^|\s)-i\s*(?:"([^"]*)"|'([^']*)'|(\S+))/.exec(v);
        const key = m?.[1] ?? m?.[2] ?? m?.[3];
        if (key) out.push(tilde(sshValue(key, env, home), home));
      }
    }
  }
  return out;
}

/**
 * The files the person's global git configuration includes (`include.path`, `includeIf.*.path`,
 * followed as git does, ten deep): people move their tokens there so that `~/.gitconfig` can be
 * public, so they are hidden like it (issue 30, K2). Every condition counts: the file is a
 * credential whatever repository it applies to.
 */
export function gitIncludedFiles(env: Readonly<Record<string, string | undefined>>, home: string): string[] {
  const xdg = env.XDG_CONFIG_HOME || path.join(home, '.config');
  const roots = [path.join(home, '.gitconfig'), path.join(xdg, 'git', 'config')];
  if (env.GIT_CONFIG_GLOBAL) roots.push(path.resolve(home, expandHome(env.GIT_CONFIG_GLOBAL, home)));
  const found: string[] = [];
  const seen = new Set<string>();
  const visit = (file: string, depth: number) => {
    if (depth > 10 || seen.has(file)) return;
    seen.add(file);
    for (const target of includeTargets(file)) {
      const abs = target.startsWith('~/') ? path.join(home, target.slice(2)) : path.resolve(path.dirname(file), target);
      found.push(abs);
      visit(abs, depth + 1);
    }
  };
  for (const r of roots) visit(r, 0);
  return found;
}

const includeCache = new Map<string, { stamp: string; targets: string[] }>();

/** The `path` values of a git configuration file's include sections (none when it cannot be read). */
function includeTargets(file: string): string[] {
  let stamp: string;
  try {
    const st = statSync(file);
    if (!st.isFile() || st.size > 1 << 20) return [];
    stamp = `${st.mtimeMs}:${st.size}:${st.ino}`;
  } catch {
    return [];
  }
  const cached = includeCache.get(file);
  if (cached?.stamp === stamp) return cached.targets;
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // unreadable: it includes nothing we can see
  }
  const targets = (parseGitConfig(text) ?? [])
    .filter((e) => (e.section === 'include' || e.section === 'includeif') && e.key === 'path' && e.value)
    .map((e) => e.value!);
  includeCache.set(file, { stamp, targets });
  return targets;
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
