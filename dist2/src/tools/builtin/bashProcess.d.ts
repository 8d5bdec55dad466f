import { type promises as fs } from 'node:fs';
import * as net from 'node:net';
/** Output kept in the result's data; beyond it the middle is dropped (head and tail kept). */
export declare const BASH_MAX_OUTPUT_BYTES: number;
export declare function groupAlive(pgid: number): boolean;
export declare function signalGroup(pgid: number, signal: NodeJS.Signals): void;
export declare const sleep: (ms: number) => Promise<void>;
/** Reads the tail of the output file, at most `bytes`, skipping a cut UTF-8 sequence. */
export declare function readTail(fh: fs.FileHandle, size: number, bytes: number): Promise<string>;
export declare function readOutput(fh: fs.FileHandle): Promise<{
    output: string;
    omittedBytes: number;
}>;
/** The spool's default cap: past it the command is stopped (DURABLE_AGENT_BASH_MAX_SPOOL_BYTES overrides it). */
export declare const BASH_DEFAULT_SPOOL_CAP_BYTES: number;
export declare const BASH_SPOOL_CAP_ENV = "DURABLE_AGENT_BASH_MAX_SPOOL_BYTES";
/**
 * The most output one Bash call may spool to the worker's temp directory: the worker's
 * DURABLE_AGENT_BASH_MAX_SPOOL_BYTES (bytes, or with a K, M or G suffix: binary units), else
 * 64 MiB. A malformed value is an error naming the variable.
 */
export declare function bashSpoolCapBytes(env?: Readonly<Record<string, string | undefined>>): number;
/**
 * Where a command's output goes: one end of a connected Unix socket pair (stdout and stderr both:
 * one open file description, so their writes stay in order) that the worker copies into the spool file up to `capBytes`. Past
 * the cap nothing more is written (onCap fires once: the caller stops the command); the writer
 * never gets ahead of the disk (the socket blocks it), so the file never exceeds the cap. After the
 * shell exits, drain() waits for what it wrote; later writes of children it left running are
 * read and dropped (they neither block nor get SIGPIPE), as they went nowhere before.
 */
export interface OutputSpool {
    /** Give it to the child as stdout and stderr; close it with closeWriteEnd() once spawned. */
    readonly writeEnd: net.Socket;
    closeWriteEnd(): void;
    /** The spool file (progress reads its tail; the result reads it). */
    readonly file: fs.FileHandle;
    /** Bytes in the file. */
    spooled(): number;
    /** Bytes the command wrote (also past the cap, until it was stopped). */
    received(): number;
    readonly capBytes: number;
    capped(): boolean;
    onCap(cb: () => void): void;
    /** After the shell exited: resolves once what it wrote is in the file. */
    drain(): Promise<void>;
}
/** `file`: where the output goes (default `<dir>/output`; a background task's output file). */
export declare function openOutputSpool(dir: string, capBytes: number, file?: string): Promise<OutputSpool>;
