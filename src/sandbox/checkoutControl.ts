// Control files that come in through a checkout (issue 30, class 3; docs/security.md "Round 3",
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
// A file missing in the worktree is not named: a checkout never has the main checkout's untracked
// files (`settings.local.json`, `.idea/`), and a missing file runs nothing.
import { constants, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { hostGit } from '../hostProcess/git';
import { controlPathSet } from '../permissions/controlFiles';
import { hashControlFiles } from '../permissions/controlWrites';

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
  change: 'created' | 'modified';
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
  // While a command runs, the worktree's git names its shadow (sandbox/worktreeGit/) as common directory.
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
  for (const [p, sig] of here.entries) {
    const r = inside(p, dir);
    // The git directory is the repository's own, not the checkout's; a directory is named by its entries.
    if (r === undefined || r === '.git' || r.startsWith(`.git${path.sep}`) || sig === 'dir') continue;
    const main = path.join(mainDir, r);
    const was = there.entries.get(main);
    if (was === sig) continue;
    changes.push({ path: p, change: was === undefined ? 'created' : 'modified', main });
  }
  changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { ...(record ? { record } : {}), mainRoot, changes };
}
