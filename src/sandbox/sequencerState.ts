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
// (am) has no command lines, but patches it applies and commits (sequencerPatches.ts, T3). A new
// line that picks, resets to or merges a commit that carries a git directory or changes the
// repository's hooks (the ref screen's N3 and P1 rules, `screen`) is taken out too, in a rebase's
// todo and a cherry-pick's: `git rebase --continue` picked P1's commit and put its hook on disk (red
// team q, Q10's remainder).
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { anchoredFile, readRegularFile, removeTree } from './anchored';
import { sequencerDirs, stateSnapshots, undoStateFiles, type TodoWordScreen } from './sequencerOptions';
import { patchStamps, undoHookPatches } from './sequencerPatches';
import { eachSliced, loopTicker } from './loopSlices';

export type { TodoWordScreen } from './sequencerOptions';

const TODO = path.join('rebase-merge', 'git-rebase-todo');
const PICKS = path.join('sequencer', 'todo');
/** A todo bigger than this is not read: removed when the command wrote it. */
const MAX_TODO = 4 << 20;
const EXEC = /^[ \t]*(exec|x)([ \t]|$)/i;
const LABEL = /^[ \t]*(?:label|l)[ \t]+(\S+)/i;

/** The commits or labels a todo line names, as git's sequencer parses it (parse_insn_line). */
export function todoLineWords(line: string): string[] {
  const words = line.trim().split(/[ \t]+/);
  const cmd = (words.shift() ?? '').toLowerCase();
  if (['pick', 'p', 'reword', 'r', 'edit', 'e', 'squash', 's', 'revert'].includes(cmd)) return words.slice(0, 1);
  if (cmd === 'fixup' || cmd === 'f') return words.filter((w) => w !== '-C' && w !== '-c').slice(0, 1);
  if (cmd === 'reset' || cmd === 't') return words.slice(0, 1);
  if (cmd === 'merge' || cmd === 'm') {
    const out: string[] = [];
    for (let i = 0; i < words.length && !words[i]!.startsWith('#'); i++)
      if (words[i] === '-C' || words[i] === '-c') out.push(words[++i] ?? '');
      else out.push(words[i]!);
    return out.filter(Boolean);
  }
  return [];
}

/**
 * Each todo (by path) as it was when the command started, undefined when there was none; and the
 * other state files sequencerOptions.ts screens (null: no regular file or too big).
 */
export type TodoSnapshots = Map<string, string | undefined | null>;

/** The todo paths of `gitDirs` (and of their linked worktrees' own git directories). */
function todoPaths(gitDirs: readonly string[]): string[] {
  return sequencerDirs(gitDirs).flatMap((g) => [path.join(g, TODO), path.join(g, PICKS)]);
}

function readTodo(p: string): string | undefined | null {
  return readRegularFile(p, MAX_TODO);
}

/** The todos of `gitDirs` now (before a command). */
export function todoSnapshots(gitDirs: readonly string[]): TodoSnapshots {
  const out: TodoSnapshots = stateSnapshots(gitDirs);
  // A stopped am's patch files, by stamp (red team t, T3).
  for (const [p, stamp] of patchStamps(sequencerDirs(gitDirs))) out.set(p, stamp);
  for (const p of todoPaths(gitDirs)) {
    const t = readTodo(p);
    out.set(p, t ?? undefined);
  }
  return out;
}

/** {@link todoSnapshots} of `gitDirs`, one at a time with the event loop's turn between slices (red team u, U10). */
export async function todoSnapshotsSliced(gitDirs: readonly string[], tick = loopTicker()): Promise<TodoSnapshots> {
  return new Map((await eachSliced(gitDirs, (g) => todoSnapshots([g]), tick)).flatMap((m) => [...m]));
}

/** New lines of one todo screened after a command at most; past it every new line naming a commit is taken out. */
const MAX_SCREENED = 256;

