// The transcript store's two operations a scheduler calls between model calls: append the turn's
// messages (tool results given by reference are read from the payload store first) and load a chain.
import type { Message } from '../core/apiMessages';
import { resolveMessages, type MessageByRef } from '../core/payloads';
import type { ModelDeps } from './model';

export interface AppendTranscriptInput {
  head: string | null;
  messages: MessageByRef[];
}

export function createTranscriptCalls(deps: Pick<ModelDeps, 'transcripts' | 'payloads'>) {
  /** Appends messages; tool results given by reference are read from the payload store first. */
  async function appendTranscript(input: AppendTranscriptInput): Promise<string | null> {
    const messages = await resolveMessages(input.messages, (ref) => {
      if (!deps.payloads) throw new Error('this worker has no payload store to resolve tool result references');
      return deps.payloads.getToolResult(ref);
    });
    return deps.transcripts.append(input.head, messages);
  }

  async function loadTranscript(input: { head: string | null }): Promise<Message[]> {
    return deps.transcripts.load(input.head);
  }

  return { appendTranscript, loadTranscript };
}
