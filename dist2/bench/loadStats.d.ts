/** /proc sampling of a process: peak RSS and CPU seconds used between start() and stop(). */
export declare class ProcSampler {
    readonly pid: number;
    private peakRss;
    private cpu0;
    private cpu1;
    private timer;
    constructor(pid: number);
    private cpuSeconds;
    private sample;
    start(): void;
    stop(): {
        peakRssMB: number;
        cpuSeconds: number;
    };
}
export declare function pct(sorted: number[], p: number): number;
export declare function mapLimit<T, R>(items: T[], limit: number, fn: (x: T) => Promise<R>): Promise<R[]>;
