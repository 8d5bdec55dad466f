// Control files that come in through a checkout (issue 30, class 3; docs/security.md "Round 4",
// "Checkouts"). Sandboxed Bash in the main checkout may write the repository's objects and refs (a
// plain `git commit` must work there), so with `hash-object`/`mktree`/`commit-tree`/`update-ref` it
// can build a commit that adds `.claude/settings.json` (a SessionStart hook), `.mcp.json` or a new
// body for a script the hooks run, and move `main` or a `worktree-*` branch to it — without writing
// one protected file on disk. Whoever checks that branch out (`run --worktree`, EnterWorktree, an
// isolated agent: `git worktree add` by the worker, outside the sandbox) puts those files on disk,
// where a later session in the worktree loads them.
//
// The rule: a linked worktree's control files are trusted only as far as they equal the main
// checkout's — the files the person has on disk, which no sandboxed command can write (protected
// paths) and whose own changes the per-directory manifest names (src/cli/controlManifest.ts).
//  - Every checkout the worker or the CLI makes records itself (`recordCheckout`) in the
//    repository's `.git/durable-agent/checkouts/` — protected from every sandboxed command (the
//    main checkout's scans deny `.git/durable-agent`; a worktree's sandbox has the repository's git
//    directory read-only) and seen by whichever process later starts a session there, wherever
//    its data directory is.
//  - `run` in a linked worktree (`controlFilesFromCheckout`) compares its control files with the
//    main checkout's at the same relative paths when a checkout was recorded after the last session
//    there (or when no session ever ran there): each file created or changed is named, and `run`
//    starts nothing unless the person says they trust them (`--trust-checkout`). The session that
//    made the checkout does not load them: settings, hooks, MCP servers, memory and agents are read
//    once, by the CLI, at the session's start (a child gets its parent's).
//  - Every way a session starts applies the rule through one function (src/sessionInput.ts
//    `checkoutAtStart`): `run`, `startSession` of the library (`trustCheckout: true`), `schedule add`;
//    a schedule's firing checks again on the worker for checkouts recorded after the schedule was
//    created (`checkoutGuard` in the session input) and is refused before anything runs.
// A file the main checkout has and the worktree lacks is named ('deleted') when the main checkout's
// git tracks it — a planted commit that deletes a tracked `.claude/settings.json` takes its deny
// rules away in the worktree — or, untracked, when it is a shared settings file that carries
// restrictions (`carriesRestrictions`: deny or ask rules, `disableBypassPermissionsMode`, `sandbox`;
// their absence widens what a session there may do). Not named: the person's `*.local.json`
// settings and any other untracked file (`.idea/`, a local hook script) — never in any commit, so
// missing from every worktree, and a missing file runs nothing.
import { constants, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { hostGit } from '../../hostProcess/git';
import { controlPathSet } from '../../permissions/controlFiles';
import { hashControlFiles } from '../../permissions/controlWrites';

/** What made a checkout. */
export type CheckoutBy = 'run --worktree' | 'EnterWorktree' | 'Agent isolation';

export interface CheckoutRecord {
  v: 1;
  /** The worktree's top directory, as git names it. */
  path: string;
  /** The main checkout. */
  repoRoot: string;
  branch: string;
  /** The commit checked out. */
  commit: string;
  /** ISO time of the checkout. */
  at: string;
  by: CheckoutBy;
  /** The session that made it (EnterWorktree, an isolated agent). */
  session?: string;
}

export interface CheckoutChange {
  /** Absolute, in the session's directory. */
  path: string;
  /** `uncompared`: the walk of the directory's control files stopped at its limits; what lies beyond was not compared. */
  change: 'created' | 'modified' | 'deleted' | 'uncompared';
  /** The main checkout's file it was compared with. */
  main: string;
}

export interface CheckoutControl {
  /** The checkout that brought them; undefined: none recorded (a worktree made by hand or by an earlier release) and no session ran here. */
  record?: CheckoutRecord;
  mainRoot: string;
  changes: CheckoutChange[];
}

const CHECKOUTS = path.join('durable-agent', 'checkouts');
const MAX_RECORD_BYTES = 64 * 1024;
const MAX_SETTINGS_BYTES = 1024 * 1024;

/** The record's file: one per worktree git directory (`.git/worktrees/<name>`), in the repository's own git directory. */
function recordPath(commonDir: string, gitDir: string): string {
  return path.join(commonDir, CHECKOUTS, `${path.basename(gitDir)}.json`);
}

/** mkdir that refuses a symlink (or anything else) in the way. */
async function ensureDir(dir: string): Promise<void> {
  await fs.mkdir(dir, { mode: 0o700 }).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err;
  });
  if (!(await fs.lstat(dir)).isDirectory())
    throw new Error(`${dir} is not a directory (a symlink or a file is in the way)`);
}

