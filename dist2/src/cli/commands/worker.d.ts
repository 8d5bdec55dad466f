import type { Command } from 'commander';
/** What a worker says at start about Bash's OS sandbox on this host. */
export declare function workerSandboxLine(): Promise<string>;
export declare function addWorkerCommand(program: Command): void;
