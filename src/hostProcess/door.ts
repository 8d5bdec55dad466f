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
import * as os from 'node:os';
import * as path from 'node:path';
import { bashEnvironment, BASH_ENV_ALLOWLIST, WORKER_SECRET_ENV_VARS } from './environment';
import {
  findProgram,
  inNodeModules,
  isWithin,
  outsidePath,
  projectRule,
  realOr,
  sessionDirectoryHolding,
  sessionDirectoryIndex,
} from './programs';
import { identityOf, workerCodeHolding } from './workerCode';

export { outsidePath, registerSessionDirectories } from './programs';

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

/** Purposes that start a session's work (their directory is the session's): every PATH entry inside it goes. */
const SESSION_PURPOSES: ReadonlySet<HostPurpose> = new Set([
  'sandboxed-command',
  'hook',
  'mcp-server',
  'git',
  'ripgrep',
]);

/** The directories no PATH entry and no program of this process may lie in (besides node_modules). */
function ruleDirectories(spec: HostProcessSpec, cwd: string): string[] {
  // The filesystem root as directory (a process that needs none: the config sanitiser's git) is no rule.
  return [
    ...(SESSION_PURPOSES.has(spec.purpose) ? [cwd] : projectRule(cwd)),
    ...projectRule(process.cwd()),
    ...(spec.projectDirs ?? []),
  ].filter((d) => path.isAbsolute(d) && path.dirname(path.resolve(d)) !== path.resolve(d));
}

/**
 * The environment the door starts this process with: PATH narrowed for every purpose (no relative
 * entry, none inside node_modules, the process's or the session's directories), so that neither the
 * program nor what it looks up by name (the `bwrap` of a wrapped command, a hook's tools) is one a
 * session planted (red teams, issue 30, I-3, J1). The command run inside the sandbox gets the
 * person's PATH back there (src/sandbox/host.ts), where what it finds runs sandboxed.
 */
function environmentOf(spec: HostProcessSpec, cwd: string): Record<string, string> {
  const env = hostEnvironment(spec.purpose, spec);
  if (env.PATH !== undefined)
    env.PATH = outsidePath(env.PATH, '/', ruleDirectories(spec, cwd), sessionDirectoryIndex()) ?? '';
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
/** Purposes whose program the person's configuration may name by path (a hook's, a stdio MCP server's). */
const USER_PROGRAM_PURPOSES: ReadonlySet<HostPurpose> = new Set(['hook', 'mcp-server']);

/**
 * The file the door starts: a name is looked up on the narrowed PATH the process gets (spawn would
 * look there too; resolved here so that the check below sees it), a relative path is resolved
 * against the process's directory. A name found nowhere stays a name (spawn then fails: ENOENT).
 */
function resolvedProgram(spec: HostProcessSpec, env: Readonly<Record<string, string>>, cwd: string): string {
  if (path.isAbsolute(spec.command)) return spec.command;
  if (spec.command.includes('/')) return path.resolve(cwd, spec.command);
  return findProgram(spec.command, env.PATH) ?? spec.command;
}

/** A node script the own-code purposes run (the first argument not an option), if any. */
function nodeScript(spec: HostProcessSpec, program: string): string | undefined {
  const base = path.basename(program);
  if (program !== process.execPath && base !== 'node' && base !== 'nodejs') return undefined;
  const script = (spec.args ?? []).find((a) => !a.startsWith('-'));
  return script !== undefined && path.isAbsolute(script) ? script : undefined;
}

/** Where `file` lies that a session may write, or undefined. */
function writableHolding(file: string, extra: readonly string[]): string | undefined {
  const real = realOr(file);
  const session =
    sessionDirectoryHolding(file) ??
    extra.find((d) => isWithin(file, d) || isWithin(real, d) || isWithin(real, realOr(d)));
  return session ?? scratchHolding(file);
}

/**
 * No program runs outside the sandbox from where a session may have put it (red teams, issue 30,
 * H-1, I-3, J1, J2): for every purpose the program (found as `resolvedProgram` says; for hooks and
 * MCP servers, when the configuration named it and did not give its path) lies in no
 * session directory, sandbox scratch directory, `node_modules` directory, nor the process's or the
 * session's directory; for the worker's machinery and the person's servers, a node script neither
 * lies in a session or scratch directory. The node running this process and the worker's own code
 * (src/hostProcess/workerCode.ts: write-denied to every sandboxed command and refused to the file
 * tools) run from there, while that code's directory is still the one the worker started with.
 */
function checkedProgram(spec: HostProcessSpec, program: string, cwd: string): void {
  // A hook's or a server's own program named by path is the person's configuration, pinned at the
  // session's start (hooks/pins.ts, mcp/pins.ts: changed since, it does not run); one found by name
  // is checked like every other.
  if (USER_PROGRAM_PURPOSES.has(spec.purpose) && spec.command.includes('/')) return;
  const script = OWN_CODE_PURPOSES.has(spec.purpose) ? nodeScript(spec, program) : undefined;
  const files: Array<[string, boolean]> = [[program, true], ...(script ? [[script, false] as [string, boolean]] : [])];
  for (const [file, isProgram] of files) {
    if (!path.isAbsolute(file)) continue;
    if (isProgram && realOr(file) === realOr(process.execPath)) continue;
    const own = workerCodeHolding(file);
    if (own && identityOf(own.path) !== own.identity)
      throw new Error(
        `host process ${spec.command}: ${file} is the worker's own code, but ${own.path} is no longer the directory the worker started with (moved or replaced); restart the worker from a clean install`,
      );
    if (own) continue;
    const held =
      writableHolding(file, isProgram ? ruleDirectories(spec, cwd) : []) ??
      (isProgram && inNodeModules(file) ? 'a node_modules directory' : undefined);
    if (held)
      throw new Error(
        `host process ${spec.command}: ${spec.purpose} would run ${file} (really ${realOr(file)}), which lies in ${held}, where a session may write; the worker runs no program a session may have planted outside the sandbox (install it elsewhere, on a PATH entry outside the project and node_modules)`,
      );
  }
}

/** The checked program, its arguments and spawn options of a host process. */
function prepared(spec: HostProcessSpec): { cwd: string; env: Record<string, string>; program: string } {
  const cwd = checkedCwd(spec);
  const env = environmentOf(spec, cwd);
  const program = resolvedProgram(spec, env, cwd);
  checkedProgram(spec, program, cwd);
  return { cwd, env, program };
}

/** Starts one host process. */
export function startHostProcess(spec: HostProcessSpec): ChildProcess {
  const { cwd, env, program } = prepared(spec);
  return spawn(program, [...(spec.args ?? [])], {
    cwd,
    env,
    argv0: spec.command,
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
export function runHostProcessSync(
  spec: HostProcessSpec,
  opts: { timeoutMs?: number; maxBuffer?: number; input?: string } = {},
): HostRunResult {
  const { cwd, env, program } = prepared(spec);
  const r = spawnSync(program, [...(spec.args ?? [])], {
    cwd,
    env,
    argv0: spec.command,
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 10_000,
    ...(opts.maxBuffer ? { maxBuffer: opts.maxBuffer } : {}),
    ...(opts.input === undefined ? {} : { input: opts.input }),
    stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
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
