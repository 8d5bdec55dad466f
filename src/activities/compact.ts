// The compaction activity (`compact-<n>`): the core (src/calls/compact.ts) with the activity's runtime.
import {
  compactContextWith,
  type CompactContextInput,
  type CompactContextResult,
  type CompactDeps,
} from '../calls/compact';
import { activityRuntime } from './runtime';

export function createCompactActivities(deps: CompactDeps) {
  async function compactContext(input: CompactContextInput): Promise<CompactContextResult> {
    return compactContextWith(deps, input, activityRuntime());
  }
  return { compactContext };
}
