import { type ToolCallRecord } from '../engine/records';
import { type TransientFailure } from '../engine/retry';
import { type CompactRecord, type TurnWorkflowInput, type TurnWorkflowResult } from './definitions';
/** A retryable activity failure as the outage handling reads it; undefined when it is permanent. */
export declare function transientFailureOf(err: unknown, what: 'model' | 'store'): TransientFailure | undefined;
export declare function compact(record: ToolCallRecord): CompactRecord;
export declare function turnWorkflow(input: TurnWorkflowInput): Promise<TurnWorkflowResult>;
