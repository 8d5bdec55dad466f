// The compaction activity (`compact-<n>`): the core (src/runtime/compact.ts) with the activity's runtime.
import {
  compactContextWith,
  type CompactContextInput,
  type CompactContextResult,
  type CompactDeps,
} from '../../runtime/compact';
import { measureModelCall } from './metrics';
import { withActivityRuntime } from './runtime';
import { chargeBudget, waitForBudget } from './budget';

export function createCompactActivities(deps: CompactDeps) {
  async function compactContext(input: CompactContextInput): Promise<CompactContextResult> {
    await waitForBudget(input.budget);
    const r = await measureModelCall(
      input.settings.model,
      'compaction',
      () => withActivityRuntime((rt) => compactContextWith(deps, input, rt)),
      (r) =>
        r.kind === 'blocked'
          ? { outcome: 'blocked', reason: 'hook' }
          : { outcome: 'ok', reason: 'compacted', usage: r.modelUsage },
    );
    if (r.kind !== 'blocked') await chargeBudget(input.budget, r.modelUsage);
    return r;
  }
  return { compactContext };
}
