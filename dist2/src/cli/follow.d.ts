import type { Client } from '@temporalio/client';
import { type SessionResult, type SessionStatus } from '../workflows/definitions';
/** The approvals the running subagents of a turn wait for (each waits on its own child session). */
export declare function subagentApprovals(client: Client, sessionId: string, turnWorkflowId: string): Promise<Array<{
    childId: string;
    via: string;
    approval: SessionStatus['pendingApprovals'][number];
}>>;
export interface FollowOptions {
    json?: boolean;
    intervalMs?: number;
    out?: (line: string) => void;
    /** Resolves when the user detaches (Ctrl-C). */
    detach?: Promise<void>;
    onApprovalPending?: (p: SessionStatus['pendingApprovals'][number]) => void;
}
export type FollowOutcome = {
    kind: 'ended';
    result?: SessionResult;
    error?: string;
    status: string;
} | {
    kind: 'detached';
};
/** A control file's path as the user reads it: relative to the session's cwd when inside it. */
export declare function controlPathText(path: string, cwd: string | undefined): string;
/** One line per control file a call changed (run, attach and status show them). */
export declare function controlWriteText(w: {
    path: string;
    change: string;
}, cwd: string | undefined): string;
/** Follows a session until it ends or the user detaches: a poll of its status every intervalMs, each event once. */
export declare function followSession(client: Client, sessionId: string, opts?: FollowOptions): Promise<FollowOutcome>;
