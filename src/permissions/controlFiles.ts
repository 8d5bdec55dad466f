// The session's control files as the write detector and the per-directory manifest see them: the
// files and directories whose change would configure, or later run code for, a session there.
//
// TEMPORARY SEAM (issue 18): the one definition of the protected paths is being written by
// another change ("protect"). Until it lands, this returns the smallest set the detector's tests
// need; when it lands, `controlPathSet` calls that definition and this list goes.
import { join, resolve } from 'node:path';

/** Absolute paths: files are looked at themselves, directories with what they hold (bounded). */
export interface ControlPathSet {
  files: string[];
  dirs: string[];
}

const FILES = ['.claude/settings.json', '.claude/settings.local.json', '.mcp.json', '.durable-agent/settings.json'];
const DIRS = ['.claude/agents', '.claude/hooks'];

/** The control files of a session with these working directories (cwd first). */
export function controlPathSet(workingDirectories: readonly string[]): ControlPathSet {
  const roots = [...new Set(workingDirectories.map((d) => resolve(d)))];
  return {
    files: roots.flatMap((r) => FILES.map((f) => join(r, f))),
    dirs: roots.flatMap((r) => DIRS.map((d) => join(r, d))),
  };
}
