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
const WALK_BUDGET = 20_000;
/** How long a walk's answer is kept (a command runs many times a minute; installs are rare). */
const WALK_TTL_MS = 10_000;
const walked = new Map<string, { at: number; files: string[] }>();

function credentialsByName(home: string): string[] {
  const kept = walked.get(home);
  if (kept && Date.now() - kept.at < WALK_TTL_MS) return kept.files;
  const files: string[] = [];
  let left = WALK_BUDGET;
  const walk = (dir: string, depth: number): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (--left < 0) return;
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name === '.git') {
          if (existsSync(path.join(p, 'config'))) files.push(path.join(p, 'config'));
        } else if (depth + 1 < WALK_DEPTH && !PRUNED.has(e.name)) walk(p, depth + 1);
      } else if (CREDENTIAL_NAMES.has(e.name)) files.push(p);
      else if (e.name === 'settings.xml' && mavenSecret(p)) files.push(p);
    }
  };
  for (const t of HOME_TOOLCHAIN_PATHS) if (!CACHES.test(t)) walk(path.join(home, t.slice(2)), 0);
  walked.set(home, { at: Date.now(), files });
  return files;
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
