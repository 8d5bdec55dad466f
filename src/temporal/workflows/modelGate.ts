// The shared backoff of a model task queue (issue 34; docs/deployment.md "One rate limit for many
// workers"): one workflow per model queue, `model-gate/<queue>`, holding the time until which no
// worker of that queue calls the model. A model call refused with a 429 or an overload signals it
// (signal-with-start) with `now + retry-after`; the workers' model calls ask it (a query, cached a
// second) before they call. It ends after an hour without a backoff and continues as new every 500.
import { condition, continueAsNew, defineQuery, defineSignal, setHandler } from '@temporalio/workflow';
import { MODEL_GATE, SharedBackoff } from '../../core/modelLimit';

export const modelBackoffSignal = defineSignal<[number]>(MODEL_GATE.signal);
export const modelBackoffUntilQuery = defineQuery<number>(MODEL_GATE.query);

export async function modelGateWorkflow(state: { until: number } = { until: 0 }): Promise<void> {
  const backoff = new SharedBackoff();
  backoff.push(state.until);
  let signals = 0;
  setHandler(modelBackoffSignal, (until) => {
    backoff.push(until);
    signals++;
  });
  setHandler(modelBackoffUntilQuery, () => backoff.until);
  for (;;) {
    const seen = signals;
    if (!(await condition(() => signals !== seen, '1 hour'))) return;
    if (signals >= 500) await continueAsNew<typeof modelGateWorkflow>({ until: backoff.until });
  }
}
