import type { Client } from '@temporalio/client';
import { type TurnAuditOptions } from './turn';
import type { AuditReport } from './types';
export interface BuildAuditOptions extends TurnAuditOptions {
    /** Audit the chain that ends with this run (default: the workflow id's latest run). */
    runId?: string;
    /** How many turn histories to fetch at once. Default 6. */
    concurrency?: number;
    /** Audit the subagents' child sessions too (`subagents`). Default true. */
    subagents?: boolean;
}
/** Rebuilds the audit trail of a session from its Temporal histories alone. */
export declare function buildAudit(client: Client, sessionId: string, opts?: BuildAuditOptions): Promise<AuditReport>;
