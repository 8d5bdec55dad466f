import type { Command } from 'commander';
export declare function addStopCommand(program: Command): void;
