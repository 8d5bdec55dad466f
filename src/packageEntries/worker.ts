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
} from '../temporal/worker';
export type { AgentWorkerOptions, WorkerDeployment } from '../temporal/worker';
export { BUILTIN_TOOLS } from '../tools';
export { createToolPool } from '../permissions/toolPool';
export { findToolByName } from '../toolProtocol/pool';
export type { ToolPool } from '../toolProtocol/pool';
export { LocalResultStore } from '../toolProtocol/resultStore';
export { createSearchIssuesTool } from '../toolProtocol/examples/searchIssues';
export { runToolPipeline, describeToolUse } from '../toolCall/pipeline';
export type { PipelineEnv, ToolUseOutcome } from '../toolCall/pipeline';
/** Bash's declarations need the shell parser: await this before calling them outside the pipeline. */
export { loadShellParser } from '../permissions/bashParser';
export type { HooksConfig } from '../hooks';
export { LocalBlobStore, TranscriptStore } from '../stores/messageStore';
export type { BlobStore } from '../stores/messageStore';
export { runLocalSession, startLocalSession } from '../inprocess/runSession';
export type {
  LocalSession,
  LocalSessionOptions,
  LocalSessionResult,
  LocalSessionStatus,
} from '../inprocess/runSession';
export { END_REASONS } from '../core/session';
export { TASK_QUEUE_DEFAULT } from '../temporal/workflows/definitions';
export { loadConnectionConfig, connectWorker, TemporalUnavailableError } from '../temporal/service/connection';
export { startDevServer } from '../temporal/service/devServer';
export { resolveTemporalCli } from '../temporal/service/cli';
