// What a call (model, compaction, tool) needs from whoever runs it: under Temporal the activity's
// context (src/temporal/activities/runtime.ts), in-process a local stand-in (src/inprocess). No Temporal here.
import type { StreamedToolUse } from '../core/streaming';
import type { ModelUsage } from '../core/modelUsage';

/** A block as a model call hands it over (the runner adds the stream). */
export type HandedToolUse = Omit<StreamedToolUse, 'stream'>;

export interface CallRuntime {
  signal: AbortSignal;
  heartbeat(details?: unknown): void;
  attempt: number;
  /** Unique per scheduled call (retries share it): `<workflowId>/<activityId>` under Temporal. */
  callKey: string;
  warn(message: string, meta?: Record<string, unknown>): void;
  /**
   * A side model call a tool made (WebFetch, WebSearch) spent this: charged to the tree's budget as
   * it is made (issue 34; under Temporal a child's tool call signals its root). Absent: counted with
   * the call's record only.
   */
  chargeSideCall?(modelUsage: ModelUsage): Promise<void>;
  /**
   * Hands tool_use blocks that are complete while the message still streams to the turn, in
   * order (under Temporal: a signal to the activity's own workflow; one per block unless
   * `batched`, which a call with `describeWith` asks for). Absent: no streaming tool execution.
   */
  onStreamedToolUses?(items: HandedToolUse[], batched: boolean): Promise<void>;
}
