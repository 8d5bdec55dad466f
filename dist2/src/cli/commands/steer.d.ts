import type { Command } from 'commander';
export declare function addInterruptCommand(program: Command): void;
export declare function addSendCommand(program: Command): void;
export declare function addApproveCommand(program: Command): void;
export declare function addDenyCommand(program: Command): void;
export declare function addCancelCommand(program: Command): void;
