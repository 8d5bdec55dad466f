// The one door for host processes (invariant 15, docs/security.md "One door"): every process the
// worker starts — the sandboxed Bash command, worker-side git, hook commands, stdio MCP servers,
// ripgrep, the sandbox's own machinery, and the CLI's own servers — is started here and nowhere else
// in src/ (lint: rooms rule, `child_process` belongs to this room alone).
//
// The door fixes what the agent must never choose:
// - the environment: an allowlist by purpose (`hostEnvironment`), never the worker's whole
//   environment, so API keys, tokens and database URLs stay in the worker unless the user names them;
// - the directory: an absolute path the caller fixed (a session's project root or a directory the
//   session created), never a relative one resolved against whatever the worker's cwd is;
// - for git, a hardened invocation (`git.ts`).
import { spawn, spawnSync, type ChildProcess, type StdioOptions } from 'node:child_process';
import { realpathSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { bashEnvironment, BASH_ENV_ALLOWLIST, WORKER_SECRET_ENV_VARS } from './environment';
import { identityOf, workerCodeHolding } from './workerCode';

/**
 * Why the worker starts a process. Each purpose has its own environment:
 * - `sandboxed-command`: Bash and Monitor (the sandbox wraps the command): the Bash allowlist plus
 *   the user's `sandbox.passEnv`;
 * - `hook`: a command hook, outside the sandbox: the same allowlist plus `passEnv`, plus the hook's
 *   own variables (`CLAUDE_PROJECT_DIR`, …);
 * - `mcp-server`: a stdio MCP server: the MCP SDK's default variables plus the ones its config names
 *   (`env` in `.mcp.json`, the user's choice);
 * - `git`: worker-side git (worktrees, refs): locale and PATH only, with git's hardening (`git.ts`);
 * - `ripgrep`: Grep's engine: locale and PATH only;
 * - `sandbox-machinery`: the sandbox's probe and the reaper's guardian: the Bash allowlist;
 * - `operator`: what the person's own CLI starts for them (the Temporal dev server, the Go build of
 *   the CLI, the background service): the person's whole environment. Never for a session's work.
 */
export type HostPurpose =
  'sandboxed-command' | 'hook' | 'mcp-server' | 'git' | 'ripgrep' | 'sandbox-machinery' | 'operator';

/** The variables the MCP SDK gives a stdio server by default (its getDefaultEnvironment on POSIX). */
export const MCP_DEFAULT_ENV: readonly string[] = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];
/** What git and ripgrep get from the worker: finding programs and reading text, nothing else. */
export const MINIMAL_ENV: readonly string[] = ['PATH', 'HOME', 'LANG', 'LANGUAGE', 'LC_*', 'TZ'];

export interface HostEnvironmentOptions {
  /** Variables the caller names for this process; they win over the base. */
  env?: Readonly<Record<string, string>>;
  /** `sandboxed-command`, `hook`: entries of the user's `sandbox.passEnv`. */
  passEnv?: readonly string[];
  /** The worker's environment (default process.env): tests pass a bait one. */
  from?: Readonly<Record<string, string | undefined>>;
}

function pick(from: Readonly<Record<string, string | undefined>>, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(from)) {
    if (v === undefined || WORKER_SECRET_ENV_VARS.includes(k)) continue;
    if (names.some((n) => (n.endsWith('*') ? k.startsWith(n.slice(0, -1)) : k === n))) out[k] = v;
  }
  return out;
}

