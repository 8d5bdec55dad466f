// The sandbox's side of the protected paths (src/permissions/protectedPaths.ts): the write-deny
// list of ONE sandboxed Bash call, built from the session's working directories (never the
// worker's process.cwd(), which is all @anthropic-ai/sandbox-runtime's own protection knows), and
// the check after the call that undoes what the list could not stop (a repository, or a
// `.claude/` directory, that the call itself created below a working directory).
//
//  - before the call: a bounded scan of each working directory finds the protected entries that
//    exist (nested repositories' config and hooks, `.claude/`, `.vscode/`, shell start-up files…);
//    they and the key names at each working directory — whether they exist or not, so that their
//    creation fails too — go to the call's denyWrite list (the runtime mounts an absent one's
//    first missing component read-only);
//  - after the call: the same scan again. A protected entry that is new and not under the call's
//    deny list was created by the call (or meanwhile, outside it): a file is removed, a new git
//    config keeps only keys that run nothing, a new hook is removed; the tool result says so.
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  anchoredFile,
  DirectoryMoved,
  inAnchoredDirectory,
  reachOwned,
  readdirOwned,
  removeAnchored,
  withOwnerRetry,
} from './anchored';
import { fingerprint, restoreLinks, type ProtectedEntry, type ProtectedScan } from './entryState';
import { sanitizeGitConfig } from './gitConfigSanitize';
import { DIR_NAMES, fold, walkListing } from './walkListing';
import { isRepositoryDir, lstat, tailTarget } from './treeNames';
import { runAll } from './loopSlices';
import {
  HG_CONTROL_ENTRIES,
  PROTECTED_SEQUENCES,
  isLinkableNpmDir,
  isProtectedFileName,
  isProtectedTailEntry,
  protectedReason,
} from '../permissions/protectedPaths';

/** How deep below a working directory protected entries are looked for (the runtime's own scan: 3). */
export const PROTECTED_SCAN_DEPTH = 5;
/** Directory entries one scan reads at most, over all working directories. */
export const PROTECTED_SCAN_BUDGET = 50_000;

/**
 * Denied at each working directory whether they exist or not (their creation must fail): what
 * configures this agent or the reference, and what git, a shell or an editor runs by itself.
 * The other protected names are denied where they exist and removed after the call if it made
 * them (a placeholder for each of ~60 names in every directory would litter the project, and an empty
 * `rust-toolchain` breaks cargo).
 */
export const DENIED_EVEN_ABSENT = [
  '.claude',
  '.durable-agent',
  '.mcp.json',
  '.claude.json',
  '.vscode',
  '.idea',
  '.envrc',
  '.gitmodules',
  '.gitconfig',
  '.husky',
  '.devcontainer',
  '.devcontainer.json',
  '.bashrc',
  '.bash_profile',
  '.zshrc',
  '.zprofile',
  '.profile',
  '.ripgreprc',
] as const;

/** Is a path inside a repository (relative to its root, as git names it) protected by name? (A commit's paths, src/worktree/git/.) */
export function isProtectedRepositoryPath(rel: string): boolean {
  return protectedReason(path.join('/', rel), ['/']) !== undefined;
}

/** In a git directory: what runs code. `modules/*` and `worktrees/*` are git directories too. */
// `info/grafts`: git's old file form of a replace ref, still honoured; made HEAD's parent P1's commit for the
// person's `git reset --hard HEAD~1` (red team t, T6): denied when it exists, removed when a command makes it.
const GIT_DIR_ENTRIES = ['config', 'config.worktree', 'commondir', 'hooks', 'info/grafts'] as const;
/** `.yarn/`: yarn runs its releases and plugins; its cache and install state stay writable. */
const YARN_ENTRIES = ['releases', 'plugins', 'sdks'] as const;

function readdir(p: string): fs.Dirent[] {
  try {
    return readdirOwned(p);
  } catch {
    return [];
  }
}

