// durable-agent's main entry: everything a program that runs workers and steers sessions needs.
// Narrower entries, by where code runs (package.json "exports"):
//   durable-agent/tools     the Tool protocol and the engine's data — no Temporal, no node-only code
//   durable-agent/workflow  + signal/query/update definitions and session types — workflow-safe
//   durable-agent/client    + starting and steering sessions, the audit — no @temporalio/worker
//   durable-agent/worker    + the worker, built-in tools, pipeline, stores, in-process runner
//   durable-agent/testing   the fake Messages API for tests and demos (never in a real worker)
// Workflow code itself is not exported: the worker bundles it from src/temporal/workflows.
export * from './packageEntries/client';
export * from './packageEntries/worker';
