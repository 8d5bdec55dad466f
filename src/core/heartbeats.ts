// How soon a lost worker is noticed, and how often a living one says it is alive (issue 35). One
// place for the numbers the turn's activity options (temporal/workflows/turn.ts), the worker's heartbeat
// throttle (src/temporal/worker.ts) and the calls' keepalives (runtime/heartbeat.ts) must agree on:
// - a heartbeat timeout is how long a SIGKILLed worker's call waits before it is retried
//   elsewhere (it was 30 s for tools, 20 s for the model: a crash cost half a minute);
// - a heartbeat reaches the server at most once per throttle interval, and the keepalive sends
//   one whenever nothing was sent for KEEPALIVE_MS, so a living worker's call goes at most about
//   KEEPALIVE_MS + HEARTBEAT_THROTTLE_MS without one: a fifth of the tool timeout, with room for
//   a loaded machine's late timers;
// - each heartbeat that reaches the server is a Temporal Cloud action: a long tool call or a
//   streaming answer costs one a second (two a second before: BENCHMARKS.md "Resume").
// Pure numbers: workflow code imports them.

/** Heartbeat timeout of tool activities (runToolUse, the Agent tool's phases, agent worktrees). */
export const TOOL_HEARTBEAT_TIMEOUT_MS = 5_000;

/**
 * Heartbeat timeout of the model and compaction calls. Twice the tool's: a worker of the previous
 * release (0.2.0) that picks up a model call during a rolling upgrade heartbeats only every 5 s
 * while it waits for the first streamed event.
 */
export const MODEL_HEARTBEAT_TIMEOUT_MS = 10_000;

/** A keepalive heartbeat whenever an activity sent none for this long (its core's progress resets it). */
export const KEEPALIVE_MS = 1_000;

/**
 * The worker's heartbeat throttle (maxHeartbeatThrottleInterval): at most one heartbeat per
 * activity reaches the server per interval. It also bounds how late a cancellation (an interrupt)
 * reaches a running call: the server answers a heartbeat with "cancel requested".
 */
export const HEARTBEAT_THROTTLE_MS = 1_000;
