import '../support/isolatedHome';
/** 12 lines at once (one event), a 600-character line, then 14 lines 250 ms apart (over the 10-event burst). */
export declare const MONITOR_COMMAND: string;
export declare function captureMonitor(): Promise<{
    version: string;
    command: string;
    seen: string[];
}>;
