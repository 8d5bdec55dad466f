// Workflows for the floor benchmark (bench/floor.ts): the bare shapes of this project's work with
// no-op activities, so that what remains is what the server, the transport and the SDK cost.
import { executeChild, proxyActivities, proxyLocalActivities, workflowInfo } from '@temporalio/workflow';

export interface FloorActivities {
  noop(): Promise<void>;
  /** Sleeps `ms`, heartbeating every `heartbeatMs` (0: never). */
  sleepy(ms: number, heartbeatMs: number): Promise<void>;
}

const { noop, sleepy } = proxyActivities<FloorActivities>({
  startToCloseTimeout: '1 minute',
  heartbeatTimeout: '30 seconds',
});
const localNoop = proxyLocalActivities<FloorActivities>({ startToCloseTimeout: '1 minute' }).noop;

/** N sequential no-op activities: read Scheduled→Started of every task from its history. */
export async function noopChain(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await noop();
}

export interface TurnShape {
  /** Sequential steps of the turn: n > 0 runs n no-op activities in parallel, 0 one local activity, -n n local activities in parallel. */
  steps: number[];
}

/** One turn's shape: a child workflow whose steps run in order, each step's activities in parallel. */
export async function turnShapeChild(shape: TurnShape): Promise<void> {
  for (const parallel of shape.steps) {
    if (parallel === 0) await localNoop();
    else if (parallel < 0) await Promise.all(Array.from({ length: -parallel }, () => localNoop()));
    else await Promise.all(Array.from({ length: parallel }, () => noop()));
  }
}

/** A session's shape: `turns` child workflows in sequence. */
export async function sessionShape(turns: number, shape: TurnShape): Promise<void> {
  for (let t = 1; t <= turns; t++) {
    await executeChild(turnShapeChild, { workflowId: `${workflowInfo().workflowId}/turn-${t}`, args: [shape] });
  }
}

/** `n` activities of `ms` each, all at once (a batch of safe tool calls). */
export async function parallelSleeps(n: number, ms: number, heartbeatMs: number): Promise<void> {
  await Promise.all(Array.from({ length: n }, () => sleepy(ms, heartbeatMs)));
}
