// The compaction activity (`compact-<n>`): the core (src/runtime/compact.ts) with the activity's runtime.
import {
  compactContextWith,
  type CompactContextInput,
  type CompactContextResult,
  type CompactDeps,
} from '../../runtime/compact';
import { measureModelCall } from './metrics';
import { withActivityRuntime } from './runtime';

export function createCompactActivities(deps: CompactDeps) {
  async function compactContext(input: CompactContextInput): Promise<CompactContextResult> {
    return measureModelCall(
      input.settings.model,
      'compaction',
      () => withActivityRuntime((rt) => compactContextWith(deps, input, rt)),
      (r) =>
        r.kind === 'blocked'
          ? { outcome: 'blocked', reason: 'hook' }
          : { outcome: 'ok', reason: 'compacted', usage: r.modelUsage },
    );
  }
  return { compactContext };
}
