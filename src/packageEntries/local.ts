// `durable-agent/local`: the in-process runner alone — the same session, turns, tools and
// pipeline as a worker runs, without Temporal (for tests and for embedding without a server).
// It loads no @temporalio/* package (test/unit/entries.test.ts and
// test/unit/inprocess-no-temporal.test.ts check); `durable-agent/worker` re-exports it beside the
// worker for those who have both.
export * from './tools';
export { runLocalSession, startLocalSession } from '../inprocess/runSession';
export type {
  LocalSession,
  LocalSessionOptions,
  LocalSessionResult,
  LocalSessionStatus,
} from '../inprocess/runSession';
export { END_REASONS } from '../core/session';
export { BUILTIN_TOOLS } from '../tools';
