import type { Client } from '@temporalio/client';
import type { LoadedDataConverter } from '@temporalio/common';
import type { Usage } from '../engine/messages';
import type { AuditCompaction, AuditGap, AuditModelCall, AuditToolCall } from './types';
export interface TurnRef {
    turn: number;
    run: number;
    workflowId: string;
    runId?: string;
}
export interface TurnAudit {
    model?: AuditModelCall;
    tools: AuditToolCall[];
    compactions: AuditCompaction[];
    open: boolean;
    reason?: string;
    usage?: Usage;
}
export interface TurnAuditOptions {
    /** Ask the server about a running turn's pending activities (attempts so far, last failure). Default true. */
    describeRunningTurns?: boolean;
}
/** A turn's audit; undefined (and a gap) when its history cannot be fetched. */
export declare function auditTurn(client: Client, converter: LoadedDataConverter, ref: TurnRef, opts: TurnAuditOptions, gaps: AuditGap[]): Promise<TurnAudit | undefined>;
