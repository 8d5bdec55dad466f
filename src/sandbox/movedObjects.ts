// Objects a sandboxed command wrote under a name that is not theirs (red team q, Q1).
//
// The main checkout's sandbox may write `.git/objects` (the agent's own `git commit` needs it), and
// git never re-hashes an object it reads for a checkout: a command that rewrites the loose object of
// a blob the person committed (their tracked `.githooks/pre-commit`), or of a tree of HEAD (adding a
// hook), under its own id moves no ref and leaves `git status` clean — and the person's next `git
// worktree add`, clone or checkout writes the agent's body. An object under the id of content the
// person will write later (git does not write an object that exists) is the same. After each command,
// every object file of the repositories the session can write whose change time is at or after the
// command's start is checked: a loose object is inflated and hashed (sha1 for a 40-hex name, sha256
// for a 64-hex one) and compared with its name; a pack (or an index of one) is verified by git
// through the door (`verify-pack`: the index rebuilt from the pack must be the one there); a
// multi-pack index or commit-graph the command wrote is removed (git maps ids to places, and a
// commit to its tree, through them without re-reading; both are caches git rebuilds). A mismatch is
// removed and named in the result. Cost: one lstat per loose object of the repository, a hash of
// what the command wrote (less than the command spent compressing it); past BUDGET_MS what is left
// unverified is removed too.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runHostProcess } from '../hostProcess/door';
import { GIT_GUARD_ENV } from '../hostProcess/git';
import { anchoredFile, readdirOwned, removeAnchored, readRegularFile, removeTree, undoDirectoryLink } from './anchored';
import { INFLATE_FLOOR, INFLATE_RATIO, looseObjectId, type Budget } from './looseObjects';
import { submoduleGitDirs } from './repoConfigTargets';
import { StampedListings } from './stampedListing';
import { eachSliced, loopTicker } from './loopSlices';

/** The git directories whose objects a command may have forged, and when it started. */
export interface ObjectSnapshots {
  gitDirs: string[];
  /**
   * The identity (device:inode) of each git directory, its `objects`, and each directory in
   * `objects`, when the command started: a directory that is another one now (renamed in whole, a
   * link to one the command filled earlier) is screened whole, whatever its files' times.
   */
  dirs: Map<string, string>;
  /** Epoch ms, less a margin: the file system's clock is coarser than Date.now(). */
  since: number;
  /** Each git directory's `objects` when it was a symbolic link at the start (its target): the person's own. */
  links?: Map<string, string>;
  /**
   * Each git directory's `objects/info/alternates` when the command started (undefined: none; null:
   * no regular file or too big) and the object directories it named then (Q1's remainder).
   */
  alternates?: Map<string, { text: string | undefined | null; dirs: string[] }>;
}

const MARGIN_MS = 2_000;
let lastChecked = { objects: 0, ms: 0 };
/** What the last call of undoForgedObjects hashed and how long it took (measurements, tests). */
export const lastObjectCheck = () => ({ ...lastChecked });
/** Time the verification after one command may take; what is left then is removed unverified. */
const BUDGET_MS = 30_000;
const LOOSE = /^[0-9a-f]{38}$|^[0-9a-f]{62}$/;

/** `dirs`' git directories (a `.git` directory, and its submodules' below `modules/`), from now on. */
export function objectSnapshots(gitDirs: readonly string[]): ObjectSnapshots {
  const out = new Set<string>();
  for (const g of gitDirs)
    if (fs.lstatSync(g, { throwIfNoEntry: false })?.isDirectory())
      for (const d of [g, ...submoduleGitDirs(g)]) out.add(d);
  const since = Date.now() - MARGIN_MS;
  const dirs = new Map<string, string>();
  const alternates = new Map<string, { text: string | undefined | null; dirs: string[] }>();
  const links = new Map<string, string>();
  for (const g of out) {
    const objects = path.join(g, 'objects');
    const st = fs.lstatSync(objects, { throwIfNoEntry: false });
    if (st?.isSymbolicLink()) links.set(g, fs.readlinkSync(objects));
    const alt = { text: readAlternates(objects), dirs: alternateDirs(objects) };
    alternates.set(g, alt);
    for (const o of [objects, ...alt.dirs])
      for (const d of [g, o, ...readdir(o).map((e) => path.join(o, e.name))]) {
        const id = identity(d);
        if (id) dirs.set(d, id);
      }
  }
  return { gitDirs: [...out], since, dirs, alternates, links };
}

