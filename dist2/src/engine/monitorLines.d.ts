export declare const MONITOR_LIMITS: {
    readonly lineChars: 500;
    readonly eventChars: 3000;
    readonly batchWindowMs: 200;
    readonly partialLineChars: number;
    readonly burst: 10;
    readonly refillMs: 2000;
    readonly stopAfterSuppressedMs: 30000;
};
export type MonitorEmission = {
    kind: 'event';
    text: string;
}
/** Housekeeping (suppressed events, too much output): sent as an event, not counted as one. */
 | {
    kind: 'notice';
    text: string;
}
/** Too much output for too long: the notice is sent and the monitor must be stopped. */
 | {
    kind: 'stop';
    text: string;
};
export declare class MonitorLines {
    private readonly limits;
    private partial;
    private waiting;
    private tokens;
    private refilledAt;
    private lastEventAt;
    private suppressed;
    private suppressingSince;
    private delivered;
    private stopped;
    constructor(now: number, limits?: typeof MONITOR_LIMITS);
    /** Events delivered so far (notices not counted). */
    events(): number;
    /** Has the rate limit stopped the monitor? */
    isStopped(): boolean;
    /**
     * A chunk of stdout. Returns true when a flush must be scheduled `batchWindowMs` from now (lines
     * are waiting and none were waiting before).
     */
    push(chunk: string): boolean;
    /** The batch window ended (or the stream did: `final` takes the unfinished line too). */
    flush(now: number, final?: boolean): MonitorEmission[];
    private refill;
    private offer;
}
