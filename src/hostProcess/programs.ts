// The trusted PATH and the programs found on it (invariant 15, docs/security.md "One door"; red
// teams, issue 30, I-3 and J1/J1b/J2/J6). npm and npx put `<project>/node_modules/.bin` (and each
// ancestor's) first on the PATH of what they start — `npx durable-agent dev`, `npm run worker` in
// the project — and sandboxed Bash may write the project's node_modules: a `bash`, `bwrap`,
// `socat`, `rg`, `which`, `git`, `temporal` or `go` planted there and looked up by name would run
// as the worker (or the person) outside the sandbox, with every secret. So every program a host
// process of the worker or the CLI starts is looked up on the trusted PATH only:
// - `trustedPath`: the PATH without relative entries (resolved against the project), without any
//   entry inside a `node_modules` directory, the process's own directory, or a directory a session
//   may write (its working directories, registered by each tool call);
// - `narrowProcessPath`: at worker and CLI start (and before a SandboxHost exists) process.env.PATH
//   becomes that, so the sandbox runtime's own `which`/`spawn` (bwrap, socat, rg, the shell) see it
//   too; the person's PATH is kept only for the command run INSIDE the sandbox (`personPath`);
// - `findProgram`/`sandboxPrograms`: absolute paths on it, passed everywhere a name was.
import { randomBytes } from 'node:crypto';
import {
  accessSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * The real path of `p`, or `p`. The kernel's realpath on the resolved form: the same answer as
 * fs.realpathSync (which resolves `..` by text first too) for a fraction of its CPU (it asks each
 * component of the path apart; issue 32: hundreds of paths at every CLI and worker start).
 */
export function realOr(p: string): string {
  try {
    return realpathSync.native(path.resolve(p));
  } catch {
    return p;
  }
}

export function isWithin(p: string, dir: string): boolean {
  const r = path.relative(dir, p);
  return r === '' || (!r.startsWith('..') && !path.isAbsolute(r));
}

/** Whether `p` (as given or real) has a `node_modules` component. */
export function inNodeModules(p: string): boolean {
  return hasNodeModules(p) || hasNodeModules(realOr(p));
}

const hasNodeModules = (p: string): boolean => p.split(path.sep).includes('node_modules');

/**
 * The PATH a program started outside the sandbox is looked up on (and gets): `value` without the
 * entries a session can write. A relative entry (`.`, `node_modules/.bin`, an empty one) is
 * resolved against the process's directory — the project; an entry inside a `node_modules`
 * directory is what npm and npx put first; an entry inside `cwd` or one of `projectDirs` is the
 * project's. There a command planted by the agent would run as the worker (red team, issue 30).
 */
export function outsidePath(
  value: string | undefined,
  cwd: string,
  projectDirs: readonly string[] = [],
  known: ReadonlySet<string> = new Set(),
): string | undefined {
  if (value === undefined) return undefined;
  // The filesystem root as directory (a process that needs none) holds every entry: no rule there.
  const dirs = new Set(
    [cwd, ...projectDirs]
      .filter((d) => path.isAbsolute(d))
      .flatMap((d) => [path.resolve(d), realOr(d)])
      .filter((d) => path.dirname(d) !== d),
  );
  return value
    .split(path.delimiter)
    .filter((e) => {
      if (!path.isAbsolute(e)) return false;
      // Resolved once per entry, not once per directory: a worker that ran many sessions has
      // thousands of session directories (issue 32: CPU per sandboxed call); inNodeModules's test with it.
      const real = realOr(e);
      if (hasNodeModules(e) || hasNodeModules(real)) return false;
      const given = path.resolve(e);
      return !(holder(given, dirs) || holder(real, dirs) || holder(given, known) || holder(real, known));
    })
    .join(path.delimiter);
}

/** The directory of `dirs` (resolved, never the root) that `p` (resolved) lies in: a walk up its ancestors. */
function holder(p: string, dirs: ReadonlySet<string>): string | undefined {
  if (dirs.size === 0) return undefined;
  for (let d = p; ; d = path.dirname(d)) {
    if (dirs.has(d)) return d;
    if (path.dirname(d) === d) return undefined;
  }
}

/**
 * Every directory a session on this process may write (its working directories, registered by each
 * tool call and each sandbox plan): no program started outside the sandbox is looked up in one or
 * run from one — `<project>/bin` (direnv's `PATH_add bin`) is the agent's.
 */
const sessionDirectories = new Set<string>();
/**
 * Each session directory as given and as its real path, resolved once when it is registered or
 * loaded (a session writes inside its directories, never the path leading to them): what a path
 * lies in is a walk up its ancestors, not a realpath per directory per call (issue 32: a worker —
 * or a test suite — that had registered 2,358 directories spent 16× the CPU per sandboxed command).
 */
const sessionDirectoryForms = new Set<string>();

function addSessionDirectory(dir: string): boolean {
  if (sessionDirectories.has(dir)) return false;
  sessionDirectories.add(dir);
  sessionDirectoryForms.add(dir);
  const real = realOr(dir);
  if (path.dirname(real) !== real) sessionDirectoryForms.add(real);
  return true;
}

/** The session directory `p` lies in (as given or real, either side), or undefined. */
export function sessionDirectoryHolding(p: string): string | undefined {
  loadKeptSessionDirectories();
  if (!path.isAbsolute(p)) return undefined;
  const given = path.resolve(p);
  return holder(given, sessionDirectoryForms) ?? holder(realOr(given), sessionDirectoryForms);
}

/**
 * The session directories are kept in the data directory too (`session-directories.json`, 0600, the
 * newest MAX_KEPT_SESSION_DIRECTORIES), and read back before this process looks anything up: a worker
 * or CLI started again (the next day's `dev`, a restarted service, a second `worker`) would otherwise
 * know none until a session of that project calls a tool, and its start-up probe ran a `which` an
 * earlier session planted in `<project>/bin` on the person's PATH (red team, issue 30, M9). The data
 * directory is one of the worker's private paths: no sandboxed command reads or writes it.
 * Each process moves a directory to the newest end the first time a session of it registers it
 * (loaded from the file or not). Directories that no longer exist are dropped when the list is read
 * and written (nothing planted in one is left; one made again is registered again by its session:
 * a test suite's thousands of temporary projects made every later process slower); past the cap,
 * the least recently registered go (N6: a cap of 1,000 by first registration let a worker's 1,000 later
 * isolated-agent worktrees push a project used every day out, and its planted `which` ran again).
 */
export const MAX_KEPT_SESSION_DIRECTORIES = 20_000;

/** The directories this process has moved to the newest end of the kept list. */
const keptThisProcess = new Set<string>();

export function sessionDirectoriesFile(env: Readonly<Record<string, string | undefined>> = process.env): string {
  // The data directory (src/stores/dataHome.ts durableAgentHome; not imported: another room).
  return path.join(path.resolve(env.DURABLE_AGENT_HOME ?? path.join(os.homedir(), '.durable-agent')), SESSION_DIRS);
}
const SESSION_DIRS = 'session-directories.json';

function readKept(file: string): string[] {
  try {
    const st = lstatSync(file);
    if (!st.isFile() || st.size > 16 * 1024 * 1024) return [];
    const j = JSON.parse(readFileSync(file, 'utf8')) as { v?: number; dirs?: unknown };
    return Array.isArray(j?.dirs) ? j.dirs.filter((d): d is string => typeof d === 'string' && path.isAbsolute(d)) : [];
  } catch {
    return [];
  }
}

let keptLoaded = false;

/** The kept session directories, into this process's set (once; before the first lookup). */
function loadKeptSessionDirectories(): void {
  if (keptLoaded) return;
  keptLoaded = true;
  for (const file of keptFiles())
    for (const d of readKept(file)) if (path.dirname(d) !== d && existsSync(d)) addSessionDirectory(path.resolve(d));
}

/**
 * Where the kept lists are: the data directory's, and the user's own (`~/.durable-agent`, whatever
 * `DURABLE_AGENT_HOME` says). A second data directory on the machine — another worker or `dev` with
 * its own `DURABLE_AGENT_HOME`, the person's next CLI without it — shares the person's PATH but not
 * the data directory: each process reads and writes both lists, so none of them forgets a directory
 * a session of another one wrote (issue 30, gap G3). Sandboxed commands write neither (HOME is no
 * working directory; the data directory is private).
 */
function keptFiles(): string[] {
  const user = path.join(os.homedir(), '.durable-agent', SESSION_DIRS);
  return [...new Set([sessionDirectoriesFile(), user])];
}

/** `dirs` added to the kept lists (best effort: a worker that cannot write its data directory keeps them in memory only). */
function keepSessionDirectories(dirs: readonly string[]): void {
  for (const file of keptFiles()) keepIn(file, dirs);
}

function keepIn(file: string, dirs: readonly string[]): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const now = new Set(dirs);
    const all = [...readKept(file).filter((d) => !now.has(d) && existsSync(d)), ...dirs].slice(
      -MAX_KEPT_SESSION_DIRECTORIES,
    );
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ v: 1, dirs: all })}\n`, { flag: 'wx', mode: 0o600 });
    renameSync(tmp, file);
  } catch {
    // not kept: this process still has them
  }
}

export function registerSessionDirectories(dirs: readonly string[]): void {
  loadKeptSessionDirectories();
  const refreshed: string[] = [];
  let grew = false;
  for (const d of dirs) {
    if (!path.isAbsolute(d) || path.dirname(d) === d) continue;
    const dir = path.resolve(d);
    if (addSessionDirectory(dir)) grew = true;
    if (keptThisProcess.has(dir)) continue;
    keptThisProcess.add(dir);
    refreshed.push(dir);
  }
  if (refreshed.length > 0) keepSessionDirectories(refreshed);
  // What this process looks up by name outside the door — the sandbox runtime's `which` and shell on
  // every wrap (spawnSync with the worker's whole environment) — is found on process.env.PATH: a
  // process that narrowed it narrows it again as soon as a session's directory is known, before that
  // session's first wrap (red team, issue 30, L1: `<project>/bin` on the person's PATH, a `which`
  // planted there by the session's own Bash, run as the worker by the next wrap).
  if (grew && originalPath !== null) narrowProcessPath();
}

/** The session directories as given and real (for outsidePath's `known`). */
export function sessionDirectoryIndex(): ReadonlySet<string> {
  loadKeptSessionDirectories();
  return sessionDirectoryForms;
}

/**
 * A directory as a "project" rule: itself, unless it is the home directory or one of its
 * ancestors (a person running `durable-agent dev` from `~` keeps `~/.local/bin` and the cached
 * `temporal` in `~/.cache`; a session whose project is `~` registers it as a session directory,
 * which has no such exception).
 */
export function projectRule(dir: string): string[] {
  if (!path.isAbsolute(dir) || path.dirname(dir) === dir) return [];
  const home = os.homedir();
  return isWithin(home, dir) || isWithin(realOr(home), realOr(dir)) ? [] : [dir];
}

/** The trusted form of `value` (default process.env.PATH) for a process running in `cwd`. */
export function trustedPath(value: string | undefined = process.env.PATH, cwd: string = process.cwd()): string {
  loadKeptSessionDirectories();
  return outsidePath(value, '/', [...projectRule(process.cwd()), ...projectRule(cwd)], sessionDirectoryForms) ?? '';
}

/** The PATH before `narrowProcessPath` (null: never narrowed). */
let originalPath: string | undefined | null = null;

/**
 * process.env.PATH becomes the trusted PATH (idempotent). Called at worker start, CLI start and
 * before the first SandboxHost: what the process and the sandbox runtime in it look up by name
 * (`which`, `bwrap`, `socat`, `rg`, the shell) is found only there.
 */
export function narrowProcessPath(): void {
  const now = process.env.PATH;
  if (originalPath === null) originalPath = now;
  if (now !== undefined) process.env.PATH = trustedPath(now);
}

/** The person's PATH as the process started with it: only for the command run inside the sandbox. */
export function personPath(): string | undefined {
  return originalPath === null ? process.env.PATH : originalPath;
}

function executable(file: string): boolean {
  try {
    // Absent on most PATH entries: no error built (issue 32: ~90 a sandboxed call).
    if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable `name` on `pathVar` (absolute entries only), like `command -v`. */
export function findProgram(name: string, pathVar: string | undefined): string | undefined {
  for (const dir of (pathVar ?? '').split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    if (executable(candidate)) return candidate;
  }
  return undefined;
}

/** The programs the sandbox runs on the host, found on the trusted PATH (absent ones are left out). */
export interface SandboxPrograms {
  bash?: string;
  bwrap?: string;
  socat?: string;
  rg?: string;
}

/** `bash`, `bwrap`, `socat` and `rg` on the trusted PATH (of now: session directories change it). */
export function sandboxPrograms(): SandboxPrograms {
  const on = trustedPath();
  const out: SandboxPrograms = {};
  for (const n of ['bash', 'bwrap', 'socat', 'rg'] as const) {
    const p = findProgram(n, on);
    if (p) out[n] = p;
  }
  return out;
}

/**
 * Where durable-agent caches the programs it builds or downloads (the Temporal CLI, the server
 * release, earlier releases): `$DURABLE_AGENT_CACHE_DIR`, else `$XDG_CACHE_HOME/durable-agent`,
 * else `~/.cache/durable-agent`. The person's next `dev` runs what lies there outside any sandbox,
 * so it is one of the worker's private paths: no sandboxed command reads or writes it, whatever
 * `allowWrite` opens around it (issue 30, K8).
 */
export function programCacheRoot(env: Readonly<Record<string, string | undefined>> = process.env): string {
  if (env.DURABLE_AGENT_CACHE_DIR) return path.resolve(env.DURABLE_AGENT_CACHE_DIR);
  const xdg = env.XDG_CACHE_HOME;
  // XDG says a relative value is invalid and must be ignored.
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(env.HOME || os.homedir(), '.cache');
  return path.join(base, 'durable-agent');
}