/** {@link objectSnapshots} of `gitDirs`, one at a time with the event loop's turn between slices (red team u, U10). */
export async function objectSnapshotsSliced(gitDirs: readonly string[], tick = loopTicker()): Promise<ObjectSnapshots> {
  const parts = await eachSliced(gitDirs, (g) => objectSnapshots([g]), tick);
  const all = <K, V>(of: (s: ObjectSnapshots) => Map<K, V> | undefined) =>
    new Map(parts.flatMap((s) => [...(of(s) ?? [])]));
  return {
    gitDirs: [...new Set(parts.flatMap((s) => s.gitDirs))],
    since: Math.min(Date.now() - MARGIN_MS, ...parts.map((s) => s.since)),
    dirs: all((s) => s.dirs),
    alternates: all((s) => s.alternates),
    links: all((s) => s.links),
  };
}

/** An alternates file bigger than this is not read (git's own lines are paths). */
const MAX_ALTERNATES = 64 << 10;

/** `objects/info/alternates` of an objects directory: its text, undefined when absent, null when no regular file or too big. */
function readAlternates(objects: string): string | undefined | null {
  return readRegularFile(path.join(objects, 'info', 'alternates'), MAX_ALTERNATES);
}

/** The object directories git reads through `objects`' alternates, theirs in turn (git's depth: 5). */
function alternateDirs(objects: string, depth = 0, seen = new Set<string>()): string[] {
  const text = readAlternates(objects);
  if (depth >= 5 || typeof text !== 'string') return [];
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const l = line.trim();
    if (l === '' || l.startsWith('#') || l.startsWith('"')) continue;
    let d: string;
    try {
      d = fs.realpathSync(path.resolve(objects, l)); // the person's: removals go through its real directories
    } catch {
      continue;
    }
    if (seen.has(d) || !fs.statSync(d, { throwIfNoEntry: false })?.isDirectory()) continue;
    seen.add(d);
    out.push(d, ...alternateDirs(d, depth + 1, seen));
  }
  return out;
}

/**
 * An `objects/info/alternates` the command wrote, changed or removed (red team q, Q1's remainder:
 * it pointed the repository at objects the session wrote elsewhere, out of the object screen's
 * sight, after removing the person's own object of that id): put back as it was. Undefined when
 * unchanged, else whether the put-back worked.
 */
function undoAlternates(gitDir: string, was: { text: string | undefined | null }): boolean | undefined {
  const objects = path.join(gitDir, 'objects');
  const now = readAlternates(objects);
  // The person's own that was no regular file (or too big) is theirs to keep; so is one unchanged.
  if (now === was.text) return undefined;
  const p = path.join(objects, 'info', 'alternates');
  try {
    if (typeof was.text !== 'string') {
      if (now !== undefined) removeTree(p);
      return true;
    }
    const text = was.text;
    anchoredFile(p, (pinned) => {
      removeAnchored(path.dirname(pinned), path.basename(pinned));
      const tmp = `${pinned}.da-undo-${crypto.randomBytes(6).toString('hex')}`;
      fs.writeFileSync(tmp, text, { encoding: 'latin1', flag: 'wx' });
      fs.renameSync(tmp, pinned);
    });
    return true;
  } catch {
    return false;
  }
}

/** device:inode of what `p` leads to (links followed, as git follows them). */
function identity(p: string): string | undefined {
  const st = fs.statSync(p, { throwIfNoEntry: false });
  return st ? `${st.dev}:${st.ino}` : undefined;
}

/**
 * A directory's entries; one the command made unreadable (chmod 311) given back to its owner first
 * (red team s, S4: git opens a loose object by its name and read what the screen could not list).
 */
