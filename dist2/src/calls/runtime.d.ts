import type { StreamedToolUse } from '../engine/streaming';
export interface CallRuntime {
    signal: AbortSignal;
    heartbeat(details?: unknown): void;
    attempt: number;
    /** Unique per scheduled call (retries share it): `<workflowId>/<activityId>` under Temporal. */
    callKey: string;
    warn(message: string, meta?: Record<string, unknown>): void;
    /**
     * Hands a tool_use block that is complete while the message still streams to the turn (under
     * Temporal: a signal to the activity's own workflow). Absent: no streaming tool execution.
     */
    onStreamedToolUse?(item: Omit<StreamedToolUse, 'stream'>): Promise<void>;
}
