import type { WireMessage } from './types';
export interface SseEvent {
    event: string;
    /** The `data:` payload exactly as sent (a JSON text for the Messages API). */
    data: string;
    /** The fake server waits this long after sending the event (scripted pacing). */
    pauseAfterMs?: number;
}
/** One SSE frame as the API writes it: `event: x\ndata: {...}\n\n`. */
export declare function encodeSseEvent(event: string, data: unknown): string;
/** The raw frames of an SSE body (blank-line separated, comments and empty frames dropped). */
export declare function splitSseFrames(body: string): string[];
/** Parse an SSE body into events (multi-line `data:` joined with "\n", as the spec says). */
export declare function parseSse(body: string): SseEvent[];
export declare class SseStreamError extends Error {
    readonly errorType: string;
    constructor(errorType: string, message: string);
}
/**
 * Fold a Messages API event stream into the final Message, the way the SDK's MessageStream does
 * (tool_use input is the concatenated partial_json, parsed at content_block_stop).
 * Throws `SseStreamError` on an `event: error`, and an Error when the stream is incomplete.
 */
export declare function accumulateMessage(events: readonly SseEvent[]): WireMessage;
