import type { SessionStatus } from '../workflows/definitions';
/** One line for `ls`: `waiting until …: reason`, or undefined when the session is not waiting. */
export declare function waitingLine(s: Pick<SessionStatus, 'waiting' | 'stopRequested'>): string | undefined;
/** The lines `status` prints (none for a session without autonomy). */
export declare function autonomyLines(s: Pick<SessionStatus, 'autonomy' | 'waiting' | 'stopRequested'>): string[];
