// Bash's schema and prompt: its input, what a foreground and a background call return, the time limits.
import { z } from 'zod';
import type { SandboxRecord } from '../../core/toolRecords';

export const BASH_DEFAULT_TIMEOUT_MS = 120_000;
export const BASH_MAX_TIMEOUT_MS = 600_000;
export const BASH_PROGRESS_INTERVAL_MS = 500;
export const BASH_PROGRESS_TAIL_BYTES = 4096;
/** A background command's default limit (Bash `timeout` sets another, up to BASH_BACKGROUND_MAX_TIMEOUT_MS). */
export const BASH_BACKGROUND_DEFAULT_TIMEOUT_MS = 30 * 60_000;
/** The reference's cap on a background command: 2 hours. */
export const BASH_BACKGROUND_MAX_TIMEOUT_MS = 2 * 3600_000;

export { BASH_MAX_OUTPUT_BYTES, BASH_DEFAULT_SPOOL_CAP_BYTES, bashSpoolCapBytes } from './process';

export const inputSchema = z.strictObject({
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
  /** Stopped by the live guard: it wrote again a protected path that was undone (src/sandbox/liveGuard.ts). */
  stoppedByGuard?: string;
  /** In a worktree: what of the command's git work the repository did not take (worktree/git/). */
  worktreeGitNote?: string;
  /** `run_in_background`: the task it started (the session runs it as its own activity). */
  background?: { taskId: string; outputPath: string };
}

export const PROMPT = `Executes a bash command and returns its output (stdout and stderr merged, in order) and exit code.

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

export function clampTimeout(timeout: number | undefined): number {
  if (timeout === undefined || !Number.isFinite(timeout) || timeout <= 0) return BASH_DEFAULT_TIMEOUT_MS;
  return Math.min(Math.ceil(timeout), BASH_MAX_TIMEOUT_MS);
}

export function backgroundTimeout(timeout: number | undefined): number {
  if (timeout === undefined || !Number.isFinite(timeout) || timeout <= 0) return BASH_BACKGROUND_DEFAULT_TIMEOUT_MS;
  return Math.min(Math.ceil(timeout), BASH_BACKGROUND_MAX_TIMEOUT_MS);
}

/** What a background command did (src/tasks/runtime/backgroundTask.ts records it in the task). */
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
  /** Stopped by the live guard: it wrote again a protected path that was undone (src/sandbox/liveGuard.ts). */
  stoppedByGuard?: string;
}
