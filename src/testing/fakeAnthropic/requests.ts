// Reading a request from inside a script function: what the model "sees" on this turn.

import type { MessagesRequest, RequestContentBlock, RequestMessage } from './types';

export function lastMessage(request: MessagesRequest): RequestMessage | undefined {
  return request.messages[request.messages.length - 1];
}

/** The tool_result blocks of the last message (empty unless it answers tool calls). */
export function lastToolResults(request: MessagesRequest): RequestContentBlock[] {
  const last = lastMessage(request);
  if (!last || last.role !== 'user' || typeof last.content === 'string') return [];
  return last.content.filter((b) => b.type === 'tool_result');
}

/**
 * The content of a paused turn this request continues (stop_reason pause_turn: the request ends
 * with the assistant message sent back as is), or undefined when it does not end with one.
 */
export function pausedContent(request: MessagesRequest): RequestContentBlock[] | undefined {
  const last = lastMessage(request);
  if (!last || last.role !== 'assistant') return undefined;
  return typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : last.content;
}

/** The plain text of the last user message (text blocks joined), or '' when there is none. */
export function lastUserText(request: MessagesRequest): string {
  const last = lastMessage(request);
  if (!last || last.role !== 'user') return '';
  if (typeof last.content === 'string') return last.content;
  return last.content
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text)
    .join('');
}
