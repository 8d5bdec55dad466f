// The model and transcript activities: `callModel` runs the core (src/calls/model.ts) with the
// activity's runtime; its ModelCallError becomes an ApplicationFailure at the boundary
// (errors.ts, applied to every activity in index.ts). `appendTranscript` and `loadTranscript` are
// the transcript store's two operations.
import { callModelWith, type CallModelInput, type ModelCallOutcome, type ModelDeps } from '../calls/model';
import type { Message } from '../engine/messages';
import { resolveMessages, type MessageByRef } from '../engine/payloads';
import { activityRuntime } from './runtime';

export function createModelActivities(deps: ModelDeps) {
  async function callModel(input: CallModelInput): Promise<ModelCallOutcome> {
    return callModelWith(deps, input, activityRuntime());
  }

  /** Appends messages; tool results given by reference are read from the payload store first. */
  async function appendTranscript(input: { head: string | null; messages: MessageByRef[] }): Promise<string | null> {
    const messages = await resolveMessages(input.messages, (ref) => {
      if (!deps.payloads) throw new Error('this worker has no payload store to resolve tool result references');
      return deps.payloads.getToolResult(ref);
    });
    return deps.transcripts.append(input.head, messages);
  }

  async function loadTranscript(input: { head: string | null }): Promise<Message[]> {
    return deps.transcripts.load(input.head);
  }

  return { callModel, appendTranscript, loadTranscript };
}
