// Changes git's merges carry into the hooks by rename (red team v, V15). The hook-path screens compare
// paths (refRange.ts): a branch whose commits hold no `.githooks` at all passed. But the person's
// `git cherry-pick`, `merge` or `rebase` merges with ort, whose rename detection pairs a file of the
// commit's parent with a similar file of HEAD: a root commit holding the person's hook as a top-level
// `pre-commit`, and a child changing that file — the person's cherry-pick of the child wrote the change
// into `.githooks/pre-commit`, and their next commit ran it. So for each commit a ref brings in, the
// pairs git's rename detection finds between its parent and HEAD are looked at: a commit that changes
// a file paired with a hook path, or a file in a directory paired with one (ort's directory renames put
// a new file there into the hooks directory), changes the hooks. Through the door, as every screen's git.
import * as path from 'node:path';
import { screenGit } from './screenGit';

/** More new commits than this are not looked at one by one: taken as carrying a change into the hooks. */
const MAX_COMMITS = 64;

/** Is `p` one of the hook paths `specs`, or inside one? */
const isHookPath = (p: string, specs: readonly string[]) => specs.some((s) => p === s || p.startsWith(`${s}/`));

/** The sources of the renames into the hook paths between `from` and `to` (files, and their directories); undefined: git failed. */
function renamedInto(gitDir: string, from: string, to: string, specs: readonly string[]) {
  const r = screenGit(gitDir, ['diff-tree', '-r', '-z', '-M', '--name-status', from, to]);
  if (r.code !== 0) return undefined;
  const files = new Set<string>();
  const dirs = new Set<string>();
  const f = r.stdout.split('\0');
  for (let i = 0; i < f.length - 1;) {
    const status = f[i]!;
    if (!/^[RC]/.test(status)) {
      i += 2;
      continue;
    }
    const [src, dst] = [f[i + 1]!, f[i + 2]!];
    i += 3;
    if (!isHookPath(dst, specs)) continue;
    files.add(src);
    if (path.posix.dirname(src) !== path.posix.dirname(dst)) dirs.add(path.posix.dirname(src));
  }
  return { files, dirs };
}

/**
 * Does a commit reachable from `oid` and from none of `olds` change a file that git's rename detection
 * pairs, from that commit's parent, with a hook path of HEAD (or a file in such a file's directory)?
 * True too when that could not be told (git failed, too many commits).
 */
export function renamesIntoHooks(
  gitDir: string,
  oid: string,
  olds: ReadonlySet<string>,
  specs: readonly string[],
): boolean {
  const head = screenGit(gitDir, ['rev-parse', '--verify', '-q', 'HEAD^{commit}']).stdout.trim();
  if (!/^[0-9a-f]{40,64}$/.test(head)) return false; // no HEAD commit: nothing to rename into
  // None of the hook paths in HEAD: nothing to rename into (the list holds absent names too: X1).
  const present = screenGit(gitDir, [
    'ls-tree',
    '-r',
    '-z',
    '--name-only',
    '--full-tree',
    head,
    '--',
    ...specs.map((s) => `:(literal)${s}`),
  ]);
  if (present.code === 0 && present.stdout === '') return false;
  const list = screenGit(
    gitDir,
    ['rev-list', '--ignore-missing', '--stdin', '--parents', `--max-count=${MAX_COMMITS + 1}`, oid],
    [...olds].map((o) => `^${o}\n`).join(''),
  );
  if (list.code !== 0) return true;
  const commits = list.stdout.split('\n').filter((l) => l !== '');
  if (commits.length > MAX_COMMITS) return true;
  for (const line of commits) {
    const [commit, ...parents] = line.split(' ');
    for (const parent of parents) {
      const into = renamedInto(gitDir, parent, head, specs);
      if (!into) return true;
      if (into.files.size === 0) continue;
      const changed = screenGit(gitDir, ['diff-tree', '-r', '-z', '--name-only', '--no-renames', parent, commit!]);
      if (changed.code !== 0) return true;
      const under = (p: string) => [...into.dirs].some((d) => d === '.' || p.startsWith(`${d}/`));
      if (changed.stdout.split('\0').some((p) => p !== '' && (into.files.has(p) || under(p)))) return true;
    }
  }
  return false;
}