function readdir(p: string): fs.Dirent[] {
  try {
    return readdirOwned(p);
  } catch {
    return [];
  }
}

const fresh = (st: fs.Stats, since: number) => st.ctimeMs >= since || st.mtimeMs >= since;
/** A directory that is not the one there when the command started: everything in it is the command's. */
const moved = (snap: ObjectSnapshots, d: string) => snap.dirs.get(d) !== identity(d);
/**
 * The names in each `objects/xx` directory, kept while it is unchanged (stampedListing.ts: a new
 * object changes its directory's stamp; one rewritten in place does not, and each file's own times
 * are read below whatever the listing).
 */
const fanoutListings = new StampedListings((_dir, entries) => entries);

function gitRun(gitDir: string, args: readonly string[], timeoutMs: number) {
  return runHostProcess(
    {
      purpose: 'git',
      command: 'git',
      args: [`--git-dir=${gitDir}`, '-c', 'core.hooksPath=/dev/null', ...args],
      cwd: '/',
      env: { ...GIT_GUARD_ENV, HOME: '/nonexistent', GIT_NO_LAZY_FETCH: '1' },
    },
    { timeoutMs: Math.max(1_000, timeoutMs), maxOutputChars: 16 << 20 },
  );
}

interface Pass {
  since: number;
  /** What the command's whole check may still spend (shared by its repositories). */
  budget: Budget;
  /** dev:ino:ctime:size → the id its content hashes to ('' when none). */
  ids: Map<string, string>;
  /** Loose objects the command wrote, hashed after the walk (looseObjects.ts: off the event loop's back). */
  loose: Array<{ p: string; id: string; key: string; size: number }>;
  bad: string[];
  late: string[];
  checked: number;
}

/** lstat's options in the loops over thousands of objects (one object, not one a file). */
const NO_THROW = { throwIfNoEntry: false } as const;

/**
 * The loose objects of one `objects/xx` directory the command wrote: listed for hashLoose. `dirSt`:
 * the directory's lstat screenObjects took just before (a directory, no link): its stamp for the
 * kept listing, its identity for `whole` (issue 32: two more stats of each of 256 directories a call).
 */
function screenFanout(dir: string, dirSt: fs.Stats, fan: string, pass: Pass, whole: boolean): void {
  let entries: readonly fs.Dirent[];
  try {
    entries = fanoutListings.of(dir, dirSt);
  } catch {
    // Not listable even by its owner: what the command wrote there cannot be told apart (S4).
    const st = fs.lstatSync(dir, NO_THROW);
    if (st && (whole || fresh(st, pass.since))) pass.bad.push(dir);
    return;
  }
  for (const e of entries) {
    const p = `${dir}/${e.name}`; // path.join's own work on each of thousands (dir is normalized: screenObjects)
    const st = fs.lstatSync(p, NO_THROW);
    if (!st || (!whole && !fresh(st, pass.since))) continue;
    if (!LOOSE.test(e.name)) {
      // git's own temporary objects (`tmp_obj_*`) are renamed into place: a leftover is not read by id.
      if (!st.isFile() && !e.name.startsWith('tmp_obj_')) pass.bad.push(p);
      continue;
    }
    if (!st.isFile()) {
      pass.bad.push(p);
      continue;
    }
    pass.loose.push({ p, id: fan + e.name, key: `${st.dev}:${st.ino}:${st.ctimeMs}:${st.size}`, size: st.size });
  }
}

/**
 * Each loose object listed by screenFanout hashed against its name, one at a time, the event loop
 * free between chunks (red team s, S9). The command's bytes on disk buy the budget of what is
 * inflated (INFLATE_RATIO each); what is past the budget or the deadline is `late` (removed unverified).
 */
