import { type ChildProcess } from 'node:child_process';
export interface BenchWorker {
    child: ChildProcess;
    rss: () => Promise<number>;
    stop: () => Promise<void>;
}
export declare function startWorker(env: Record<string, string>): Promise<BenchWorker>;
