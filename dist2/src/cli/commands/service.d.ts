import type { Command } from 'commander';
/** A loopback TEMPORAL_ADDRESS's port: `up` serves where `run` connects unless --port says otherwise. */
export declare function defaultServicePort(env?: NodeJS.ProcessEnv): number | undefined;
export declare function addServiceCommands(program: Command): void;
