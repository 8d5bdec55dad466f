import { type CompactContextInput, type CompactContextResult, type CompactDeps } from '../calls/compact';
export declare function createCompactActivities(deps: CompactDeps): {
    compactContext: (input: CompactContextInput) => Promise<CompactContextResult>;
};
