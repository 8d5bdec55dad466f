import type { AuditCompaction } from './types';
export interface CompactionTrack {
    activityId: string;
    input?: unknown;
    result?: unknown;
    attempts: number;
    status: AuditCompaction['status'];
    startedAt?: string;
    endedAt?: string;
    failures: string[];
}
export declare function compactionEntry(t: CompactionTrack, turn: number, run: number): AuditCompaction;
