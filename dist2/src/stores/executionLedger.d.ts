import type { ToolCallRecord } from '../engine/records';
import { type BlobStore } from './messageStore';
export interface LedgerEntry {
    state: 'started' | 'completed';
    /** Activity attempts that reached call() for this id (workflowId/activityId/attempt). */
    attempts: Array<{
        activity: string;
        attempt: number;
        at: number;
    }>;
    record?: ToolCallRecord;
    /** Which activity produced the record: a retry of that same activity gets it back whole. */
    completedBy?: string;
}
export declare class ExecutionLedger {
    private readonly blobs;
    constructor(blobs: BlobStore);
    private key;
    get(sessionId: string, toolUseId: string): Promise<LedgerEntry | undefined>;
    put(sessionId: string, toolUseId: string, entry: LedgerEntry): Promise<void>;
}
