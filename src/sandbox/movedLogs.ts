// Reflog lines a sandboxed command added that lead to a commit carrying a git directory (N3d).
//
// The sandbox writes `.git/logs` (git appends to the reflogs as it moves a ref: the agent's own
// commits need it), and the person's git reads them: `git checkout -` goes to the last
// `checkout: moving from <X>` line's X (`@{-1}`), `git reset --hard HEAD@{1}` to the second last
// line's id, `stash@{1}` to a line of `logs/refs/stash`. A line appended that names a commit
// carrying a bare repository moves the person there as surely as a moved ref. So the snapshot holds,
// for each reflog, what its lines name; after the command, each line naming something new is
// screened like a ref (movedRefs.ts), and a line that leads to a carrying commit (or could not be
// screened) is taken out of its file.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { anchoredFile, inAnchoredDirectory, readdirOwned, removeAnchored, undoDirectoryLink } from './anchored';

/** A reflog as the snapshot holds it: its identity and every name its lines give. */
export interface LogFile {
  ino: number;
  size: number;
  ctimeMs: number;
  /** The ids and `moving from`/`to` words of its lines; absent: too big to read (MAX_LOG_BYTES). */
  names?: Set<string>;
}

const MAX_LOG_FILES = 20_000;
export const MAX_LOG_BYTES = 8 << 20;
const LINE = /^([0-9a-f]{40}|[0-9a-f]{64}) ([0-9a-f]{40}|[0-9a-f]{64}) [^\t]*(?:\t(.*))?$/i;
const MOVING = /^checkout: moving from (\S+) to (\S+)/;

/** What one reflog line names: its old and new ids, and the words of a checkout's message. */
export function lineNames(line: string): string[] {
  const m = LINE.exec(line);
  if (!m) return line.trim() ? [`?${line}`] : [];
  const out = [m[1]!.toLowerCase(), m[2]!.toLowerCase()];
  const c = MOVING.exec(m[3] ?? '');
  if (c) out.push(`@${c[1]}`, `@${c[2]}`);
  return out;
}

function namesOf(text: string): Set<string> {
  const out = new Set<string>();
  for (const line of text.split('\n')) for (const n of lineNames(line)) out.add(n);
  return out;
}

