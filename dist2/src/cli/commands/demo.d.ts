import type { Command } from 'commander';
export declare function addDemoCommand(program: Command): void;