/** Records a checkout just made (a worktree created, on `branch` at `commit`). Throws when it cannot: a later session must know. */
export async function recordCheckout(
  wt: { path: string; repoRoot: string; commonDir: string; gitDir: string; branch: string },
  by: CheckoutBy,
  session?: string,
  at = new Date(),
): Promise<void> {
  const [top, commit] = (await hostGit(wt.path, ['rev-parse', '--path-format=absolute', '--show-toplevel', 'HEAD']))
    .trim()
    .split('\n');
  if (!top || !commit) throw new Error(`git did not name the checkout of ${wt.path}`);
  const record: CheckoutRecord = {
    v: 1,
    path: top,
    repoRoot: wt.repoRoot,
    branch: wt.branch,
    commit,
    at: at.toISOString(),
    by,
    ...(session ? { session } : {}),
  };
  for (const d of [path.join(wt.commonDir, 'durable-agent'), path.join(wt.commonDir, CHECKOUTS)]) await ensureDir(d);
  const file = recordPath(wt.commonDir, wt.gitDir);
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await fs.writeFile(tmp, `${JSON.stringify(record)}\n`, { flag: 'wx', mode: 0o600 });
  await fs.rename(tmp, file);
}

async function readRecord(file: string): Promise<CheckoutRecord | undefined> {
  let fh: fs.FileHandle;
  try {
    fh = await fs.open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const st = await fh.stat();
    if (!st.isFile() || st.size > MAX_RECORD_BYTES) return undefined;
    const r = JSON.parse(await fh.readFile('utf8')) as CheckoutRecord;
    return r && r.v === 1 && typeof r.path === 'string' && typeof r.at === 'string' ? r : undefined;
  } catch {
    return undefined;
  } finally {
    await fh.close();
  }
}

/**
 * A session about to start in `cwd`: when `cwd` is in a linked worktree whose checkout (recorded
 * after `lastSessionAt`, the last session's start there; or any, when none ran there) was not yet
 * seen by a session, the control files of `cwd` that the main checkout does not have, or has with
 * other content. `runFiles`: the files the session's hooks and MCP servers run (compared too, at the
 * same relative path). Undefined: not a linked worktree, or its checkout was seen.
 */
