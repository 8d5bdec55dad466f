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
import { splitStatics, type StepStatics } from '../../core/stepStatics';
import { modelAnswerForHistory, viewFromHistory } from '../../core/payloads';

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
    // The previous step's writes and the child's static inputs first (content-addressed: a retried
    // call makes the same writes), or those static inputs read back by their key.
    const { stepWrites, staticsRef: given, ...rest } = wire;
    if (stepWrites?.readFiles && !storeReadFiles) throw new Error('this worker has no read-file store');
    if (given && !deps.stepStatics) throw new Error("this worker has no store to read the turn's step inputs from");
    const store = deps.stepStatics;
    const [head, readFilesRef, statics] = await Promise.all([
      stepWrites?.append
        ? appendTranscript({
            head: stepWrites.append.head !== undefined ? stepWrites.append.head : wire.head,
            messages: stepWrites.append.messages,
          })
        : wire.head,
      stepWrites?.readFiles && storeReadFiles ? storeReadFiles(wholeReadFiles(stepWrites.readFiles)) : undefined,
      given && store ? store.get(given).then((s) => ({ inline: s, ref: undefined })) : storeStatics(rest),
    ]).catch((err: unknown) => {
      throw storeFailure(err);
    });
    // A view sent without its start values (issue 33): whole again.
    const view = rest.view ? { view: viewFromHistory(rest.view) } : {};
    const append = (rest.append as unknown) === undefined ? { append: [] } : {};
    const input = { ...(statics?.inline ?? {}), ...rest, ...append, ...view, head } as CallModelInput;
    const signalFields = {
      ...(readFilesRef !== undefined ? { readFilesRef } : {}),
      ...(statics?.ref ? { staticsRef: statics.ref } : {}),
    };
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
    // The answer's tool calls send one key (issue 33): the statics, its node and the read files they read.
    const used = statics?.ref ?? given;
    const answer =
      used && store && outcome.head !== null
        ? {
            stepRef: await store
              .put({
                answer: { statics: used, messageRef: outcome.head, readFilesRef: readFilesRef ?? null },
              } as StepStatics)
              .catch((err: unknown) => {
                throw storeFailure(err);
              }),
          }
        : {};
    // What the turn can rebuild stays out of history (core/payloads.ts; issue 33).
    return modelAnswerForHistory({ ...outcome, ...signalFields, ...answer });
  }
  /** Inline static inputs of a turn that describes with them (core/stepStatics.ts): stored, their key answered. */
  async function storeStatics(input: Omit<CallModelInput, 'stepWrites' | 'staticsRef'>) {
    if (!deps.stepStatics || !input.describeWith) return undefined;
    return { inline: undefined, ref: await deps.stepStatics.put(splitStatics(input).statics) };
  }
  return { callModel, appendTranscript, loadTranscript };
}

/**
 * A step's read-file entries whole again: an entry sent without `partial` was a whole read, a
 * `delta` left out had no entry the base does not hold (issue 33, core/modelStep.ts ReadFilesMemo).
 */
function wholeReadFiles(r: { base: string | null; delta?: Record<string, { mtimeMs: number; partial?: boolean }> }): {
  base: string | null;
  delta: ReadFiles;
} {
  return {
    base: r.base,
    delta: Object.fromEntries(
      Object.entries(r.delta ?? {}).map(([path, e]) => [path, { mtimeMs: e.mtimeMs, partial: e.partial ?? false }]),
    ),
  };
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