function readText(p: string, max: number): string | undefined {
  let fd: number;
  try {
    fd = fs.openSync(p, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.size > max) return undefined;
    const buf = Buffer.alloc(st.size);
    const n = fs.readSync(fd, buf, 0, st.size, 0);
    return buf.subarray(0, n).toString('latin1');
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * lstat that never throws: undefined when there is nothing; a path that cannot even be looked at (a
 * chain of directories longer than PATH_MAX: ENAMETOOLONG, red team v, V1 — it made the whole ref
 * screen throw and P1's branch stay; ELOOP, EACCES) as an entry of no known kind (ino -1, forced).
 */
function lookAt(p: string): { ctimeMs: number; ino: number; size: number; isFile(): boolean } | undefined {
  try {
    return fs.lstatSync(p, { throwIfNoEntry: false });
  } catch {
    return { ctimeMs: 0, ino: -1, size: 0, isFile: () => false };
  }
}

/** Is `p` a directory (no link), looked at without throwing? */
function lookAtDir(p: string): boolean {
  try {
    return fs.lstatSync(p, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}

/**
 * The reflogs of a git directory (`logs/HEAD`, `logs/refs/**`), links and other kinds as ino -1. The
 * reflogs of `refs` (the refs there are: the ones the person's `@{1}`, `stash@{1}` read) first, then the
 * rest in the directory's order up to MAX_LOG_FILES (red team w, W8: 20,000 empty reflog files in a
 * directory listed before `heads` hid main's reflog, whose line named P1, from both snapshots; the
 * person's `git reset --hard @{1}` went there). A reflog reached through a link on the way is not read
 * here (the walk records the link). `refs` are well-formed names (no `..`, no component with a leading dot).
 */
export function readLogs(gitDir: string, refs: Iterable<string> = []): Map<string, LogFile> {
  const out = new Map<string, LogFile>();
  const plainDirs = new Set<string>();
  const plainWay = (rel: string): boolean => {
    const parts = rel.split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      if (plainDirs.has(dir)) continue;
      if (!lookAtDir(path.join(gitDir, dir))) return false;
      plainDirs.add(dir);
    }
    return true;
  };
  const walk = (rel: string) => {
    let entries: fs.Dirent[];
    try {
      entries = readdirOwned(path.join(gitDir, rel));
    } catch (err) {
      // Not listable even by its owner (red team s, S4): the directory is taken as one the command changed.
      const st = lookAt(path.join(gitDir, rel));
      if (st && (err as NodeJS.ErrnoException).code !== 'ENOENT')
        out.set(rel, { ino: -1, size: 0, ctimeMs: st.ctimeMs });
      return;
    }
    for (const e of entries) {
      if (out.size >= MAX_LOG_FILES) return;
      const name = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(name);
      else if (!out.has(name)) entry(name);
    }
  };
  const entry = (name: string) => {
    const p = path.join(gitDir, name);
    const st = lookAt(p);
    if (!st) return;
    if (!st.isFile()) return void out.set(name, { ino: -1, size: 0, ctimeMs: st.ctimeMs });
    const text = readText(p, MAX_LOG_BYTES);
    out.set(name, {
      ino: st.ino,
      size: st.size,
      ctimeMs: st.ctimeMs,
      ...(text !== undefined ? { names: namesOf(text) } : {}),
    });
  };
  entry('logs/HEAD');
  let tried = 0;
  for (const ref of refs) {
    if (++tried > MAX_LOG_FILES || out.size >= MAX_LOG_FILES) break;
    const name = `logs/${ref}`;
    if (ref.startsWith('refs/') && plainWay(name) && !lookAtDir(path.join(gitDir, name))) entry(name);
  }
  walk('logs/refs');
  return out;
}

/** A reflog the command changed: the lines naming something the snapshot's version did not. */
export interface ChangedLog {
  name: string;
  /** The file is not a regular file now (a link): removed whole. */
  forced: boolean;
  /** Each new line with what it names that is new. */
  lines: { line: string; fresh: string[] }[];
}

/**
 * The reflogs whose lines name something no reflog named in `was` (`known`: all their names, so that a
 * branch renamed with its reflog, or a reflog expired, names nothing new).
 */
export function changedLogs(
  gitDir: string,
  was: Map<string, LogFile>,
  now: Map<string, LogFile>,
  known: ReadonlySet<string>,
): ChangedLog[] {
  const out: ChangedLog[] = [];
  for (const [name, n] of now) {
    const w = was.get(name);
    if (w && w.ino === n.ino && w.size === n.size && w.ctimeMs === n.ctimeMs) continue;
    if (n.ino === -1) {
      out.push({ name, forced: true, lines: [] });
      continue;
    }
    const text = readText(path.join(gitDir, name), MAX_LOG_BYTES);
    // Too big to read, or changed from a version too big to have been read: taken out whole.
    if (text === undefined || (w && !w.names)) {
      out.push({ name, forced: true, lines: [] });
      continue;
    }
    const lines: ChangedLog['lines'] = [];
    for (const line of text.split('\n')) {
      const fresh = lineNames(line).filter((x) => !known.has(x));
      if (fresh.length > 0) lines.push({ line, fresh });
    }
    if (lines.length > 0) out.push({ name, forced: false, lines });
  }
  return out;
}

/**
 * Take `bad` lines out of a reflog (written anew beside it, renamed over it); a forced one removed.
 * Through its directory opened from `/` without following a link (anchored.ts; red team q, Q11): by
 * path, a command that swapped `.git/logs` for a link to the person's HOME between the worker's
 * read and its rename made the worker write the kept lines over the person's file of that name.
 * When that cannot reach the reflog because a directory on the way below the git directory is a link
 * (`mv .git/logs .git/reflogs && ln -s reflogs .git/logs`), the link is cut instead ('cut': git then
 * reads no reflog through it); false only when neither holds (red team s, S7: the line stayed, and
 * the person's `git checkout -` ran the hook of the commit it named).
 */
export function dropLogLines(gitDir: string, log: ChangedLog, bad: ReadonlySet<string>): boolean | 'cut' {
  try {
    dropIn(gitDir, log, bad);
    return true;
  } catch {
    try {
      return cutLinkOnTheWay(gitDir, log.name) ? 'cut' : false;
    } catch {
      return false;
    }
  }
}

function dropIn(gitDir: string, log: ChangedLog, bad: ReadonlySet<string>): void {
  anchoredFile(path.join(gitDir, log.name), (pinned) => {
    const dir = path.dirname(pinned);
    const name = path.basename(pinned);
    if (log.forced) return removeAnchored(dir, name);
    const text = readText(pinned, MAX_LOG_BYTES) ?? '';
    const kept = text.split('\n').filter((l) => !bad.has(l));
    const tmp = `${dir}/${name}.da-undo-${randomBytes(6).toString('hex')}`;
    fs.writeFileSync(tmp, kept.join('\n'), { encoding: 'latin1', flag: 'wx' });
    fs.renameSync(tmp, pinned);
  });
}

/**
 * Removes the first symlink among the directories from `gitDir` to the reflog `name` (as a link, in
 * its parent pinned: unlink never removes a directory that took its place). True when there was
 * one, or when the way is gone (git reads no reflog there either).
 */
function cutLinkOnTheWay(gitDir: string, name: string): boolean {
  let dir = gitDir;
  for (const part of path.dirname(name).split('/')) {
    const st = fs.lstatSync(path.join(dir, part), { throwIfNoEntry: false });
    if (!st) return true;
    if (st.isSymbolicLink()) {
      inAnchoredDirectory(dir, (at) => fs.unlinkSync(at(part)));
      return true;
    }
    if (!st.isDirectory()) return false;
    dir = path.join(dir, part);
  }
  return false;
}

/** `logs` of a git directory: `device:inode` of the directory, `link:<target>` for a link, undefined when absent. */
export function logsIdentity(gitDir: string): string | undefined {
  const p = path.join(gitDir, 'logs');
  const st = fs.lstatSync(p, { throwIfNoEntry: false });
  if (!st) return undefined;
  return st.isSymbolicLink() ? `link:${fs.readlinkSync(p)}` : `${st.dev}:${st.ino}`;
}

/**
 * `logs` made a symbolic link by the command (red team s, S7: git reads reflogs through it, the
 * screen's anchored undo could not take a line out behind it, and the line stayed): unlinked and
 * the renamed directory put back, before the reflogs are read. A note, or undefined.
 */
export function undoLogsLink(gitDir: string, was: string | undefined, where: string): string | undefined {
  const now = logsIdentity(gitDir);
  if (!now?.startsWith('link:') || now === was) return undefined;
  const what = `${where}: logs was a symbolic link the command made (git would read reflogs wherever it leads)`;
  try {
    const done = undoDirectoryLink(gitDir, 'logs', was?.startsWith('link:') ? undefined : was);
    return done && `${what}: ${done}`;
  } catch {
    return `${what}; could not be undone`;
  }
}
