// One tool call as the turn sees it: its description (safety, summary), an approval, its result.
// Pure types; turn.ts re-exports them, streaming.ts reads them from here.
import type { ToolCallRecord } from './toolRecords';

export interface ToolUseDescription {
  known: boolean;
  concurrencySafe: boolean;
  readOnly: boolean;
  idempotent: boolean;
  summary: string;
  /** A pre-check (rules and mode, before hooks) says this call will ask for approval. */
  mayAsk?: boolean;
  /** Which block this describes (set by describeToolUses: the audit matches streamed descriptions by id). */
  toolUseId?: string;
}

export interface Approval {
  decision: 'approve' | 'deny';
  by?: string;
  reason?: string;
  /** 'unattended': nobody can answer (an in-process session without an approver). */
  source: 'human' | 'timeout' | 'mode' | 'unattended';
  /** For a timeout: how long the call waited. */
  afterMs?: number;
}

export type ToolRunResult =
  { kind: 'done'; record: ToolCallRecord } | { kind: 'ask'; message: string; detail?: string };