export async function controlFilesFromCheckout(
  cwd: string,
  runFiles: readonly string[] = [],
  lastSessionAt?: string,
): Promise<CheckoutControl | undefined> {
  const dir = path.resolve(cwd);
  let out: string;
  try {
    out = await hostGit(dir, [
      'rev-parse',
      '--path-format=absolute',
      '--git-dir',
      '--git-common-dir',
      '--show-toplevel',
    ]);
  } catch {
    return undefined; // not in a repository with a working tree
  }
  const [gitDir, common, top] = out.trim().split('\n');
  if (!gitDir || !common || !top) return undefined;
  // While a command runs, the worktree's git names its shadow (worktree/git/) as common directory.
  const m = common.match(/^(.*)\/durable-agent\/worktrees\/[^/]+\/?$/);
  const commonDir = m && path.basename(m[1]!) === '.git' ? m[1]! : common;
  if (path.resolve(gitDir) === path.resolve(commonDir) || path.basename(commonDir) !== '.git') return undefined;
  const mainRoot = path.dirname(commonDir);
  const found = await readRecord(recordPath(commonDir, gitDir));
  const record = found && path.resolve(found.path) === path.resolve(top) ? found : undefined;
  if (lastSessionAt !== undefined && (!record || !(Date.parse(record.at) > Date.parse(lastSessionAt))))
    return undefined;
  const real = await fs.realpath(dir).catch(() => dir);
  const rel = path.relative(top, real);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  const mainDir = path.join(mainRoot, rel);
  const inside = (p: string, d: string): string | undefined => {
    const r = path.relative(d, p);
    return r === '' || r.startsWith('..') || path.isAbsolute(r) ? undefined : r;
  };
  // The run files inside the directory are compared with the main checkout's at the same place; one outside is the same file for both.
  const rels = runFiles.map((f) => inside(path.resolve(f), dir)).filter((r): r is string => r !== undefined);
  const [here, there] = await Promise.all([
    hashControlFiles(
      controlPathSet(
        [dir],
        rels.map((r) => path.join(dir, r)),
      ),
    ),
    hashControlFiles(
      controlPathSet(
        [mainDir],
        rels.map((r) => path.join(mainDir, r)),
      ),
    ),
  ]);
  const changes: CheckoutChange[] = [];
  const skip = (r: string | undefined, sig: string): boolean =>
    r === undefined || r === '.git' || r.startsWith(`.git${path.sep}`) || sig === 'dir';
  for (const [p, sig] of here.entries) {
    const r = inside(p, dir);
    // The git directory is the repository's own, not the checkout's; a directory is named by its entries.
    if (skip(r, sig)) continue;
    const main = path.join(mainDir, r!);
    const was = there.entries.get(main);
    if (was === sig) continue;
    changes.push({ path: p, change: was === undefined ? 'created' : 'modified', main });
  }
  changes.push(...(await deletedByCheckout(here.entries, there.entries, dir, mainDir, skip)));
  changes.push(...(await parentMcpJsonChanges(real, top, mainRoot)));
  changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  // The walk is bounded (entries per control directory, depth): a checkout with more entries than
  // it looks at could put a skill or agent past the limit, unnamed behind a list of harmless files
  // (red team, issue 30). Said, so that the person's consent covers what was not compared.
  if (here.truncated) changes.push({ path: dir, change: 'uncompared', main: mainDir });
  return { ...(record ? { record } : {}), mainRoot, changes };
}

/** A file as it is now (no link followed): undefined when absent. */
async function fileSig(p: string): Promise<string | undefined> {
  const st = await fs.lstat(p).catch(() => undefined);
  if (!st) return undefined;
  if (st.isSymbolicLink()) return `link:${await fs.readlink(p).catch(() => '')}`;
  if (!st.isFile()) return 'other';
  const text = await fs.readFile(p).catch(() => undefined);
  return text === undefined ? 'unreadable' : createHash('sha256').update(text).digest('hex');
}

/**
 * `run` reads `.mcp.json` in every parent of its directory too (src/mcp/config.ts readProjectMcpJson):
 * the ones between the worktree's top and the session's directory came with the checkout as well, and
 * are compared with the main checkout's at the same place (red team, issue 30, L9: a branch's top-level
 * `.mcp.json` started its server for a session in `<worktree>/packages/api`).
 */
async function parentMcpJsonChanges(real: string, top: string, mainRoot: string): Promise<CheckoutChange[]> {
  const out: CheckoutChange[] = [];
  const topReal = await fs.realpath(top).catch(() => top);
  for (let d = path.dirname(real); ; d = path.dirname(d)) {
    const rel = path.relative(topReal, d);
    if (rel.startsWith('..') || path.isAbsolute(rel)) break;
    const file = path.join(d, '.mcp.json');
    const main = path.join(mainRoot, rel, '.mcp.json');
    const [now, was] = await Promise.all([fileSig(file), fileSig(main)]);
    if (now !== undefined && now !== was)
      out.push({ path: file, change: was === undefined ? 'created' : 'modified', main });
    if (rel === '') break;
  }
  return out;
}

