// Credential files: what the sandbox hides from Bash, and what the file tools and the config and
// CLAUDE.md readers refuse to open (issue 21.6: in the permission room, below the sandbox and the tools).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseGitConfig } from '../hostProcess/gitConfigText';
import { DEFAULT_CREDENTIAL_PATHS } from './credentialList';
import { expandHome, isInside, resolveReal } from './paths';
import { directoryNames } from './dirListing';
import { toolchainConfigFiles } from './toolchainConfigs';

export { DEFAULT_CREDENTIAL_PATHS } from './credentialList';

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
  for (const v of workerKeyFiles(env)) file(v);
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
  // The global npm and pip configs inside the toolchains a closed HOME allows back (red team p, P4).
  out.push(...toolchainConfigFiles(home, env));
  file(env.REGISTRY_AUTH_FILE);
  for (const f of runtimeDirDenies(env, home, cwd)) file(f);
  if (env.DOCKER_CONFIG) file(path.join(env.DOCKER_CONFIG, 'config.json'));
  if (env.CARGO_HOME) for (const f of ['credentials', 'credentials.toml']) file(path.join(env.CARGO_HOME, f));
  out.push(...gitIncludedFiles(env, home));
  for (const f of namedKeyFiles(env, home)) file(f);
  return [...new Set(out)];
}

/**
 * The files the worker's own keys are in (red team o, O2): the Anthropic SDK's profile directory and
 * OIDC token, the store's encryption keys (a `:` list), the notify header, the OTLP exporter's client
 * keys; and, a rule rather than a list, any variable that names the file or directory of a key,
 * token or password (`…_KEY_FILE`, `…_TOKEN_PATH`, `…_SECRETS_DIR`). Values as given.
 */
function workerKeyFiles(env: Readonly<Record<string, string | undefined>>): string[] {
  const out = [
    env.ANTHROPIC_CONFIG_DIR,
    env.ANTHROPIC_IDENTITY_TOKEN_FILE,
    env.DURABLE_AGENT_NOTIFY_AUTH_HEADER_FILE,
    // libpq's client key and service file (the store is PostgreSQL).
    env.PGSSLKEY,
    env.PGSERVICEFILE,
  ];
  out.push(...(env.DURABLE_AGENT_ENCRYPTION_KEY_FILE ?? '').split(':'));
  for (const [name, value] of Object.entries(env)) {
    if (/_(?:FILE|PATH|DIR)$/.test(name) && /KEY|TOKEN|SECRET|CREDENTIAL|AUTH|PASSWORD|PASSWD/.test(name))
      out.push(value);
    if (/^OTEL_EXPORTER_OTLP_(?:[A-Z]+_)?CLIENT_(?:KEY|CERTIFICATE)$/.test(name)) out.push(value);
  }
  return out.filter((v): v is string => v !== undefined && v !== '');
}

/**
 * The person's runtime directory (red team o, O7): `$XDG_RUNTIME_DIR`, or `/run/user/<uid>` when it
 * is unset — GVFS mounts their network shares there with their stored logins (`gvfs/smb-share:…`),
 * the document portal shows the files they granted to apps (`doc/`), keybase its private folders,
 * podman its registry login. Sockets and per-login state only otherwise: sandboxed programs need none
 * of it (their Unix sockets are refused anyway). Denied whole, but where the worker's temp directory,
 * HOME or its cwd lies inside it (a TMPDIR there): then its known secret stores only.
 */
function runtimeDirDenies(env: Readonly<Record<string, string | undefined>>, home: string, cwd: string): string[] {
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  const dir = env.XDG_RUNTIME_DIR || (uid !== undefined && process.platform === 'linux' ? `/run/user/${uid}` : '');
  if (!dir || !path.isAbsolute(dir) || path.resolve(dir) === '/') return [];
  const holdsOwn = [os.tmpdir(), home, cwd].some((p) => isInside(path.resolve(p), path.resolve(dir)));
  if (!holdsOwn) return [dir];
  return ['containers', 'gvfs', 'doc', 'keybase'].map((n) => path.join(dir, n));
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
  return credentialMatcher(home)(real);
}

/**
 * isCredentialPath with the roots computed once (for the many files of one search), but where the
 * person re-opened a path (`sandbox.filesystem.allowRead` of their own settings: `~` expanded).
 */
export function credentialMatcher(home?: string, reopened: readonly string[] = []): (real: string) => boolean {
  return credentialView(home, reopened).match;
}

/** The credential roots (a name pattern as its directory) and the matcher, read as credentialMatcher says. */
export function credentialView(home?: string, reopened: readonly string[] = []): CredentialView {
  // Every file tool call asks (decide.ts step 0): the roots (the list, the environment's files, the
  // git config's includes) are read again at most every MATCHER_TTL_MS per home and re-open list.
  const h = home ?? os.homedir();
  const mtime = (f: string) => statSync(path.join(h, f), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  // The environment and the person's git configs (their includes) are part of the key: no stale answer.
  const env = Object.entries(process.env).join('\n');
  const key = `${h}\0${reopened.join('\0')}\0${env}\0${mtime('.gitconfig')}\0${mtime('.config/git/config')}`;
  const now = Date.now();
  const hit = matchers.get(key);
  if (hit && now - hit.at < MATCHER_TTL_MS) return hit.view;
  if (matchers.size > 32) matchers.clear();
  const view = buildView(home, reopened);
  matchers.set(key, { at: now, view });
  return view;
}

export interface CredentialView {
  match: (real: string) => boolean;
  /** Each root, a name pattern as the directory it lies in. */
  roots: string[];
}

const MATCHER_TTL_MS = 1000;
const matchers = new Map<string, { at: number; view: CredentialView }>();

function buildView(home: string | undefined, reopened: readonly string[]): CredentialView {
  const h = home ?? os.homedir();
  const open = reopened.map((p) => expandHome(p, h)).filter((p) => path.isAbsolute(p) && !/[*?[\]]/.test(p));
  const roots = credentialRoots(home);
  // A plain root is looked up by the path's ancestors (a set): ~160 roots per file of a search.
  const plain = new Set(roots.filter((c) => !c.includes('*') && path.isAbsolute(c)).map((c) => path.resolve(c)));
  const patterns = roots.flatMap((c): Array<(real: string) => boolean> => {
    if (!c.includes('*')) return path.isAbsolute(c) ? [] : [(real) => isInside(real, c)];
    // A name pattern (`.claude.json.backup*`): the file, or anything under a match.
    const re = new RegExp(
      `^${c
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*')}(?:/.*)?$`,
      's',
    );
    return [(real) => re.test(real)];
  });
  const underPlain = (real: string): boolean => {
    if (!path.isAbsolute(real)) return [...plain].some((c) => isInside(real, c));
    for (let d = path.resolve(real); ; d = path.dirname(d)) {
      if (plain.has(d)) return true;
      if (path.dirname(d) === d) return false;
    }
  };
  const match = (real: string) =>
    (underPlain(real) || patterns.some((t) => t(real))) && !open.some((o) => isInside(real, o));
  return { match, roots: roots.map((c) => (c.includes('*') ? path.dirname(c) : c)) };
}
