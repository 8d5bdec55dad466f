// The activity-side ledger of tool executions, keyed by session and tool_use_id (invariant 5).
// It survives worker crashes: a call that has a recorded result is never executed again, and a
// call that started but never recorded a result is known to have an unknown outcome.
import type { ToolCallRecord } from '../core/toolRecords';
import { hashOf, type BlobStore } from './messageStore';

export interface LedgerEntry {
  state: 'started' | 'completed';
  /** Activity attempts that reached call() for this id (workflowId/activityId/attempt). */
  attempts: Array<{ activity: string; attempt: number; at: number }>;
  record?: ToolCallRecord;
  /** Which activity produced the record: a retry of that same activity gets it back whole. */
  completedBy?: string;
}

export class ExecutionLedger {
  constructor(private readonly blobs: BlobStore) {}
  private key(sessionId: string, toolUseId: string): string {
    return `ledger-${hashOf(`${sessionId}\u0000${toolUseId}`)}`;
  }
  async get(sessionId: string, toolUseId: string): Promise<LedgerEntry | undefined> {
    const data = await this.blobs.get(this.key(sessionId, toolUseId));
    return data === undefined ? undefined : (JSON.parse(data) as LedgerEntry);
  }
  async put(sessionId: string, toolUseId: string, entry: LedgerEntry): Promise<void> {
    await this.blobs.put(this.key(sessionId, toolUseId), JSON.stringify(entry));
  }
}
