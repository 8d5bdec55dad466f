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
