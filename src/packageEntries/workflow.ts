// `durable-agent/workflow`: the workflows' definitions — signal, query and update definitions,
// session input/status/result types, the session loop's end reasons — plus everything in
// `durable-agent/tools`. Workflow-safe: it loads only @temporalio/workflow and pure modules, never
// @temporalio/worker or @temporalio/client (test/unit/entries.test.ts checks that). The workflow
// code itself is bundled by the worker (`workflowsPath` in `durable-agent/worker`).
export * from './tools';
export {
  TASK_QUEUE_DEFAULT,
  STATUS_SEARCH_ATTRIBUTE,
  statusQuery,
  interruptSignal,
  sendMessageSignal,
  approveUpdate,
  denyUpdate,
  oneLinePreview,
} from '../temporal/workflows/definitions';
export type {
  SessionInput,
  SessionStatus,
  SessionResult,
  PendingApproval,
  TurnSummary,
  TurnWorkflowInput,
  TurnWorkflowResult,
} from '../temporal/workflows/definitions';
export { END_REASONS } from '../core/session';
