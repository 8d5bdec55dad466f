export interface FloorActivities {
    noop(): Promise<void>;
    /** Sleeps `ms`, heartbeating every `heartbeatMs` (0: never). */
    sleepy(ms: number, heartbeatMs: number): Promise<void>;
}
/** N sequential no-op activities: read Scheduled→Started of every task from its history. */
export declare function noopChain(n: number): Promise<void>;
export interface TurnShape {
    /** Sequential steps of the turn: n > 0 runs n no-op activities in parallel, 0 one local activity, -n n local activities in parallel. */
    steps: number[];
}
/** One turn's shape: a child workflow whose steps run in order, each step's activities in parallel. */
export declare function turnShapeChild(shape: TurnShape): Promise<void>;
/** A session's shape: `turns` child workflows in sequence. */
export declare function sessionShape(turns: number, shape: TurnShape): Promise<void>;
/** `n` activities of `ms` each, all at once (a batch of safe tool calls). */
export declare function parallelSleeps(n: number, ms: number, heartbeatMs: number): Promise<void>;
