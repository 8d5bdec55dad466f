import type { Client } from '@temporalio/client';
import { type InitInfo, type OutputFormat } from './printFormat';
export interface PrintOptions {
    /** Raw output (text format: the reference's bytes, no newline added). */
    write?: (text: string) => void;
    format: OutputFormat;
    init: InitInfo;
    startedAt: number;
    maxTurns?: number;
    /** Where the workers keep transcripts (else the default store). */
    storeDir?: string;
    intervalMs?: number;
    out?: (line: string) => void;
}
/** Follows the session to its end and prints it in the format; returns the exit code (130: detached with Ctrl-C). */
export declare function followPrinted(client: Client, sessionId: string, o: PrintOptions): Promise<number>;
