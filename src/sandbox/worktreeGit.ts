// What git a linked worktree's commands may write (issue 19, docs/security.md round 3): a command
// run in a worktree (`run --worktree`, EnterWorktree, an isolated agent) must not reach what the
// main checkout and the other worktrees use — the shared branches and the shared object store.
//
// The sandbox can only allow or deny paths, and git keeps every branch and every object in the
// common git directory (`<repo>/.git`), where a deny list cannot tell the worktree's own branch from
// `main`. So, while a command runs, the worktree's git points at a directory of its own (a
// "shadow" common directory, `<repo>/.git/durable-agent/worktrees/<its git dir's name>`): the
// worktree's `commondir` names the shadow, whose
// - `objects/` is the command's to write, reading the repository's objects as an alternate;
// - `refs/` and `logs/` are the command's to write: a copy of the repository's refs taken when
//   the command starts (a loose ref for each ref the worktree owns, `packed-refs` for the rest);
// - `config` (the repository's, included), `HEAD`, `packed-refs` and the rest are the worker's:
//   the sandbox lets the command write none of them, nor the repository's own git directory.
// When the command ends, the worker (outside the sandbox) brings the command's work into the
// repository: its objects re-hashed and checked as a fetch would (`git index-pack --fsck-objects`,
// so a forged or hostile object never lands under a name it does not hash to), the refs the
// worktree owns (its branch, and branches it created) moved there when every object of their new
// commits came in and none of those commits changes a protected path — and nothing else: a moved
// `main` is reported, never applied. When no command of the worktree runs any more, `commondir` points
// back at the repository: between commands the worktree is a plain git worktree, for the person
// and for every git outside the sandbox.
//
// Node only; every git run here is on the repository's own git directory, with its hooks and
// fsmonitor off, or on a copy the worker made; what a command could have written is read without
// following a symlink, through directories held open (Linux: /proc/self/fd; elsewhere by path).
import { constants, createWriteStream, promises as fs, type Dirent } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import { isProtectedRepositoryPath } from './protect';
import { ownerAlive, ownerId } from './reaper';
import { runHostGit } from '../hostProcess/git';

/** A linked worktree's git directories, as git reported them when it was made (never its `.git` file). */
export interface WorktreeGit {
  /** The repository's common git directory (`<root>/.git`). */
  commonDir: string;
  /** The worktree's own git directory (`<common>/worktrees/<name>`). */
  gitDir: string;
}

/** What a command's work in the worktree did to the repository's refs (said to the model when not empty). */
export interface WorktreeSync {
  /** Refs moved or created in the repository (`refs/heads/x` → hash). */
  applied: Array<{ ref: string; to: string }>;
  /** Refs the command changed that the worktree does not own: not applied. */
  refused: Array<{ ref: string; to: string; why: string }>;
  /** Objects the repository refused (git's reason; the refs that need them stay as they were). */
  objectsError?: string;
  /** Bringing the objects in failed as a whole (not a refusal): the worktree's git stays on the shadow until it works. */
  importFailed?: boolean;
  /** The worktree's HEAD named a refused ref: it now points at the command's commit directly. */
  detachedHead?: string;
}

const STATE = 'durable-agent-state.json';
const LOCK = 'durable-agent.lock';
const LEASES = 'leases';
const HEX = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;

/** The worktree's shadow common directory. */
export function shadowDirOf(w: WorktreeGit): string {
  return path.join(w.commonDir, 'durable-agent', 'worktrees', path.basename(w.gitDir));
}

/**
 * What sandboxed commands in the worktree may write of the repository's git directory: the
 * worktree's own git directory (HEAD, index, its logs) and the shadow's objects, refs and logs;
 * denied inside those, what makes git run code or read another directory (the worktree's
 * commondir/gitdir pointers, config, hooks; the shadow's alternates). The repository's objects,
 * refs, config and hooks, and the shadow's own files, stay read-only.
 */
export function worktreeGitAccess(
  commonDir: string,
  gitDir: string,
): { allowWrite: string[]; denyWrite: string[]; worktreeGit: WorktreeGit } {
  const w = { commonDir, gitDir };
  const shadow = shadowDirOf(w);
  return {
    worktreeGit: w,
    allowWrite: [w.gitDir, path.join(shadow, 'objects'), path.join(shadow, 'refs'), path.join(shadow, 'logs')],
    denyWrite: [
      path.join(w.gitDir, 'commondir'),
      path.join(w.gitDir, 'gitdir'),
      path.join(w.gitDir, 'config'),
      path.join(w.gitDir, 'config.worktree'),
      path.join(w.gitDir, 'hooks'),
      path.join(w.commonDir, 'config'),
      path.join(w.commonDir, 'hooks'),
      path.join(shadow, 'objects', 'info', 'alternates'),
    ],
  };
}

