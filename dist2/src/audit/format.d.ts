import type { AuditCompaction, AuditDecision, AuditGap, AuditModelCall, AuditReport, AuditSessionHook, AuditTask, AuditToolCall } from './types';
type TimedEntry = AuditModelCall | AuditToolCall | AuditCompaction | AuditSessionHook | AuditTask;
/**
 * Session hooks, compactions, model and tool calls and background tasks in time order (an entry
 * without a time keeps its place after the one before it; a task's place is after its turn's calls).
 */
export declare function auditEntries(report: AuditReport): TimedEntry[];
/** One JSON object per line: the session first, then every model and tool call in time order. */
export declare function auditJsonLines(report: AuditReport): string;
export declare function formatDecision(d: AuditDecision | undefined): string;
/** One gap: what could not be read, where, why, and what the report lacks because of it. */
export declare function gapLine(g: AuditGap): string;
/** The readable report: a header with the session's facts, then one line per call in time order. */
export declare function formatAuditText(report: AuditReport): string;
export {};
