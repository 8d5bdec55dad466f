// The working directories' repository configurations, as sandboxed commands read them (red team o,
// O12): a configuration holding a credential (src/hostProcess/gitConfigSecrets.ts) is given to the
// runtime as a masked file — it binds a copy with each credential span replaced over the real path
// (where it really resolves, so a symlink or another spelling reads the copy too), read-only. The
// rest of the file (remotes, branches, the repository format) is as it is, so sandboxed git works.
// The copy's values go nowhere: no host is named to put the real value back into a request.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CredentialFileConfig } from '@anthropic-ai/sandbox-runtime';
import { GIT_CONFIG_SECRET_PATTERN, holdsGitSecret } from '../hostProcess/gitConfigSecrets';
import { commonDirOf, gitDirOf } from './repoConfigTargets';

const MAX_CONFIG_BYTES = 1 << 20;

/** The repository configuration files of the roots (the common `config`, a worktree's `config.worktree`). */
export function repositoryConfigFiles(roots: readonly string[]): string[] {
  const out = new Set<string>();
  for (const root of roots) {
    const gitDir = gitDirOf(root);
    if (!gitDir) continue;
    out.add(path.join(commonDirOf(gitDir), 'config'));
    out.add(path.join(gitDir, 'config.worktree'));
  }
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