async function hashLoose(pass: Pass): Promise<void> {
  for (const o of pass.loose) pass.budget.bytes += INFLATE_RATIO * o.size;
  for (const o of pass.loose) {
    let id = pass.ids.get(o.key);
    if (id === undefined) {
      const r = await looseObjectId(o.p, o.id.length === 40 ? 'sha1' : 'sha256', pass.budget);
      if ('over' in r) {
        pass.late.push(o.p);
        continue;
      }
      id = 'id' in r ? r.id : '';
      pass.ids.set(o.key, id);
      pass.checked++;
    }
    if (id !== o.id) pass.bad.push(o.p);
  }
  pass.loose = [];
}

const PACK_SIBLINGS = ['.idx', '.rev', '.bitmap', '.mtimes', '.keep', '.promisor', '.pack'];

/** Packs (or their indexes) the command wrote: verified by git; the multi-pack index removed. */
async function screenPacks(gitDir: string, pack: string, pass: Pass, whole: boolean): Promise<void> {
  const changed = new Set<string>();
  for (const e of readdir(pack)) {
    const p = path.join(pack, e.name);
    const st = fs.lstatSync(p, { throwIfNoEntry: false });
    if (!st || (!whole && !fresh(st, pass.since))) continue;
    if (e.name.startsWith('multi-pack-index')) pass.bad.push(p);
    else if (!st.isFile() && !st.isDirectory()) pass.bad.push(p);
    else {
      const m = /^(pack-[0-9a-f]+)\.(pack|idx)$/.exec(e.name);
      if (m) changed.add(m[1]!);
    }
  }
  for (const base of changed) {
    const idx = path.join(pack, `${base}.idx`);
    const left = pass.budget.deadline - Date.now();
    if (!fs.existsSync(idx) && !fs.existsSync(path.join(pack, `${base}.pack`))) continue;
    const ok = left > 0 && fs.existsSync(idx) && (await gitRun(gitDir, ['verify-pack', idx], left)).code === 0;
    if (!ok)
      for (const s of PACK_SIBLINGS)
        if (fs.existsSync(path.join(pack, base + s))) pass.bad.push(path.join(pack, base + s));
  }
}

/** The commit-graph files the command wrote (git reads a commit's tree from them): verified by git, or removed. */
async function screenGraphs(gitDir: string, info: string, pass: Pass, whole: boolean): Promise<void> {
  const files: string[] = [];
  for (const name of ['commit-graph', 'commit-graphs']) {
    const p = path.join(info, name);
    const st = fs.lstatSync(p, { throwIfNoEntry: false });
    if (!st) continue;
    if (!st.isDirectory()) {
      if (whole || fresh(st, pass.since)) files.push(p);
      continue;
    }
    for (const e of readdir(p)) {
      const f = path.join(p, e.name);
      const s = fs.lstatSync(f, { throwIfNoEntry: false });
      if (s && (whole || fresh(s, pass.since))) files.push(f);
    }
  }
  if (files.length === 0) return;
  const left = pass.budget.deadline - Date.now();
  const links = files.some((f) => !fs.lstatSync(f, { throwIfNoEntry: false })?.isFile());
  if (links || left <= 0 || (await gitRun(gitDir, ['commit-graph', 'verify'], left)).code !== 0)
    pass.bad.push(...files);
}

/**
 * `objects` made a symbolic link by the command (S1): git would read objects wherever it leads. The
 * link is removed (its target is never read) and the directory that was there put back when the
 * command only renamed it inside the git directory (found by its device and inode). A note, or
 * undefined when `objects` is no new link.
 */
function undoObjectsLink(snap: ObjectSnapshots, gitDir: string): string | undefined {
  const objects = path.join(gitDir, 'objects');
  const st = fs.lstatSync(objects, { throwIfNoEntry: false });
  if (!st?.isSymbolicLink() || snap.links?.get(gitDir) === fs.readlinkSync(objects)) return undefined;
  const what = 'objects was a symbolic link the command made (git would read objects wherever it leads)';
  try {
    const done = undoDirectoryLink(gitDir, 'objects', snap.dirs.get(objects));
    return done && `${what}: ${done}`;
  } catch {
    return `${what}; could not be undone`;
  }
}

