import { TemporalCluster } from '../test/cluster/cluster';
import { type ServerBinaries } from '../test/cluster/server';
import { type BenchWorker } from './forkWorker';
export interface ClusterBench {
    cluster: TemporalCluster;
    worker: BenchWorker;
    taskQueue: string;
    stop(): Promise<void>;
}
/** Why the cluster row cannot run (the server is not built), or undefined. */
export declare function clusterUnavailable(): string | undefined;
/** A cluster and a bench worker on it (the same worker settings as the dev server's rows: a local file store). */
export declare function startClusterBench(opts: {
    bin?: ServerBinaries;
    work: string;
    fakeURL: string;
    dynamicConfigFile?: string;
    log?: (line: string) => void;
}): Promise<ClusterBench>;
/** One bench session on the cluster; its wall time. */
export declare function clusterSession(b: ClusterBench, key: string, cwd: string): Promise<{
    ms: number;
    status: string;
    workflowId: string;
}>;
/** deploy/temporal/dynamicconfig.yaml with transferProcessorMaxPollRPS set to `rps` (everything else as deployed). */
export declare function dynamicConfigWith(rps: number): string;
