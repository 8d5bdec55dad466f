import type { Command } from 'commander';
export declare function addScheduleCommands(program: Command): void;
