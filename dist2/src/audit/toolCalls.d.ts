import type { ToolUseBlock } from '../engine/messages';
import type { TurnWorkflowResult } from '../workflows/definitions';
import { type ActivityTrack, type HistoryDecoder, type HistoryEvent, type PendingInfo } from './history';
import type { TurnRef } from './turn';
import type { AuditToolCall } from './types';
export interface TurnSignals {
    approvals: Map<string, {
        decision: 'approve' | 'deny';
        by?: string;
        reason?: string;
        at?: number;
    }>;
    interruptedAt?: number;
}
export interface TurnToolContext {
    ref: TurnRef;
    turn: number;
    open: boolean;
    result: TurnWorkflowResult | undefined;
    blocks: ToolUseBlock[];
    events: readonly HistoryEvent[];
    decoder: HistoryDecoder;
    byId: Map<string, ActivityTrack>;
    pending: Map<string, PendingInfo>;
    signals: TurnSignals;
}
export declare function auditToolCalls(ctx: TurnToolContext): Promise<AuditToolCall[]>;
