// What integration tests of background work look at: the texts a scripted model request carries
// (text blocks and tool results) and the live processes of a command (Linux /proc).
import { readdirSync, readFileSync } from 'node:fs';
import type { MessagesRequest } from '../../src/testing/fakeAnthropic';

/** The texts of one message's content: its text blocks and its tool_result contents (string or text blocks). */
export function contentTexts(content: MessagesRequest['messages'][number]['content']): string[] {
  if (typeof content === 'string') return [content];
  return content.flatMap((b) => {
    if (b.type === 'text' && typeof b.text === 'string') return [b.text];
    if (b.type === 'tool_result') {
      const c = (b as { content?: unknown }).content;
      if (typeof c === 'string') return [c];
      if (Array.isArray(c))
        return c.flatMap((x: { type?: string; text?: string }) => (x.type === 'text' ? [x.text ?? ''] : []));
    }
    return [];
  });
}

/**
 * The request's newest user side: the messages after its last assistant message. Messages queued for
 * one turn (two task notifications, a follow-up) go as consecutive user messages, which the API joins
 * into one turn: a look at the last message alone misses the ones before it.
 */
export function newUserMessages(req: MessagesRequest): MessagesRequest['messages'] {
  return req.messages.slice(req.messages.map((m) => m.role).lastIndexOf('assistant') + 1);
}

/** Live processes whose command line contains `needle` (Linux /proc; zombies left out). */
export function processesWith(needle: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const args = readFileSync(`/proc/${e}/cmdline`, 'utf8').split('\0').join(' ');
      const state = readFileSync(`/proc/${e}/stat`, 'utf8');
      if (state.slice(state.lastIndexOf(')') + 2).startsWith('Z')) continue;
      if (args.includes(needle)) out.push(`${e} ${args}`);
    } catch {
      // gone
    }
  }
  return out;
}