/** The main checkout's control files the worktree lacks that count (see the header): tracked by the main checkout's git, or carrying restrictions. */
async function deletedByCheckout(
  here: ReadonlyMap<string, string>,
  there: ReadonlyMap<string, string>,
  dir: string,
  mainDir: string,
  skip: (rel: string | undefined, sig: string) => boolean,
): Promise<CheckoutChange[]> {
  const missing: string[] = [];
  for (const [main, sig] of there) {
    const r = path.relative(mainDir, main);
    if (r === '' || r.startsWith('..') || path.isAbsolute(r) || skip(r, sig)) continue;
    if (!here.has(path.join(dir, r))) missing.push(r);
  }
  if (missing.length === 0) return [];
  // Tracked by the main checkout's index (the person's own view of the repository; no sandboxed command writes it unnoticed: .git/index of the main checkout is theirs).
  const tracked = new Set(
    (await hostGit(mainDir, ['ls-files', '-z', '--', ...missing.map((r) => `:(literal)${r}`)]).catch(() => ''))
      .split('\0')
      .filter(Boolean)
      .map((r) => path.normalize(r)),
  );
  const out: CheckoutChange[] = [];
  for (const r of missing) {
    const main = path.join(mainDir, r);
    // A `.local` settings file is the person's own on this machine, in no commit: never in a worktree, so never named.
    const local = /\.local\.json$/.test(r);
    if (tracked.has(path.normalize(r)) || (!local && (await carriesRestrictions(main))))
      out.push({ path: path.join(dir, r), change: 'deleted', main });
  }
  return out;
}

/**
 * Whether a settings file restricts what a session may do (so that its absence widens it): deny or
 * ask rules, `disableBypassPermissionsMode`, or `sandbox` settings. Any other file: false.
 */
export async function carriesRestrictions(file: string): Promise<boolean> {
  if (!/^settings(\.local)?\.json$/.test(path.basename(file))) return false;
  if (!['.claude', '.durable-agent'].includes(path.basename(path.dirname(file)))) return false;
  let text: string;
  try {
    const fh = await fs.open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      if ((await fh.stat()).size > MAX_SETTINGS_BYTES) return true; // too large to read: counted, not guessed
      text = await fh.readFile('utf8');
    } finally {
      await fh.close();
    }
  } catch {
    return false;
  }
  let j: { permissions?: { deny?: unknown; ask?: unknown; disableBypassPermissionsMode?: unknown }; sandbox?: unknown };
  try {
    j = JSON.parse(text) as typeof j;
  } catch {
    return true; // unreadable settings: counted, not guessed
  }
  const p = j?.permissions;
  const nonEmpty = (v: unknown): boolean => Array.isArray(v) && v.length > 0;
  return (
    !!j &&
    (nonEmpty(p?.deny) || nonEmpty(p?.ask) || p?.disableBypassPermissionsMode !== undefined || j.sandbox !== undefined)
  );
}

/** One line per control file a checkout brought or took away, as every start path prints them (`run`, the library's error, a refused schedule firing). */
export function checkoutLines(from: CheckoutControl, cwd: string): string[] {
  const r = from.record;
  const rel = (p: string): string => (p.startsWith(`${cwd}/`) ? p.slice(cwd.length + 1) : p);
  const by = r
    ? `by the checkout of branch ${r.branch} at ${r.commit.slice(0, 12)} (${r.at.slice(0, 16).replace('T', ' ')} UTC, ${r.by}${r.session ? ` in session ${r.session}` : ''})`
    : 'in this worktree, where no session has run yet';
  const why = (c: CheckoutChange): string =>
    c.change === 'created'
      ? `the main checkout ${from.mainRoot} does not have it`
      : c.change === 'deleted'
        ? `the main checkout has ${c.main} (its restrictions do not hold here)`
        : `it differs from the main checkout's ${c.main}`;
  return from.changes.map((c) =>
    c.change === 'uncompared'
      ? `⚠ the control directories of ${c.path} hold more entries than are compared (${by}): what lies past the first ones was not compared with the main checkout ${from.mainRoot}`
      : `⚠ ${rel(c.path)} ${c.change === 'modified' ? 'changed' : c.change} ${by}: ${why(c)}`,
  );
}

/** What every start path says after the lines when it starts nothing; `how`: the way to trust them there. */
export function checkoutRefusal(from: CheckoutControl, how: string): string {
  return `nothing was started: the control files above came with a checkout of this worktree and differ from the main checkout ${from.mainRoot}; a branch can carry what no session could write on disk. Read them, then ${how} to start a session that loads them.`;
}