/** The entries of a git directory that run code, and those of its modules and worktrees. */
function gitDirEntries(
  gitDir: string,
  add: (e: Omit<ProtectedEntry, 'existed'> & { existed?: boolean }) => void,
  depth = 0,
): void {
  // A `.git` that is no repository (git's discovery walks past it: an empty one a command made) has
  // its absent entries undone after the call like a repository the command creates, not held by
  // placeholders and mounts: a thousand empty `.git` directories made every later call hold the
  // worker's event loop for seconds, and refused (red team u, U10). What is in it is denied as ever.
  const absent = depth === 0 && !isRepositoryDir(gitDir) ? { absentUndone: true } : undefined;
  for (const name of GIT_DIR_ENTRIES) {
    const p = path.join(gitDir, name);
    add({
      path: p,
      kind:
        name === 'hooks' ? 'gitHooks' : name === 'config' || name === 'config.worktree' ? 'gitConfig' : 'gitPointer',
      existed: false,
      ...(absent ?? (name === 'commondir' || name === 'config.worktree' ? { denyAbsent: true } : {})),
    });
  }
  // The worktrees' shadow git directories (src/worktree/git/): their config is the worker's.
  // The worktree registrations (issue 30): a forged `worktrees/<x>/gitdir` would name a directory
  // outside the project as one of its worktrees (protectedDenyWrite denies `worktrees` whole).
  if (depth === 0) {
    add({ path: path.join(gitDir, 'durable-agent'), kind: 'dir' });
    add({ path: path.join(gitDir, 'worktrees'), kind: 'gitWorktrees', ...absent });
  }
  if (depth >= 3) return;
  for (const sub of ['modules', 'worktrees']) {
    for (const e of readdir(path.join(gitDir, sub))) {
      if (!e.isDirectory()) continue;
      gitDirEntries(path.join(gitDir, sub, e.name), add, depth + 1);
      if (sub === 'worktrees') add({ path: path.join(gitDir, sub, e.name, 'gitdir'), kind: 'gitPointer' });
    }
  }
}

type AddEntry = (e: Omit<ProtectedEntry, 'existed'> & { existed?: boolean }) => void;

/**
 * The protected entries one directory entry stands for (`name` folded), added with `add`; true when it
 * is one (its inside is then the entry's, not walked further): a git directory's entries, `.yarn`'s
 * programs, a Mercurial repository's config and share pointer, a protected directory or file, the
 * protected entries of a sequence's head (`.config/git`, `.config/mise`, `mise/config.toml`).
 */
function classifyEntry(p: string, name: string, isDir: boolean, add: AddEntry): boolean {
  if (name === '.git') {
    if (isDir) gitDirEntries(p, add);
    else add({ path: p, kind: 'gitPointer' });
    return true;
  }
  if (name === '.yarn' && isDir) {
    for (const y of YARN_ENTRIES) add({ path: path.join(p, y), kind: 'dir' });
    return true;
  }
  if (name === '.hg' && isDir) {
    // Kind `file`: denied even when absent (an empty hgrc configures nothing; an empty sharedpath is
    // read only by a share, whose `requires` says so), removed when the command made one.
    for (const h of HG_CONTROL_ENTRIES) add({ path: path.join(p, h), kind: 'file' });
    return true;
  }
  if (DIR_NAMES.has(name)) {
    add({ path: p, kind: isDir ? 'dir' : 'file' });
    return true;
  }
  // A symlink named node_modules (or node_modules/.bin): npx follows it (M14b); the link itself, not its target.
  if (!isDir && isLinkableNpmDir(path.dirname(p), name) && lstat(p)?.isSymbolicLink()) {
    add({ path: p, kind: 'file' });
    return true;
  }
  if (isProtectedFileName(name) || isProtectedTailEntry(path.dirname(p), name)) {
    add({ path: p, kind: isDir && !isProtectedFileName(name) ? 'dir' : 'file' });
    return true;
  }
  if (isDir) {
    for (const seq of PROTECTED_SEQUENCES) {
      if (seq[0] !== name) continue;
      for (const x of readdir(p))
        if (fold(x.name) === seq[1])
          add({ path: path.join(p, x.name), kind: x.isDirectory() && !x.isSymbolicLink() ? 'dir' : 'file' });
    }
  }
  return false;
}

export { FINGERPRINT_BUDGET, fingerprint, type ProtectedEntry, type ProtectedScan } from './entryState';

const inNodeModules = (p: string) => p.split(path.sep).includes('node_modules');

/**
 * Adds the protected entries named by `paths` (entries with a protected name found at any depth by
 * the tree watch, src/sandbox/treeWatch.ts) to `scan`, classified as the walk classifies them; those
 * inside `node_modules` loose (fingerprinted, not denied).
 */
