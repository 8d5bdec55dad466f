// The model and transcript activities: `callModel` runs the core (src/runtime/model.ts) with the
// activity's runtime; its ModelCallError becomes an ApplicationFailure at the boundary
// (errors.ts, applied to every activity in index.ts). `appendTranscript` and `loadTranscript` are
// the transcript store's two operations (src/runtime/transcript.ts).
import { ApplicationFailure } from '@temporalio/common';
import { callModelWith, type CallModelInput, type ModelCallOutcome, type ModelDeps } from '../../runtime/model';
import { createTranscriptCalls } from '../../runtime/transcript';
import { measureModelCall } from './metrics';
import { withActivityRuntime } from './runtime';
import { chargeBudget, waitForBudget } from './budget';
import type { ReadFiles } from '../../stores/readFilesStore';

/**
 * `storeReadFiles`: the read-file store's write (the tool activities'), for a call's `stepWrites`.
 * Absent: such a call fails (this worker cannot make the previous step's writes).
 */
export function createModelActivities(
  deps: ModelDeps,
  storeReadFiles?: (input: { base: string | null; delta: ReadFiles }) => Promise<string | null>,
) {
  const { appendTranscript, loadTranscript } = createTranscriptCalls(deps);
  async function callModel(wire: CallModelInput): Promise<ModelCallOutcome> {
    await waitForBudget(wire.budget);
    // The previous step's writes first (content-addressed: a retried call makes the same ones).
    const { stepWrites, ...rest } = wire;
    let input: CallModelInput = wire;
    let readFilesRef: string | null | undefined;
    if (stepWrites) {
      if (stepWrites.readFiles && !storeReadFiles) throw new Error('this worker has no read-file store');
      const [head, files] = await Promise.all([
        stepWrites.append ? appendTranscript(stepWrites.append) : wire.head,
        stepWrites.readFiles && storeReadFiles ? storeReadFiles(stepWrites.readFiles) : undefined,
      ]).catch((err: unknown) => {
        throw storeFailure(err);
      });
      input = { ...rest, head };
      readFilesRef = files;
    }
    const signalFields = readFilesRef !== undefined ? { readFilesRef } : {};
    const outcome = await measureModelCall(
      input.settings.model,
      'turn',
      () => withActivityRuntime((rt) => callModelWith(deps, input, rt), undefined, signalFields),
      (r) =>
        r.kind === 'compact'
          ? { outcome: 'compaction_needed', reason: r.trigger }
          : { outcome: 'ok', reason: r.stopReason, usage: r.modelUsage },
    );
    if (outcome.kind === 'compact') return outcome;
    await chargeBudget(input.budget, outcome.modelUsage);
    return { ...outcome, ...signalFields };
  }
  return { callModel, appendTranscript, loadTranscript };
}

/**
 * The previous step's writes failed: a store outage, not a model one. Its details' kind `store`
 * makes the turn wait it out as a store outage (status `waiting for the store`), retryable.
 */
function storeFailure(err: unknown): ApplicationFailure {
  const message = err instanceof Error ? err.message : String(err);
  return ApplicationFailure.create({
    type: 'STORE_UNAVAILABLE',
    message: `the previous step's writes failed: ${message}`,
    nonRetryable: false,
    details: [{ kind: 'store', message }],
  });
}
