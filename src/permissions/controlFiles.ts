// The session's control files as the write detector and the per-directory manifest see them: the
// concrete protected paths at each working directory (src/permissions/protectedPaths.ts, the one
// definition) plus the files the session's hooks run.
import { resolve } from 'node:path';
import { controlFiles, isProtectedPath } from './protectedPaths';

/** Absolute paths: files are looked at themselves, directories with what they hold (bounded). */
export interface ControlPathSet {
  files: string[];
  dirs: string[];
  /** Is an entry found inside one of `dirs` a control file? (`.claude/worktrees/…` is not.) Default: all are. */
  holds?: (path: string) => boolean;
}

/** The control files of a session with these working directories (cwd first) and these hook-run files. */
export function controlPathSet(
  workingDirectories: readonly string[],
  hookFiles: readonly string[] = [],
): ControlPathSet {
  const roots = [...new Set(workingDirectories.map((d) => resolve(d)))];
  const c = controlFiles(roots, { extra: hookFiles });
  return { files: c.files, dirs: c.directories, holds: (p) => isProtectedPath(p, roots, { extra: hookFiles }) };
}
