// The working directories' repository configurations, as sandboxed commands read them (red team o,
// O12): a configuration holding a credential (src/hostProcess/gitConfigSecrets.ts) is given to the
// runtime as a masked file — it binds a copy with each credential span replaced over the real path
// (where it really resolves, so a symlink or another spelling reads the copy too), read-only. The
// rest of the file (remotes, branches, the repository format) is as it is, so sandboxed git works.
// The copy's values go nowhere: no host is named to put the real value back into a request.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CredentialFileConfig } from '@anthropic-ai/sandbox-runtime';
import { GIT_CONFIG_SECRET_PATTERN, holdsGitSecret } from '../hostProcess/gitConfigSecrets';
import { parseGitConfig } from '../hostProcess/gitConfigText';
import { commonDirOf, gitDirOf } from './repoConfigTargets';

const MAX_CONFIG_BYTES = 1 << 20;

/** How deep submodules of submodules are looked for (`.git/modules/a/modules/b/…`), as protect.ts does. */
const MODULE_DEPTH = 3;

/**
 * The configurations of a git directory's submodules (`modules/<name>/config`, `config.worktree`,
 * and theirs in turn): a submodule cloned with a token keeps it there (issue 30, known limit L-d).
 * A name may hold `/` (`modules/libs/x`): any directory with a `HEAD` is one.
 */
function moduleConfigs(gitDir: string, out: Set<string>, depth = 0): void {
  if (depth >= MODULE_DEPTH) return;
  const walk = (dir: string, left: number) => {
    let names: fs.Dirent[];
    try {
      names = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of names) {
      if (!e.isDirectory()) continue;
      const d = path.join(dir, e.name);
      if (fs.existsSync(path.join(d, 'HEAD'))) {
        out.add(path.join(d, 'config'));
        out.add(path.join(d, 'config.worktree'));
        moduleConfigs(d, out, depth + 1);
      } else if (left > 0) walk(d, left - 1);
    }
  };
  walk(path.join(gitDir, 'modules'), 2);
}

/** How deep git follows includes (config.c MAX_INCLUDE_DEPTH). */
const INCLUDE_DEPTH = 10;

/**
 * The files a configuration includes, as git follows them (`include.path` and every
 * `includeIf.<condition>.path`, whatever the condition: relative to the including file's directory,
 * `~/` from HOME; ten deep). actions/checkout v6 keeps its token in such a file
 * (`<runner>/_work/_temp/git-credentials-<uuid>.config`, named by `includeIf "gitdir:…"` in
 * `.git/config`): outside HOME nothing else closes it (red team s, S8).
 */
function includedConfigs(file: string, out: Set<string>, depth = 0): void {
  if (depth >= INCLUDE_DEPTH) return;
  let text: string;
  try {
    const st = fs.statSync(file);
    if (!st.isFile() || st.size > MAX_CONFIG_BYTES) return;
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return;
  }
  for (const e of parseGitConfig(text) ?? []) {
    if ((e.section !== 'include' && e.section !== 'includeif') || e.key !== 'path' || !e.value) continue;
    const v = e.value;
    const abs =
      v === '~' || v.startsWith('~/') ? path.join(os.homedir(), v.slice(1)) : path.resolve(path.dirname(file), v);
    if (out.has(abs)) continue;
    out.add(abs);
    includedConfigs(abs, out, depth + 1);
  }
}

/**
 * The repository configuration files of the roots (the common `config`, a worktree's
 * `config.worktree`, and their submodules' in `modules/`), with the files they include.
 */
export function repositoryConfigFiles(roots: readonly string[]): string[] {
  const out = new Set<string>();
  for (const root of roots) {
    const gitDir = gitDirOf(root);
    if (!gitDir) continue;
    const common = commonDirOf(gitDir);
    out.add(path.join(common, 'config'));
    out.add(path.join(gitDir, 'config.worktree'));
    moduleConfigs(common, out);
  }
  for (const f of [...out]) includedConfigs(f, out);
  return [...out];
}

function holdsSecret(file: string): boolean {
  try {
    const st = fs.statSync(file);
    // Too big to read here: masked anyway (the runtime's own reading decides; nothing matched: unreadable).
    if (st.size > MAX_CONFIG_BYTES) return st.isFile();
    return st.isFile() && holdsGitSecret(fs.readFileSync(file, 'latin1'));
  } catch {
    return false;
  }
}

/** The runtime's masked-file entries for the roots' repository configurations that hold a credential. */
export function repositoryConfigMasks(roots: readonly string[]): CredentialFileConfig[] {
  return repositoryConfigFiles(roots)
    .filter(holdsSecret)
    .map((p) => ({
      path: p,
      mode: 'mask',
      extract: GIT_CONFIG_SECRET_PATTERN,
      // Not the captured values elsewhere: a URL's user `git` would replace every `git` of the file.
      maskDuplicates: false,
      // A file whose credential the runtime could not find is unreadable rather than shown.
      onExtractNoMatch: 'deny',
      injectHosts: [],
    }));
}
