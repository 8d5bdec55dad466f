// The model and transcript activities: `callModel` runs the core (src/runtime/model.ts) with the
// activity's runtime; its ModelCallError becomes an ApplicationFailure at the boundary
// (errors.ts, applied to every activity in index.ts). `appendTranscript` and `loadTranscript` are
// the transcript store's two operations (src/runtime/transcript.ts).
import { callModelWith, type CallModelInput, type ModelCallOutcome, type ModelDeps } from '../../runtime/model';
import { createTranscriptCalls } from '../../runtime/transcript';
import { measureModelCall } from './metrics';
import { withActivityRuntime } from './runtime';
import { chargeBudget, waitForBudget } from './budget';

export function createModelActivities(deps: ModelDeps) {
  async function callModel(input: CallModelInput): Promise<ModelCallOutcome> {
    await waitForBudget(input.budget);
    const outcome = await measureModelCall(
      input.settings.model,
      'turn',
      () => withActivityRuntime((rt) => callModelWith(deps, input, rt)),
      (r) =>
        r.kind === 'compact'
          ? { outcome: 'compaction_needed', reason: r.trigger }
          : { outcome: 'ok', reason: r.stopReason, usage: r.modelUsage },
    );
    if (outcome.kind !== 'compact') await chargeBudget(input.budget, outcome.modelUsage);
    return outcome;
  }
  const { appendTranscript, loadTranscript } = createTranscriptCalls(deps);
  return { callModel, appendTranscript, loadTranscript };
}