export function addProtectedEntries(scan: ProtectedScan, paths: readonly string[]): void {
  for (const p of paths) {
    const st = lstat(p);
    if (!st) continue;
    const loose = inNodeModules(p);
    classifyEntry(p, fold(path.basename(p)), st.isDirectory() && !st.isSymbolicLink(), (e) => {
      if (scan.entries.has(e.path)) return;
      scan.entries.set(e.path, {
        ...e,
        existed: hasContent(e.path),
        ...(loose && e.kind !== 'gitConfig' && e.kind !== 'gitHooks' && e.kind !== 'gitPointer'
          ? { loose: fingerprint(e.path) }
          : {}),
      });
    });
    const target = st.isSymbolicLink() ? tailTarget(p) : undefined;
    if (target && !scan.entries.has(target))
      scan.entries.set(target, { path: target, kind: 'file', existed: hasContent(target), loose: fingerprint(target) });
  }
}

/**
 * The protected entries below the working directories, to the depth and budget (no symlink is
 * followed; node_modules is skipped, as the runtime's scan does: the tree watch's record covers every
 * depth and node_modules, addProtectedEntries). `extra`: the hook scripts.
 */
export function scanProtected(
  roots: readonly string[],
  extra: readonly string[] = [],
  maxDepth = PROTECTED_SCAN_DEPTH,
  budget = PROTECTED_SCAN_BUDGET,
): ProtectedScan {
  return runAll(scanProtectedWalk(roots, extra, maxDepth, budget));
}

/** {@link scanProtected}'s walk: it may pause at each `yield` (after each directory; loopSlices.ts, red team u, U10). */
export function* scanProtectedWalk(
  roots: readonly string[],
  extra: readonly string[] = [],
  maxDepth = PROTECTED_SCAN_DEPTH,
  budget = PROTECTED_SCAN_BUDGET,
): Generator<void, ProtectedScan> {
  const entries = new Map<string, ProtectedEntry>();
  let left = budget;
  let truncated = false;
  const add = (e: Omit<ProtectedEntry, 'existed'> & { existed?: boolean }) => {
    if (!entries.has(e.path)) entries.set(e.path, { ...e, existed: hasContent(e.path) });
  };
  function* walk(dir: string, depth: number): Generator<void, void> {
    const { count, visit } = walkListing(dir);
    // Each entry counts against the budget, those skipped (walkListing) too, in the listing's order.
    let at = -1;
    for (const { index, e, name } of visit) {
      left -= index - at;
      at = index;
      if (left < 0) {
        truncated = true;
        return;
      }
      const p = path.join(dir, e.name);
      if (classifyEntry(p, name, e.isDirectory(), add)) continue;
      if (e.isDirectory() && !e.isSymbolicLink() && name !== 'node_modules' && depth < maxDepth)
        yield* walk(p, depth + 1);
    }
    left -= count - 1 - at;
    if (left < 0) truncated = true;
    yield;
  }
  for (const r of roots) {
    const root = path.resolve(r);
    if (!lstat(root)?.isDirectory()) continue;
    yield* walk(root, 1);
  }
  for (const x of extra) add({ path: path.resolve(x), kind: 'file' });
  return { entries, truncated };
}

/** One git directory's protected entries (or a `.git` file's), as the scan would list them (liveGuard.ts). */
export function gitDirScan(dotGit: string): ProtectedScan {
  const entries = new Map<string, ProtectedEntry>();
  const add = (e: Omit<ProtectedEntry, 'existed'> & { existed?: boolean }) => {
    if (!entries.has(e.path)) entries.set(e.path, { ...e, existed: hasContent(e.path) });
  };
  const st = lstat(dotGit);
  if (st?.isDirectory()) gitDirEntries(dotGit, add);
  else if (st) add({ path: dotGit, kind: 'gitPointer' });
  return { entries, truncated: false };
}

/**
 * The call's write-deny list: the protected entries the scan found (existing), the names denied
 * even when absent at every working directory, `.git`'s config and hooks where `.git` is a
 * directory (an absent `.git` is left creatable: `git init` must work; the check after the call
 * handles what such a call puts in it), the hook scripts, and `extraRoots`' names (writable
 * directories from `sandbox.filesystem.allowWrite`: the names at their top here; the protected
 * entries below them, as the tree watch records them, are in `scan` — sessionPlan.ts nameRoots, K10).
 */
