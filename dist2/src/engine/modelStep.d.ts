import { DurableAgentError } from './errors';
import type { CompactionRecord, ContextView } from './contextView';
export type CompactTrigger = 'auto' | 'reactive';
export type ModelAttempt<R> = {
    kind: 'message';
    result: R;
    view: ContextView;
}
/** No answer: compact first. `view` may already hold newly cleared tool results. */
 | {
    kind: 'compact';
    trigger: CompactTrigger;
    tokens: number;
    view: ContextView;
} | {
    kind: 'interrupted';
};
export type CompactOutcome = {
    kind: 'compacted';
    view: ContextView;
    record: CompactionRecord;
}
/** A PreCompact hook blocked an automatic compaction: the call goes ahead without it. */
 | {
    kind: 'blocked';
    reason: string;
} | {
    kind: 'interrupted';
};
export interface ModelStepExecutor<R> {
    /** `autoCompact: false` after a hook blocked it: send the request even above the threshold. */
    callModel(view: ContextView, attempt: number, opts: {
        autoCompact: boolean;
    }): Promise<ModelAttempt<R>>;
    /** `n` is the session's compaction number; `attempt` > 0 means an earlier one this step did not suffice. */
    compact(view: ContextView, trigger: CompactTrigger, n: number, attempt: number, tokens: number): Promise<CompactOutcome>;
}
export declare const MAX_COMPACTIONS_PER_STEP = 3;
export declare class ContextOverflowError extends DurableAgentError {
    constructor(message: string);
}
export type ModelStepResult<R> = {
    kind: 'message';
    result: R;
    view: ContextView;
    compactions: CompactionRecord[];
    notices: string[];
} | {
    kind: 'interrupted';
    view: ContextView;
    compactions: CompactionRecord[];
    notices: string[];
};
/** A hook may hold back an automatic compaction, never one the API forced (the session must go on). */
export declare function hookMayBlock(trigger: CompactTrigger): boolean;
export declare function runModelStep<R>(exec: ModelStepExecutor<R>, start: ContextView, maxCompactions?: number): Promise<ModelStepResult<R>>;
