// The Bash tool: runs a command with `bash -c` in the session's cwd, in its own process group — inside
// the OS sandbox (src/sandbox) when the session's sandbox settings say so, which is the default.
import { NO_REPORTS } from '../../sandbox/violations';
import { buildTool } from '../../toolProtocol/Tool';
import { checkWorkingDirectory, isStandaloneCd, runCd } from './cd';
import { isReadOnlyCommand, standaloneCd } from './command';
import { commandEnvironment, containment, sandboxPermission, settleTreeEvents, undoProtected } from './containment';
import { BASH_SPOOL_CAP_ENV } from './process';
import { BashRun } from './run';
import { clampTimeout, inputSchema, PROMPT, type BashInput, type BashOutput } from './schema';
import { startBackground } from './background';
import { WorktreeGitLeases } from './worktreeLeases';

function formatBytes(n: number): string {
  if (n % 1024 ** 3 === 0) return `${n / 1024 ** 3} GiB`;
  if (n % 1024 ** 2 === 0) return `${n / 1024 ** 2} MiB`;
  if (n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
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
      // In a worktree, its git writes to its shadow while the command runs (worktree/git/).
      await worktrees.acquire(ctx);
      // A wait for a sandbox runtime counts against the command's timeout, and says what it waits for.
      const contained = await containment(input, ctx, {
        timeoutMs,
        onWaiting: (waiting) => onProgress({ waiting, elapsedMs: Date.now() - started }),
      });
      run.prepared = contained.prepared;
      const result = await run.watch(run.spawn(commandEnvironment(ctx)), onProgress);
      await run.settle();
      const violations = run.prepared ? await run.prepared.finish() : NO_REPORTS;
      // What the deny list fixed at the start could not stop (a repository the call created): undone now.
      if (contained.protection) await settleTreeEvents();
      const undone = contained.protection ? await undoProtected(contained.protection) : [];
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
    if (data.stoppedByGuard !== undefined) {
      notes.push(
        `Command was stopped: it wrote again a protected path that had been undone (${data.stoppedByGuard}). Bash may not write settings, hooks, git config or hooks, editor or shell start-up files.`,
      );
    } else if (data.outputCapped) {
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
    if (data.sandbox?.violations?.length) {
      const { violations, violationCount } = data.sandbox;
      const more = violationCount
        ? `\n(${violationCount} reports in all: repeats and lines past these are not listed)`
        : '';
      notes.push(`<sandbox_violations>\n${violations.join('\n')}${more}\n</sandbox_violations>`);
    }
    if (data.protectedUndone?.length) {
      notes.push(
        `<protected_paths_restored>\nThis command wrote protected paths (settings, hooks, git config or hooks, editor or shell start-up files), which Bash may not change; they were undone:\n${data.protectedUndone.join('\n')}\n</protected_paths_restored>`,
      );
    }
    if (data.worktreeGitNote) notes.push(data.worktreeGitNote);
    if (text === '' && notes.length === 0) text = '(Bash completed with no output)';
    const content = [text, ...notes].filter((s) => s !== '').join('\n');
    const isError =
      Boolean(data.outputCapped) ||
      data.stoppedByGuard !== undefined ||
      data.timedOut ||
      data.interrupted ||
      (data.exitCode !== 0 && !data.benignExitCode);
    return { type: 'tool_result', tool_use_id: toolUseId, content, ...(isError ? { is_error: true } : {}) };
  },
});
