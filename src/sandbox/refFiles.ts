// A git directory's refs as its files hold them, read as git's files backend reads them (red team n,
// N3b/N3c): loose refs under `refs/` (a symbolic ref `ref: X` kept as written, an object id followed
// by anything after a space accepted, upper-case hex too), every top-level pseudoref (`HEAD`,
// `ORIG_HEAD`, `FETCH_HEAD`, any `[A-Z_-]+` name), the files a symbolic ref leads to (`ref:
// info/x`, `ref: logs/HEAD`: git resolves any well-formed name below the git directory) and
// packed-refs (every line naming a ref: git may binary-search an unsorted file). Symbolic links are
// recorded as links and never followed into directories; only regular files are opened (a FIFO
// would block the worker), and no more than a bound is read. A packed-refs over its bound, or one
// that cannot be read, is not read as no refs (red team q, Q19: a 620 MB file, more than one string
// can hold, hid P1's branch): it is recorded by its identity, and the ref screen puts back what was
// there before a command changed it (movedRefs.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { grantOwner, readdirOwned } from './anchored';
import { logsIdentity, readLogs, type LogFile } from './movedLogs';

/** One ref file: its text (bounded), or a symbolic link with its target. */
export type RefFile = { kind: 'file'; text: string; over?: true } | { kind: 'link'; target: string };

export interface RefState {
  /** Path below the git directory → what is there (loose refs, pseudorefs, what symrefs lead to). */
  files: Map<string, RefFile>;
  /** packed-refs: ref name → every object id a line gives it. */
  packed: Map<string, string[]>;
  /** packed-refs' text (absent: no file), put back whole when an entry of it is undone. */
  packedText?: string;
  /**
   * A packed-refs that was not read — over packedRefsLimit() or unreadable (Q19) — by its identity
   * (device, inode, size, modification and change times): any change of it is hostile.
   */
  packedUnread?: string;
  /** The walk of `refs/` stopped at its bound: refs past it were not read. */
  truncated: boolean;
  /** The reflogs (movedLogs.ts, N3d). */
  logs?: Map<string, LogFile>;
  /** `logs` itself: `device:inode` of the directory, or `link:<target>` (red team s, S7). */
  logsDir?: string;
}

/** Bytes of packed-refs read after a command (64 MiB: about a million refs); more is not read (Q19). */
const MAX_PACKED_BYTES = 64 << 20;

/** packedRefsLimit's bound, or less when DURABLE_AGENT_MAX_PACKED_REFS_BYTES says so (never more). */
export function packedRefsLimit(): number {
  const lower = Number(process.env.DURABLE_AGENT_MAX_PACKED_REFS_BYTES);
  return Number.isInteger(lower) && lower >= 0 ? Math.min(MAX_PACKED_BYTES, lower) : MAX_PACKED_BYTES;
}

/** Loose entries read below `refs/` before the walk stops (packed refs do not count: N3c). */
export const MAX_LOOSE = 50_000;
/** Bytes of a ref file read into the shared buffer: a ref's object id or a symref's target is short. */
const MAX_REF_BYTES = 8192;
/**
 * Bytes of a ref file read at all (FETCH_HEAD and MERGE_HEAD list one object per line, and git's
 * `merge FETCH_HEAD` reads every line: red team v, V3 — a first line padded past 8 KiB hid P1 on the
 * second). A bigger file is not read: it is recorded by its identity (`over`), and put back unscreened.
 */
const MAX_REF_FILE_BYTES = 1 << 20;
/** git's SYMREF_MAXDEPTH. */
const MAX_DEPTH = 5;
const OID_AT = /^([0-9a-f]{64}|[0-9a-f]{40})(?=\s|$)/i;
export const PSEUDOREF = /^[A-Z_-]+$/;

/** One buffer for every ref file read (synchronous: never shared by two reads). */
const REF_BUFFER = Buffer.allocUnsafe(MAX_REF_BYTES);

