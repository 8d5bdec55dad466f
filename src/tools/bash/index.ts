// Bash, one concept per file: the schema and prompt (schema.ts), `cd` and the working directory
// (cd.ts), containment in the OS sandbox (containment.ts), the process (run.ts, process.ts), the
// command's analysis (command.ts), background tasks and their output files (background.ts,
// taskOutput.ts), a worktree's git while a command runs (worktreeLeases.ts), the tool (tool.ts).
export { BashTool } from './tool';
export {
  BASH_BACKGROUND_DEFAULT_TIMEOUT_MS,
  BASH_BACKGROUND_MAX_TIMEOUT_MS,
  BASH_DEFAULT_SPOOL_CAP_BYTES,
  BASH_DEFAULT_TIMEOUT_MS,
  BASH_MAX_OUTPUT_BYTES,
  BASH_MAX_TIMEOUT_MS,
  BASH_PROGRESS_INTERVAL_MS,
  BASH_PROGRESS_TAIL_BYTES,
  backgroundTimeout,
  bashSpoolCapBytes,
  clampTimeout,
  type BackgroundCommandResult,
  type BashInput,
  type BashOutput,
} from './schema';
export { BASH_KILL_GRACE_MS } from './run';
export { sandboxPermission } from './containment';
export { backgroundTaskId, createTaskOutput, openTaskOutput } from './taskOutput';
export { backgroundTrailer, runBackgroundCommand } from './background';
