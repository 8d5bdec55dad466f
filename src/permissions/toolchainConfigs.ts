// The person's global package-manager configs inside the toolchain directories a closed HOME allows
// back (red team p, P4). npm's global config is `$PREFIX/etc/npmrc` — under each Node installation of
// nvm, Volta, asdf, mise or fnm — and `npm login --location=global` writes the registry token there;
// a pyenv (or asdf, mise) virtualenv's `pip config set --site` writes `pip.conf` with an index URL
// holding credentials. The toolchains stay readable (builds need them); these files are credentials.
import { existsSync, readFileSync, readdirSync, type Dirent } from 'node:fs';
import * as path from 'node:path';
import { directoryNames } from './dirListing';
import { HOME_TOOLCHAIN_PATHS } from './homeReads';

/** [the directory of installations, under HOME or its manager's variable; the file in each installation]. */
const LAYOUTS: ReadonlyArray<readonly [base: string, variable: string | undefined, file: string]> = [
  ['.nvm/versions/node', 'NVM_DIR', 'etc/npmrc'],
  ['.nvm/versions/node', 'NVM_DIR', 'lib/node_modules/npm/npmrc'],
  ['.volta/tools/image/node', 'VOLTA_HOME', 'etc/npmrc'],
  ['.asdf/installs/nodejs', 'ASDF_DATA_DIR', 'etc/npmrc'],
  ['.local/share/mise/installs/node', 'MISE_DATA_DIR', 'etc/npmrc'],
  ['.local/share/fnm/node-versions', 'FNM_DIR', 'installation/etc/npmrc'],
  ['.fnm/node-versions', undefined, 'installation/etc/npmrc'],
  ['.pyenv/versions', 'PYENV_ROOT', 'pip.conf'],
  ['.pyenv/versions', 'PYENV_ROOT', 'pip.ini'],
  ['.asdf/installs/python', 'ASDF_DATA_DIR', 'pip.conf'],
  ['.local/share/mise/installs/python', 'MISE_DATA_DIR', 'pip.conf'],
];

/** Where a layout's base lies when its manager's variable moves the manager's directory. */
function movedBase(base: string, variable: string, value: string): string {
  // NVM_DIR=~/.nvm holds versions/node; ASDF_DATA_DIR holds installs/…; MISE_DATA_DIR installs/…;
  // FNM_DIR node-versions; VOLTA_HOME tools/…; PYENV_ROOT versions.
  const tail = base.split('/').slice(base.startsWith('.local/share/') ? 3 : 1);
  return path.join(value, ...tail);
}

/** Each installation's config file of LAYOUTS that is there now (a file the agent makes later is its own). */
export function toolchainConfigFiles(home: string, env: Readonly<Record<string, string | undefined>>): string[] {
  const out: string[] = [];
  for (const [base, variable, file] of LAYOUTS) {
    const bases = [path.join(home, base)];
    const value = variable ? env[variable] : undefined;
    if (value && path.isAbsolute(value)) bases.push(movedBase(base, variable!, value));
    for (const dir of new Set(bases)) {
      let names: readonly string[];
      try {
        names = directoryNames(dir);
      } catch {
        continue; // no such manager here
      }
      for (const n of names.slice(0, 200)) {
        const f = path.join(dir, n, file);
        if (existsSync(f)) out.push(f);
      }
    }
  }
  out.push(...credentialsByName(home));
  return out;
}

/**
 * Credential files by NAME inside the toolchain directories a closed HOME allows back (red team q,
 * Q2: the layouts LAYOUTS misses — pnpm's own Node `nodejs/<v>/etc/npmrc`, a pyenv-virtualenv's
 * `versions/<v>/envs/<x>/pip.conf`, pipx venvs, Maven's global `conf/settings.xml` under SDKMAN! or
 * asdf, a plugin marketplace's `.git/config` with a token in its remote URL). A rule, not a list.
 */
const CREDENTIAL_NAMES = new Set([
  'npmrc',
  '.npmrc',
  'pip.conf',
  'pip.ini',
  '.pypirc',
  '.netrc',
  '_netrc',
  '.git-credentials',
  'credentials',
  'credentials.toml',
  'credentials.json',
  'settings-security.xml',
]);
/** Maven's settings: a credential when it holds a server's password, passphrase or key (outside comments). */
const MAVEN_SECRET = /<(?:password|passphrase|privateKey)>/;
/** Package caches (other people's published files, huge) and the big parts of an installation: not walked. */
const CACHES =
  /^~\/(?:\.cache\/|\.npm\/|\.cargo\/(?:registry|git)|go\/pkg|\.m2\/|\.gradle\/caches|\.yarn\/|\.nuget\/|\.bun\/install)/;
