"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.compactionEntry = compactionEntry;
function compactionEntry(t, turn, run) {
    const input = t.input;
    const result = t.result;
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
//# sourceMappingURL=compactions.js.map