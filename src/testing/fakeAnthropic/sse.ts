// Server-sent-event encoding, parsing and accumulation for Messages API streams.

import type { WireContentBlock, WireMessage } from './types';

export interface SseEvent {
  event: string;
  /** The `data:` payload exactly as sent (a JSON text for the Messages API). */
  data: string;
  /** The fake server waits this long after sending the event (scripted pacing). */
  pauseAfterMs?: number;
}

/** One SSE frame as the API writes it: `event: x\ndata: {...}\n\n`. */
export function encodeSseEvent(event: string, data: unknown): string {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  return `event: ${event}\ndata: ${payload}\n\n`;
}

/** The raw frames of an SSE body (blank-line separated, comments and empty frames dropped). */
export function splitSseFrames(body: string): string[] {
  return body
    .replace(/\r\n?/g, '\n')
    .split(/\n\n+/)
    .map((frame) => frame.trim())
    .filter((frame) => frame.length > 0 && !frame.split('\n').every((line) => line.startsWith(':')))
    .map((frame) => `${frame}\n\n`);
}

/** Parse an SSE body into events (multi-line `data:` joined with "\n", as the spec says). */
export function parseSse(body: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const frame of splitSseFrames(body)) {
    let event = 'message';
    const data: string[] = [];
    for (const line of frame.trimEnd().split('\n')) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    events.push({ event, data: data.join('\n') });
  }
  return events;
}

interface StreamEventData {
  type?: string;
  index?: number;
  message?: WireMessage;
  content_block?: WireContentBlock;
  delta?: {
    type?: string;
    text?: string;
    partial_json?: string;
    thinking?: string;
    signature?: string;
    stop_reason?: WireMessage['stop_reason'];
    stop_sequence?: string | null;
    stop_details?: WireMessage['stop_details'];
  };
  usage?: Partial<WireMessage['usage']>;
  error?: { type: string; message: string };
}

export class SseStreamError extends Error {
  constructor(
    readonly errorType: string,
    message: string,
  ) {
    super(message);
    this.name = 'SseStreamError';
  }
}

/**
 * Fold a Messages API event stream into the final Message, the way the SDK's MessageStream does
 * (tool_use input is the concatenated partial_json, parsed at content_block_stop).
 * Throws `SseStreamError` on an `event: error`, and an Error when the stream is incomplete.
 */
export function accumulateMessage(events: readonly SseEvent[]): WireMessage {
  let message: WireMessage | undefined;
  const jsonBuffers = new Map<number, string>();
  let stopped = false;

  for (const sse of events) {
    if (sse.event === 'ping') continue;
    const data = JSON.parse(sse.data) as StreamEventData;
    if (sse.event === 'error') {
      throw new SseStreamError(data.error?.type ?? 'unknown', data.error?.message ?? sse.data);
    }
    if (data.type === 'message_start') {
      if (!data.message) throw new Error('message_start without message');
      message = { ...data.message, content: [], usage: { ...data.message.usage } };
      continue;
    }
    if (!message) throw new Error(`${String(data.type)} before message_start`);
    const index = data.index ?? -1;
    switch (data.type) {
      case 'content_block_start': {
        if (!data.content_block) throw new Error('content_block_start without content_block');
        message.content[index] = { ...data.content_block };
        break;
      }
      case 'content_block_delta': {
        const block = message.content[index];
        const delta = data.delta ?? {};
        if (delta.type === 'text_delta' && block?.type === 'text') block.text += delta.text ?? '';
        else if (delta.type === 'input_json_delta' && (block?.type === 'tool_use' || block?.type === 'server_tool_use'))
          jsonBuffers.set(index, (jsonBuffers.get(index) ?? '') + (delta.partial_json ?? ''));
        else if (delta.type === 'thinking_delta' && block?.type === 'thinking') block.thinking += delta.thinking ?? '';
        else if (delta.type === 'signature_delta' && block?.type === 'thinking')
          block.signature = delta.signature ?? '';
        else throw new Error(`delta ${String(delta.type)} does not fit block ${index} (${String(block?.type)})`);
        break;
      }
      case 'content_block_stop': {
        const block = message.content[index];
        const json = jsonBuffers.get(index);
        if ((block?.type === 'tool_use' || block?.type === 'server_tool_use') && json !== undefined)
          block.input = json === '' ? {} : JSON.parse(json);
        break;
      }
      case 'message_delta': {
        if (data.delta?.stop_reason !== undefined) message.stop_reason = data.delta.stop_reason;
        if (data.delta?.stop_sequence !== undefined) message.stop_sequence = data.delta.stop_sequence;
        if (data.delta?.stop_details !== undefined) message.stop_details = data.delta.stop_details;
        if (data.usage) message.usage = { ...message.usage, ...data.usage };
        break;
      }
      case 'message_stop':
        stopped = true;
        break;
      default:
        break;
    }
  }
  if (!message) throw new Error('stream had no message_start');
  if (!stopped) throw new Error('stream ended before message_stop');
  return message;
}
