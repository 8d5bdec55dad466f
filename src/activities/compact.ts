// The compaction activity (`compact-<n>`): the core (src/calls/compact.ts) with the activity's runtime.
import {
  compactContextWith,
  type CompactContextInput,
  type CompactContextResult,
  type CompactDeps,
} from '../calls/compact';
import { withActivityRuntime } from './runtime';

export function createCompactActivities(deps: CompactDeps) {
  async function compactContext(input: CompactContextInput): Promise<CompactContextResult> {
    return withActivityRuntime((rt) => compactContextWith(deps, input, rt));
  }
  return { compactContext };
}
