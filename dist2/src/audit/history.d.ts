import type { Client } from '@temporalio/client';
import type { LoadedDataConverter } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { converterOf } from '../temporal/payloads';
import type { ToolUseDescription } from '../engine/turn';
import type { AuditActivity, AuditGap } from './types';
export type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
type Failure = temporal.api.failure.v1.IFailure;
type Payloads = temporal.api.common.v1.IPayloads;
type ProtoPayload = temporal.api.common.v1.IPayload;
export declare const ET: typeof temporal.api.enums.v1.EventType;
export declare function preview(text: string, max?: number): string;
export declare function msOf(ts: {
    seconds?: unknown;
    nanos?: number | null;
} | null | undefined): number | undefined;
export declare function iso(ms: number | undefined): string | undefined;
export declare function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]>;
/** A failure and its causes, outermost first: "activity StartToClose timeout", "model API error 529: …". */
export declare function failureText(f: Failure | null | undefined): string | undefined;
export { converterOf };
/**
 * The server's description of a workflow, undecoded (the SDK's describe() decodes the memo with the
 * client's converter, and fails on a payload it cannot read: the audit decodes on its own terms).
 */
export declare function describeRaw(client: Client, workflowId: string, runId?: string): Promise<temporal.api.workflowservice.v1.IDescribeWorkflowExecutionResponse>;
/** A workflow's history, or the gap that says why it is missing. */
export declare function fetchEvents(client: Client, where: {
    workflowId: string;
    runId?: string;
    turn?: number;
}, missing: string): Promise<HistoryEvent[] | AuditGap>;
/**
 * Decodes the payloads of one history with the client's converter (codecs in reverse order, then
 * the payload converter). A payload it cannot decode — a codec this client lacks, a corrupt
 * payload — is recorded as a gap naming the event and the field, and reads as undefined.
 */
export declare class HistoryDecoder {
    private readonly converter;
    private readonly where;
    readonly gaps: AuditGap[];
    constructor(converter: LoadedDataConverter, where: {
        workflowId: string;
        runId?: string;
        turn?: number;
    }, gaps: AuditGap[]);
    one<T>(payload: ProtoPayload | null | undefined, event: HistoryEvent, field: string): Promise<T | undefined>;
    at<T>(payloads: Payloads | null | undefined, event: HistoryEvent, field: string, index?: number): Promise<T | undefined>;
}
export interface ActivityTrack {
    activityId: string;
    type: string;
    input?: unknown;
    summary?: string;
    scheduledAt?: number;
    startedAt?: number;
    attempt: number;
    failures: string[];
    endedAt?: number;
    cancelRequestedAt?: number;
    outcome: AuditActivity['outcome'];
    result?: unknown;
}
export interface PendingInfo {
    attempt: number;
    lastFailure?: string;
    lastStartedAt?: number;
}
export declare function trackActivities(events: readonly HistoryEvent[], decoder: HistoryDecoder): Promise<ActivityTrack[]>;
export declare function activityView(t: ActivityTrack, pending?: PendingInfo): AuditActivity;
/**
 * The blocks' descriptions from the turn's describeToolUses markers, by tool_use id: streamed
 * blocks are described in several calls (each description names its block); a description of an
 * older turn names none and is matched by position in the first call.
 */
export declare function describedBlocks(events: readonly HistoryEvent[], decoder: HistoryDecoder, blocks: readonly {
    id: string;
}[]): Promise<Map<string, ToolUseDescription>>;
