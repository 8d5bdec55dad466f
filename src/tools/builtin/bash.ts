// Bash: runs a command with `bash -c` in the session's cwd, in its own process group — inside the
// OS sandbox (src/sandbox) when the session's sandbox settings say so, which is the default.
import { startHostProcess } from '../../hostProcess/door';
import { createHash, randomBytes } from 'node:crypto';
import { constants as fsConstants, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { ContextModifier } from '../../engine/context';
import { MAX_TASK_TEXT, type BackgroundTask } from '../../engine/autonomy';
import type { SandboxRecord } from '../../engine/records';
import {
  currentPlatform,
  sessionSpoolDir,
  sessionTasksPath,
  sessionTempDir,
  type PreparedCommand,
  type SandboxAvailability,
} from '../../sandbox/host';
import { callEnded, callSpawned, callStarting, killCallProcesses } from '../../sandbox/reaper';
import { holdSessionTemp, sessionTempRootDir } from '../../sandbox/sessionTemp';
import { planCall, type CallPlan } from '../../sandbox/policy';
import { sessionSandboxPlan, undoProtected, withinDirectories, type Protection } from '../../sandbox/sessionPlan';
import { PASS_ENV_ENTRY } from '../../hostProcess/environment';
import { buildTool, type OnProgress, type PermissionResult, type ToolUseContext } from '../Tool';
import { openOwnFileIn } from '../safeFs';
import {
  activateWorktreeGit,
  deactivateWorktreeGit,
  worktreeSyncNote,
  type WorktreeGitLease,
} from '../../sandbox/worktreeGit';
import { exitCodeOneIsBenign, isReadOnlyCommand, standaloneCd } from './bashCommand';
import { resolvePath } from './paths';
import {
  bashSpoolCapBytes,
  BASH_SPOOL_CAP_ENV,
  groupAlive,
  openOutputSpool,
  readOutput,
  readTail,
  signalGroup,
  sleep,
  type OutputSpool,
} from './bashProcess';

export const BASH_DEFAULT_TIMEOUT_MS = 120_000;
export const BASH_MAX_TIMEOUT_MS = 600_000;
export const BASH_PROGRESS_INTERVAL_MS = 500;
export const BASH_PROGRESS_TAIL_BYTES = 4096;
/** A Monitor's stdout may outlive its shell (a process left behind holds it): read at most this long after the exit. */
const STDOUT_CLOSE_GRACE_MS = 1000;
/** Grace between SIGTERM and SIGKILL of the process group. */
export const BASH_KILL_GRACE_MS = 1000;
/** A background command's default limit (Bash `timeout` sets another, up to BASH_BACKGROUND_MAX_TIMEOUT_MS). */
export const BASH_BACKGROUND_DEFAULT_TIMEOUT_MS = 30 * 60_000;
/** The reference's cap on a background command: 2 hours. */
export const BASH_BACKGROUND_MAX_TIMEOUT_MS = 2 * 3600_000;

export { BASH_MAX_OUTPUT_BYTES, BASH_DEFAULT_SPOOL_CAP_BYTES, bashSpoolCapBytes } from './bashProcess';

const inputSchema = z.strictObject({
  command: z.string().describe('The bash command to run.'),
  timeout: z
    .number()
    .optional()
    .describe(
      `Optional timeout in milliseconds (default ${BASH_DEFAULT_TIMEOUT_MS}, max ${BASH_MAX_TIMEOUT_MS}; larger values are clamped).`,
    ),
  description: z
    .string()
    .optional()
    .describe(
      'A short description of what the command does, in 5-10 words, e.g. "Run the unit tests" or "List files in src".',
    ),
  run_in_background: z
    .boolean()
    .optional()
    .describe(
      'Run the command in the background: the call returns at once with a task id and the file its output goes to (Read it to check progress); you are notified when it ends. TaskStop stops it.',
    ),
  dangerouslyDisableSandbox: z
    .boolean()
    .optional()
    .describe(
      'Run this command outside the OS sandbox. Only when a command failed because the sandbox blocked it (see <sandbox_violations>) and it truly needs more access; a human must approve it.',
    ),
});

export type BashInput = z.infer<typeof inputSchema>;

export interface BashOutput {
  command: string;
  /** stdout and stderr, merged in the order they were written. */
  output: string;
  exitCode: number | null;
  /** Signal that ended the shell, if any. */
  signal: string | null;
  timedOut: boolean;
  /** Aborted through the abort signal (interrupt, cancellation). */
  interrupted: boolean;
  /** Non-zero exit code that is an answer, not a failure (e.g. grep found nothing). */
  benignExitCode: boolean;
  durationMs: number;
  timeoutMs: number;
  /** Bytes of output dropped from the middle (when above BASH_MAX_OUTPUT_BYTES). */
  omittedBytes?: number;
  /**
   * The output passed the spool's cap (DURABLE_AGENT_BASH_MAX_SPOOL_BYTES): the command's process
   * group was killed; `keptBytes` were spooled (the output above is made from them).
   */
  outputCapped?: { capBytes: number; keptBytes: number };
  /** A standalone `cd` moved the session to this directory. */
  newCwd?: string;
  /** Whether the command ran in the OS sandbox, why, and what the sandbox blocked. */
  sandbox?: SandboxRecord;
  /** Writes to protected paths the sandbox could not stop and the check after the call undid (src/sandbox/protect.ts). */
  protectedUndone?: string[];
  /** In a worktree: what of the command's git work the repository did not take (worktreeGit.ts). */
  worktreeGitNote?: string;
  /** `run_in_background`: the task it started (the session runs it as its own activity). */
  background?: { taskId: string; outputPath: string };
}

const PROMPT = `Executes a bash command and returns its output (stdout and stderr merged, in order) and exit code.

Usage:
- Each command runs in a fresh \`bash -c\` process in the session's working directory; shell state (variables, \`cd\` inside a compound command) does not carry over to the next call. A command that is exactly \`cd DIR\` changes the session's working directory (within the working directories only).
- Quote paths that contain spaces: cd "path with spaces/file.txt".
- timeout is in milliseconds: default ${BASH_DEFAULT_TIMEOUT_MS} (2 minutes), at most ${BASH_MAX_TIMEOUT_MS} (10 minutes). On timeout or interruption the whole process group is killed and you get the output so far.
- run_in_background: true starts the command as a background task and returns at once with its task id and output file (stdout and stderr); it runs on (default 30 minutes, \`timeout\` up to 2 hours) while you do other things, and a notification arrives when it ends. Read the output file to check on it; TaskStop stops it. Do not poll it in a loop. Do not use a trailing & in a foreground command for this.
- Output longer than 30000 characters is saved to a file and you get a preview with the file's path.
- Exit code 1 is not treated as a failure for grep, rg, find, diff, cmp, test/[ and git diff; other non-zero exit codes are errors.
- Do not use Bash for what the dedicated tools do: Read (not cat/head/tail), Edit (not sed/awk), Write (not echo >), Glob (not find/ls), Grep (not grep/rg).
- Chain dependent commands with &&; independent ones can be separate calls in the same turn. Commands that only read (ls, cat, grep, git status/log/diff, …) run concurrently with other read-only calls.
- Stdin is /dev/null: interactive commands fail. Pagers are disabled (PAGER=cat).
- Commands usually run in an OS sandbox: they can write only in the working directories and $TMPDIR, cannot read credentials (~/.ssh, ~/.aws, …) and reach only allowed network hosts. What the sandbox blocked is listed in <sandbox_violations>. Work within it; set dangerouslyDisableSandbox only when a command cannot work otherwise (a human must approve it).`;

function formatBytes(n: number): string {
  if (n % 1024 ** 3 === 0) return `${n / 1024 ** 3} GiB`;
  if (n % 1024 ** 2 === 0) return `${n / 1024 ** 2} MiB`;
  if (n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

export function clampTimeout(timeout: number | undefined): number {
  if (timeout === undefined || !Number.isFinite(timeout) || timeout <= 0) return BASH_DEFAULT_TIMEOUT_MS;
  return Math.min(Math.ceil(timeout), BASH_MAX_TIMEOUT_MS);
}

function isStandaloneCd(command: string): boolean {
  return standaloneCd(command) !== undefined;
}

async function runCd(
  input: BashInput,
  target: string | undefined,
  ctx: ToolUseContext,
  started: number,
  timeoutMs: number,
) {
  const base: BashOutput = {
    command: input.command,
    output: '',
    exitCode: 0,
    signal: null,
    timedOut: false,
    interrupted: false,
    benignExitCode: false,
    durationMs: 0,
    timeoutMs,
  };
  const dir = resolvePath(ctx.agent.cwd, target ?? os.homedir());
  let isDir: boolean;
  try {
    isDir = (await fs.stat(dir)).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) {
    return {
      data: {
        ...base,
        exitCode: 1,
        output: `bash: cd: ${target ?? '~'}: No such file or directory`,
        durationMs: Date.now() - started,
      },
    };
  }
  const roots = [ctx.agent.cwd, ...ctx.agent.additionalDirectories, ...ctx.permission.workingDirectories];
  if (!withinDirectories(dir, roots)) {
    return {
      data: {
        ...base,
        exitCode: 1,
        output: `cd to ${dir} was refused: it is outside the session's working directories (${[...new Set(roots)].join(', ')}). Use absolute paths instead.`,
        durationMs: Date.now() - started,
      },
    };
  }
  const modifiers: ContextModifier[] = [{ type: 'setCwd', cwd: dir }];
  return { data: { ...base, newCwd: dir, durationMs: Date.now() - started }, contextModifiers: modifiers };
}

/** How this call runs, from the session's sandbox settings (none outside a session: no sandbox). */
function planFor(input: BashInput, ctx: ToolUseContext): CallPlan | undefined {
  const settings = ctx.permission.sandbox;
  if (!settings) return undefined;
  return planCall(settings, currentPlatform(), input.command, input.dangerouslyDisableSandbox);
}

/** The sandbox as this call's host sees it; no host in the context: not available (nothing sandboxed runs). */
function availabilityFor(ctx: ToolUseContext): Promise<SandboxAvailability> {
  return ctx.sandboxHost
    ? ctx.sandboxHost.availability()
    : Promise.resolve({ available: false, reason: 'no sandbox host was given to this tool call' });
}

/**
 * The sandbox's part of the permission decision (the reference's meaning): a call leaving the
 * sandbox always asks (decide.ts step 7b); a sandboxed call runs without asking when
 * autoAllowBashIfSandboxed (default true); with the sandbox unavailable and failIfUnavailable set,
 * nothing runs.
 */
export async function sandboxPermission(
  input: Pick<BashInput, 'command' | 'dangerouslyDisableSandbox'>,
  ctx: ToolUseContext,
): Promise<PermissionResult> {
  const passthrough: PermissionResult = { behavior: 'passthrough' };
  if (!ctx?.permission?.sandbox || typeof input?.command !== 'string') return passthrough; // no sandbox outside a session
  if (standaloneCd(input.command)) return passthrough; // handled without a shell
  const plan = planFor(input, ctx);
  if (!plan) return passthrough;
  if (plan.escapes) {
    return {
      behavior: 'ask',
      message: `Bash needs approval to run outside the sandbox: ${plan.reason}.`,
      decisionReason: {
        type: 'sandbox',
        reason: plan.reason,
        ...(input.dangerouslyDisableSandbox === true ? { requested: true } : {}),
      },
    };
  }
  if (!plan.sandboxed) return passthrough;
  const available = await availabilityFor(ctx);
  if (!available.available) {
    if (ctx.permission.sandbox?.failIfUnavailable) {
      const reason = `the sandbox is unavailable on this worker (${available.reason}) and sandbox.failIfUnavailable is set`;
      return { behavior: 'deny', message: `Bash did not run: ${reason}.`, decisionReason: { type: 'sandbox', reason } };
    }
    return passthrough;
  }
  if (ctx.permission.sandbox?.autoAllowBashIfSandboxed === false) return passthrough;
  return {
    behavior: 'allow',
    decisionReason: { type: 'sandbox', reason: 'runs in the OS sandbox (autoAllowBashIfSandboxed)' },
  };
}

/** Wraps the command for the sandbox when the plan says so; says why when it does not. */
async function containment(
  input: BashInput,
  ctx: ToolUseContext,
): Promise<{ record?: SandboxRecord; prepared?: PreparedCommand; protection?: Protection }> {
  const plan = planFor(input, ctx);
  if (!plan) return {};
  if (!plan.sandboxed) return { record: { sandboxed: false, reason: plan.reason } };
  const host = ctx.sandboxHost;
  // The settings say sandboxed and this call was given no host: it does not run (never unsandboxed by omission).
  if (!host)
    throw new Error(
      'Bash did not run: the session runs Bash in the OS sandbox, and this call was given no sandbox host.',
    );
  const available = await host.availability();
  if (!available.available) {
    if (ctx.permission.sandbox?.failIfUnavailable) {
      throw new Error(
        `Bash did not run: the sandbox is unavailable on this worker (${available.reason}) and sandbox.failIfUnavailable is set.`,
      );
    }
    return { record: { sandboxed: false, reason: `the sandbox is unavailable on this worker: ${available.reason}` } };
  }
  // This session's large results (the pipeline points the model at them): readable, not writable.
  const resultDir = (ctx.resultStore as { dir?: unknown } | undefined)?.dir;
  const { tmpDir, runtime, protection } = await sessionSandboxPlan({
    sessionId: ctx.sessionId,
    settings: ctx.permission.sandbox,
    workingDirectories: [ctx.agent.cwd, ...ctx.agent.additionalDirectories, ...ctx.permission.workingDirectories],
    ...(ctx.agent.worktree ? { worktree: ctx.agent.worktree } : {}),
    ...(ctx.permission.controlFiles ? { controlFiles: ctx.permission.controlFiles } : {}),
    privatePaths: ctx.privatePaths ?? [],
    readable: typeof resultDir === 'string' ? [resultDir] : [],
    who: 'Bash',
  });
  const prepared = await host.prepare(input.command, runtime, tmpDir, ctx.abortSignal);
  return { record: { sandboxed: true, reason: plan.reason }, prepared, ...(protection ? { protection } : {}) };
}

/** The worker's variables this call's command gets: the allowlist and the session's `sandbox.passEnv`. */
function commandEnvironment(ctx: ToolUseContext): { passEnv: readonly string[] } {
  const passEnv = (ctx.permission?.sandbox?.passEnv ?? []).filter(
    (e) => typeof e === 'string' && PASS_ENV_ENTRY.test(e),
  );
  return { passEnv };
}

async function checkWorkingDirectory(cwd: string): Promise<void> {
  try {
    if (!(await fs.stat(cwd)).isDirectory()) throw new Error('not a directory');
  } catch {
    throw new Error(`The working directory ${cwd} does not exist (any more); cd to an existing directory first.`);
  }
}

/** An interrupt that came before the command started: nothing ran. */
function notStarted(command: string, timeoutMs: number): BashOutput {
  return {
    command,
    output: '',
    exitCode: null,
    signal: null,
    timedOut: false,
    interrupted: true,
    benignExitCode: false,
    durationMs: 0,
    timeoutMs,
  };
}

type ExitStatus = { code: number | null; signal: NodeJS.Signals | null };

/**
 * One command's process and what happens to it. stdout and stderr share one socket (one open file
 * description): their writes arrive in the order they happen; the worker copies them into a file in
 * its temp directory up to the cap and stops the command past it; progress reads the file's tail;
 * background children that keep it do not hold the call open (bashProcess.ts, OutputSpool).
 */
class BashRun {
  prepared: PreparedCommand | undefined;
  private timedOut = false;
  private outputCapped = false;
  private interrupted = false;
  private killing: Promise<void> | undefined;
  private exited = false;
  // The call's processes carry its marker; the worker's guardian kills them if the worker dies
  // while the call runs (src/sandbox/reaper.ts).
  private readonly callId = randomBytes(12).toString('base64url');
  private announced = false;
  private pgid: number | undefined;

  private constructor(
    private readonly input: BashInput,
    private readonly ctx: ToolUseContext,
    private readonly started: number,
    private readonly timeoutMs: number,
    private readonly capBytes: number,
    private readonly tmpDir: string,
    private readonly spool: OutputSpool,
    private readonly release: () => void,
  ) {}

  static async open(
    input: BashInput,
    ctx: ToolUseContext,
    started: number,
    timeoutMs: number,
    outputFile?: string,
  ): Promise<BashRun> {
    const capBytes = bashSpoolCapBytes();
    // The session's directories stay while this run lives (a session that ends meanwhile removes them after).
    const release = holdSessionTemp(ctx.sessionId);
    let tmpDir: string | undefined;
    try {
      // The spool lives in the session's own spool directory: 0700, read-denied to every sandbox (sessionTemp.ts).
      tmpDir = await fs.mkdtemp(`${await sessionSpoolDir(ctx.sessionId)}${path.sep}`);
      const spool = await openOutputSpool(tmpDir, capBytes, outputFile ? () => openTaskOutput(outputFile) : undefined);
      return new BashRun(input, ctx, started, timeoutMs, capBytes, tmpDir, spool, release);
    } catch (err) {
      if (tmpDir) await fs.rm(tmpDir, { recursive: true, force: true }).catch(() => undefined);
      release();
      throw err;
    }
  }

  /**
   * Starts `bash -c` in its own process group; resolves when the shell exits. With `onStdout` (a
   * Monitor), stdout comes through a pipe: each chunk goes to the output file (the spool, beside
   * stderr) and to `onStdout`; the promise then also waits for stdout to close (at most
   * STDOUT_CLOSE_GRACE_MS after the exit: a process left behind may hold it).
   */
  spawn(baseEnv: { passEnv: readonly string[] }, onStdout?: (chunk: Buffer) => void): Promise<ExitStatus> {
    const marker = callStarting(this.callId);
    this.announced = true;
    // Sandboxed or not, the command sees only allowlisted variables of the worker and the user's
    // passEnv (the door, src/hostProcess): baseEnv names what this call adds.
    const child = startHostProcess({
      purpose: 'sandboxed-command',
      command: 'bash',
      args: ['-c', this.prepared ? this.prepared.shellCommand : this.input.command],
      cwd: this.ctx.agent.cwd,
      detached: true, // own process group: kill(-pid) reaches every descendant
      stdio: ['ignore', onStdout ? 'pipe' : this.spool.writeEnd, this.spool.writeEnd],
      passEnv: baseEnv.passEnv,
      env: { PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', ...marker },
    });
    const stdoutClosed = onStdout && child.stdout ? this.tapStdout(child.stdout, onStdout) : undefined;
    if (!stdoutClosed) this.spool.closeWriteEnd();
    this.pgid = child.pid;
    callSpawned(this.callId, child.pid);
    return new Promise<ExitStatus>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code, signal) => {
        this.exited = true;
        if (!stdoutClosed) return resolve({ code, signal });
        const grace = setTimeout(() => child.stdout?.destroy(), STDOUT_CLOSE_GRACE_MS);
        void stdoutClosed.then(() => {
          clearTimeout(grace);
          resolve({ code, signal });
        });
      });
    });
  }

  /** Stdout through our hands: into the spool's write end (with its back-pressure) and to `onStdout`. */
  private tapStdout(stdout: Readable, onStdout: (chunk: Buffer) => void): Promise<void> {
    const out = this.spool.writeEnd;
    stdout.on('data', (chunk: Buffer) => {
      if (!out.destroyed && !out.write(chunk)) {
        stdout.pause();
        out.once('drain', () => stdout.resume());
      }
      onStdout(chunk);
    });
    return new Promise<void>((resolve) =>
      stdout.once('close', () => {
        // Our write end closes once what we wrote has reached the spool (end(), not destroy()).
        out.end(() => this.spool.closeWriteEnd());
        resolve();
      }),
    );
  }

  private killGroup(): Promise<void> {
    const pid = this.pgid;
    if (this.killing || pid === undefined) return this.killing ?? Promise.resolve();
    this.killing = (async () => {
      signalGroup(pid, 'SIGTERM');
      const deadline = Date.now() + BASH_KILL_GRACE_MS;
      while (Date.now() < deadline && (groupAlive(pid) || !this.exited)) await sleep(25);
      if (groupAlive(pid)) signalGroup(pid, 'SIGKILL');
      const hardDeadline = Date.now() + BASH_KILL_GRACE_MS;
      while (Date.now() < hardDeadline && groupAlive(pid)) await sleep(25);
    })();
    return this.killing;
  }

  /** Waits for the exit; an interrupt, the timeout or the output cap kills the process group. */
  async watch(exit: Promise<ExitStatus>, onProgress: OnProgress): Promise<ExitStatus> {
    const onAbort = () => {
      this.interrupted = true;
      void this.killGroup();
    };
    this.ctx.abortSignal.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => {
      this.timedOut = true;
      void this.killGroup();
    }, this.timeoutMs);
    this.spool.onCap(() => {
      this.outputCapped = true;
      void this.killGroup();
    });
    const progress = this.reportProgress(onProgress);
    try {
      return await exit;
    } finally {
      clearTimeout(timer);
      clearInterval(progress);
      this.ctx.abortSignal.removeEventListener('abort', onAbort);
    }
  }

  private reportProgress(onProgress: OnProgress): NodeJS.Timeout {
    const fh = this.spool.file;
    let lastSize = -1;
    let tail = '';
    let reading = false;
    return setInterval(() => {
      if (reading) return;
      reading = true;
      // The report is stamped when its tick fires (ticks are >= the interval apart); the stat and
      // read that follow may be delayed by a loaded machine and must not bunch reports together.
      const elapsedMs = Date.now() - this.started;
      void (async () => {
        try {
          const { size } = await fh.stat();
          // The tail is read again only when the output grew; every report carries the latest one,
          // because the activity heartbeats the last report (a report without it would hide it).
          if (size !== lastSize) tail = await readTail(fh, size, BASH_PROGRESS_TAIL_BYTES);
          lastSize = size;
          onProgress({ ...(tail !== '' ? { output: tail } : {}), elapsedMs, totalBytes: size });
        } catch {
          // progress is best effort
        } finally {
          reading = false;
        }
      })();
    }, BASH_PROGRESS_INTERVAL_MS);
  }

  /** After the exit: the output drained and, after a kill, every process of the call gone. */
  async settle(): Promise<void> {
    await this.spool.drain();
    if (this.killing) {
      await this.killing;
      // The sandbox's own session (bwrap --new-session) is not the call's process group.
      if (this.prepared) await killCallProcesses(this.callId).catch(() => 0);
    }
  }

  async output(
    result: ExitStatus,
    sandbox: SandboxRecord | undefined,
    violations: string[],
    undone: string[],
  ): Promise<BashOutput> {
    const { output, omittedBytes } = await readOutput(this.spool.file);
    const command = this.input.command;
    return {
      command,
      output,
      exitCode: result.code,
      signal: result.signal,
      timedOut: this.timedOut,
      interrupted: this.interrupted,
      benignExitCode: result.code === 1 && exitCodeOneIsBenign(command),
      durationMs: Date.now() - this.started,
      timeoutMs: this.timeoutMs,
      ...(omittedBytes > 0 ? { omittedBytes } : {}),
      ...(this.outputCapped ? { outputCapped: { capBytes: this.capBytes, keptBytes: this.spool.spooled() } } : {}),
      ...(sandbox ? { sandbox: violations.length > 0 ? { ...sandbox, violations } : sandbox } : {}),
      ...(undone.length > 0 ? { protectedUndone: undone } : {}),
    };
  }

  backgroundResult(
    result: ExitStatus,
    sandbox: SandboxRecord | undefined,
    violations: string[],
    undone: string[],
  ): BackgroundCommandResult {
    return {
      exitCode: result.code,
      signal: result.signal,
      timedOut: this.timedOut,
      interrupted: this.interrupted,
      outputBytes: this.spool.spooled(),
      ...(this.outputCapped ? { outputCapped: { capBytes: this.capBytes, keptBytes: this.spool.spooled() } } : {}),
      ...(sandbox ? { sandbox: violations.length > 0 ? { ...sandbox, violations } : sandbox } : {}),
      ...(undone.length > 0 ? { protectedUndone: undone } : {}),
    };
  }

  /**
   * A background task's end: `trailer` appended after what was spooled, then the whole file read
   * back — both through the spool's descriptor, never by the file's name (the command may have
   * swapped the name for a symlink since).
   */
  async finishOutput(trailer: string): Promise<string> {
    const fh = this.spool.file;
    if (trailer) await fh.write(trailer, this.spool.spooled(), 'utf8');
    const size = (await fh.stat()).size;
    const buf = Buffer.alloc(size);
    let done = 0;
    while (done < size) {
      const { bytesRead } = await fh.read(buf, done, size - done, done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return buf.subarray(0, done).toString('utf8');
  }

  async close(): Promise<void> {
    this.spool.closeWriteEnd();
    if (this.announced) callEnded(this.callId, this.pgid);
    this.prepared?.finish();
    await this.spool.file.close().catch(() => undefined);
    await fs.rm(this.tmpDir, { recursive: true, force: true }).catch(() => undefined);
    this.release();
  }
}

export const BashTool = buildTool<BashInput, BashOutput>({
  name: 'Bash',
  inputSchema,
  maxResultSizeChars: 30_000,
  prompt: () => PROMPT,
  summary: (input) => {
    const first = input.command.split('\n')[0] ?? '';
    const text = first.length > 100 || input.command.includes('\n') ? `${first.slice(0, 99)}…` : first;
    return `Bash: ${text}`;
  },
  isReadOnly: (input) => isReadOnlyCommand(input.command),
  // A standalone `cd` is read-only but changes the session's cwd: later calls depend on it.
  isConcurrencySafe: (input) => isReadOnlyCommand(input.command) && !isStandaloneCd(input.command),
  isIdempotent: (input) => isReadOnlyCommand(input.command),
  getRuleContent: (input) => input.command,
  checkPermissions: sandboxPermission,

  async validateInput(input, ctx) {
    if (input.command === '') return { result: false, message: 'command must not be empty', errorCode: 2 };
    if (input.run_in_background === true && !ctx.backgroundTasks) {
      return {
        result: false,
        message:
          'run_in_background needs a session to run the task: this call runs outside one, where nothing would run it. ' +
          'Run the command in the foreground (timeout up to 600000 ms).',
        errorCode: 4,
      };
    }
    if (input.timeout !== undefined && !(input.timeout > 0)) {
      return {
        result: false,
        message: `timeout must be a positive number of milliseconds (got ${input.timeout})`,
        errorCode: 3,
      };
    }
    return { result: true };
  },

  // The sequence: a standalone `cd` runs without a shell; else check the cwd, open the output spool,
  // contain the command (sandbox plan, protected paths), spawn it in its own process group, watch it
  // (interrupt, timeout, output cap, progress), then collect: violations, undone protected writes, output.
  async call(input, ctx, onProgress) {
    const started = Date.now();
    const timeoutMs = clampTimeout(input.timeout);
    const cd = standaloneCd(input.command);
    if (cd) return runCd(input, cd.target, ctx, started, timeoutMs);
    await checkWorkingDirectory(ctx.agent.cwd);
    if (input.run_in_background) return startBackground(input, ctx, started);
    if (ctx.abortSignal.aborted) return { data: notStarted(input.command, timeoutMs) };
    const run = await BashRun.open(input, ctx, started, timeoutMs);
    const worktrees = new WorktreeGitLeases();
    try {
      // In a worktree, its git writes to its shadow while the command runs (worktreeGit.ts).
      await worktrees.acquire(ctx);
      const contained = await containment(input, ctx);
      run.prepared = contained.prepared;
      const result = await run.watch(run.spawn(commandEnvironment(ctx)), onProgress);
      await run.settle();
      const violations = run.prepared ? run.prepared.finish() : [];
      // What the deny list fixed at the start could not stop (a repository the call created): undone now.
      const undone = contained.protection ? undoProtected(contained.protection) : [];
      const gitNote = await worktrees.release();
      const data = await run.output(result, contained.record, violations, undone);
      if (gitNote) data.worktreeGitNote = gitNote;
      return { data, ...(data.sandbox ? { sandbox: data.sandbox } : {}) };
    } finally {
      await worktrees.release().catch(() => undefined);
      await run.close();
    }
  },

  mapToolResultToToolResultBlockParam(data, toolUseId) {
    if (data.background) {
      const { taskId, outputPath } = data.background;
      return {
        type: 'tool_result',
        tool_use_id: toolUseId,
        content: `Command running in background with ID: ${taskId}. Output is being written to: ${outputPath}. You will be notified when it completes. To check interim output, use Read on that file path.`,
      };
    }
    let text = data.output.replace(/\s+$/, '');
    const notes: string[] = [];
    if (data.newCwd) notes.push(`Working directory is now ${data.newCwd}`);
    if (data.outputCapped) {
      notes.push(
        `Command was stopped: its output passed the ${formatBytes(data.outputCapped.capBytes)} limit (${BASH_SPOOL_CAP_ENV}); its process group was killed. ` +
          `${data.outputCapped.keptBytes} bytes were kept; the output above is from them. Redirect large output to a file (cmd > out.log) and read parts of it.`,
      );
    } else if (data.timedOut)
      notes.push(`Command timed out after ${data.timeoutMs} ms; its process group was killed. Output so far is above.`);
    else if (data.interrupted)
      notes.push('Command was aborted (interrupted); its process group was killed. Output so far is above.');
    else if (data.exitCode === null && data.signal) notes.push(`Command was killed by signal ${data.signal}`);
    if (!data.timedOut && !data.interrupted && data.exitCode !== null && data.exitCode !== 0)
      notes.push(`Exit code ${data.exitCode}`);
    if (data.sandbox?.violations?.length)
      notes.push(`<sandbox_violations>\n${data.sandbox.violations.join('\n')}\n</sandbox_violations>`);
    if (data.protectedUndone?.length) {
      notes.push(
        `<protected_paths_restored>\nThis command wrote protected paths (settings, hooks, git config or hooks, editor or shell start-up files), which Bash may not change; they were undone:\n${data.protectedUndone.join('\n')}\n</protected_paths_restored>`,
      );
    }
    if (data.worktreeGitNote) notes.push(data.worktreeGitNote);
    if (text === '' && notes.length === 0) text = '(Bash completed with no output)';
    const content = [text, ...notes].filter((s) => s !== '').join('\n');
    const isError =
      Boolean(data.outputCapped) || data.timedOut || data.interrupted || (data.exitCode !== 0 && !data.benignExitCode);
    return { type: 'tool_result', tool_use_id: toolUseId, content, ...(isError ? { is_error: true } : {}) };
  },
});

/** A background task's id: `b` + 8 lowercase letters and digits, derived from the call (a retried call names the same task). */
export function backgroundTaskId(sessionId: string, toolUseId: string): string {
  const digest = createHash('sha256').update(`${sessionId}/${toolUseId}`).digest();
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let id = 'b';
  for (let i = 0; i < 8; i++) id += alphabet[(digest[i] as number) % alphabet.length];
  return id;
}

/**
 * A background task's output file, created empty in the session's tasks dir on this worker
 * (`<session temp dir>/tasks/<id>.output`; Read may read it). Sandboxed commands may write that
 * directory, so the worker opens it bound (safeFs `openOwnFileIn`): a symlink, hard link or FIFO
 * planted at the name or at `tasks` is refused, never written through. Returns the file's path.
 */
export async function createTaskOutput(sessionId: string, taskId: string): Promise<string> {
  await sessionTempDir(sessionId);
  const dir = sessionTasksPath(sessionId);
  const name = `${taskId}.output`;
  const fh = await openOwnFileIn(dir, name, fsConstants.O_WRONLY | fsConstants.O_APPEND, { create: true });
  await fh.close();
  return path.join(dir, name);
}

/**
 * The task's output file for its run (the worker's spool writes it; the trailer and the stored
 * output go through the same descriptor): bound as createTaskOutput's, then emptied.
 */
export async function openTaskOutput(outputPath: string): Promise<FileHandle> {
  // Another worker may run the task: its session temp dir may not exist yet (the worker's own directory).
  await sessionTempRootDir();
  await fs.mkdir(path.dirname(path.dirname(outputPath)), { recursive: true, mode: 0o700 });
  const fh = await openOwnFileIn(path.dirname(outputPath), path.basename(outputPath), fsConstants.O_RDWR, {
    create: true,
  });
  try {
    await fh.truncate(0);
    return fh;
  } catch (err) {
    await fh.close().catch(() => undefined);
    throw err;
  }
}

export function backgroundTimeout(timeout: number | undefined): number {
  if (timeout === undefined || !Number.isFinite(timeout) || timeout <= 0) return BASH_BACKGROUND_DEFAULT_TIMEOUT_MS;
  return Math.min(Math.ceil(timeout), BASH_BACKGROUND_MAX_TIMEOUT_MS);
}

/**
 * `run_in_background`: nothing runs here. The call names the task and its output file (created
 * empty, so a Read finds it at once) and records it with a `taskStarted` modifier; the session then
 * runs it as its own long-lived activity (src/calls/backgroundTask.ts), sandboxed like this call.
 */
async function startBackground(input: BashInput, ctx: ToolUseContext, started: number) {
  const taskId = backgroundTaskId(ctx.sessionId, ctx.toolUseId);
  const outputPath = await createTaskOutput(ctx.sessionId, taskId);
  const task: BackgroundTask = {
    id: taskId,
    kind: 'local_bash',
    toolUseId: ctx.toolUseId,
    description: (input.description?.trim() || input.command).slice(0, MAX_TASK_TEXT),
    startedAt: started,
    timeoutMs: backgroundTimeout(input.timeout),
    outputPath,
    state: 'running',
    // A preview (the context travels with every call); the task's activity reads the whole command
    // from the call's record in the execution ledger.
    command: input.command.slice(0, MAX_TASK_TEXT),
    cwd: ctx.agent.cwd,
    ...(input.dangerouslyDisableSandbox === true ? { unsandboxed: true } : {}),
  };
  const data: BashOutput = {
    command: input.command,
    output: '',
    exitCode: null,
    signal: null,
    timedOut: false,
    interrupted: false,
    benignExitCode: false,
    durationMs: Date.now() - started,
    timeoutMs: task.timeoutMs,
    background: { taskId, outputPath },
  };
  const modifiers: ContextModifier[] = [{ type: 'taskStarted', task }];
  return { data, contextModifiers: modifiers };
}

/** What a background command did (src/calls/backgroundTask.ts records it in the task). */
export interface BackgroundCommandResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** Stopped through the abort signal (TaskStop, the session's end). */
  interrupted: boolean;
  outputBytes: number;
  outputCapped?: { capBytes: number; keptBytes: number };
  sandbox?: SandboxRecord;
  protectedUndone?: string[];
}

/**
 * Runs a background task's command the way a foreground call runs (the same sandbox plan and
 * containment, its own process group, the reaper's marker, the output cap), its stdout and stderr
 * going to `outputPath`; `ctx.agent.cwd` is where it runs. `onProgress` gets the output's size.
 */
export async function runBackgroundCommand(
  spec: { command: string; timeoutMs: number; unsandboxed?: boolean; outputPath: string },
  ctx: ToolUseContext,
  onProgress: (outputBytes: number) => void,
  /** A Monitor's tap: each stdout chunk as it arrives (it still goes to the output file too). */
  onStdout?: (chunk: Buffer) => void,
  /** The output file's last line, from how the command ended (the reference's `[exited with code N]`). */
  trailer: (r: BackgroundCommandResult) => string = backgroundTrailer,
): Promise<BackgroundCommandResult & { output: string }> {
  const started = Date.now();
  const input: BashInput = { command: spec.command, ...(spec.unsandboxed ? { dangerouslyDisableSandbox: true } : {}) };
  await checkWorkingDirectory(ctx.agent.cwd);
  const run = await BashRun.open(input, ctx, started, spec.timeoutMs, spec.outputPath);
  const worktrees = new WorktreeGitLeases();
  try {
    await worktrees.acquire(ctx);
    const contained = await containment(input, ctx);
    run.prepared = contained.prepared;
    const result = await run.watch(run.spawn(commandEnvironment(ctx), onStdout), (p) =>
      onProgress(typeof p.totalBytes === 'number' ? p.totalBytes : 0),
    );
    await run.settle();
    const violations = run.prepared ? run.prepared.finish() : [];
    const undone = contained.protection ? undoProtected(contained.protection) : [];
    await worktrees.release();
    const r = run.backgroundResult(result, contained.record, violations, undone);
    return { ...r, output: await run.finishOutput(trailer(r)) };
  } finally {
    await worktrees.release().catch(() => undefined);
    await run.close();
  }
}

/** A background command's last line of its output file (the reference's): `[killed]` or its exit code. */
export function backgroundTrailer(r: BackgroundCommandResult): string {
  if (r.interrupted) return '\n[killed]\n';
  return r.exitCode !== null ? `\n[exited with code ${r.exitCode}]\n` : '';
}

/**
 * The worktrees a command of this session runs in (EnterWorktree's, and those `run --worktree` or an
 * isolated agent put in the sandbox settings): each one's git points at its shadow while the
 * command runs, and what the command did there is brought into the repository after (worktreeGit.ts).
 */
class WorktreeGitLeases {
  private leases: WorktreeGitLease[] = [];

  async acquire(ctx: ToolUseContext): Promise<void> {
    const seen = new Set<string>();
    const all = [
      ...(ctx.permission.sandbox?.worktreeGit ?? []),
      ...(ctx.agent.worktree?.gitDir && ctx.agent.worktree.commonDir
        ? [{ commonDir: ctx.agent.worktree.commonDir, gitDir: ctx.agent.worktree.gitDir }]
        : []),
    ];
    for (const w of all) {
      if (seen.has(w.gitDir)) continue;
      seen.add(w.gitDir);
      try {
        this.leases.push(await activateWorktreeGit(w));
      } catch (err) {
        await this.release().catch(() => undefined);
        throw new Error(
          `Bash did not run: the worktree's git (${w.gitDir}) could not be prepared: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    }
  }

  /** Brings each worktree's work in; a note for the model when the repository did not take all of it. */
  async release(): Promise<string | undefined> {
    const leases = this.leases;
    this.leases = [];
    const notes: string[] = [];
    for (const lease of leases) {
      try {
        const note = worktreeSyncNote(await deactivateWorktreeGit(lease));
        if (note) notes.push(note);
      } catch (err) {
        notes.push(
          `<worktree_git>\nThe command's git work in the worktree was not brought into the repository: ${err instanceof Error ? err.message : String(err)}\n</worktree_git>`,
        );
      }
    }
    return notes.length > 0 ? notes.join('\n') : undefined;
  }
}
