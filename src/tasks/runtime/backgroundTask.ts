// A background task's own run (issue 19): the command a Bash `run_in_background` call recorded
// (core/autonomy.ts `BackgroundTask`), run by the session as one long-lived activity
// `runBackgroundTask` on its tool task queue. The command runs the way a foreground Bash call runs
// (tools/bash/background.ts `runBackgroundCommand`: the session's sandbox plan, its own process group,
// the reaper's marker, so a dead worker's guardian kills it), its stdout and stderr go to the task's
// output file, and at the end the whole output is stored (hash and size for the audit). The call
// heartbeats; cancellation (TaskStop, the session's end) arrives through the signal and kills the
// process group. Never retried by the session (maximumAttempts 1): a lost worker is reported as a
// lost task, never a silent re-run. Failures to start are data (state `failed` with the reason).
// No Temporal here: src/tasks/activities/backgroundTask.ts is the adapter.
import type { AgentContext } from '../../core/context';
import { hookProjectDir } from '../../hooks/run';
import type { TaskState } from '../../core/autonomy';
import { violationTotal } from '../../core/toolRecords';
import { runBackgroundCommand, type BackgroundCommandResult } from '../../tools/bash';
import type { ToolUseContext } from '../../toolProtocol/Tool';
import type { CallRuntime } from '../../runtime/runtime';
import { resolveToolSession, type ToolDeps, type ToolSessionInput } from '../../toolCall/tools';
import {
  sessionPermission,
  withTaskDirectory,
  withWorkerHooks,
  withWorkerPrivatePaths,
} from '../../toolCall/toolSession';

/** How often a running task heartbeats (the worker throttles what reaches the server to 80% of the heartbeat timeout). */
export const BACKGROUND_HEARTBEAT_MS = 1_000;

export interface RunBackgroundTaskInput {
  session: ToolSessionInput;
  task: {
    id: string;
    toolUseId: string;
    command: string;
    /** Where it runs (the session's cwd when the call started it). */
    cwd: string;
    timeoutMs: number;
    outputPath: string;
    unsandboxed?: boolean;
  };
  /** The session's directories and worktree when the task starts (the sandbox plan reads them). */
  context: Pick<AgentContext, 'cwd' | 'additionalDirectories' | 'projectDir' | 'worktree'>;
}

export interface RunBackgroundTaskResult {
  state: Extract<TaskState, 'completed' | 'failed' | 'timed_out' | 'killed'>;
  exitCode: number | null;
  signal: string | null;
  outputBytes: number;
  /** `taskoutput-<sha256>` in the store; absent when it could not be stored or nothing ran. */
  outputRef?: string;
  /** Whether it ran in the OS sandbox, why, and how many violations were reported. */
  sandboxed?: boolean;
  violations?: number;
  /** Why it did not run, or what stopped it (not its own exit). */
  error?: string;
}

function stateOf(r: BackgroundCommandResult): RunBackgroundTaskResult['state'] {
  if (r.interrupted) return 'killed';
  if (r.timedOut) return 'timed_out';
  if (r.outputCapped || r.stoppedByGuard !== undefined) return 'failed';
  return r.exitCode === 0 ? 'completed' : 'failed';
}

export function createBackgroundTaskCalls(deps: ToolDeps) {
  /** The tool context the command runs with: the session's permission, sandbox host and private paths. */
  async function contextFor(input: RunBackgroundTaskInput, signal: AbortSignal): Promise<ToolUseContext> {
    const session = await resolveToolSession(input.session, deps.toolSettings);
    const resultStore = deps.resultStore(session.sessionId);
    const agent: AgentContext = { ...input.context, cwd: input.task.cwd, readFiles: {} };
    return {
      sessionId: session.sessionId,
      toolUseId: input.task.toolUseId,
      idempotencyKey: `${session.sessionId}/${input.task.toolUseId}`,
      agent,
      permission: withWorkerPrivatePaths(
        sessionPermission(
          withTaskDirectory(session.permission, session.sessionId),
          resultStore,
          withWorkerHooks(deps.hooks, session.hooks),
          hookProjectDir(session.hookPins, input.context),
          session.mcpServers,
        ),
        resultStore,
        deps.privatePaths,
      ),
      abortSignal: signal,
      resultStore,
      ...(deps.privatePaths ? { privatePaths: deps.privatePaths } : {}),
      ...(deps.sandboxHost ? { sandboxHost: deps.sandboxHost } : {}),
    };
  }

  /**
   * The whole command: from the Bash call's record in the execution ledger (the task record in the
   * session's context holds a preview); the preview itself when no record is there.
   */
  async function wholeCommand(input: RunBackgroundTaskInput): Promise<string> {
    const key = input.session.ledgerKey ?? input.session.sessionId;
    const entry = await deps.ledger.get(key, input.task.toolUseId);
    const recorded = (entry?.record?.input as { command?: unknown } | undefined)?.command;
    return typeof recorded === 'string' ? recorded : input.task.command;
  }

  /**
   * The whole output into the store (best effort: the file stays where the model reads it). The
   * text is what the run read through its own descriptor (runBackgroundCommand), never the file
   * by name: the command may have swapped the name for a symlink to something else.
   */
  async function storeOutput(output: string, warn: CallRuntime['warn']): Promise<string | undefined> {
    if (!deps.payloads) return undefined;
    try {
      return await deps.payloads.putTaskOutput(output);
    } catch (err) {
      warn(`background task output was not stored: ${(err as Error).message}`);
      return undefined;
    }
  }

  async function runBackgroundTask(input: RunBackgroundTaskInput, rt: CallRuntime): Promise<RunBackgroundTaskResult> {
    let outputBytes = 0;
    const beat = (): void => rt.heartbeat({ taskId: input.task.id, outputBytes });
    beat();
    const timer = setInterval(beat, BACKGROUND_HEARTBEAT_MS);
    try {
      let r: BackgroundCommandResult & { output: string };
      try {
        const ctx = await contextFor(input, rt.signal);
        const command = await wholeCommand(input);
        r = await runBackgroundCommand({ ...input.task, command }, ctx, (bytes) => {
          outputBytes = bytes;
        });
      } catch (err) {
        if (rt.signal.aborted)
          return { state: 'killed', exitCode: null, signal: null, outputBytes, error: 'stopped before it started' };
        return { state: 'failed', exitCode: null, signal: null, outputBytes, error: (err as Error).message };
      }
      // The output file ends with the reference's last line (bash/background.ts backgroundTrailer), written by the run.
      const outputRef = await storeOutput(r.output, rt.warn);
      return {
        state: stateOf(r),
        exitCode: r.exitCode,
        signal: r.signal,
        outputBytes: r.outputBytes,
        ...(outputRef ? { outputRef } : {}),
        ...(r.sandbox ? { sandboxed: r.sandbox.sandboxed, violations: violationTotal(r.sandbox) } : {}),
        ...(r.outputCapped
          ? { error: `its output passed the ${r.outputCapped.capBytes}-byte limit; its process group was killed` }
          : {}),
        ...(r.protectedUndone?.length
          ? {
              error: `${r.stoppedByGuard !== undefined ? 'stopped: it kept re-creating a protected path; ' : ''}protected paths it wrote were undone: ${r.protectedUndone.join(', ')}`,
            }
          : {}),
      };
    } finally {
      clearInterval(timer);
    }
  }

  // The steps a Monitor's run shares (src/tasks/runtime/monitorTask.ts): the same context, command and store.
  return { runBackgroundTask, contextFor, wholeCommand, storeOutput };
}