interface State {
  v: 1;
  /** `commondir` as git wrote it (restored between commands). */
  commondir: string;
  /** The refs this worktree may move in the repository: its branch, and the refs it created. */
  own: string[];
  /** Objects (and packs) of the shadow the repository refused: never offered again, so they block nothing else. */
  refused?: string[];
  /** The worktree's git directory's inode: a worktree removed and made again under the name is another one. */
  gitDirIno?: number;
}

// --- git -------------------------------------------------------------------------------------------

interface GitRun {
  stdout: string;
  stderr: string;
  code: number;
}

/** git through the door (src/hostProcess/git.ts): hardened, no secret of the worker, no repository of its own. */
async function runGit(
  args: readonly string[],
  opts: { env?: Record<string, string>; input?: string; stdinFd?: number; stdoutFd?: number; cwd?: string } = {},
): Promise<GitRun> {
  const r = await runHostGit(opts.cwd ?? '/', args, {
    ...(opts.env ? { env: opts.env } : {}),
    ...(opts.input !== undefined ? { input: opts.input } : {}),
    ...(opts.stdinFd !== undefined ? { stdinFd: opts.stdinFd } : {}),
    ...(opts.stdoutFd !== undefined ? { stdoutFd: opts.stdoutFd } : {}),
  });
  if (r.spawnError) throw new Error(`git could not start: ${r.spawnError}`);
  return { stdout: r.stdout, stderr: r.stderr, code: r.code ?? 1 };
}

async function git(args: readonly string[], opts: Parameters<typeof runGit>[1] = {}): Promise<string> {
  const r = await runGit(args, opts);
  if (r.code !== 0) throw new Error(`git ${args.join(' ')}: ${(r.stderr || `exit ${r.code}`).trim()}`);
  return r.stdout;
}

/** The repository's refs: name → hash (symbolic refs apart, with their targets). */
async function repositoryRefs(commonDir: string): Promise<{ refs: Map<string, string>; symrefs: Map<string, string> }> {
  const out = await git([`--git-dir=${commonDir}`, 'for-each-ref', '--format=%(objectname) %(refname) %(symref)']);
  const refs = new Map<string, string>();
  const symrefs = new Map<string, string>();
  for (const line of out.split('\n')) {
    const [hash, name, target] = line.split(' ');
    if (!hash || !name) continue;
    if (target) symrefs.set(name, target);
    else refs.set(name, hash);
  }
  return { refs, symrefs };
}

// --- files the worker owns, and files a command may have written ------------------------------------

async function writeAtomic(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await fs.writeFile(tmp, text, { flag: 'wx' });
  await fs.rename(tmp, file);
}

/** A directory of the shadow a command may have replaced (by a symlink, a file): made a directory again. */
async function repairDir(dir: string): Promise<void> {
  const st = await fs.lstat(dir).catch(() => undefined);
  if (st && !st.isDirectory()) await fs.rm(dir, { force: true });
  await ensureDir(dir);
}

/** mkdir that refuses a symlink (or anything else) in the way. */
async function ensureDir(dir: string): Promise<void> {
  await fs.mkdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err;
  });
  const st = await fs.lstat(dir);
  if (!st.isDirectory()) throw new Error(`${dir} is not a directory (a symlink or a file is in the way)`);
}

/** Linux reaches a name inside a directory held open through /proc (openat); elsewhere by path. */
const PROC_FD = process.platform === 'linux';

