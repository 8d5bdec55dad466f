// Changes git's merges carry into the hooks by rename (red team v, V15). The hook-path screens compare
// paths (refRange.ts): a branch whose commits hold no `.githooks` at all passed. But the person's
// `git cherry-pick`, `merge` or `rebase` merges with ort, whose rename detection pairs a file of the
// commit's parent with a similar file of HEAD: a root commit holding the person's hook as a top-level
// `pre-commit`, and a child changing that file — the person's cherry-pick of the child wrote the change
// into `.githooks/pre-commit`, and their next commit ran it. So for each commit a ref brings in, the
// pairs git's rename detection finds between its parent and HEAD are looked at: a commit that changes
// a file paired with a hook path, or a file in a directory paired with one (ort's directory renames put
// a new file there into the hooks directory), changes the hooks. Through the door, as every screen's git.
//
// Bounded as ort bounds itself (red team w, W2, W3): it looks for renames only among the files the other
// side changed, so the rename diff here is limited to those (a file the commit adds or changes, the
// directories above it) and the hook paths — a plain `diff-tree -M <parent> HEAD` skipped inexact pairs past
// diff.renameLimit (1,000 × 1,000 files: W3, a similar copy of the hook beside 1,024 junk files) and walked
// a million paths per commit of a branch holding a million-path directory, synchronously (W2: 20 s). Each
// diff's output is capped, and one call has a time budget: past either the answer is "could not be told".
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { screenGit, unanswered } from './screenGit';
import { keep, recall } from './verdictCache';

/** More new commits than this are not looked at one by one: taken as carrying a change into the hooks. */
const MAX_COMMITS = 64;
/** How long one call's git may take in all (synchronous: the worker's event loop waits). */
export const RENAMES_BUDGET_MS = 1_500;
/** A commit's changes past this much output (~40,000 paths) are not looked at: taken as carrying one. */
const MAX_DIFF_BYTES = 2 << 20;
/** Sources to pair past this many: taken as carrying one. */
const MAX_SOURCES = 2_000;
/** How long the whole-commit diff may take before the commit is read directory by directory. */
const QUICK_DIFF_MS = 200;

/** Is `p` one of the hook paths `specs`, or inside one? */
const isHookPath = (p: string, specs: readonly string[]) => specs.some((s) => p === s || p.startsWith(`${s}/`));

type Git = (
  args: readonly string[],
  timeoutMs?: number,
) => { ok: boolean; timedOut: boolean; stdout: string; stderr: string };

/**
 * The files `commit` adds or changes against `parent` (a deletion carries nothing of it; a directory it
 * adds whole is one entry); undefined: could not be told. git lists a diff only once it has walked all
 * of it — a commit adding or removing a million-path directory walked it for seconds (W2) — so past
 * QUICK_DIFF_MS it is read a directory at a time, descending only where both sides hold a directory.
 */
function changedBy(git: Git, parent: string, commit: string): string[] | undefined {
  const quick = git(['diff-tree', '-r', '-z', '--name-status', '--no-renames', parent, commit], QUICK_DIFF_MS);
  if (quick.ok) {
    const out: string[] = [];
    const f = quick.stdout.split('\0');
    for (let i = 0; i + 1 < f.length; i += 2) if (!f[i]!.startsWith('D')) out.push(f[i + 1]!);
    return out;
  }
  if (!quick.timedOut) return undefined;
  const out: string[] = [];
  const todo: [string, string, string][] = [['', parent, commit]];
  for (let next = todo.pop(); next; next = todo.pop()) {
    const [prefix, a, b] = next;
    const r = git(['diff-tree', '-z', '--no-renames', a, b]);
    if (!r.ok) return undefined;
    const f = r.stdout.split('\0');
    // `:<mode a> <mode b> <oid a> <oid b> <status>` then the name, for each entry that differs.
    for (let i = 0; i + 1 < f.length; i += 2) {
      const [modeA, modeB, oidA, oidB, status] = f[i]!.replace(/^:/, '').split(' ');
      const name = `${prefix}${f[i + 1]!}`;
      if (modeA === '040000' && modeB === '040000') todo.push([`${name}/`, oidA!, oidB!]);
      else if (status !== 'D') out.push(name);
    }
    if (out.length > MAX_SOURCES) return undefined;
  }
  return out;
}

/**
 * The sources of the renames into the hook paths between `from` and `to` (files, and their directories),
 * among `sources` (paths and directories); undefined: git failed or skipped pairs.
 */
