import type { ScenarioResult, SuiteContext } from './scenarios';
import { type StartedSession } from './sessions';
export interface StoreMount {
    dir: string;
    kind: 'tmpfs' | 'directory';
    description: string;
    release(): Promise<void>;
}
export declare function prepareStore(dir: string, wantTmpfs: boolean): Promise<StoreMount>;
/** Every blob under the store parses as JSON (written whole or not at all); temp files left over are counted. */
export declare function auditStore(dir: string): Promise<{
    records: number;
    torn: string[];
    leftoverTemps: number;
}>;
export declare function runDiskFaults(ctx: SuiteContext, startCrashSessions: (prefix: string, n: number, finished: () => boolean, minTurns: number) => Promise<StartedSession[]>): Promise<ScenarioResult>;
