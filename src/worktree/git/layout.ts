// A linked worktree's git directories and its shadow's layout: where the shadow is, the state the
// worker keeps there, and what of it sandboxed commands may write (worktreeGitAccess).
import * as path from 'node:path';

/** A linked worktree's git directories, as git reported them when it was made (never its `.git` file). */
export interface WorktreeGit {
  /** The repository's common git directory (`<root>/.git`). */
  commonDir: string;
  /** The worktree's own git directory (`<common>/worktrees/<name>`). */
  gitDir: string;
}

/** What a command's work in the worktree did to the repository's refs (said to the model when not empty). */
export interface WorktreeSync {
  /** Refs moved or created in the repository (`refs/heads/x` → hash). */
  applied: Array<{ ref: string; to: string }>;
  /** Refs the command changed that the worktree does not own: not applied. */
  refused: Array<{ ref: string; to: string; why: string }>;
  /** Objects the repository refused (git's reason; the refs that need them stay as they were). */
  objectsError?: string;
  /** Bringing the objects in failed as a whole (not a refusal): the worktree's git stays on the shadow until it works. */
  importFailed?: boolean;
  /** The worktree's HEAD named a refused ref: it now points at the command's commit directly. */
  detachedHead?: string;
}

export const STATE = 'durable-agent-state.json';
export const LOCK = 'durable-agent.lock';
export const LEASES = 'leases';
export const HEX = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/** The worktree's shadow common directory. */
export function shadowDirOf(w: WorktreeGit): string {
  return path.join(w.commonDir, 'durable-agent', 'worktrees', path.basename(w.gitDir));
}

/**
 * What sandboxed commands in the worktree may write of the repository's git directory: the
 * worktree's own git directory (HEAD, index, its logs) and the shadow's objects, refs and logs;
 * denied inside those, what makes git run code or read another directory (the worktree's
 * commondir/gitdir pointers, config, hooks; the shadow's alternates). The repository's objects,
 * refs, config and hooks, and the shadow's own files, stay read-only.
 */
export function worktreeGitAccess(
  commonDir: string,
  gitDir: string,
): { allowWrite: string[]; denyWrite: string[]; worktreeGit: WorktreeGit } {
  const w = { commonDir, gitDir };
  const shadow = shadowDirOf(w);
  return {
    worktreeGit: w,
    allowWrite: [w.gitDir, path.join(shadow, 'objects'), path.join(shadow, 'refs'), path.join(shadow, 'logs')],
    denyWrite: [
      path.join(w.gitDir, 'commondir'),
      path.join(w.gitDir, 'gitdir'),
      path.join(w.gitDir, 'config'),
      path.join(w.gitDir, 'config.worktree'),
      path.join(w.gitDir, 'hooks'),
      path.join(w.commonDir, 'config'),
      path.join(w.commonDir, 'hooks'),
      path.join(shadow, 'objects', 'info', 'alternates'),
    ],
  };
}

export interface State {
  v: 1;
  /** `commondir` as git wrote it (restored between commands). */
  commondir: string;
  /** The refs this worktree may move in the repository: its branch, and the refs it created. */
  own: string[];
  /** Objects (and packs) of the shadow the repository refused: never offered again, so they block nothing else. */
  refused?: string[];
  /** The worktree's git directory's inode: a worktree removed and made again under the name is another one. */
  gitDirIno?: number;
}
