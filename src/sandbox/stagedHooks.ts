// What a sandboxed command stages for the person's hooks (red team q, Q16). The main checkout's
// sandbox writes `.git/index` (the agent's own `git add` needs it), and the index is no ref: one call
// staged `.githooks/post-checkout` with `git update-index --cacheinfo` (the blob in `.git/objects`,
// nothing on disk, no ref moved), and the person's "throw away my changes" — `git checkout -- .` —
// wrote it from the index and ran it at once; their `git commit` committed it. The same for the
// person's own hook, staged with the agent's blob. So: when a command starts, the index is kept (its
// bytes: no git runs unless the command changes it); when the command changed it, its entries under
// the paths the person's hooks are (hookPathspecs.ts: the hooks directory inside the work
// tree, the files its hooks and hook frameworks run) are listed in both, and an entry the command
// added or changed there is put back as it was (taken out of the index when new). The working tree
// is not touched (its hook files are denied to the command).
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runHostProcessSync } from '../hostProcess/door';
import { GIT_GUARD_ENV } from '../hostProcess/git';
import { anchoredFile, removeAnchored } from './anchored';
import { hookPathspecs, hooksUnread } from './hookPathspecs';
import { submoduleGitDirs, workTreeOf } from './repoConfigTargets';
import { stagedGitlinks, type PutBack } from './stagedGitlinks';

interface Staged {
  gitDir: string;
  /** The index file's identity and times (a write replaces it: index.lock renamed over it). */
  stat: string;
  /** Its bytes, to list its hook entries only when a command changed it (none over MAX_INDEX: HEAD's then). */
  bytes?: Buffer;
  /** The hook paths, read once (what names them is protected: the same for the whole command). */
  specs?: readonly string[];
  /** Its entries under the hook paths, once listed (the live guard looks again and again): by the paths. */
  listedThen?: { specs: string; entries: Map<string, string> };
  /** Whether `index.lock` was there when the command started (the person's own git at work). */
  locked?: boolean;
}

/** The index of each working directory's repository when a command started. */
export type StagedSnapshots = Staged[];

/** Bytes of a repository's submodules' indexes kept at most (past it: compared with their HEAD). */
const MAX_SUBMODULE_INDEXES = 32 << 20;
/** An index kept for the comparison at most (a repository of ~300,000 files); a bigger one is compared with HEAD. */
const MAX_INDEX = 32 << 20;

function git(gitDir: string, args: readonly string[], env: Record<string, string> = {}) {
  return runHostProcessSync(
    {
      purpose: 'git',
      command: 'git',
      args: [`--git-dir=${gitDir}`, '-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', ...args],
      cwd: '/',
      env: { ...GIT_GUARD_ENV, HOME: '/nonexistent', GIT_NO_LAZY_FETCH: '1', ...env },
    },
    { timeoutMs: 10_000, maxBuffer: 64 << 20 },
  );
}

/** The index's identity and times, links not followed ('-': none). */
function indexStat(gitDir: string): string {
  const st = fs.lstatSync(path.join(gitDir, 'index'), { throwIfNoEntry: false, bigint: true });
  return st ? `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}` : '-';
}

/** Is `.git/index` there and no regular file (a FIFO git blocks on, a link it follows: red team t, T19)? */
const oddIndex = (gitDir: string) => {
  const st = fs.lstatSync(path.join(gitDir, 'index'), { throwIfNoEntry: false });
  return st !== undefined && !st.isFile();
};

/**
 * The index's bytes, read without blocking or following a link (T19: a FIFO left as `.git/index`
 * blocked the worker's one thread at the next command's start): undefined when it is no regular
 * file or bigger than MAX_INDEX (HEAD is compared then), empty when there is none.
 */