/** A directory a command may have written, opened without following a symlink. */
async function openDirNoFollow(dir: string): Promise<{ at: string; close: () => Promise<void> } | undefined> {
  let fh: FileHandle;
  try {
    fh = await fs.open(dir, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch {
    return undefined; // absent, a symlink or not a directory: nothing to read there
  }
  return { at: PROC_FD ? `/proc/self/fd/${fh.fd}` : dir, close: () => fh.close().catch(() => undefined) };
}

/** A regular file a command may have written: never a symlink, a FIFO or a device. */
async function openRegularNoFollow(file: string): Promise<FileHandle | undefined> {
  let fh: FileHandle;
  try {
    fh = await fs.open(file, constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch {
    return undefined;
  }
  if (!(await fh.stat()).isFile()) {
    await fh.close();
    return undefined;
  }
  return fh;
}

async function readRegular(file: string, max = 4096): Promise<string | undefined> {
  const fh = await openRegularNoFollow(file);
  if (!fh) return undefined;
  try {
    const buf = Buffer.alloc(max);
    const { bytesRead } = await fh.read(buf, 0, max, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await fh.close();
  }
}

async function entriesOf(at: string): Promise<Dirent[]> {
  return fs.readdir(at, { withFileTypes: true }).catch(() => [] as Dirent[]);
}

/** A branch or tag name as git accepts it (git check-ref-format's rules; a file name a command made). */
function safeRefName(name: string): boolean {
  // No control character, space, ~ ^ : ? * [ \ or DEL anywhere; no "@{"; not "@" alone.
  if (!/^refs\/(heads|tags)\/[^\x00-\x20~^:?*[\\\x7f]+$/.test(name) || name.includes('@{')) return false;
  return !name
    .split('/')
    .some(
      (c) => c === '' || c === '@' || c.startsWith('.') || c.endsWith('.lock') || c.endsWith('.') || c.includes('..'),
    );
}

/** The shadow's loose refs under refs/heads and refs/tags (what commands wrote there), never following a symlink. */
async function shadowLooseRefs(shadow: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  let budget = 100_000;
  const walk = async (dir: string, rel: string, depth: number): Promise<void> => {
    const d = await openDirNoFollow(dir);
    if (!d) return;
    try {
      for (const e of await entriesOf(d.at)) {
        if (--budget < 0) return;
        const name = `${rel}/${e.name}`;
        const p = path.join(d.at, e.name);
        if (e.isDirectory() && depth < 16) await walk(p, name, depth + 1);
        else if (e.isFile() && !e.name.endsWith('.lock')) {
          const text = (await readRegular(p, 200))?.trim();
          if (text && HEX.test(text) && safeRefName(name)) found.set(name, text);
        }
      }
    } finally {
      await d.close();
    }
  };
  for (const top of ['heads', 'tags']) await walk(path.join(shadow, 'refs', top), `refs/${top}`, 0);
  return found;
}

// --- the lock and the leases ---------------------------------------------------------------------------

const HOST = os.hostname();

/** A holder written as `host owner` (reaper.ts ownerId: pid and start time): alive unless it is on this host and gone. */
function holderAlive(text: string | undefined, mtimeMs: number): boolean {
  const [host, owner] = (text ?? '').trim().split(' ');
  if (host === HOST && owner && /^\d+(\.\d+)?$/.test(owner)) return ownerAlive(owner);
  // Another host (a shared file system) or unreadable: alive for a day.
  return Date.now() - mtimeMs < 24 * 3600_000;
}

async function withLock<T>(shadow: string, fn: () => Promise<T>): Promise<T> {
  const lock = path.join(shadow, LOCK);
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      await fs.writeFile(lock, `${HOST} ${ownerId()}\n`, { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const st = await fs.lstat(lock).catch(() => undefined);
      if (st && !holderAlive(await readRegular(lock), st.mtimeMs)) {
        await fs.rm(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`the worktree's git lock ${lock} is held by another process`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  try {
    return await fn();
  } finally {
    await fs.rm(lock, { force: true });
  }
}

/** The leases of commands running now (a dead process's lease is dropped). */
async function liveLeases(shadow: string): Promise<string[]> {
  const dir = path.join(shadow, LEASES);
  const live: string[] = [];
  for (const e of await entriesOf(dir)) {
    const p = path.join(dir, e.name);
    const st = await fs.lstat(p).catch(() => undefined);
    if (!st) continue;
    if (holderAlive(await readRegular(p), st.mtimeMs)) live.push(e.name);
    else await fs.rm(p, { force: true });
  }
  return live;
}

// --- the shadow ----------------------------------------------------------------------------------------

async function readState(shadow: string): Promise<State | undefined> {
  const text = await readRegular(path.join(shadow, STATE), 1 << 20);
  if (!text) return undefined;
  try {
    const s = JSON.parse(text) as State;
    return s.v === 1 && typeof s.commondir === 'string' && Array.isArray(s.own) ? s : undefined;
  } catch {
    return undefined;
  }
}

/** The branch the worktree has checked out, when no other worktree (nor the main checkout) has it. */
async function ownBranchNow(w: WorktreeGit): Promise<string | undefined> {
  const head = (await readRegular(path.join(w.gitDir, 'HEAD'), 1024))?.trim();
  const m = head?.match(/^ref: (refs\/heads\/\S+)$/);
  if (!m || !safeRefName(m[1]!)) return undefined;
  const gitDirs = await fs.readdir(path.join(w.commonDir, 'worktrees')).catch(() => [] as string[]);
  // The main checkout's branch is the common HEAD; another worktree's is its own HEAD.
  const others = [
    path.join(w.commonDir, 'HEAD'),
    ...gitDirs.map((d) => path.join(w.commonDir, 'worktrees', d, 'HEAD')),
  ];
  for (const h of others) {
    if (path.dirname(h) === w.gitDir) continue;
    if ((await readRegular(h, 1024))?.trim() === `ref: ${m[1]}`) return undefined;
  }
  return m[1];
}

/**
 * Makes the shadow (once) and records which refs the worktree owns: `branch` when the worker made
 * the worktree for it, else the branch it has checked out when nobody else has. Idempotent;
 * `fresh` (the worktree was just made) drops what an earlier worktree of the same name left.
 */
export async function prepareWorktreeGit(w: WorktreeGit, branch?: string, fresh = false): Promise<void> {
  const shadow = shadowDirOf(w);
  // A worktree just made, or made again by hand under the name: what the earlier one left goes.
  const ino = (await fs.stat(w.gitDir)).ino;
  const old = await readState(shadow).catch(() => undefined);
  if (fresh || (old && old.gitDirIno !== undefined && old.gitDirIno !== ino))
    await fs.rm(shadow, { recursive: true, force: true });
  for (const d of [path.join(w.commonDir, 'durable-agent'), path.dirname(shadow), shadow]) await ensureDir(d);
  await withLock(shadow, async () => {
    if (await readState(shadow)) return;
    const commondir = (await readRegular(path.join(w.gitDir, 'commondir'), 4096)) ?? '../..\n';
    const own = branch ? [`refs/heads/${branch}`] : [await ownBranchNow(w)].filter((b): b is string => !!b);
    // A commondir already naming the shadow (a worker lost before its state was written) goes back to git's.
    const original = path.resolve(w.gitDir, commondir.trim()) === shadow ? '../..\n' : commondir;
    await writeAtomic(
      path.join(shadow, STATE),
      JSON.stringify({ v: 1, commondir: original, own, gitDirIno: ino } satisfies State),
    );
  });
}

/** The files of the shadow that are the worker's, written afresh at each start (nothing a command left there counts). */
async function writeShadowFrame(w: WorktreeGit, shadow: string): Promise<void> {
  const real = (p: string) => path.join(w.commonDir, p);
  // The repository's format must be in the file itself (git reads it without includes).
  const format = (
    await runGit([
      `--git-dir=${w.commonDir}`,
      'config',
      '--file',
      real('config'),
      '--get-regexp',
      '^(core\\.repositoryformatversion|extensions\\.)',
    ])
  ).stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const i = l.indexOf(' ');
      return i < 0 ? [l, 'true'] : [l.slice(0, i), l.slice(i + 1)];
    });
  const quote = (v: string) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  const core = format.filter(([k]) => k!.startsWith('core.')).map(([k, v]) => `\t${k!.slice(5)} = ${quote(v!)}\n`);
  const ext = format
    .filter(([k]) => k!.startsWith('extensions.'))
    .map(([k, v]) => `\t${k!.slice(11)} = ${quote(v!)}\n`);
  await writeAtomic(
    path.join(shadow, 'config'),
    `# durable-agent: the worktree's git while a command runs in it (src/sandbox/worktreeGit.ts)\n` +
      `[core]\n${core.join('')}\thooksPath = ${quote(real('hooks'))}\n` +
      (ext.length ? `[extensions]\n${ext.join('')}` : '') +
      `[include]\n\tpath = ${quote(real('config'))}\n`,
  );
  const head = (await readRegular(real('HEAD'), 1024)) ?? 'ref: refs/heads/main\n';
  await writeAtomic(path.join(shadow, 'HEAD'), head.endsWith('\n') ? head : `${head}\n`);
  // objects/ is the commands' to write: what they put in place of info/ or pack/ goes (no command runs now).
  for (const d of ['objects', path.join('objects', 'info'), path.join('objects', 'pack'), 'refs', 'logs', LEASES])
    await repairDir(path.join(shadow, d));
  await fs.rm(path.join(shadow, 'objects', 'info', 'alternates'), { force: true, recursive: true });
  await writeAtomic(path.join(shadow, 'objects', 'info', 'alternates'), `${real('objects')}\n`);
  // What git reads of the common directory besides objects and refs: the repository's own.
  for (const name of ['info', 'worktrees', 'shallow']) {
    const link = path.join(shadow, name);
    await fs.rm(link, { force: true, recursive: true });
    if (await fs.lstat(real(name)).catch(() => undefined)) await fs.symlink(real(name), link);
  }
}

/** The shadow's refs as the repository has them now: the owned ones loose (the command moves them), the rest packed. */
async function resetShadowRefs(w: WorktreeGit, shadow: string, state: State): Promise<void> {
  const { refs, symrefs } = await repositoryRefs(w.commonDir);
  const refsDir = path.join(shadow, 'refs');
  await fs.rm(refsDir, { recursive: true, force: true });
  for (const d of ['refs', 'refs/heads', 'refs/tags']) await ensureDir(path.join(shadow, d));
  const packed = [...refs]
    .filter(([name]) => !state.own.includes(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  await writeAtomic(path.join(shadow, 'packed-refs'), packed.map(([n, h]) => `${h} ${n}\n`).join(''));
  const loose = async (name: string, text: string) => {
    const file = path.join(shadow, name);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, text);
  };
  for (const name of state.own) {
    const hash = refs.get(name);
    if (hash) await loose(name, `${hash}\n`);
  }
  for (const [name, target] of symrefs) if (name.startsWith('refs/')) await loose(name, `ref: ${target}\n`);
}

async function pointCommondir(w: WorktreeGit, text: string): Promise<void> {
  const file = path.join(w.gitDir, 'commondir');
  if ((await readRegular(file, 4096)) === text) return;
  await writeAtomic(file, text);
}

/** A command in the worktree holds one from before it starts until its work is brought in. */
export interface WorktreeGitLease {
  w: WorktreeGit;
  name: string;
}

/**
 * Before a command runs in the worktree: the worktree's git points at its shadow (made and, when
 * no other command of the worktree runs, refreshed from the repository), and this command holds a lease.
 */
export async function activateWorktreeGit(w: WorktreeGit): Promise<WorktreeGitLease> {
  await prepareWorktreeGit(w);
  const shadow = shadowDirOf(w);
  return withLock(shadow, async () => {
    const state = await readState(shadow);
    if (!state) throw new Error(`the worktree's git state in ${shadow} is missing`);
    if ((await liveLeases(shadow)).length === 0) {
      // A command whose worker was lost left its work here: it comes in before the refs are reset.
      if ((await readRegular(path.join(w.gitDir, 'commondir'), 4096))?.trim() === shadow)
        await syncLocked(w, shadow, state);
      await writeShadowFrame(w, shadow);
      await resetShadowRefs(w, shadow, state);
    }
    const name = `${HOST.replace(/[^A-Za-z0-9.-]/g, '_')}-${process.pid}-${randomBytes(6).toString('hex')}`;
    await fs.writeFile(path.join(shadow, LEASES, name), `${HOST} ${ownerId()}\n`, { flag: 'wx' });
    await pointCommondir(w, `${shadow}\n`);
    return { w, name };
  });
}

/**
 * After a command: its work brought into the repository (syncWorktreeGit), its lease dropped, and
 * when no other command of the worktree runs (and everything came in), the worktree's git points
 * at the repository again.
 */
export async function deactivateWorktreeGit(lease: WorktreeGitLease): Promise<WorktreeSync> {
  const shadow = shadowDirOf(lease.w);
  return withLock(shadow, async () => {
    const state = await readState(shadow);
    await fs.rm(path.join(shadow, LEASES, lease.name), { force: true });
    if (!state) return { applied: [], refused: [] }; // the worktree was removed meanwhile
    const sync = await syncLocked(lease.w, shadow, state);
    if ((await liveLeases(shadow)).length === 0 && !sync.importFailed) await pointCommondir(lease.w, state.commondir);
    return sync;
  });
}

/**
 * Brings what the shadow holds into the repository and points the worktree back at it, when no
 * command of it runs (a worker lost mid-command leaves a shadow active; the worktree's end calls this).
 */
export async function settleWorktreeGit(w: WorktreeGit): Promise<WorktreeSync | undefined> {
  const shadow = shadowDirOf(w);
  if (!(await fs.lstat(shadow).catch(() => undefined))?.isDirectory()) return undefined;
  return withLock(shadow, async () => {
    const state = await readState(shadow);
    if (!state) return undefined;
    const sync = await syncLocked(w, shadow, state);
    if ((await liveLeases(shadow)).length === 0 && !sync.importFailed) await pointCommondir(w, state.commondir);
    return sync;
  });
}

/** Removes the shadow of a worktree being removed. */
export async function removeWorktreeGit(w: WorktreeGit | undefined): Promise<void> {
  if (!w) return;
  await fs.rm(shadowDirOf(w), { recursive: true, force: true });
}

// --- bringing a command's work in ------------------------------------------------------------------------

async function syncLocked(w: WorktreeGit, shadow: string, state: State): Promise<WorktreeSync> {
  const result: WorktreeSync = { applied: [], refused: [] };
  const refusedBefore = state.refused?.length ?? 0;
  try {
    const problem = await importObjects(w, shadow, state);
    if (problem) result.objectsError = problem;
  } catch (err) {
    result.objectsError = err instanceof Error ? err.message : String(err);
    result.importFailed = true;
  }
  let stateChanged = (state.refused?.length ?? 0) !== refusedBefore;
  const wanted = await shadowLooseRefs(shadow);
  const packed = await packedRefsOf(shadow);
  const { refs } = await repositoryRefs(w.commonDir);
  const exists = await objectsPresent(w.commonDir, [...new Set(wanted.values())]);
  for (const [ref, to] of wanted) {
    const now = refs.get(ref);
    if (now === to) continue;
    const owned = state.own.includes(ref);
    // A new branch is the worktree's own from then on; a tag, or any ref that existed, is not.
    const created = now === undefined && !packed.has(ref) && ref.startsWith('refs/heads/');
    if (!owned && !created) {
      result.refused.push({ ref, to, why: ref.startsWith('refs/tags/') ? 'a tag' : 'not this worktree’s branch' });
      continue;
    }
    const type = exists.get(to);
    if (type !== 'commit') {
      result.refused.push({ ref, to, why: 'its commit was not brought into the repository' });
      continue;
    }
    // Every object its new commits need must be in the repository (some may have been refused).
    if (!(await complete(w.commonDir, to, [...refs.values()]))) {
      result.refused.push({ ref, to, why: 'some of its objects were not brought into the repository' });
      continue;
    }
    // What the sandbox kept it from writing on disk, it may not put in a commit either.
    const touched = await protectedChanges(w.commonDir, to, [...refs.values()]);
    if (touched.length > 0) {
      result.refused.push({
        ref,
        to,
        why: `its new commits change protected paths (${touched.slice(0, 5).join(', ')}${touched.length > 5 ? ', …' : ''}), which commands in a worktree may not change`,
      });
      continue;
    }
    const r = await runGit([
      `--git-dir=${w.commonDir}`,
      'update-ref',
      '-m',
      'durable-agent: from worktree',
      ref,
      to,
      now ?? '',
    ]);
    if (r.code !== 0) {
      result.refused.push({ ref, to, why: r.stderr.trim() || 'git update-ref failed' });
      continue;
    }
    result.applied.push({ ref, to });
    if (!owned) {
      state.own.push(ref);
      stateChanged = true;
    }
  }
  if (stateChanged) await writeAtomic(path.join(shadow, STATE), JSON.stringify(state));
  // HEAD naming a ref the repository did not take would show the worktree's files as changes: detach it there.
  const head = (await readRegular(path.join(w.gitDir, 'HEAD'), 1024))?.trim();
  const named = head?.match(/^ref: (\S+)$/)?.[1];
  if (named && !state.own.includes(named)) {
    // Pointed at a ref the worktree does not own (main, another branch): at the commit it named for the command.
    const at = wanted.get(named) ?? (await packedValueOf(shadow, named)) ?? refs.get(named);
    const type = at ? (await objectsPresent(w.commonDir, [at])).get(at) : undefined;
    if (at && type === 'commit') {
      await writeAtomic(path.join(w.gitDir, 'HEAD'), `${at}\n`);
      result.detachedHead = at;
    }
  }
  return result;
}

/** A ref's value in the shadow's packed-refs (the worker's copy of the repository's refs). */
async function packedValueOf(shadow: string, ref: string): Promise<string | undefined> {
  const text = await fs.readFile(path.join(shadow, 'packed-refs'), 'utf8').catch(() => '');
  for (const l of text.split('\n')) {
    const [hash, name] = l.split(' ');
    if (name === ref && hash && HEX.test(hash)) return hash;
  }
  return undefined;
}

/**
 * The protected paths (src/permissions/protectedPaths.ts: `.claude/`, `.git*`, `.mcp.json`, shell
 * start-up files…) that the commits reachable from `tip` and from none of the repository's refs
 * change. A merge counts only for what differs from every parent (a merge of main's own changes is not the worktree's).
 */
async function protectedChanges(commonDir: string, tip: string, known: readonly string[]): Promise<string[]> {
  const r = await runGit(
    [`--git-dir=${commonDir}`, 'log', '-z', '--format=', '--name-only', '--no-renames', '--cc', '--stdin'],
    { input: [tip, ...known.map((h) => `^${h}`)].join('\n') + '\n' },
  );
  if (r.code !== 0) return [`(the commits could not be read: ${r.stderr.trim()})`];
  // -z: names as they are (a quoted name would hide its first component from the check).
  const paths = [...new Set(r.stdout.split(/[\0\n]/).filter(Boolean))];
  return paths.filter((p) => isProtectedRepositoryPath(p));
}

/** Are all the objects of the commits reachable from `tip` and from no repository ref in the repository? */
async function complete(commonDir: string, tip: string, known: readonly string[]): Promise<boolean> {
  const r = await runGit([`--git-dir=${commonDir}`, 'rev-list', '--objects', '--quiet', '--stdin'], {
    input: [tip, ...known.map((h) => `^${h}`)].join('\n') + '\n',
  });
  return r.code === 0;
}

/** The refs the worker packed into the shadow (the repository's, when the command started). */
async function packedRefsOf(shadow: string): Promise<Set<string>> {
  const text = await fs.readFile(path.join(shadow, 'packed-refs'), 'utf8').catch(() => '');
  return new Set(
    text
      .split('\n')
      .filter((l) => l && !l.startsWith('#') && !l.startsWith('^'))
      .map((l) => l.split(' ')[1]!)
      .filter(Boolean),
  );
}

async function objectsPresent(commonDir: string, hashes: string[]): Promise<Map<string, string>> {
  if (hashes.length === 0) return new Map();
  const out = await runGit([`--git-dir=${commonDir}`, 'cat-file', '--batch-check=%(objectname) %(objecttype)'], {
    input: hashes.map((h) => `${h}\n`).join(''),
  });
  const types = new Map<string, string>();
  for (const l of out.stdout.split('\n')) {
    const [h, t] = l.split(' ');
    if (h && t && t !== 'missing') types.set(h, t);
  }
  return types;
}

/**
 * The shadow's objects into the repository: loose ones copied (never through a symlink) to a
 * directory of the worker's and packed there, packs streamed; `git index-pack --fsck-objects`
 * names each object by its content and refuses what a fetch with fsck would. What came in is then
 * removed from the shadow (the command's git still reads it through the alternate).
 */
async function importObjects(w: WorktreeGit, shadow: string, state: State): Promise<string | undefined> {
  const top = await openDirNoFollow(path.join(shadow, 'objects'));
  if (!top) return undefined;
  // Every directory stays open until the end: what is read, and later removed, is reached through
  // it (a command swapping `objects/xx` or `objects/pack` for a symlink meanwhile changes nothing).
  const held: Array<{ close: () => Promise<void> }> = [top];
  const loose: Array<{ name: string; at: string }> = [];
  const packs: Array<{ name: string; at: string }> = [];
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'da-wtgit-'));
  try {
    for (const e of await entriesOf(top.at)) {
      if (!e.isDirectory()) continue;
      const isLoose = /^[0-9a-f]{2}$/.test(e.name);
      if (!isLoose && e.name !== 'pack') continue;
      const d = await openDirNoFollow(path.join(top.at, e.name));
      if (!d) continue;
      held.push(d);
      for (const f of await entriesOf(d.at)) {
        if (!f.isFile()) continue;
        const at = path.join(d.at, f.name);
        if (!isLoose) {
          if (/^pack-[0-9a-f]+\.pack$/.test(f.name)) packs.push({ name: f.name, at });
          continue;
        }
        if (!/^[0-9a-f]{38}(?:[0-9a-f]{24})?$/.test(f.name)) continue;
        const fh = await openRegularNoFollow(at);
        if (!fh) continue;
        await fs.mkdir(path.join(tmp, e.name), { recursive: true });
        // Streamed (an object may be large), from the descriptor just checked.
        await pipeline(fh.createReadStream(), createWriteStream(path.join(tmp, e.name, f.name)));
        loose.push({ name: e.name + f.name, at });
      }
    }
    const refused = new Set(state.refused ?? []);
    const problems: string[] = [];
    const imported: string[] = [];
    // Loose objects: as one pack; when the repository refuses it, one by one (a refused object
    // then stays in the shadow, named in the state, and is never offered again).
    const fresh = loose.filter((l) => !refused.has(l.name));
    if (fresh.length > 0) {
      const whole = await packAndIndex(
        w.commonDir,
        tmp,
        fresh.map((l) => l.name),
      );
      if (!whole) imported.push(...fresh.map((l) => l.at));
      else
        for (const l of fresh) {
          const why = await packAndIndex(w.commonDir, tmp, [l.name]);
          if (!why) imported.push(l.at);
          else {
            refused.add(l.name);
            problems.push(`${l.name.slice(0, 12)}: ${why}`);
          }
        }
    }
    for (const p of packs) {
      if (refused.has(p.name)) continue;
      const fh = await openRegularNoFollow(p.at);
      if (!fh) continue;
      try {
        const r = await runGit([`--git-dir=${w.commonDir}`, 'index-pack', '--stdin', '--fsck-objects'], {
          stdinFd: fh.fd,
        });
        if (r.code === 0) imported.push(p.at);
        else {
          refused.add(p.name);
          problems.push(`${p.name}: ${gitReason(r.stderr)}`);
        }
      } finally {
        await fh.close();
      }
    }
    if (refused.size > (state.refused?.length ?? 0)) state.refused = [...refused].slice(-10_000);
    // In the repository now: the shadow's copies go (a forged one included: its name was never taken).
    for (const at of imported) {
      if (!at.endsWith('.pack')) await fs.rm(at, { force: true });
      else
        for (const ext of ['.pack', '.idx', '.rev', '.keep', '.bitmap', '.promisor'])
          await fs.rm(at.replace(/\.pack$/, ext), { force: true });
    }
    return problems.length > 0 ? `refused by the repository: ${problems.slice(0, 5).join('; ')}` : undefined;
  } finally {
    for (const h of held) await h.close();
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

/** The last line of git's complaint. */
function gitReason(stderr: string): string {
  const lines = stderr.trim().split('\n').filter(Boolean);
  return lines.find((l) => l.startsWith('error:'))?.replace(/^error: /, '') ?? lines.at(-1) ?? 'refused';
}

/**
 * Packs the named loose objects (copied to `objects`, a directory of the worker's) and gives the
 * pack to the repository through `git index-pack --fsck-objects`; git's reason when it refuses.
 */
async function packAndIndex(commonDir: string, objects: string, names: string[]): Promise<string | undefined> {
  const pack = path.join(objects, `import-${randomBytes(4).toString('hex')}.pack`);
  const out = await fs.open(pack, 'w');
  try {
    const r = await runGit([`--git-dir=${commonDir}`, 'pack-objects', '--stdout'], {
      env: { GIT_OBJECT_DIRECTORY: objects },
      input: names.map((n) => `${n}\n`).join(''),
      stdoutFd: out.fd,
    });
    if (r.code !== 0) return `unreadable: ${gitReason(r.stderr)}`;
  } finally {
    await out.close();
  }
  const fh = await fs.open(pack, 'r');
  try {
    const r = await runGit([`--git-dir=${commonDir}`, 'index-pack', '--stdin', '--fsck-objects'], { stdinFd: fh.fd });
    return r.code === 0 ? undefined : gitReason(r.stderr);
  } finally {
    await fh.close();
    await fs.rm(pack, { force: true });
  }
}

/** What the model is told after a command whose git work the repository did not (all) take. */
export function worktreeSyncNote(s: WorktreeSync): string | undefined {
  const lines: string[] = [];
  if (s.objectsError) lines.push(`Objects were not brought into the repository: ${s.objectsError}`);
  for (const r of s.refused) lines.push(`${r.ref} -> ${r.to.slice(0, 12)}: not applied to the repository (${r.why}).`);
  if (s.detachedHead)
    lines.push(`HEAD is now detached at ${s.detachedHead.slice(0, 12)} (the commit the command made).`);
  if (lines.length === 0) return undefined;
  return `<worktree_git>\nThis worktree's commands may move only its own branch (and refs they create) in the repository:\n${lines.join('\n')}\n</worktree_git>`;
}
