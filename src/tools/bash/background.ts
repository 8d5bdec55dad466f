// `run_in_background`: the call that names a background task, and the task's command run as its own
// activity the way a foreground call runs (src/tasks/runtime/backgroundTask.ts, monitorTask.ts).
import type { ContextModifier } from '../../core/context';
import { MAX_TASK_TEXT, type BackgroundTask } from '../../core/autonomy';
import { NO_REPORTS } from '../../sandbox/violations';
import type { ToolUseContext } from '../../toolProtocol/Tool';
import { checkWorkingDirectory } from './cd';
import { commandEnvironment, containment, settleTreeEvents, undoProtected } from './containment';
import { BashRun } from './run';
import { backgroundTimeout, type BackgroundCommandResult, type BashInput, type BashOutput } from './schema';
import { backgroundTaskId, createTaskOutput } from './taskOutput';
import { WorktreeGitLeases } from './worktreeLeases';

/**
 * `run_in_background`: nothing runs here. The call names the task and its output file (created
 * empty, so a Read finds it at once) and records it with a `taskStarted` modifier; the session then
 * runs it as its own long-lived activity (src/tasks/runtime/backgroundTask.ts), sandboxed like this call.
 */
export async function startBackground(input: BashInput, ctx: ToolUseContext, started: number) {
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
    const contained = await containment(input, ctx, { timeoutMs: spec.timeoutMs });
    run.prepared = contained.prepared;
    const result = await run.watch(run.spawn(commandEnvironment(ctx), onStdout), (p) =>
      onProgress(typeof p.totalBytes === 'number' ? p.totalBytes : 0),
    );
    await run.settle();
    const violations = run.prepared ? await run.prepared.finish() : NO_REPORTS;
    if (contained.protection) await settleTreeEvents();
    const undone = contained.protection ? await undoProtected(contained.protection) : [];
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
  if (r.stoppedByGuard !== undefined) return `\n[stopped: ${r.stoppedByGuard}]\n`;
  return r.exitCode !== null ? `\n[exited with code ${r.exitCode}]\n` : '';
}