/** Read a regular file without following a link or blocking on a FIFO; one over the bound by its identity. */
function readRegular(p: string): string | { over: string } | undefined {
  const flags = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;
  let fd: number;
  try {
    fd = fs.openSync(p, flags);
  } catch (err) {
    // A ref the command made unreadable (chmod 000) is given back to its owner (S4's class): git, run
    // by the person later, reads it once they give it back.
    if ((err as NodeJS.ErrnoException).code !== 'EACCES' || grantOwner(p) === undefined) return undefined;
    try {
      fd = fs.openSync(p, flags);
    } catch {
      return undefined;
    }
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return undefined;
    if (st.size > MAX_REF_FILE_BYTES) return { over: `\0over ${identityOf(st)}` };
    // The shared buffer for a ref's few bytes; a bigger file read whole (a byte more: grown while read?).
    const buf = st.size < MAX_REF_BYTES ? REF_BUFFER : Buffer.allocUnsafe(st.size + 1);
    let n = 0;
    for (let got = -1; got !== 0 && n < buf.length; n += got) got = fs.readSync(fd, buf, n, buf.length - n, n);
    // Grown past what was measured while read (a command still writing it): not read.
    if (n === buf.length) return { over: `\0over ${identityOf(fs.fstatSync(fd))}` };
    return buf.toString('latin1', 0, n);
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** One ref file as it is now (a link as a link). */
export function readRefFile(p: string): RefFile | undefined {
  const st = fs.lstatSync(p, { throwIfNoEntry: false });
  if (st?.isSymbolicLink()) {
    try {
      return { kind: 'link', target: fs.readlinkSync(p) };
    } catch {
      return undefined;
    }
  }
  if (!st?.isFile()) return undefined;
  const text = readRegular(p);
  if (typeof text === 'object') return { kind: 'file', text: text.over, over: true };
  return text === undefined ? undefined : { kind: 'file', text };
}

/** Is `name` a ref name git would follow a symref to (check_refname_format with one level allowed)? */
export function wellFormedRefName(name: string): boolean {
  if (!name || name.endsWith('/') || name.endsWith('.') || name.includes('..')) return false;
  if (name.includes('@{') || name === '@' || /[\x00-\x20\x7f~^:?*[\\]/.test(name)) return false;
  return name.split('/').every((c) => c !== '' && !c.startsWith('.') && !c.endsWith('.lock'));
}

/**
 * `name` below the git directory read into `state`; one that cannot even be looked at (a path longer
 * than PATH_MAX: red team v, V1, ENAMETOOLONG; ELOOP, EACCES) is not read as none: the state is
 * truncated (every ref the command moved is put back unscreened); undefined then.
 */
function readInto(state: RefState, gitDir: string, name: string): RefFile | undefined {
  try {
    const f = readRefFile(path.join(gitDir, name));
    if (f) state.files.set(name, f);
    return f;
  } catch {
    state.truncated = true;
    return undefined;
  }
}

function walk(gitDir: string, rel: string, state: RefState, count: { n: number }): void {
  let entries: fs.Dirent[];
  try {
    entries = readdirOwned(path.join(gitDir, rel));
  } catch (err) {
    // A directory of refs that cannot be listed hides what is below it: not read as none.
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') state.truncated = true;
    return;
  }
  for (const e of entries) {
    if (count.n >= MAX_LOOSE) {
      state.truncated = true;
      return;
    }
    const name = `${rel}/${e.name}`;
    count.n++;
    if (e.isDirectory()) walk(gitDir, name, state, count);
    else if (e.isFile() || e.isSymbolicLink()) readInto(state, gitDir, name);
  }
}

function readPacked(gitDir: string, state: RefState): void {
  const p = path.join(gitDir, 'packed-refs');
  const st = fs.lstatSync(p, { throwIfNoEntry: false });
  if (!st) return;
  if (st.isSymbolicLink()) {
    // git reads through it; the undo removes the link: record it as a link.
    state.files.set('packed-refs', { kind: 'link', target: fs.readlinkSync(p) });
    return;
  }
  if (!st.isFile()) return;
  const text = readPackedText(p);
  if (typeof text !== 'string') {
    state.packedUnread = text.identity;
    return;
  }
  state.packedText = text;
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]{64}|[0-9a-f]{40})\s+(\S.*?)\s*$/i.exec(line);
    if (!m) continue;
    const oid = m[1]!.toLowerCase();
    const had = state.packed.get(m[2]!);
    if (had) had.push(oid);
    else state.packed.set(m[2]!, [oid]);
  }
}

/**
 * packed-refs' text; its identity when it is over packedRefsLimit() or cannot be read whole (never
 * a whole-file read of an unbounded size: a string holds 512 MiB at most, Q19).
 */
