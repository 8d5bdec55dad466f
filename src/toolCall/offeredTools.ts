// Which tools a model request carried whole, kept for the tool calls of its answer (docs/tools.md
// "Deferred tools and ToolSearch"): a call of a deferred tool the request did not load, whose input
// fails the schema, gets the reference's hint to load it with ToolSearch first. Written by the model
// call's activity only when the request deferred tools; read by a tool activity only when an input
// fails its schema. A store without the record (a request made before this existed) gives no hint.
import type { TranscriptStore } from '../stores/messageStore';
import { DEFERRED_PLACEHOLDER_NAME } from '../toolProtocol/deferredTools';

/**
 * The record's key: per request, by the conversation it sent (`sentHead`, itself a hash of the
 * whole chain). Two sessions with the same conversation and different tool settings share it: the
 * later request's record wins, which at worst adds or leaves out a hint.
 */
const keyOf = (sentHead: string): string => `offered-${sentHead}`;

interface OfferedRecord {
  /** Every tool the request carried whole or loaded (deferred tools not loaded are absent). */
  offered: string[];
}

/** Records the tools of a request that deferred some (no record otherwise: every schema was sent). */
export async function recordOfferedTools(
  transcripts: TranscriptStore,
  sentHead: string | null,
  tools: ReadonlyArray<{ name: string; defer_loading?: boolean }> | undefined,
): Promise<void> {
  if (sentHead === null || !tools?.some((t) => t.name === DEFERRED_PLACEHOLDER_NAME)) return;
  const record: OfferedRecord = {
    offered: tools.filter((t) => t.name !== DEFERRED_PLACEHOLDER_NAME).map((t) => t.name),
  };
  await transcripts.blobs.put(keyOf(sentHead), JSON.stringify(record));
}

/**
 * Was `toolName` deferred and not loaded in the request whose answer is the transcript node
 * `messageRef` (the final message, or a tool_use block handed over while it streamed)?
 */
export async function deferredNotLoaded(
  transcripts: TranscriptStore,
  messageRef: string,
  toolName: string,
): Promise<boolean> {
  const { prev } = await transcripts.node(messageRef);
  if (prev === null) return false;
  const data = await transcripts.blobs.get(keyOf(prev));
  if (data === undefined) return false;
  return !(JSON.parse(data) as OfferedRecord).offered.includes(toolName);
}
