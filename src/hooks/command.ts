// Running one command hook: `sh -c` in its own process group, JSON on stdin, killed (group and
// all) at its timeout or when the call is aborted. It starts through the one door for host
// processes (src/hostProcess): the Bash allowlist of the worker's environment plus `passEnv` and
// the hook's own variables, in the absolute directory the caller fixed (the project root) — inside
// the session's sandbox when the caller contained it (`contained`, src/hooks/sandboxed.ts).
import type { ChildProcess } from 'node:child_process';
import { startHostProcess } from '../hostProcess/door';
import type { ContainedHook } from './sandboxed';

export interface CommandRunResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
  spawnError?: string;
  durationMs: number;
}

export interface CommandRunOptions {
  /** Absolute: the session's project root, never the agent's current directory. */
  cwd: string;
  stdin: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** The hook's own variables (CLAUDE_PROJECT_DIR, …), on top of the allowlist. */
  env?: Readonly<Record<string, string>>;
  /** The user's `sandbox.passEnv`: worker variables hooks get besides the allowlist. */
  passEnv?: readonly string[];
  /** Output beyond this many characters per stream is dropped (default 1 MB). */
  maxOutputChars?: number;
  /** Exec form: `command` is the executable and these its arguments (no shell). */
  args?: readonly string[];
  /** The shell of the string form (default `sh`). */
  shell?: 'sh' | 'bash';
  /** Inside the sandbox: `bash -c` of its wrapped command line (which holds `command`, `args`, `shell`). */
  contained?: ContainedHook;
}

export function runShellCommand(command: string, opts: CommandRunOptions): Promise<CommandRunResult> {
  const started = Date.now();
  const max = opts.maxOutputChars ?? 1_000_000;
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let aborted = false;
    let settled = false;
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    let graceTimer: NodeJS.Timeout | undefined;

    const finish = (extra: Partial<CommandRunResult> = {}) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer); // set below: finish runs only from the child's events, after this function returned
      if (graceTimer) clearTimeout(graceTimer);
      opts.signal?.removeEventListener('abort', onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      child.stdin?.destroy();
      resolve({
        exitCode,
        signal: exitSignal,
        stdout,
        stderr,
        timedOut,
        aborted,
        durationMs: Date.now() - started,
        ...extra,
      });
    };

    if (opts.signal?.aborted) {
      resolve({ exitCode: null, signal: null, stdout: '', stderr: '', timedOut: false, aborted: true, durationMs: 0 });
      return;
    }

    let child: ChildProcess;
    try {
      const contained = opts.contained;
      child = startHostProcess({
        purpose: 'hook',
        command: contained ? 'bash' : opts.args ? command : (opts.shell ?? 'sh'),
        args: contained ? ['-c', contained.shellCommand] : opts.args ? [...opts.args] : ['-c', command],
        cwd: opts.cwd,
        ...(opts.env || contained ? { env: { ...opts.env, ...contained?.env } } : {}),
        ...(opts.passEnv ? { passEnv: opts.passEnv } : {}),
        detached: true, // own process group, so that a timeout kills the hook's children too
        stdio: ['pipe', 'pipe', 'pipe'],
      });
    } catch (e) {
      resolve({
        exitCode: null,
        signal: null,
        stdout: '',
        stderr: '',
        timedOut: false,
        aborted: false,
        spawnError: (e as Error).message,
        durationMs: 0,
      });
      return;
    }

    opts.contained?.spawned(child.pid);
    const killGroup = () => {
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          try {
            child.kill('SIGKILL');
          } catch {
            // already gone
          }
        }
      }
      // A sandboxed hook's processes are in the sandbox's own session, not only in this group.
      void opts.contained?.killAll();
    };
    const onAbort = () => {
      aborted = true;
      killGroup();
    };

    child.on('error', (e) => finish({ spawnError: e.message }));
    child.stdout!.setEncoding('utf8');
    child.stderr!.setEncoding('utf8');
    child.stdout!.on('data', (d: string) => {
      if (stdout.length < max) stdout += d.slice(0, max - stdout.length);
    });
    child.stderr!.on('data', (d: string) => {
      if (stderr.length < max) stderr += d.slice(0, max - stderr.length);
    });
    child.stdin!.on('error', () => undefined); // EPIPE when the hook does not read its input
    child.stdin!.end(opts.stdin);

    child.on('exit', (code, sig) => {
      exitCode = code;
      exitSignal = sig;
      // Let the pipes drain; a background grandchild holding them open must not keep us waiting.
      graceTimer = setTimeout(() => finish(), 250);
    });
    child.on('close', () => finish());

    const timer = setTimeout(
      () => {
        timedOut = true;
        killGroup();
      },
      Math.max(1, opts.timeoutMs),
    );
    opts.signal?.addEventListener('abort', onAbort, { once: true });
  });
}
