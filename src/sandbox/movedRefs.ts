// Refs a sandboxed command moved to a commit that carries a git directory (red team n, N3).
//
// The main checkout's sandbox may write `.git/objects` and `.git/refs` (so that the agent's own
// `git commit` works), so plumbing (`hash-object`, `mktree`, `commit-tree`, `update-ref`) can move a
// branch the person works on to a commit whose tree holds `src/HEAD`, `src/objects/…`, `src/refs/…`
// and `src/config` (`core.worktree = ..`, `core.fsmonitor`) — with nothing written in the working
// tree for the watch to see. The person's own `git checkout`, `reset --hard`, `stash` or a merge then
// puts a bare repository on disk, and their `git status` below `src/` runs its fsmonitor. M5's screen
// covers checkouts the worker or the CLI make; this covers the refs themselves: after each command,
// every ref of the working directories' repositories that moved (or appeared) is listed, and one
// whose tree carries a git directory is put back where it was (removed when it is new), by
// compare-and-swap, and named in the result. Git never needs a `HEAD` below a tree's top.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runHostProcessSync } from '../hostProcess/door';
import { GIT_GUARD_ENV } from '../hostProcess/git';

/** Each repository's refs (full name → object id) when a command started, by git directory. */
export type RefSnapshots = Map<string, Map<string, string>>;

/** What makes a directory a git directory for git and what git then runs from it (M5's list). */
const CARRIED = new Set(['config', 'config.worktree', 'commondir', 'hooks']);
const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
const MAX_LOOSE = 20_000;

function looseRefs(dir: string, name: string, out: Map<string, string>): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    if (out.size >= MAX_LOOSE) return;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) looseRefs(p, `${name}/${e.name}`, out);
    else if (e.isFile()) {
      try {
        const v = fs.readFileSync(p, 'utf8').trim();
        if (OID.test(v)) out.set(`${name}/${e.name}`, v);
      } catch {
        // gone meanwhile
      }
    }
  }
}

/** The refs of a git directory as its files hold them: packed-refs, then loose refs over them, and a detached HEAD. */
export function readRefs(gitDir: string): Map<string, string> {
  const out = new Map<string, string>();
  try {
    for (const line of fs.readFileSync(path.join(gitDir, 'packed-refs'), 'utf8').split('\n')) {
      const m = /^([0-9a-f]{40,64}) (refs\/\S+)$/.exec(line);
      if (m && OID.test(m[1]!)) out.set(m[2]!, m[1]!);
    }
  } catch {
    // none
  }
  looseRefs(path.join(gitDir, 'refs'), 'refs', out);
  try {
    const head = fs.readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
    if (OID.test(head)) out.set('HEAD', head);
  } catch {
    // none
  }
  return out;
}

/** The git directories of the working directories (a `.git` directory at a root) and their refs now. */
export function refSnapshots(roots: readonly string[]): RefSnapshots {
  const out: RefSnapshots = new Map();
  for (const r of roots) {
    const g = path.join(r, '.git');
    if (fs.lstatSync(g, { throwIfNoEntry: false })?.isDirectory()) out.set(g, readRefs(g));
  }
  return out;
}

function git(gitDir: string, args: readonly string[]): { code: number | null; stdout: string } {
  return runHostProcessSync({
    purpose: 'git',
    command: 'git',
    args: [`--git-dir=${gitDir}`, '-c', 'core.hooksPath=/dev/null', ...args],
    cwd: '/',
    env: { ...GIT_GUARD_ENV, HOME: '/nonexistent' },
  });
}

/** Does the tree of `oid` hold a directory below its top with a `HEAD` and what git runs beside it? */
function carriesGitDirectory(gitDir: string, oid: string): boolean {
  const r = git(gitDir, ['ls-tree', '-r', '--name-only', '-z', oid]);
  if (r.code !== 0) return false; // not a tree-ish (a blob a tag names): nothing a checkout puts on disk
  const paths = r.stdout.split('\0').filter(Boolean);
  const heads = new Set<string>();
  for (const p of paths) {
    const i = p.lastIndexOf('/');
    if (i > 0 && p.slice(i + 1).toUpperCase() === 'HEAD') heads.add(p.slice(0, i).toLowerCase());
  }
  if (heads.size === 0) return false;
  return paths.some((p) => {
    for (let i = p.indexOf('/'); i > 0; i = p.indexOf('/', i + 1))
      if (
        heads.has(p.slice(0, i).toLowerCase()) &&
        CARRIED.has(
          p
            .slice(i + 1)
            .split('/')[0]!
            .toLowerCase(),
        )
      )
        return true;
    return false;
  });
}

/**
 * After a sandboxed command: each ref that moved or appeared since `before` and now names a commit
 * carrying a git directory is put back (compare-and-swap: only if it still names what the command
 * left) or removed when it is new; one note per ref.
 */
export function undoCarriedRefs(before: RefSnapshots, rel: (p: string) => string = (p) => p): string[] {
  const notes: string[] = [];
  for (const [gitDir, was] of before) {
    const now = fs.lstatSync(gitDir, { throwIfNoEntry: false })?.isDirectory() ? readRefs(gitDir) : new Map();
    for (const [ref, oid] of now) {
      const old = was.get(ref);
      if (old === oid || !carriesGitDirectory(gitDir, oid)) continue;
      const args =
        ref === 'HEAD'
          ? ['update-ref', '--no-deref', 'HEAD', old ?? oid, oid]
          : old
            ? ['update-ref', ref, old, oid]
            : ['update-ref', '-d', ref, oid];
      const r = ref === 'HEAD' && !old ? { code: 1 } : git(gitDir, args);
      const what = `${rel(path.dirname(gitDir))}: ${ref} named a commit carrying a git directory (a HEAD below the top with its config or hooks: the person's checkout of it would run its config)`;
      notes.push(
        r.code === 0
          ? `${what}; ${old ? `put back at ${old.slice(0, 12)}` : 'removed'}`
          : `${what}; could not be undone`,
      );
    }
  }
  return notes;
}