const PRUNED = new Set([
  'node_modules',
  'site-packages',
  'dist-packages',
  'lib',
  'lib64',
  'include',
  'share',
  'man',
  'doc',
  'docs',
  'test',
  'tests',
  '__pycache__',
  'jmods',
  'legal',
]);
const WALK_DEPTH = 7;
/**
 * How many entries one toolchain's walk reads (red team s, S3: ONE budget for all the toolchains was
 * spent in pnpm's store before pyenv, SDKMAN!, pipx and ~/.claude/plugins were reached, and their
 * credential files were readable again). Each toolchain has its own now, and what a walk could not
 * reach is denied (fail closed), never left readable.
 */
const TOOLCHAIN_BUDGET = 20_000;
/** At most this many unwalked directories are denied one by one; more are denied through their parents. */
const MAX_UNWALKED = 64;
/**
 * Content-addressed fan-out directories (`store/v3/files/<xx>`, `_cacache/content-v2/sha512/<xx>`,
 * `objects/<xx>`): files named by hash, no credential among them by name, tens of thousands of them.
 * A directory is one when it holds at least FANOUT_MIN two-hex-digit directories and little else (a
 * version directory such as `21` alone is walked).
 */
const FANOUT = /^[0-9a-f]{2}$/i;
const FANOUT_MIN = 16;
const isFanout = (entries: readonly Dirent[]) => {
  const hex = entries.filter((e) => FANOUT.test(e.name) && e.isDirectory()).length;
  return hex >= FANOUT_MIN && hex >= entries.length * 0.9;
};
const HASH_STORES = new Set(['_cacache']);
/** How long a walk's answer is kept (a command runs many times a minute; installs are rare). */
const WALK_TTL_MS = 10_000;
const walked = new Map<string, { at: number; files: string[] }>();

function credentialsByName(home: string): string[] {
  const kept = walked.get(home);
  if (kept && Date.now() - kept.at < WALK_TTL_MS) return kept.files;
  const files: string[] = [];
  for (const t of HOME_TOOLCHAIN_PATHS) if (!CACHES.test(t)) walkToolchain(path.join(home, t.slice(2)), files);
  walked.set(home, { at: Date.now(), files });
  return files;
}

/**
 * One toolchain's credential files by name, breadth first within its own budget; the directories
 * left unread when it runs out are added whole (denied: the walk cannot say they hold none).
 */
function walkToolchain(root: string, files: string[]): void {
  let left = TOOLCHAIN_BUDGET;
  let level = [root];
  for (let depth = 0; level.length > 0 && depth < WALK_DEPTH; depth++) {
    const next: string[] = [];
    for (let i = 0; i < level.length; i++) {
      if (left <= 0) {
        files.push(...unwalked([...level.slice(i), ...next], root));
        return;
      }
      let entries: Dirent[];
      try {
        entries = readdirSync(level[i]!, { withFileTypes: true });
      } catch {
        continue;
      }
      left -= entries.length;
      const fanout = isFanout(entries);
      for (const e of entries) {
        const p = path.join(level[i]!, e.name);
        if (e.isDirectory()) {
          if (e.name === '.git') {
            if (existsSync(path.join(p, 'config'))) files.push(path.join(p, 'config'));
          } else if (!PRUNED.has(e.name) && !(fanout && FANOUT.test(e.name)) && !HASH_STORES.has(e.name)) next.push(p);
        } else if (CREDENTIAL_NAMES.has(e.name)) files.push(p);
        else if (e.name === 'settings.xml' && mavenSecret(p)) files.push(p);
      }
    }
    level = next;
  }
}

/** The directories a walk did not read, at most MAX_UNWALKED of them (their parents when more; never above `root`). */
function unwalked(dirs: readonly string[], root: string): string[] {
  let out = [...new Set(dirs)];
  while (out.length > MAX_UNWALKED) {
    const up = [...new Set(out.map((d) => (d === root ? d : path.dirname(d))))];
    if (up.length === out.length && up.every((d, i) => d === out[i])) break;
    out = up;
  }
  return out.length > MAX_UNWALKED ? [root] : out;
}

function mavenSecret(file: string): boolean {
  try {
    return MAVEN_SECRET.test(
      readFileSync(file, 'utf8')
        .slice(0, 1 << 20)
        .replace(/<!--[\s\S]*?-->/g, ''),
    );
  } catch {
    return false;
  }
}
