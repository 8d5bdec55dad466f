// One Bash command's process (BashRun): spawned in its own process group through the door, watched
// (interrupt, timeout, output cap, progress), settled, its output read and its resources closed.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Readable } from 'node:stream';
import type { SandboxRecord } from '../../core/toolRecords';
import { startHostProcess } from '../../hostProcess/door';
import { sessionSpoolDir, type PreparedCommand } from '../../sandbox/host';
import { sandboxGitEnv } from '../../sandbox/gitEnv';
import { callEnded, callSpawned, callStarting, killCallProcesses } from '../../sandbox/reaper';
import { holdSessionTemp } from '../../sandbox/sessionTemp';
import type { CommandReports } from '../../sandbox/violations';
import type { OnProgress, ToolUseContext } from '../../toolProtocol/Tool';
import { exitCodeOneIsBenign } from './command';
import {
  bashSpoolCapBytes,
  groupAlive,
  openOutputSpool,
  readOutput,
  readTail,
  signalGroup,
  sleep,
  type OutputSpool,
} from './process';
import {
  BASH_PROGRESS_INTERVAL_MS,
  BASH_PROGRESS_TAIL_BYTES,
  type BackgroundCommandResult,
  type BashInput,
  type BashOutput,
} from './schema';
import { openTaskOutput } from './taskOutput';

/** A Monitor's stdout may outlive its shell (a process left behind holds it): read at most this long after the exit. */
const STDOUT_CLOSE_GRACE_MS = 1000;
/** Grace between SIGTERM and SIGKILL of the process group. */
export const BASH_KILL_GRACE_MS = 1000;

export type ExitStatus = { code: number | null; signal: NodeJS.Signals | null };

/**
 * One command's process and what happens to it. stdout and stderr share one socket (one open file
 * description): their writes arrive in the order they happen; the worker copies them into a file in
 * its temp directory up to the cap and stops the command past it; progress reads the file's tail;
 * background children that keep it do not hold the call open (process.ts, OutputSpool).
 */
export class BashRun {
  prepared: PreparedCommand | undefined;
  private timedOut = false;
  private outputCapped = false;
  private interrupted = false;
  /** The live guard stopped it: it kept re-creating a protected path (src/sandbox/liveGuard.ts). */
  private stoppedByGuard: string | undefined;
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
      // Sandboxed, git reads a copy of the person's global config without its credentials (sandboxGitConfig.ts).
      env: {
        PAGER: 'cat',
        GIT_PAGER: 'cat',
        GIT_TERMINAL_PROMPT: '0',
        ...(this.prepared ? sandboxGitEnv() : {}),
        ...marker,
      },
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
    // Hostile (a loop holding the live undo's window open, red team issue 30 L2): killed like a timeout.
    this.prepared?.onHostile((notice) => {
      this.stoppedByGuard ??= notice;
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
    violations: CommandReports,
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
      ...(sandbox ? { sandbox: withViolations(sandbox, violations) } : {}),
      ...(undone.length > 0 ? { protectedUndone: undone } : {}),
      ...(this.stoppedByGuard !== undefined ? { stoppedByGuard: this.stoppedByGuard } : {}),
    };
  }

  backgroundResult(
    result: ExitStatus,
    sandbox: SandboxRecord | undefined,
    violations: CommandReports,
    undone: string[],
  ): BackgroundCommandResult {
    return {
      exitCode: result.code,
      signal: result.signal,
      timedOut: this.timedOut,
      interrupted: this.interrupted,
      outputBytes: this.spool.spooled(),
      ...(this.outputCapped ? { outputCapped: { capBytes: this.capBytes, keptBytes: this.spool.spooled() } } : {}),
      ...(sandbox ? { sandbox: withViolations(sandbox, violations) } : {}),
      ...(undone.length > 0 ? { protectedUndone: undone } : {}),
      ...(this.stoppedByGuard !== undefined ? { stoppedByGuard: this.stoppedByGuard } : {}),
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
    await this.prepared?.finish();
    await this.spool.file.close().catch(() => undefined);
    await fs.rm(this.tmpDir, { recursive: true, force: true }).catch(() => undefined);
    this.release();
  }
}

/** The sandbox record with what the sandbox refused the call: its first lines, and the count past them. */
function withViolations(sandbox: SandboxRecord, reports: CommandReports): SandboxRecord {
  if (reports.lines.length === 0) return sandbox;
  return {
    ...sandbox,
    violations: reports.lines,
    ...(reports.total > reports.lines.length ? { violationCount: reports.total } : {}),
  };
}
