// An interactive rebase a sandboxed command leaves with `exec` lines to run (red team q, Q10).
//
// The main checkout's sandbox writes `.git/` beyond its config and hooks: a command can leave the
// repository stopped in a rebase (`break`, a conflict, or the state files written by hand) whose
// todo (`rebase-merge/git-rebase-todo`) runs `exec <its command>` next. `git status` tells the person
// to run `git rebase --continue`, and that runs the command with their environment. After each
// command, the `exec` (`x`) lines of each todo that the todo did not hold when the command started
// are taken out (the agent's own rebase keeps its picks; the person's own `--exec` lines stay) and
// named in the result; a todo that is no regular file, or out of reach, is removed with its state
// directory's todo (`git rebase --continue` then stops, nothing runs). A cherry-pick's or revert's
// `sequencer/todo` runs only picks or reverts (git refuses other commands there); `rebase-apply/`
// (am) has no command lines.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { anchoredFile, removeEntry } from './anchored';

const TODO = path.join('rebase-merge', 'git-rebase-todo');
/** A todo bigger than this is not read: removed when the command wrote it. */
const MAX_TODO = 4 << 20;
const EXEC = /^[ \t]*(exec|x)([ \t]|$)/i;

/** Each todo (by path) as it was when the command started; undefined when there was none. */
export type TodoSnapshots = Map<string, string | undefined>;

/** The todo paths of `gitDirs` (and of their linked worktrees' own git directories). */
function todoPaths(gitDirs: readonly string[]): string[] {
  const out: string[] = [];
  for (const g of gitDirs) {
    out.push(path.join(g, TODO));
    let wts: fs.Dirent[] = [];
    try {
      wts = fs.readdirSync(path.join(g, 'worktrees'), { withFileTypes: true });
    } catch {
      // none
    }
    for (const w of wts) if (w.isDirectory()) out.push(path.join(g, 'worktrees', w.name, TODO));
  }
  return out;
}

function readTodo(p: string): string | undefined | null {
  const st = fs.lstatSync(p, { throwIfNoEntry: false });
  if (!st) return undefined;
  if (!st.isFile() || st.size > MAX_TODO) return null;
  try {
    const fd = fs.openSync(p, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    try {
      return fs.readFileSync(fd, 'latin1');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
}

/** The todos of `gitDirs` now (before a command). */
export function todoSnapshots(gitDirs: readonly string[]): TodoSnapshots {
  const out: TodoSnapshots = new Map();
  for (const p of todoPaths(gitDirs)) {
    const t = readTodo(p);
    out.set(p, t ?? undefined);
  }
  return out;
}

/** After a command: the `exec` lines it added to a rebase's todo, taken out; one note per todo. */
export function undoTodoExecs(
  before: TodoSnapshots,
  gitDirs: readonly string[],
  rel: (p: string) => string = (p) => p,
): string[] {
  const notes: string[] = [];
  for (const p of todoPaths(gitDirs)) {
    const now = readTodo(p);
    const was = before.get(p);
    if (now === undefined || now === was) continue;
    const where = rel(p);
    if (now === null) {
      notes.push(
        `${where}: a rebase todo that is no regular file (or too big to read); ${drop(p) ? 'removed' : 'could not be undone'}`,
      );
      continue;
    }
    const known = new Map<string, number>();
    for (const l of (was ?? '').split('\n')) if (EXEC.test(l)) known.set(l, (known.get(l) ?? 0) + 1);
    const kept: string[] = [];
    let taken = 0;
    for (const l of now.split('\n')) {
      const left = known.get(l) ?? 0;
      if (!EXEC.test(l)) kept.push(l);
      else if (left > 0) {
        known.set(l, left - 1);
        kept.push(l);
      } else taken++;
    }
    if (taken === 0) continue;
    let ok: boolean;
    try {
      anchoredFile(p, (pinned) => {
        const tmp = `${pinned}.da-undo-${process.pid}`;
        fs.rmSync(tmp, { force: true });
        fs.writeFileSync(tmp, kept.join('\n'), { encoding: 'latin1', flag: 'wx' });
        fs.renameSync(tmp, pinned);
      });
      ok = true;
    } catch {
      ok = drop(p);
    }
    notes.push(
      `${where}: ${taken} exec line(s) the command left in a rebase's todo (the person's \`git rebase --continue\` would run them); ${ok ? 'taken out' : 'could not be undone'}`,
    );
  }
  return notes;
}

function drop(p: string): boolean {
  try {
    removeEntry(p);
    return true;
  } catch {
    try {
      removeEntry(path.dirname(p)); // the state directory itself (a link, out of reach)
      return true;
    } catch {
      return false;
    }
  }
}
