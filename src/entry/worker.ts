// `durable-agent/worker`: where tools run — the worker (activities, workflow bundle), the
// built-in tools and the pool, the one tool pipeline, the stores, the in-process runner and the
// local dev server. Node only; loads @temporalio/worker.
export * from './tools';
export {
  createAgentWorker,
  createAgentActivities,
  bundleAgentWorkflows,
  workflowsPath,
  versionedWorkflowsPath,
  defaultStoreDir,
} from '../worker';
export type { AgentWorkerOptions, WorkerDeployment } from '../worker';
export { BUILTIN_TOOLS } from '../tools/builtin';
export { createToolPool } from '../permissions/toolPool';
export { findToolByName } from '../tools/pool';
export type { ToolPool } from '../tools/pool';
export { LocalResultStore } from '../tools/resultStore';
export { createSearchIssuesTool } from '../tools/examples/searchIssues';
export { runToolPipeline, describeToolUse } from '../pipeline';
export type { PipelineEnv, ToolUseOutcome } from '../pipeline';
/** Bash's declarations need the shell parser: await this before calling them outside the pipeline. */
export { loadShellParser } from '../permissions/bashParser';
export type { HooksConfig } from '../hooks';
export { LocalBlobStore, TranscriptStore } from '../stores/messageStore';
export type { BlobStore } from '../stores/messageStore';
export { runLocalSession, startLocalSession } from '../local/runSession';
export type { LocalSession, LocalSessionOptions, LocalSessionResult, LocalSessionStatus } from '../local/runSession';
export { END_REASONS } from '../engine/session';
export { TASK_QUEUE_DEFAULT } from '../workflows/definitions';
export { loadConnectionConfig, connectWorker, TemporalUnavailableError } from '../temporal/connection';
export { startDevServer } from '../temporal/devServer';
export { resolveTemporalCli } from '../temporal/cli';
