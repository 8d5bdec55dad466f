// The end of a turn's writes as one activity (recordTurnEnd): its tool results appended to the
// transcript and its read files stored, both content-addressed and idempotent (a local activity
// run again on a replay elsewhere writes the same nodes).
import type { AppendTranscriptInput } from '../../runtime/transcript';
import type { ReadFiles } from '../../stores/readFilesStore';

/** What a turn writes at its end: either write may be absent (nothing to write); its result is then null. */
export interface TurnEndWrites {
  append?: AppendTranscriptInput;
  readFiles?: { base: string | null; delta: ReadFiles };
}

/** Both writes at once: [the transcript's new head, the read-file state's reference]. */
export function recordTurnEndWith(
  appendTranscript: (input: AppendTranscriptInput) => Promise<string | null>,
  storeReadFiles: (input: { base: string | null; delta: ReadFiles }) => Promise<string | null>,
) {
  return async function recordTurnEnd(input: TurnEndWrites): Promise<[string | null, string | null]> {
    return Promise.all([
      input.append ? appendTranscript(input.append) : null,
      input.readFiles ? storeReadFiles(input.readFiles) : null,
    ]);
  };
}