export function protectedDenyWrite(
  scan: ProtectedScan,
  workingDirs: readonly string[],
  extraRoots: readonly string[] = [],
  allowWrite: readonly string[] = [],
): string[] {
  const out = new Set<string>();
  const worktrees: string[] = [];
  for (const e of scan.entries.values()) {
    if (e.kind === 'gitWorktrees') {
      if (!e.absentUndone || lstat(e.path) !== undefined) worktrees.push(e.path);
    } else if (e.loose !== undefined) continue;
    else if (lstat(e.path) !== undefined || e.denyAbsent) out.add(e.path);
    else if (e.absentUndone) continue;
    // An absent file: denied (an empty placeholder while the command runs, placeholders.ts) unless
    // it has a protected name, which an empty file can break: rustup refuses an empty
    // `rust-toolchain`, so the agent's own `cargo build` would fail. Those are undone after the call.
    else if (e.kind === 'file' && !isProtectedFileName(fold(path.basename(e.path)))) out.add(e.path);
  }
  for (const r of [...workingDirs, ...extraRoots]) {
    const root = path.resolve(r);
    for (const n of DENIED_EVEN_ABSENT) out.add(path.join(root, n));
    const git = path.join(root, '.git');
    const st = lstat(git);
    if (st?.isDirectory()) {
      out.add(path.join(git, 'config'));
      // Absent too (red team, issue 30): with extensions.worktreeConfig (which `git sparse-checkout
      // init` sets) git reads it like the config, and the undo after the call came too late for the
      // person's own `git status` meanwhile (its core.fsmonitor ran). An absent one is held by an
      // empty placeholder while the command runs: an empty config, which configures nothing.
      out.add(path.join(git, 'config.worktree'));
      // Absent too (red team, issue 30): a `commondir` the command writes points the person's git at a
      // configuration it wrote. Its placeholder holds `.` (the git directory itself: no commondir to
      // git), not an empty file, on which git dies.
      out.add(path.join(git, 'commondir'));
      out.add(path.join(git, 'hooks'));
      worktrees.push(path.join(git, 'worktrees'));
    } else if (st) out.add(git);
  }
  for (const w of new Set(worktrees)) for (const d of worktreesDenyWrite(w, allowWrite)) out.add(d);
  return [...out];
}

/**
 * A repository's worktree registrations (`.git/worktrees`), read-only like its config (issue 30):
 * only git outside the sandbox registers a worktree. An absent directory is made first (git makes it
 * on the first `worktree add`; empty, it means nothing), so that denying it leaves nothing on the
 * host and a worktree the worker registers meanwhile is never taken for one the command made. When
 * the command's own worktree's git directory is inside it (writable: its HEAD, index, logs), every
 * other registration is denied instead, and that one's pointers (worktreeGitAccess denies them too).
 */
function worktreesDenyWrite(dir: string, allowWrite: readonly string[]): string[] {
  const st = lstat(dir);
  if (st?.isSymbolicLink()) return [dir];
  if (!st) {
    try {
      fs.mkdirSync(dir, { mode: 0o755 });
    } catch {
      return [dir];
    }
  } else if (!st.isDirectory()) return [dir];
  const inside = allowWrite.map((a) => path.resolve(a)).filter((a) => a !== dir && under(a, dir));
  if (inside.length === 0) return [dir];
  const out: string[] = [];
  for (const e of readdir(dir)) {
    const p = path.join(dir, e.name);
    if (inside.some((a) => under(a, p))) out.push(path.join(p, 'gitdir'), path.join(p, 'commondir'));
    else out.push(p);
  }
  return out;
}

const under = (p: string, d: string) => p === d || p.startsWith(d.endsWith(path.sep) ? d : d + path.sep);

/**
 * `(p) => dirs.some((d) => under(p, d))` for normalized paths, by `p`'s ancestors in a set: thousands
 * of entries against thousands of denies held the worker's event loop for seconds (red team u, U10).
 */
function underAnyOf(dirs: readonly string[]): (p: string) => boolean {
  const set = new Set(dirs.map((d) => (d.length > 1 ? d.replace(/\/+$/, '') || path.sep : d)));
  return (p) => {
    for (let q = p; ; q = path.dirname(q)) {
      if (set.has(q)) return true;
      if (path.dirname(q) === q) return false;
    }
  };
}

/**
 * Is there something at `p`: content, or a way for content to arrive unseen? An empty file with a
 * second name (a hard link) is filled through the other name without an event on this one while the
 * command still runs (issue 30, N4 / gap G4: M13 within one command), so it counts as content.
 */
export function hasContent(p: string): boolean {
  const st = lstat(p);
  if (!st) return false;
  if (st.isSymbolicLink()) return true;
  if (st.isFile()) return st.size > 0 || st.nlink > 1;
  if (st.isDirectory()) return readdir(p).some((e) => hasContent(path.join(p, e.name)));
  return true; // a fifo, a socket: not what a control file is
}