/** The environment a process of this purpose starts with. */
export function hostEnvironment(purpose: HostPurpose, opts: HostEnvironmentOptions = {}): Record<string, string> {
  const from = opts.from ?? process.env;
  const named = opts.env ?? {};
  switch (purpose) {
    case 'sandboxed-command':
    case 'hook':
      return { ...bashEnvironment(from, opts.passEnv ?? []), ...named };
    case 'sandbox-machinery':
      return { ...pick(from, BASH_ENV_ALLOWLIST), ...named };
    case 'mcp-server':
      // PYTHONSAFEPATH: python (3.11+) puts no directory of the command line or the cwd (the
      // project, which sandboxed commands write) first on sys.path, so `python3 -m srv` does not
      // import a `json.py` planted there. The server's config may set it otherwise.
      return { ...pick(from, MCP_DEFAULT_ENV), PYTHONSAFEPATH: '1', ...named };
    case 'git':
    case 'ripgrep':
      return { ...pick(from, MINIMAL_ENV), ...named };
    case 'operator': {
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(from)) if (v !== undefined) out[k] = v;
      return { ...out, ...named };
    }
  }
}

export interface HostProcessSpec extends HostEnvironmentOptions {
  purpose: HostPurpose;
  command: string;
  args?: readonly string[];
  /** An absolute directory the caller fixed; never resolved against the worker's cwd. */
  cwd: string;
  stdio?: StdioOptions;
  /** Its own process group (kill(-pid) reaches its children). */
  detached?: boolean;
  /**
   * The session's directories (its working directories, the repository git runs in): a program
   * started outside the sandbox is looked up on no PATH entry inside them either, whatever its own
   * directory (Grep's is the searched subdirectory; `<project>/bin` is not inside it).
   */
  projectDirs?: readonly string[];
}

/**
 * Purposes whose program runs outside the sandbox, found by name on the worker's PATH: worker-side
 * git, ripgrep, a stdio MCP server's command (`npx`, `node`, `uvx`).
 */
const OUTSIDE_PURPOSES: ReadonlySet<HostPurpose> = new Set(['git', 'ripgrep', 'mcp-server']);

function realOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/**
 * The PATH a program started outside the sandbox is looked up on (and gets): the worker's, without
 * the entries a session can write. A relative entry (`.`, `node_modules/.bin`, an empty one) is
 * resolved against the process's directory — the project; an entry inside a `node_modules`
 * directory is what npm and npx put first on the PATH of what they start (`npx durable-agent`,
 * `npm run worker` in the project: `<project>/node_modules/.bin` and each ancestor's), and sandboxed
 * Bash may write node_modules; an entry inside the process's own directory is the project's. There a
 * command planted by the agent as `git` or `rg` would run as the worker (red team, issue 30).
 */
export function outsidePath(
  value: string | undefined,
  cwd: string,
  projectDirs: readonly string[] = [],
): string | undefined {
  if (value === undefined) return undefined;
  // The filesystem root as directory (a process that needs none) holds every entry: no rule there.
  const dirs = [
    ...new Set([cwd, ...projectDirs].filter((d) => path.isAbsolute(d)).flatMap((d) => [path.resolve(d), realOr(d)])),
  ].filter((d) => path.dirname(d) !== d);
  const inside = (e: string, d: string): boolean => {
    const r = path.relative(d, e);
    return r === '' || (!r.startsWith('..') && !path.isAbsolute(r));
  };
  return value
    .split(path.delimiter)
    .filter(
      (e) =>
        path.isAbsolute(e) &&
        !e.split(path.sep).includes('node_modules') &&
        !realOr(e).split(path.sep).includes('node_modules') &&
        !dirs.some((d) => inside(e, d) || inside(realOr(e), d)),
    )
    .join(path.delimiter);
}

/**
 * Every directory a session on this worker may write (its working directories, registered by each
 * tool call and each sandbox plan): a program started outside the sandbox is looked up on no PATH
 * entry inside one — whatever its own directory (`/` for the config sanitiser and the worktree
 * shadow's git, a subdirectory for Grep), `<project>/bin` (direnv's `PATH_add bin`) is the agent's.
 */
const sessionDirectories = new Set<string>();

export function registerSessionDirectories(dirs: readonly string[]): void {
  for (const d of dirs) if (path.isAbsolute(d) && path.dirname(d) !== d) sessionDirectories.add(path.resolve(d));
}

