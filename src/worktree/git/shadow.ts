// The shadow's life: prepared with the worktree, activated for a command (the worktree's `commondir`
// names it), deactivated after (the command's work brought in), settled and removed.
import { promises as fs } from 'node:fs';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { removeTree } from '../../sandbox/anchored';
import { ownerId } from '../../sandbox/reaper';
import { ensureDir, readRegular, repairDir, safeRefName, writeAtomic } from './files';
import { repositoryRefs, runGit } from './git';
import { LEASES, STATE, type State, type WorktreeGit, type WorktreeSync, shadowDirOf } from './layout';
import { HOST, liveLeases, withLock } from './lock';
import { syncLocked } from './refs';

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

/**
 * Removes a worktree's files before git forgets it (worktrees.ts `removeWorktree`): level by level
 * through directory descriptors. Git's own removal and Node's rmSync build each child's path again,
 * and a background task of the session swapping a directory inside for a symlink led them into the
 * person's HOME (red team r, R1); a worktree that is gone, git removes without walking anything.
 */
export async function removeWorktreeFiles(dir: string): Promise<void> {
  if (await fs.lstat(dir).catch(() => undefined)) removeTree(dir);
}

/** Removes the shadow of a worktree being removed. */
export async function removeWorktreeGit(w: WorktreeGit | undefined): Promise<void> {
  if (!w) return;
  // Through descriptors (its logs are writable by the worktree's commands: red team r, R1).
  const shadow = shadowDirOf(w);
  if (await fs.lstat(shadow).catch(() => undefined)) removeTree(shadow);
}