function renamedInto(git: Git, from: string, to: string, sources: readonly string[], specs: readonly string[]) {
  const limit = [...specs, ...sources].map((s) => `:(literal)${s}`);
  const r = git(['diff-tree', '-r', '-z', '-M', '--name-status', from, to, '--', ...limit]);
  if (!r.ok || /rename detection was skipped/i.test(r.stderr)) return undefined;
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
 * The paths git's rename detection may pair for a commit that changes `changed`: each, and the directories
 * above each (ort renames a directory with what is new in it and below it; never the top one).
 */
function sourcesOf(changed: readonly string[]): string[] {
  const out = new Set<string>();
  for (const p of changed) {
    out.add(p);
    for (let d = path.posix.dirname(p); d !== '.' && !out.has(d); d = path.posix.dirname(d)) out.add(d);
  }
  return [...out];
}

/**
 * Does a commit reachable from `oid` and from none of `olds` change a file that git's rename detection
 * pairs, from that commit's parent, with a hook path of HEAD (or a file in such a file's directory)?
 * True too when that could not be told (git failed, too many commits or changes, out of time).
 */
export function renamesIntoHooks(
  gitDir: string,
  oid: string,
  olds: ReadonlySet<string>,
  specs: readonly string[],
  budgetMs = RENAMES_BUDGET_MS,
  base?: string,
): boolean {
  const head = screenGit(gitDir, ['rev-parse', '--verify', '-q', 'HEAD^{commit}']);
  if (unanswered(head)) return true; // HEAD not read in time: not screened (red team y, Y2's audit)
  const now = head.stdout.trim();
  // The HEAD the command started from too: the ref screen puts a HEAD the command moved back, and the
  // person's cherry-pick merges into that one (red team w, W13: HEAD pointed at an empty root commit
  // in the same call left nothing to rename into, and V15's branch passed).
  const heads = [...new Set([base, now])].filter((h): h is string => h !== undefined && /^[0-9a-f]{40,64}$/.test(h));
  return heads.some((head) => renamesInto(gitDir, head, oid, olds, specs, budgetMs));
}

/** renamesIntoHooks against one HEAD commit. */
function renamesInto(
  gitDir: string,
  head: string,
  oid: string,
  olds: ReadonlySet<string>,
  specs: readonly string[],
  budgetMs: number,
): boolean {
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
  if (unanswered(present)) return true; // not listed in time: not screened
  // The screens after one call ask for the same tip more than once (the ref, its reflog line).
  const key = createHash('sha256')
    .update([gitDir, head, oid, ...specs, '', ...[...olds].sort()].join('\0'))
    .digest('hex');
  if (recall(verdicts, key)) return false;
  if (judge(gitDir, head, oid, olds, specs, budgetMs)) return true; // not kept: it may be the budget's, and the ref goes anyway
  keep(verdicts, key, true, MAX_VERDICTS); // a live round's in its own map (verdictCache.ts: objects not verified yet)
  return false;
}

/** The tips found to carry nothing into the hooks, by repository, HEAD, tip, specs and olds. */
const verdicts = new Map<string, boolean>();
const MAX_VERDICTS = 256;

function judge(
  gitDir: string,
  head: string,
  oid: string,
  olds: ReadonlySet<string>,
  specs: readonly string[],
  budgetMs: number,
): boolean {
  const deadline = performance.now() + budgetMs;
  const git: Git = (args, timeoutMs = Infinity) => {
    const left = Math.round(deadline - performance.now());
    if (left <= 0) return { ok: false, timedOut: false, stdout: '', stderr: '' };
    const r = screenGit(gitDir, args, undefined, MAX_DIFF_BYTES, Math.min(left, timeoutMs));
    const timedOut = r.timedOut && timeoutMs < left; // its own limit, not the call's budget
    return { ok: r.code === 0 && !r.timedOut && !r.signal, timedOut, stdout: r.stdout, stderr: r.stderr };
  };
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
      const changed = changedBy(git, parent, commit!);
      if (!changed) return true;
      if (changed.length === 0) continue;
      const sources = sourcesOf(changed);
      if (sources.length > MAX_SOURCES) return true;
      const into = renamedInto(git, parent, head, sources, specs);
      if (!into) return true;
      if (into.files.size === 0) continue;
      const under = (p: string) => [...into.dirs].some((d) => d === '.' || p.startsWith(`${d}/`));
      if (changed.some((p) => into.files.has(p) || under(p))) return true;
    }
  }
  return false;
}