/** The environment the door starts this process with (PATH narrowed for programs outside the sandbox). */
function environmentOf(spec: HostProcessSpec, cwd: string): Record<string, string> {
  const env = hostEnvironment(spec.purpose, spec);
  if (OUTSIDE_PURPOSES.has(spec.purpose) && env.PATH !== undefined)
    env.PATH = outsidePath(env.PATH, cwd, [...(spec.projectDirs ?? []), ...sessionDirectories]) ?? '';
  return env;
}

/**
 * The directories every sandboxed command may write besides its working directories: the sessions'
 * temp directories (src/sandbox/sessionTemp.ts `sessionTempRoot`) and the sandbox runtime's own
 * writable scratch directories (`/tmp/claude`, `~/.claude/debug`, `~/.npm/_logs`). A repository,
 * a settings file or a script there is the agent's, whatever symlink in the project leads to it.
 */
export function sandboxScratchDirectories(): string[] {
  const home = os.homedir();
  return [
    path.join(os.tmpdir(), 'durable-agent-sandbox'),
    '/tmp/claude',
    path.join(home, '.claude', 'debug'),
    path.join(home, '.npm', '_logs'),
  ];
}

/** The scratch directory `dir` really lies in (symlinks resolved on both sides), if any. */
export function scratchHolding(dir: string): string | undefined {
  const real = realOr(dir);
  const inside = (d: string) => {
    const r = path.relative(d, real);
    return r === '' || (!r.startsWith('..') && !path.isAbsolute(r));
  };
  return sandboxScratchDirectories().find((d) => inside(d) || inside(realOr(d)));
}

/** Purposes whose process runs outside the sandbox in a directory of the session's: never one the agent built elsewhere. */
const ROOTED_PURPOSES: ReadonlySet<HostPurpose> = new Set(['git', 'hook', 'mcp-server']);

function checkedCwd(spec: HostProcessSpec): string {
  if (!path.isAbsolute(spec.cwd))
    throw new Error(`host process ${spec.command}: its directory must be absolute, got ${JSON.stringify(spec.cwd)}`);
  // A symlink in the project (made by sandboxed Bash) to a repository or a settings file built in a
  // directory every sandboxed command may write: followed by the kernel, it would run git, a hook
  // or a server there (red team, issue 30, round d). The real path decides.
  if (ROOTED_PURPOSES.has(spec.purpose))
    for (const dir of [spec.cwd, ...(spec.projectDirs ?? [])]) {
      const held = scratchHolding(dir);
      if (held)
        throw new Error(
          `host process ${spec.command}: ${dir} lies in ${held} (really ${realOr(dir)}), which every sandboxed command may write; the worker runs ${spec.purpose} only in the session's own directories`,
        );
    }
  return spec.cwd;
}

/** Purposes that run the worker's own programs (or the person's) outside the sandbox with a wide environment. */
const OWN_CODE_PURPOSES: ReadonlySet<HostPurpose> = new Set(['sandbox-machinery', 'operator']);

/** The files a process runs: its program and, for node, its script (the first argument not an option). */
function programFiles(spec: HostProcessSpec): string[] {
  const files = [spec.command];
  const base = path.basename(spec.command);
  if (spec.command === process.execPath || base === 'node' || base === 'nodejs') {
    const script = (spec.args ?? []).find((a) => !a.startsWith('-'));
    if (script !== undefined) files.push(script);
  }
  return files.filter((f) => path.isAbsolute(f));
}

/**
 * The worker's own machinery and the person's servers run outside the sandbox with the worker's
 * (or the person's) environment: never a file a session may write (red team, issue 30, H-1: the
 * runtime child `runtimeChild.js` of a durable-agent installed in the project's `node_modules`).
 * A file in a session's directory or a sandbox scratch directory runs only when it is the worker's
 * own code (src/hostProcess/workerCode.ts, write-denied to every sandboxed command and refused to
 * the file tools) and that code's directory is still the one the worker started with (not renamed
 * away and replaced).
 */