export function readPackedText(p: string): string | { identity: string } {
  let fd: number;
  try {
    fd = fs.openSync(p, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch {
    const st = fs.lstatSync(p, { throwIfNoEntry: false });
    return { identity: st ? `unreadable ${identityOf(st)}` : 'unreadable' };
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.size > packedRefsLimit()) return { identity: identityOf(st) };
    const buf = Buffer.allocUnsafe(st.size);
    let n = 0;
    while (n < st.size) {
      const got = fs.readSync(fd, buf, n, st.size - n, n);
      if (got === 0) break;
      n += got;
    }
    // Grown while read (a command still writing it): not what was measured.
    if (fs.readSync(fd, Buffer.alloc(1), 0, 1, n) !== 0) return { identity: `growing ${identityOf(st)}` };
    return buf.toString('latin1', 0, n);
  } catch {
    return { identity: 'unreadable' };
  } finally {
    fs.closeSync(fd);
  }
}

const identityOf = (st: fs.Stats) => `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;

/** The target of a symbolic ref held in `f`, as git reads it (`ref:`, spaces, the rest trimmed); a link into refs/ too. */
export function symrefTarget(f: RefFile): string | undefined {
  if (f.kind === 'link') return f.target.startsWith('refs/') ? f.target : undefined;
  const t = f.text.trimEnd();
  return t.startsWith('ref:') ? t.slice(4).trimStart() : undefined;
}

/** The refs of a git directory now (see the top of this file). */
export function readRefState(gitDir: string): RefState {
  const state: RefState = { files: new Map(), packed: new Map(), truncated: false };
  readPacked(gitDir, state);
  const top = fs.lstatSync(path.join(gitDir, 'refs'), { throwIfNoEntry: false });
  if (top?.isSymbolicLink()) readInto(state, gitDir, 'refs');
  else walk(gitDir, 'refs', state, { n: 0 });
  let names: string[] = [];
  try {
    names = readdirOwned(gitDir)
      .map((e) => e.name)
      .filter((n) => PSEUDOREF.test(n));
  } catch {
    // gone
  }
  for (const n of names) readInto(state, gitDir, n);
  // The files symrefs lead to outside refs/ and the pseudorefs (`ref: info/x`): git reads them too.
  const queue = [...state.files.values()];
  for (let i = 0; i < queue.length && i < MAX_LOOSE; i++) {
    const target = symrefTarget(queue[i]!);
    if (!target || !wellFormedRefName(target) || state.files.has(target) || target.startsWith('refs/')) continue;
    const f = readInto(state, gitDir, target);
    if (f) queue.push(f);
  }
  // The reflogs of the refs there are first (red team w, W8): loose ones, then packed ones.
  const refs = [...state.files.keys(), ...state.packed.keys()].filter(
    (n) => n.startsWith('refs/') && wellFormedRefName(n),
  );
  state.logs = readLogs(gitDir, refs);
  state.logsDir = logsIdentity(gitDir);
  return state;
}

/** The object ids a file names at the start of a line (a loose ref, a pseudoref, FETCH_HEAD's lines). */
function oidsOf(f: RefFile): string[] {
  if (f.kind === 'link') return [];
  const out: string[] = [];
  for (const line of f.text.split('\n')) {
    const m = OID_AT.exec(line);
    if (m) out.push(m[1]!.toLowerCase());
  }
  return out;
}

/**
 * What `name` resolves to in `state`, as git resolves it: the object ids it leads to and the
 * entries on the way (names in `files`, or `packed:<ref>`).
 */
export function resolveRef(state: RefState, name: string): { oids: string[]; via: string[] } {
  const via: string[] = [];
  let cur = name;
  for (let depth = 0; depth <= MAX_DEPTH; depth++) {
    const f = state.files.get(cur);
    if (f) {
      via.push(cur);
      const target = symrefTarget(f);
      if (target === undefined) return { oids: oidsOf(f), via };
      if (!wellFormedRefName(target)) return { oids: [], via };
      cur = target;
      continue;
    }
    const packed = state.packed.get(cur);
    if (packed) via.push(`packed:${cur}`);
    return { oids: packed ?? [], via };
  }
  return { oids: [], via };
}

/** Every name git could resolve in `state`: its files and its packed refs (`packed:<ref>`, each line counted). */
export function refNames(state: RefState): string[] {
  return [...state.files.keys(), ...[...state.packed.keys()].map((n) => `packed:${n}`)];
}

/** What a name resolves to; a packed name by its own lines (a loose ref over it hides it only until that is deleted). */
export function resolveName(state: RefState, name: string): { oids: string[]; via: string[] } {
  if (name.startsWith('packed:')) return { oids: state.packed.get(name.slice(7)) ?? [], via: [name] };
  return resolveRef(state, name);
}

/** Are two ref files the same? */
export function sameRefFile(a: RefFile | undefined, b: RefFile | undefined): boolean {
  if (!a || !b) return a === b;
  return a.kind === 'file' ? b.kind === 'file' && a.text === b.text : b.kind === 'link' && a.target === b.target;
}
