import { type DecisionRecord, type ToolCallRecord } from '../engine/records';
import type { DecisionReason } from '../tools/Tool';
import type { HookRun } from '../hooks/types';
import type { ToolPermissionContext } from '../tools/permissionTypes';
import type { ApprovalResolution, ToolUseOutcome } from './types';
export declare function decisionFromReason(behavior: 'allow' | 'ask' | 'deny', reason: DecisionReason | undefined, message?: string): DecisionRecord;
export declare function recordFromOutcome(outcome: ToolUseOutcome, summary: string): ToolCallRecord;
/** A hook run as the record keeps it: stdout and stderr cut to 2,000 characters. */
export declare function trimRun(r: HookRun): HookRun;
/** Why an approved or denied `ask` was decided: a human, the timeout, the mode, or no approver. */
export declare function humanReason(a: ApprovalResolution, mode: ToolPermissionContext['mode']): DecisionReason;
