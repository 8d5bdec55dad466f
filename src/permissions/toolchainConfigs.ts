// The person's global package-manager configs inside the toolchain directories a closed HOME allows
// back (red team p, P4). npm's global config is `$PREFIX/etc/npmrc` — under each Node installation of
// nvm, Volta, asdf, mise or fnm — and `npm login --location=global` writes the registry token there;
// a pyenv (or asdf, mise) virtualenv's `pip config set --site` writes `pip.conf` with an index URL
// holding credentials. The toolchains stay readable (builds need them); these files are credentials.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { directoryNames } from './dirListing';

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
  return out;
}