/** The lines of `now` to keep: the todo's own (`was`), and new ones that neither exec nor pick what `screen` refuses. */
function keptLines(now: string, was: string | undefined, gitDir: string, screen?: TodoWordScreen) {
  const known = new Map<string, number>();
  for (const l of (was ?? '').split('\n')) known.set(l, (known.get(l) ?? 0) + 1);
  const lines = now.split('\n');
  const fresh = lines.filter((l) => !known.has(l));
  const hostile = fresh.length > MAX_SCREENED;
  // Labels the todo makes ABOVE a line (`label x`, then `reset x`/`merge x`): git reads `refs/rewritten/x`,
  // which that label writes from what the lines above it made (screened as they are). A word with no
  // label above it is screened as git would read it, `refs/rewritten/<w>` then `<w>` itself (red team t,
  // T4: `reset <P1's commit>` then `label <the same id>` reset the person's branch to it).
  const labelled = new Set<string>();
  const kept: string[] = [];
  let execs = 0;
  let picks = 0;
  for (const l of lines) {
    const left = known.get(l) ?? 0;
    if (left > 0) {
      known.set(l, left - 1);
      kept.push(l);
    } else if (EXEC.test(l)) execs++;
    else if (
      screen &&
      todoLineWords(l).some((w) => !labelled.has(w) && !w.startsWith('[') && (hostile || screen(gitDir, w)))
    )
      picks++;
    else kept.push(l);
    const label = LABEL.exec(l)?.[1];
    if (label !== undefined) labelled.add(label);
  }
  return { kept, execs, picks };
}

/**
 * After a command: the `exec` lines it added to a rebase's todo, and the lines it added that pick a
 * commit `screen` refuses, taken out; one note per todo.
 */
export function undoTodoExecs(
  before: TodoSnapshots,
  gitDirs: readonly string[],
  rel: (p: string) => string = (p) => p,
  screen?: TodoWordScreen,
): string[] {
  const notes: string[] = [];
  for (const p of todoPaths(gitDirs)) {
    const now = readTodo(p);
    const was = before.get(p) ?? undefined;
    if (now === undefined || now === was) continue;
    const where = rel(p);
    if (now === null) {
      notes.push(
        `${where}: a rebase todo that is no regular file (or too big to read); ${drop(p) ?? 'could not be undone'}`,
      );
      continue;
    }
    const { kept, execs, picks } = keptLines(now, was, path.dirname(path.dirname(p)), screen);
    if (execs + picks === 0) continue;
    let done: string | undefined;
    try {
      anchoredFile(p, (pinned) => {
        const tmp = `${pinned}.da-undo-${randomBytes(6).toString('hex')}`;
        fs.writeFileSync(tmp, kept.join('\n'), { encoding: 'latin1', flag: 'wx' });
        fs.renameSync(tmp, pinned);
      });
      done = 'taken out';
    } catch {
      done = drop(p);
    }
    const what = [
      execs ? `${execs} exec line(s)` : '',
      picks ? `${picks} line(s) picking a commit that carries a git directory or changes the repository's hooks` : '',
    ]
      .filter(Boolean)
      .join(' and ');
    notes.push(
      `${where}: ${what} the command left in a todo (the person's \`git rebase --continue\` or \`cherry-pick --continue\` would run them); ${done ?? 'could not be undone'}`,
    );
  }
  // The strategy and the commits the operation goes back to (red team s, S6).
  notes.push(...undoStateFiles(before, gitDirs, rel, screen));
  // The patches a stopped am applies and commits at the person's --skip or --continue (red team t, T3).
  notes.push(...undoHookPatches(before, sequencerDirs(gitDirs), rel));
  return notes;
}

/**
 * Removes the todo, or its state directory when the todo is out of reach (a link on the way: red team
 * s's lead, `.git/rebase-merge` led to the person's other repository); never through a link
 * (removeTree: the directory opened from `/`). Says what went; undefined when nothing could.
 */
function drop(p: string): string | undefined {
  try {
    removeTree(p);
    return 'removed';
  } catch {
    try {
      removeTree(path.dirname(p)); // the state directory itself (out of reach): a link is removed as a link
      return `removed with its state directory ${path.basename(path.dirname(p))} (out of reach: nothing followed)`;
    } catch {
      return undefined;
    }
  }
}
