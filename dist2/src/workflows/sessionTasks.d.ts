import type { ToolSessionInput } from '../calls/tools';
import { type SessionCarry, type SessionInput } from './definitions';
import { SessionMonitors } from './sessionMonitors';
export declare class SessionTasks {
    private readonly state;
    private readonly input;
    private readonly toolSession;
    /** Running activities, by task id. */
    private readonly scopes;
    /** The decisions (start once, stop, the end and its notification): the engine's, shared with the in-process runner. */
    private readonly book;
    /** Monitor tasks' events (sessionMonitors.ts). */
    readonly monitors: SessionMonitors;
    constructor(state: SessionCarry, input: SessionInput, toolSession: () => ToolSessionInput, changed: () => void);
    /** Is any task's activity running? (No continue-as-new then.) */
    active(): boolean;
    /**
     * After a turn (its context is the state's now) and before a turn or a wait: ends recorded while a
     * turn ran are applied again, new tasks start, and tasks TaskStop asked for are cancelled.
     */
    sync(): void;
    /** Before a turn starts: the state's context is whole again, the recorded ends can go. */
    beforeTurn(): void;
    /** The session ends: every running task is stopped (killed, no notification) and awaited. */
    stopAll(): Promise<void>;
    private start;
    /** A background agent (sessionAgentTasks.ts): the wait for its child session is the task's activity. */
    private startAgent;
}
