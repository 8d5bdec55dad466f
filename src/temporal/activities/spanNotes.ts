// Attributes an activity adds to its own span once it knows them (issue 33: a tool call sent by its
// tool_use id learns its tool name from the stored message). The tracing interceptor (tracing.ts)
// runs the activity with a note-taker; without tracing there is none and a note costs nothing. No
// OpenTelemetry import here: a worker without tracing loads none.
import { AsyncLocalStorage } from 'node:async_hooks';

export type SpanNote = (attributes: Record<string, string | number | boolean>) => void;

export const spanNotes = new AsyncLocalStorage<SpanNote>();

/** Adds `attributes` to the running activity's span, if it has one of ours. */
export function noteOnSpan(attributes: Record<string, string | number | boolean>): void {
  spanNotes.getStore()?.(attributes);
}
