import type { ActivityTrack } from './history';
import type { AuditTask, AuditToolCall } from './types';
type TaskActivity = Pick<ActivityTrack, 'activityId' | 'type' | 'input' | 'result' | 'outcome' | 'attempt' | 'scheduledAt' | 'startedAt' | 'endedAt' | 'cancelRequestedAt' | 'failures'>;
/** One row per `task-<id>` activity of the session's runs. */
export declare function taskEntries(activities: readonly TaskActivity[], run: number, calls: readonly AuditToolCall[]): AuditTask[];
export {};
