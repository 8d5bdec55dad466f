import { type Command } from 'commander';
export declare function addDevCommand(program: Command): void;
