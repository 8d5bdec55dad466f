// The tool activities: the cores of src/toolCall/tools.ts (the one pipeline with its execution ledger)
// with the activity's runtime — its heartbeats, cancellation signal, attempt and call key — its
// keepalive, and handing the attempt back when the worker shuts down (runtime.ts).
import {
  createToolCalls,
  type FinishSubagentInput,
  type RunToolUseInput,
  type SubagentPrepared,
  type ToolDeps,
} from '../../toolCall/tools';
import type { ToolRunResult } from '../../core/turn';
import { recordToolCall } from './metrics';
import { withActivityRuntime } from './runtime';
import { sideCallCharger } from './budget';

/** A call the worker's shutdown stopped: the pipeline's interrupted record, which is handed back instead. */
const stopped = (r: ToolRunResult): boolean => r.kind === 'done' && r.record.status === 'interrupted';

export function createToolActivities(deps: ToolDeps) {
  const calls = createToolCalls(deps);

  async function runToolUse(input: RunToolUseInput): Promise<ToolRunResult> {
    // A child's call: its side model calls are charged to the root's budget as they are made.
    const charge = sideCallCharger(input.budget);
    const run = (rt: Parameters<typeof calls.runToolCall>[1]) =>
      calls.runToolCall(input, charge ? { ...rt, chargeSideCall: charge } : rt);
    return recordToolCall(await withActivityRuntime(run, stopped));
  }

  /**
   * The Agent tool's pre-call phase (schema → validateInput → PreToolUse hooks → permission) as an
   * activity: a recorded result, an `ask`, a failure, or the resolved child session to start.
   */
  async function prepareSubagent(input: RunToolUseInput): Promise<SubagentPrepared> {
    return withActivityRuntime(
      (rt) => calls.prepareSubagent(input, rt),
      (r) => r.kind !== 'ready' && stopped(r),
    );
  }

  /** The post-call phase: the child's final text through result mapping, size policy, PostToolUse hooks. */
  async function finishSubagent(input: FinishSubagentInput): Promise<ToolRunResult> {
    return recordToolCall(await withActivityRuntime((rt) => calls.finishSubagent(input, rt), stopped));
  }

  return {
    describeToolUses: calls.describeToolUses,
    runToolUse,
    runToolCall: calls.runToolCall,
    storeReadFiles: calls.storeReadFiles,
    storeToolSettings: calls.storeToolSettings,
    prepareSubagent,
    finishSubagent,
  };
}
