import type { AuditSessionHook } from './types';
/** What the audit knows of one activity (build.ts's ActivityTrack is one). */
export interface TrackedActivity {
    activityId: string;
    input?: unknown;
    result?: unknown;
    outcome: string;
    attempt: number;
    scheduledAt?: number;
    startedAt?: number;
    endedAt?: number;
    failures: string[];
}
export declare function sessionHookEntries(activities: readonly TrackedActivity[], run: number): AuditSessionHook[];
