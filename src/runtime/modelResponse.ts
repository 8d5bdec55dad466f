// From the API's message to ours: the assistant message, a refusal, the stop details, the usage, and
// what an abandoned stream had sent (for the audit only).
import Anthropic from '@anthropic-ai/sdk';
import type { AssistantContentBlock, AssistantMessage, StopDetails, Usage } from '../core/apiMessages';
import { contentForHistory } from '../core/payloads';
import type { Tombstone } from './modelTypes';

function toAssistant(content: readonly Anthropic.ContentBlock[]): AssistantMessage {
  const blocks: AssistantContentBlock[] = [];
  for (const b of content) {
    if (b.type === 'text') blocks.push({ type: 'text', text: b.text });
    else if (b.type === 'tool_use') blocks.push({ type: 'tool_use', id: b.id, name: b.name, input: b.input });
    else if (b.type === 'thinking') blocks.push({ type: 'thinking', thinking: b.thinking, signature: b.signature });
    else if (b.type === 'redacted_thinking') blocks.push({ type: 'redacted_thinking', data: b.data });
  }
  return { role: 'assistant', content: blocks };
}

/**
 * A refused answer is not the conversation's (issue 31): nothing of it runs or goes back to the API
 * — no tool_use in it is answered, and the next request starts from what was sent before it. What
 * the model had written is kept as a tombstone, for the audit only.
 */
export function refusedOrAnswer(
  final: Anthropic.Message,
  attempt: number,
  events: number,
): { message: AssistantMessage; refusal?: StopDetails; tombstone?: Tombstone } {
  const answered = toAssistant(final.content);
  if (final.stop_reason !== 'refusal') return { message: answered };
  const refusal = stopDetailsOf(final);
  const tombstone: Tombstone = {
    attempt,
    error: `refused (stop_reason refusal${refusal.category ? `, category ${refusal.category}` : ''})${refusal.explanation ? `: ${refusal.explanation}` : ''}`,
    partialContent: contentForHistory(answered.content),
    eventsReceived: events,
  };
  return { message: { role: 'assistant', content: [] }, refusal, tombstone };
}

/** A refusal's `stop_details` (category and explanation may each be null, or the object absent in older answers). */
function stopDetailsOf(final: Anthropic.Message): StopDetails {
  const d = (final as { stop_details?: { category?: unknown; explanation?: unknown } | null }).stop_details;
  return {
    category: typeof d?.category === 'string' ? d.category : null,
    explanation: typeof d?.explanation === 'string' ? d.explanation : null,
  };
}

export function addUsage(a: Usage, b: Usage): Usage {
  const sum = (x?: number, y?: number): number | undefined =>
    x === undefined && y === undefined ? undefined : (x ?? 0) + (y ?? 0);
  const creation = sum(a.cache_creation_input_tokens, b.cache_creation_input_tokens);
  const read = sum(a.cache_read_input_tokens, b.cache_read_input_tokens);
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    ...(creation !== undefined ? { cache_creation_input_tokens: creation } : {}),
    ...(read !== undefined ? { cache_read_input_tokens: read } : {}),
  };
}

export function toUsage(u: Anthropic.Usage): Usage {
  return {
    input_tokens: u.input_tokens,
    output_tokens: u.output_tokens,
    ...(u.cache_creation_input_tokens != null ? { cache_creation_input_tokens: u.cache_creation_input_tokens } : {}),
    ...(u.cache_read_input_tokens != null ? { cache_read_input_tokens: u.cache_read_input_tokens } : {}),
  };
}
/** What an abandoned stream had sent: kept for the audit trail only. */
export function abandoned(
  err: unknown,
  partial: Anthropic.Message | undefined,
  attempt: number,
  events: number,
): Tombstone {
  return {
    attempt,
    error: err instanceof Error ? err.message : String(err),
    partialContent: partial ? contentForHistory(toAssistant(partial.content).content) : [],
    eventsReceived: events,
  };
}
