#!/usr/bin/env node
import { Command } from 'commander';
export declare function buildProgram(): Command;
/** One line, no stack: what went wrong and what to do. */
export declare function describeError(err: unknown): string;
/** `durable-agent -p …` and `durable-agent --output-format … -p …`, as `claude -p …`: `run -p …`. */
export declare function withPrintAlias(argv: readonly string[]): string[];
export declare function main(argv: string[]): Promise<number>;
