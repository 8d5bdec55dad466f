// Compactions in the audit: each `compact-<n>` activity of a turn, with its trigger, tokens before
// and after, the summarizing call's usage and the PreCompact hooks that ran.
import { callModelUsage } from '../core/modelUsage';
import type { CompactContextInput, CompactContextResult } from '../runtime/compact';
import type { AuditCompaction } from './types';

export interface CompactionTrack {
  activityId: string;
  input?: unknown;
  result?: unknown;
  attempts: number;
  status: AuditCompaction['status'];
  startedAt?: string;
  endedAt?: string;
  failures: string[];
}

export function compactionEntry(t: CompactionTrack, turn: number, run: number): AuditCompaction {
  const input = t.input as CompactContextInput | undefined;
  const result = t.result as CompactContextResult | undefined;
  const done = result?.kind === 'compacted' ? result : undefined;
  return {
    kind: 'compaction',
    turn,
    run,
    activityId: t.activityId,
    trigger: input?.trigger ?? 'auto',
    status: result?.kind === 'blocked' ? 'blocked' : t.status,
    attempts: t.attempts,
    ...(t.startedAt ? { startedAt: t.startedAt } : {}),
    ...(t.endedAt ? { endedAt: t.endedAt } : {}),
    ...(input ? { tokensBefore: input.tokensBefore } : {}),
    ...(done
      ? {
          tokensAfter: done.record.tokensAfter,
          usage: done.usage,
          ...(done.modelUsage || done.usage
            ? { modelUsage: done.modelUsage ?? callModelUsage(input?.settings.model ?? 'unknown', done.usage) }
            : {}),
          summaryPreview: done.record.summaryPreview,
          restoredFiles: done.record.restoredFiles,
          summarizedThrough: done.record.summarizedThrough,
        }
      : {}),
    ...(result?.kind === 'blocked' ? { blockedBy: result.reason } : {}),
    hooks: (result?.hookRuns ?? []).map((h) => ({
      event: h.event,
      hook: h.hook,
      outcome: h.outcome,
      ...(h.exitCode !== undefined ? { exitCode: h.exitCode } : {}),
      durationMs: h.durationMs,
    })),
    failures: t.failures,
  };
}
