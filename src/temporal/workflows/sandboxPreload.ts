// Runs once in each workflow sandbox, before the SDK freezes its globals (bundleWorkflowCode's
// `preloadModules`, src/temporal/worker.ts `workflowPreloads`). Issue 33: the SDK's promise hook
// (@temporalio/worker vm-shared.js) captures a stack trace — `new Error().stack`, each frame mapped
// through the bundle's source map — for every promise created in workflow context, ≈ 340 a model
// step, so that the `__stack_trace` query can show where a workflow waits: that was ≈ 55 % of the
// workflow code's CPU (bench/replayCost.ts: 14.4 → 6.5 ms a step). With no frames to capture it
// costs little. The price: the stack trace query shows no frames, and an error thrown by workflow
// code carries its message without frames. DURABLE_AGENT_WORKFLOW_STACK_TRACES=1 on the worker
// leaves this module out (the SDK's 10 frames).
Error.stackTraceLimit = 0;