/** One objects directory (the repository's, or an alternate's): what the command wrote in it, screened. */
async function screenObjects(
  gitDir: string,
  objects: string,
  snap: ObjectSnapshots,
  pass: Pass,
  all: boolean,
): Promise<void> {
  for (const e of readdir(objects)) {
    const p = path.join(objects, e.name);
    const st = fs.lstatSync(p, NO_THROW);
    if (!st) continue;
    // A link in `objects` the command made: removed (git would follow it to files of any time).
    if (st.isSymbolicLink() && (all || fresh(st, pass.since))) pass.bad.push(p);
    else if (!st.isDirectory()) {
      if (/^[0-9a-f]{2}$/.test(e.name) && (all || fresh(st, pass.since))) pass.bad.push(p);
    } else if (/^[0-9a-f]{2}$/.test(e.name))
      // A directory, no link (above): its lstat is its stat (identity's), taken once for both uses.
      screenFanout(p, st, e.name, pass, all || snap.dirs.get(p) !== `${st.dev}:${st.ino}`);
    else if (e.name === 'pack') await screenPacks(gitDir, p, pass, all || moved(snap, p));
    else if (e.name === 'info') await screenGraphs(gitDir, p, pass, all || moved(snap, p));
  }
  await hashLoose(pass);
}

/**
 * After a sandboxed command: every object file of `snap`'s repositories written since it started
 * that does not hold what its name says (or could not be verified in time, or within what its bytes
 * buy of inflation: looseObjects.ts) is removed; one note per repository.
 */
export async function undoForgedObjects(
  snap: ObjectSnapshots,
  rel: (p: string) => string = (p) => p,
): Promise<string[]> {
  const notes: string[] = [];
  const started = Date.now();
  const budget: Budget = { bytes: INFLATE_FLOOR, deadline: started + BUDGET_MS };
  let total = 0;
  const tick = loopTicker();
  for (const gitDir of snap.gitDirs) {
    await tick(); // the event loop's turn between repositories (red team u, U10)
    const objects = path.join(gitDir, 'objects');
    // Never read or remove through a link (red team s, S1: `objects` led to the person's HOME, and
    // the screen removed their dotfile links there as the command's objects).
    if (!fs.lstatSync(gitDir, { throwIfNoEntry: false })?.isDirectory()) continue;
    const linked = undoObjectsLink(snap, gitDir);
    if (linked) notes.push(`${rel(gitDir)}: ${linked}`);
    if (!fs.lstatSync(objects, { throwIfNoEntry: false })?.isDirectory()) continue;
    const alt = snap.alternates?.get(gitDir);
    const altBack = alt ? undoAlternates(gitDir, alt) : undefined;
    if (altBack !== undefined)
      notes.push(
        `${rel(gitDir)}: objects/info/alternates the command wrote (git would read objects from where it points); ${altBack ? 'put back' : 'could not be undone'}`,
      );
    const pass: Pass = {
      since: snap.since,
      budget,
      ids: new Map(),
      loose: [],
      bad: [],
      late: [],
      checked: 0,
    };
    // The repository's objects, and those of the alternates it had when the command started.
    for (const o of [objects, ...(alt?.dirs ?? [])])
      await screenObjects(gitDir, o, snap, pass, moved(snap, gitDir) || moved(snap, o));
    total += pass.checked;
    const gone = [...pass.bad, ...pass.late];
    let failed = 0;
    for (const p of gone) {
      try {
        removeTree(p); // through the directories the screen read, never a link (red team s, S1)
      } catch {
        failed++;
      }
    }
    if (gone.length === 0) continue;
    const where = rel(gitDir);
    const shown = gone
      .slice(0, 5)
      .map((p) => path.relative(gitDir, p))
      .join(', ');
    notes.push(
      `${where}: ${gone.length} object file(s) the command wrote did not hold what their name says` +
        (pass.late.length
          ? ` or could not be verified in time or within the inflate budget (${pass.late.length})`
          : '') +
        ` (a checkout would write them: ${shown}${gone.length > 5 ? ', …' : ''}); ` +
        (failed ? `${failed} could not be removed` : 'removed'),
    );
  }
  lastChecked = { objects: total, ms: Date.now() - started };
  return notes;
}