/** What the live guard (liveGuard.ts) hears from one undo while the command runs. */
export interface LiveUndo {
  /** A config git is writing right now: left, and named here, to be tried again. */
  busy?: (configPath: string) => void;
  /** Each entry undone (a config that lost a key, a hook or file removed), by its path (the guard counts them). */
  undid?: (entryPath: string) => void;
  /** An entry left because its parent is not the directory the scan saw now (a symlink swapped in): to be tried again. */
  moved?: (entryPath: string) => void;
}

/**
 * Undoes one protected entry through its directory as the scan saw it (anchored.ts: a command that
 * swaps a directory on the way for a symlink meanwhile does not redirect the removal; red team P5).
 */
function undoEntry(e: ProtectedEntry, rel: (p: string) => string, notes: string[], live: LiveUndo): void {
  const { busy, undid } = live;
  try {
    anchoredFile(e.path, (pinned) => {
      switch (e.kind) {
        case 'gitConfig': {
          const removed = sanitizeGitConfig(pinned, busy === undefined);
          if (removed === undefined) busy?.(e.path);
          else if (removed.length > 0) {
            undid?.(e.path);
            notes.push(
              `${rel(e.path)}: removed ${removed.join(', ')} (a git config key that runs a program, in a config this call created)`,
            );
          }
          break;
        }
        case 'gitHooks': {
          inAnchoredDirectory(e.path, (at) => {
            for (const h of readdir(at('.'))) {
              if (h.name.endsWith('.sample') && !h.isSymbolicLink()) continue;
              removeAnchored(path.dirname(at(h.name)), h.name);
              const p = path.join(e.path, h.name);
              undid?.(p);
              notes.push(`${rel(p)}: removed (a git hook this call created)`);
            }
          });
          break;
        }
        case 'gitPointer': {
          // A worktree's `commondir` that leads back to its own repository is git's own.
          if (path.basename(e.path) === 'commondir') {
            const target = path.resolve(path.dirname(e.path), fs.readFileSync(pinned, 'utf8').trim());
            if (under(path.dirname(e.path), target) && path.basename(target) === '.git') break;
          }
          removeAnchored(path.dirname(pinned), path.basename(pinned));
          undid?.(e.path);
          const what =
            path.basename(e.path) === 'grafts' ? 'a graft file, which gives commits other parents,' : 'a git pointer';
          notes.push(`${rel(e.path)}: removed (${what} this call created)`);
          break;
        }
        default:
          removeAnchored(path.dirname(pinned), path.basename(pinned));
          undid?.(e.path);
          notes.push(
            `${rel(e.path)}: removed (a protected ${e.kind === 'dir' ? 'directory' : 'file'} this call created)`,
          );
      }
    });
  } catch (err) {
    if (!(err instanceof DirectoryMoved)) throw err;
    // While the command runs: tried again. After it (the ways were cut first, linkedWays.ts): said.
    if (live.moved) live.moved(e.path);
    else notes.push(`${rel(e.path)}: could not be undone (a directory on its way moved while it was checked)`);
  }
}

/**
 * After a sandboxed call: undoes the protected entries that are new since `before` and were not
 * under the call's deny list (so the call could write them). Returns one line per undone write
 * (for the tool result). `rootsReal`: the working directories as real paths (scan roots).
 */
export function undoProtectedWrites(
  before: ProtectedScan,
  after: ProtectedScan,
  denyWrite: readonly string[],
  roots: readonly string[],
  /** While the command runs (liveGuard.ts): what it is told. */
  live: LiveUndo = {},
): string[] {
  const notes: string[] = [];
  const denied = underAnyOf(denyWrite);
  const rel = (p: string) => {
    const r = roots.find((x) => under(p, x));
    return r ? path.relative(r, p) || '.' : p;
  };
  restoreLinks(before, rel, notes);
  for (const e of after.entries.values()) {
    const was = before.entries.get(e.path);
    if (denied(e.path) || was?.link !== undefined) continue;
    // A loose entry (node_modules) that was there is undone only when the call changed it.
    if (was?.existed && (was.loose === undefined || was.loose === fingerprint(e.path))) continue;
    // A directory on its way made unsearchable (chmod 000) hides nothing from the check.
    const root = roots.find((x) => under(e.path, x));
    if (root) reachOwned(root, e.path);
    if (!hasContent(e.path)) continue;
    try {
      withOwnerRetry(e.path, () => undoEntry(e, rel, notes, live));
    } catch (err) {
      // Not the pinned `/proc/<pid>/fd/<n>/`: it gives the worker's pid away (red team q, Q20).
      const why = (err as Error).message.replace(/\/proc\/\d+\/fd\/\d+\//g, '');
      notes.push(`${rel(e.path)}: could not be undone (${why})`);
    }
  }
  return notes;
}
