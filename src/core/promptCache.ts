// Where prompt-cache breakpoints go, the reference's way: the cache is a prefix in the order
// tools → system → messages, so one breakpoint after the tools, one on the system prompt, one on
// the conversation's last message (the whole prefix is written) and one on the previous request's
// last message (it is read back even when a turn added more than the API's ~20-block look-back).
// At most 4 per request, as the API allows. Pure: returns new objects, never mutates its input.
import type { Message } from './apiMessages';

export const MAX_CACHE_BREAKPOINTS = 4;
export const EPHEMERAL = { type: 'ephemeral' } as const;

export interface CacheableRequest<T> {
  system?: string;
  tools: readonly T[];
  messages: readonly Message[];
}

export type SystemBlock = { type: 'text'; text: string; cache_control?: typeof EPHEMERAL };
export type ApiBlock = Record<string, unknown> & { type: string };
export type ApiMessage = { role: 'user' | 'assistant'; content: string | ApiBlock[] };

export interface ShapedRequest<T> {
  system?: SystemBlock[];
  tools: Array<T & { cache_control?: typeof EPHEMERAL }>;
  messages: ApiMessage[];
  /** Where the breakpoints went (for tests and the audit): 'tools', 'system', 'message:<index>'. */
  breakpoints: string[];
}

function cacheableBlockIndex(content: readonly ApiBlock[]): number {
  for (let j = content.length - 1; j >= 0; j--) {
    const b = content[j] as ApiBlock;
    if (b.type === 'thinking' || b.type === 'redacted_thinking') continue;
    if (b.type === 'text' && typeof b['text'] === 'string' && (b['text'] as string).length === 0) continue;
    return j;
  }
  return -1;
}

function markMessage(m: ApiMessage): ApiMessage | undefined {
  const content: ApiBlock[] =
    typeof m.content === 'string' ? (m.content ? [{ type: 'text', text: m.content }] : []) : [...m.content];
  const j = cacheableBlockIndex(content);
  if (j < 0) return undefined;
  content[j] = { ...(content[j] as ApiBlock), cache_control: EPHEMERAL };
  return { role: m.role, content };
}

/** The indexes of the messages that get a breakpoint: the last one, and the previous request's last one. */
export function messageBreakpoints(messages: readonly Message[]): number[] {
  if (messages.length === 0) return [];
  const last = messages.length - 1;
  let lastAssistant = -1;
  for (let i = last; i >= 0; i--) {
    if ((messages[i] as Message).role === 'assistant') {
      lastAssistant = i;
      break;
    }
  }
  const previous = lastAssistant - 1;
  return previous >= 0 && previous < last && (messages[previous] as Message).role === 'user'
    ? [previous, last]
    : [last];
}

export function applyCacheBreakpoints<T extends object>(req: CacheableRequest<T>, enabled = true): ShapedRequest<T> {
  const breakpoints: string[] = [];
  const tools: Array<T & { cache_control?: typeof EPHEMERAL }> = req.tools.map((t) => ({ ...t }));
  const messages: ApiMessage[] = req.messages.map((m) => ({
    role: m.role,
    content: m.content as ApiMessage['content'],
  }));
  const system: SystemBlock[] | undefined = req.system ? [{ type: 'text', text: req.system }] : undefined;
  if (!enabled) return { ...(system ? { system } : {}), tools, messages, breakpoints };
  // The last tool sent whole (deferred tools, `defer_loading`, are not part of the prompt's prefix).
  let lastTool = tools.length - 1;
  while (lastTool >= 0 && (tools[lastTool] as { defer_loading?: boolean }).defer_loading === true) lastTool--;
  if (lastTool >= 0) {
    tools[lastTool] = { ...(tools[lastTool] as T), cache_control: EPHEMERAL };
    breakpoints.push('tools');
  }
  if (system) {
    system[0] = { ...(system[0] as SystemBlock), cache_control: EPHEMERAL };
    breakpoints.push('system');
  }
  for (const i of messageBreakpoints(req.messages)) {
    if (breakpoints.length >= MAX_CACHE_BREAKPOINTS) break;
    const marked = markMessage(messages[i] as ApiMessage);
    if (!marked) continue;
    messages[i] = marked;
    breakpoints.push(`message:${i}`);
  }
  return { ...(system ? { system } : {}), tools, messages, breakpoints };
}