function checkedProgram(spec: HostProcessSpec): void {
  if (!OWN_CODE_PURPOSES.has(spec.purpose)) return;
  for (const file of programFiles(spec)) {
    const real = realOr(file);
    const own = workerCodeHolding(file);
    if (own && identityOf(own.path) !== own.identity)
      throw new Error(
        `host process ${spec.command}: ${file} is the worker's own code, but ${own.path} is no longer the directory the worker started with (moved or replaced); restart the worker from a clean install`,
      );
    if (own) continue;
    const session = [...sessionDirectories].find(
      (d) => isWithin(file, d) || isWithin(real, d) || isWithin(real, realOr(d)),
    );
    const held = session ?? scratchHolding(file);
    if (held)
      throw new Error(
        `host process ${spec.command}: ${spec.purpose} runs ${file} (really ${real}), which lies in ${held}, a directory a session may write; the worker runs no program a session may have changed outside the sandbox`,
      );
  }
}

function isWithin(p: string, dir: string): boolean {
  const r = path.relative(dir, p);
  return r === '' || (!r.startsWith('..') && !path.isAbsolute(r));
}

/** Starts one host process. */
export function startHostProcess(spec: HostProcessSpec): ChildProcess {
  const cwd = checkedCwd(spec);
  checkedProgram(spec);
  return spawn(spec.command, [...(spec.args ?? [])], {
    cwd,
    env: environmentOf(spec, cwd),
    stdio: spec.stdio ?? ['pipe', 'pipe', 'pipe'],
    detached: spec.detached ?? false,
  });
}

export interface HostRunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** The process could not start (ENOENT, …). */
  spawnError?: string;
}

export interface HostRunOptions {
  /** Written to stdin, then closed (default: an empty stdin). */
  input?: string;
  /** A descriptor for stdin instead of `input`. */
  stdinFd?: number;
  /** A descriptor for stdout (the result's stdout is then empty). */
  stdoutFd?: number;
  timeoutMs?: number;
  /** Output kept per stream (default 16 MB); the rest is dropped. */
  maxOutputChars?: number;
}

/** Runs a host process to its end and collects its output (the door's execFile). */
export function runHostProcess(spec: HostProcessSpec, opts: HostRunOptions = {}): Promise<HostRunResult> {
  const max = opts.maxOutputChars ?? 16 * 1024 * 1024;
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = startHostProcess({
        ...spec,
        stdio: [opts.stdinFd ?? 'pipe', opts.stdoutFd ?? 'pipe', 'pipe'],
      });
    } catch (err) {
      resolve({
        code: null,
        signal: null,
        stdout: '',
        stderr: '',
        timedOut: false,
        spawnError: (err as Error).message,
      });
      return;
    }
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let spawnError: string | undefined;
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      if (stdout.length < max) stdout += d.slice(0, max - stdout.length);
    });
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      if (stderr.length < max) stderr += d.slice(0, max - stderr.length);
    });
    const timer =
      opts.timeoutMs !== undefined
        ? setTimeout(() => {
            timedOut = true;
            child.kill('SIGKILL');
          }, opts.timeoutMs)
        : undefined;
    child.on('error', (e) => (spawnError = e.message));
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut, ...(spawnError ? { spawnError } : {}) });
    });
    if (child.stdin) {
      child.stdin.on('error', () => undefined); // it may exit without reading its input
      child.stdin.end(opts.input ?? '');
    }
  });
}

/** The synchronous form, for the few start-up probes that cannot wait (a version check, a config read). */
export function runHostProcessSync(spec: HostProcessSpec, opts: { timeoutMs?: number } = {}): HostRunResult {
  const cwd = checkedCwd(spec);
  checkedProgram(spec);
  const r = spawnSync(spec.command, [...(spec.args ?? [])], {
    cwd,
    env: environmentOf(spec, cwd),
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 10_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return {
    code: r.status,
    signal: r.signal,
    stdout: r.stdout ?? '',
    stderr: r.stderr ?? '',
    timedOut: (r.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT',
    ...(r.error && (r.error as NodeJS.ErrnoException).code !== 'ETIMEDOUT' ? { spawnError: r.error.message } : {}),
  };
}
