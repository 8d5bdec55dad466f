import type { Command } from 'commander';
export declare function addAttachCommand(program: Command): void;
export declare function addLsCommand(program: Command): void;
export declare function addStatusCommand(program: Command): void;
export declare function addTranscriptCommand(program: Command): void;
export declare function addAuditCommand(program: Command): void;