function indexBytes(gitDir: string): Buffer | undefined {
  let fd: number;
  try {
    fd = fs.openSync(
      path.join(gitDir, 'index'),
      fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK,
    );
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? Buffer.alloc(0) : undefined; // none: every entry is new
  }
  try {
    const st = fs.fstatSync(fd);
    return st.isFile() && st.size <= MAX_INDEX ? fs.readFileSync(fd) : undefined;
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

const literal = (specs: readonly string[]) => ['--', ...specs.map((s) => `:(literal)${s}`)];

/** `<path>\0<stage>` → `<mode> <object id>` of git's listing (`ls-files -s -z`, or `ls-tree -r -z` as stage 0). */
function entriesOf(out: string): Map<string, string> {
  const entries = new Map<string, string>();
  for (const rec of out.split('\0')) {
    const m = /^(\d+) (?:blob |commit )?([0-9a-f]+)(?: (\d))?\t(.+)$/s.exec(rec);
    if (m) entries.set(`${m[4]}\0${m[3] ?? '0'}`, `${m[1]} ${m[2]}`);
  }
  return entries;
}

/** The entries under `specs` of the index now, of the index as `bytes` held it, or of HEAD; undefined when git could not list them. */
function listed(gitDir: string, specs: readonly string[], from?: Buffer | 'HEAD'): Map<string, string> | undefined {
  if (from === 'HEAD') {
    const r = git(gitDir, ['ls-tree', '-r', '-z', '--full-tree', 'HEAD', ...literal(specs)]);
    return r.code === 0 ? entriesOf(r.stdout) : undefined;
  }
  let tmp: string | undefined;
  try {
    if (from) {
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'da-index-'));
      fs.writeFileSync(path.join(tmp, 'index'), from, { flag: 'wx', mode: 0o600 });
    }
    const env: Record<string, string> = tmp ? { GIT_INDEX_FILE: path.join(tmp, 'index') } : {};
    const r = git(gitDir, ['ls-files', '-s', '-z', ...literal(specs)], env);
    return r.code === 0 ? entriesOf(r.stdout) : undefined;
  } finally {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** The index of each repository at the working directories (a `.git` directory) now: its identity and bytes. */
export function stagedSnapshots(roots: readonly string[]): StagedSnapshots {
  const out: StagedSnapshots = [];
  for (const r of roots) {
    const top = path.join(r, '.git');
    if (!fs.lstatSync(top, { throwIfNoEntry: false })?.isDirectory()) continue;
    let kept = 0;
    // And each submodule's (`.git/modules/<name>`, nested too): a gitlink staged there is what the
    // person's `git submodule update --recursive` checks out inside it (red team y, Y4's variant).
    for (const gitDir of [top, ...submoduleGitDirs(top)]) {
      const stat = indexStat(gitDir);
      let bytes = indexBytes(gitDir);
      // Past MAX_SUBMODULE_INDEXES a submodule's index is compared with its HEAD, as a big one is.
      if (gitDir !== top && bytes && (kept += bytes.length) > MAX_SUBMODULE_INDEXES) bytes = undefined;
      const locked = fs.lstatSync(path.join(gitDir, 'index.lock'), { throwIfNoEntry: false }) !== undefined;
      out.push({ gitDir, stat, locked, ...(bytes ? { bytes } : {}) });
    }
  }
  return out;
}

/** The entries under `specs` when the command started (listed once per set of paths). */
function thenOf(was: Staged, specs: readonly string[]): Map<string, string> | undefined {
  const key = specs.join('\0');
  if (was.listedThen?.specs === key) return was.listedThen.entries;
  const entries = was.bytes?.length === 0 ? new Map<string, string>() : listed(was.gitDir, specs, was.bytes ?? 'HEAD');
  if (entries) was.listedThen = { specs: key, entries };
  return entries;
}

/**
 * After a command: each index it changed gets its hook entries back as they were when it started
 * (an added one removed, a changed one staged again with its old object). One line per entry put back.
 */
export function undoStagedHooks(
  before: StagedSnapshots,
  rel: (p: string) => string = (p) => p,
  opts: { afterCall?: boolean } = {},
): string[] {
  const notes: string[] = [];
  for (const was of before) {
    // An index removed carries nothing (git reads none); one written again from nothing would drop the rest.
    const stat = indexStat(was.gitDir);
    if (stat === was.stat || stat === '-') continue;
    if (oddIndex(was.gitDir)) {
      // No git runs on it (it would block, or read what a link leads to); after the call it goes (T19).
      if (opts.afterCall) notes.push(removeOddIndex(was.gitDir, rel));
      continue;
    }
    const specs = (was.specs ??= hookPathspecs(was.gitDir));
    if (hooksUnread(specs)) {
      // The hook paths could not be read (red team v, V11): after the call, the index as it was, whole.
      const why = '(any entry: the repository’s hook configuration could not be read)';
      if (opts.afterCall) notes.push(...failClosed(was, [why], rel, true));
      continue;
    }
    const putBack = changedEntries(was, specs);
    if (putBack === 'unscreenable') {
      // The index's gitlinks could not be listed (stagedGitlinks.ts): after the call, the index as it was.
      const why = '(any gitlink: the index could not be listed in time)';
      if (opts.afterCall) notes.push(...failClosed(was, [why], rel, true));
      continue;
    }
    if (putBack.length === 0) continue;
    // After the call, an `index.lock` the command left (none at its start) is its own: it would
    // refuse the put-back (red team t, T12), and the person's git tells them to remove it.
    if (opts.afterCall && !was.locked) removeLeftLock(was.gitDir);
    const tree = workTreeOf(was.gitDir);
    const failed: string[] = [];
    for (const { file, old, why } of putBack) {
      const [mode, oid] = (old ?? '').split(' ');
      const r = old
        ? git(was.gitDir, ['update-index', '--add', '--cacheinfo', `${mode},${oid},${file}`])
        : git(was.gitDir, ['update-index', '--force-remove', '--', file]);
      const where = rel(path.join(tree, ...file.split('/')));
      if (r.code === 0) notes.push(`${where}: ${old ? 'staged again as it was' : 'taken out of the index'} (${why})`);
      else failed.push(`${where} (${r.stderr.trim().split('\n')[0] ?? ''})`);
    }
    if (failed.length > 0) notes.push(...failClosed(was, failed, rel, opts.afterCall === true));
  }
  return notes;
}

/**
 * The entries to put back in an index a command changed: those under the hook paths it added or
 * changed, and the gitlinks it staged to a submodule commit that changes a protected path there
 * (stagedGitlinks.ts; red team y, Y4b). 'unscreenable' when the gitlinks could not be listed.
 */
function changedEntries(was: Staged, specs: readonly string[]): Array<PutBack & { why: string }> | 'unscreenable' {
  const out: Array<PutBack & { why: string }> = [];
  const now = specs.length === 0 ? undefined : listed(was.gitDir, specs);
  const then = now === undefined ? undefined : thenOf(was, specs);
  if (now !== undefined && then !== undefined)
    for (const key of new Set([...then.keys(), ...now.keys()])) {
      // A conflict's stages (a merge stopped on a hook file) are the person's git's to resolve.
      if (then.get(key) === now.get(key) || key.split('\0')[1] !== '0') continue;
      const old = then.get(key);
      out.push({ file: key.split('\0')[0]!, ...(old ? { old } : {}), why: 'a hook path this call staged' });
    }
  const links = stagedGitlinks(was.gitDir, was.bytes);
  if (links === 'unscreenable') return links;
  const why = 'a gitlink this call staged, to a submodule commit that changes a protected path there';
  for (const l of links) if (!out.some((o) => o.file === l.file)) out.push({ ...l, why });
  return out;
}

/** A `.git/index` that is no regular file, removed (git reads no index then; `git reset` makes one from HEAD). */
function removeOddIndex(gitDir: string, rel: (p: string) => string): string {
  const index = path.join(gitDir, 'index');
  try {
    anchoredFile(index, (pinned) => removeAnchored(path.dirname(pinned), path.basename(pinned)));
    return `${rel(index)}: no regular file (a FIFO blocks git, a link leads it elsewhere); removed (\`git reset\` makes the index again from HEAD)`;
  } catch {
    return `${rel(index)}: no regular file (a FIFO blocks git, a link leads it elsewhere); could not be removed`;
  }
}

/** `index.lock` of `gitDir` removed, through its directory as opened (never a link on the way). */
function removeLeftLock(gitDir: string): void {
  const lock = path.join(gitDir, 'index.lock');
  if (!fs.lstatSync(lock, { throwIfNoEntry: false })) return;
  try {
    anchoredFile(lock, (pinned) => removeAnchored(path.dirname(pinned), path.basename(pinned)));
  } catch {
    // the put-back says what is left
  }
}

/**
 * Hook entries git would not put back (T12): after the call, the whole index is written back as it
 * was when the command started (what the command staged is the agent's to stage again); without
 * those bytes the entries are named as left. While the command runs, the check after it retries.
 */
function failClosed(was: Staged, failed: string[], rel: (p: string) => string, afterCall: boolean): string[] {
  // While the command runs (the live guard), the check after it tries again: nothing to say yet.
  if (!afterCall) return [];
  const left = failed.map((f) => `${f}: a hook path this call staged could not be put back in the index`);
  if (!was.bytes || was.bytes.length === 0) return left;
  const bytes = was.bytes;
  try {
    anchoredFile(path.join(was.gitDir, 'index'), (pinned) => {
      const tmp = `${pinned}.da-undo-${crypto.randomBytes(6).toString('hex')}`;
      fs.writeFileSync(tmp, bytes, { flag: 'wx', mode: 0o644 });
      fs.renameSync(tmp, pinned);
    });
  } catch {
    return left;
  }
  return [
    `${rel(path.join(was.gitDir, 'index'))}: put back whole as it was when the call started (the hook paths it staged could not be put back one by one: ${failed.join(', ')})`,
  ];
}
