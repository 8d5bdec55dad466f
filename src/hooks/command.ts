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
  return new Promise((resolve) => {
    if (opts.signal?.aborted) {
      resolve(notStarted({ aborted: true }));
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
      resolve(notStarted({ spawnError: (e as Error).message }));
      return;
    }
    opts.contained?.spawned(child.pid);
    new HookChild(child, opts, started, resolve).watch();
  });
}

/** The result of a hook that never started: aborted before it, or its spawn failed. */
function notStarted(why: { aborted: true } | { spawnError: string }): CommandRunResult {
  return {
    exitCode: null,
    signal: null,
    stdout: '',
    stderr: '',
    timedOut: false,
    aborted: false,
    durationMs: 0,
    ...why,
  };
}

/**
 * A started hook process, watched to its end: its output collected (each stream capped), its group
 * killed at the timeout or on abort, and its result resolved once — at `close`, or shortly after
 * `exit` when a background grandchild keeps the pipes open.
 */
class HookChild {
  private stdout = '';
  private stderr = '';
  private timedOut = false;
  private aborted = false;
  private settled = false;
  private exitCode: number | null = null;
  private exitSignal: NodeJS.Signals | null = null;
  private timer: NodeJS.Timeout | undefined;
  private graceTimer: NodeJS.Timeout | undefined;
  private readonly onAbort = () => {
    this.aborted = true;
    this.killGroup();
  };

  constructor(
    private readonly child: ChildProcess,
    private readonly opts: CommandRunOptions,
    private readonly started: number,
    private readonly resolve: (r: CommandRunResult) => void,
  ) {}

  watch(): void {
    const { child, opts } = this;
    const max = opts.maxOutputChars ?? 1_000_000;
    child.on('error', (e) => this.finish({ spawnError: e.message }));
    child.stdout!.setEncoding('utf8');
    child.stderr!.setEncoding('utf8');
    child.stdout!.on('data', (d: string) => {
      if (this.stdout.length < max) this.stdout += d.slice(0, max - this.stdout.length);
    });
    child.stderr!.on('data', (d: string) => {
      if (this.stderr.length < max) this.stderr += d.slice(0, max - this.stderr.length);
    });
    child.stdin!.on('error', () => undefined); // EPIPE when the hook does not read its input
    child.stdin!.end(opts.stdin);

    child.on('exit', (code, sig) => {
      this.exitCode = code;
      this.exitSignal = sig;
      // Let the pipes drain; a background grandchild holding them open must not keep us waiting.
      this.graceTimer = setTimeout(() => this.finish(), 250);
    });
    child.on('close', () => this.finish());

    this.timer = setTimeout(
      () => {
        this.timedOut = true;
        this.killGroup();
      },
      Math.max(1, opts.timeoutMs),
    );
    opts.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  private killGroup(): void {
    const { child } = this;
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
    void this.opts.contained?.killAll();
  }

  private finish(extra: Partial<CommandRunResult> = {}): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.opts.signal?.removeEventListener('abort', this.onAbort);
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
    this.child.stdin?.destroy();
    this.resolve({
      exitCode: this.exitCode,
      signal: this.exitSignal,
      stdout: this.stdout,
      stderr: this.stderr,
      timedOut: this.timedOut,
      aborted: this.aborted,
      durationMs: Date.now() - this.started,
      ...extra,
    });
  }
}
