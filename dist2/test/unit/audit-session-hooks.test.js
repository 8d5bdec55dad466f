"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: session-level hook firings in the audit — read from the session's `hook-<event>-<n>`
// activities, their decision re-derived with the engine's rules.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const sessionHooks_1 = require("../../src/audit/sessionHooks");
(0, node_test_1.test)('unit: session hook activities become audit entries with the decision, context, notices and failures', () => {
    const at = Date.parse('2026-11-30T10:00:00Z');
    const entries = (0, sessionHooks_1.sessionHookEntries)([
        { activityId: 'model-1', outcome: 'completed', attempt: 1, failures: [] },
        {
            activityId: 'hook-UserPromptSubmit-1',
            input: { fields: { prompt: 'p'.repeat(500) } },
            result: {
                runs: [
                    {
                        event: 'UserPromptSubmit',
                        hook: 'check.sh',
                        outcome: 'blocking',
                        exitCode: 2,
                        stderr: 'secret in prompt',
                        durationMs: 5,
                    },
                ],
            },
            outcome: 'completed',
            attempt: 1,
            startedAt: at,
            endedAt: at + 5,
            failures: [],
        },
        {
            activityId: 'hook-SessionStart-1',
            input: { fields: { source: 'compact' } },
            result: {
                runs: [
                    {
                        event: 'SessionStart',
                        hook: 'ctx.sh',
                        outcome: 'success',
                        exitCode: 0,
                        stdout: 'branch main',
                        durationMs: 3,
                    },
                    {
                        event: 'SessionStart',
                        hook: 'warn.sh',
                        outcome: 'non_blocking_error',
                        exitCode: 1,
                        error: 'exit code 1',
                        durationMs: 2,
                    },
                ],
            },
            outcome: 'completed',
            attempt: 1,
            failures: [],
        },
        {
            activityId: 'hook-Stop-1',
            input: { fields: { stop_hook_active: false } },
            result: {
                runs: [
                    {
                        event: 'Stop',
                        hook: 'halt.sh',
                        outcome: 'success',
                        output: { continue: false, stopReason: 'budget spent' },
                        durationMs: 1,
                    },
                ],
            },
            outcome: 'completed',
            attempt: 2,
            failures: ['lost worker'],
        },
        {
            activityId: 'hook-Notification-1',
            input: { fields: { notification_type: 'permission_prompt' } },
            outcome: 'failed',
            attempt: 3,
            failures: ['no worker'],
        },
    ], 0);
    strict_1.default.deepEqual(entries.map((e) => [e.event, e.n, e.decision]), [
        ['UserPromptSubmit', 1, 'blocked'],
        ['SessionStart', 1, 'proceeded'],
        ['Stop', 1, 'stopped'],
        ['Notification', 1, 'none'],
    ]);
    strict_1.default.equal(entries[0].reason, 'secret in prompt');
    strict_1.default.equal(entries[0].fields.prompt.length, 200, 'long fields are cut');
    strict_1.default.equal(entries[0].startedAt, '2026-11-30T10:00:00.000Z');
    strict_1.default.deepEqual(entries[1].additionalContext, ['branch main']);
    strict_1.default.match(entries[1].notices?.[0] ?? '', /warn\.sh.*exit code 1/);
    strict_1.default.deepEqual(entries[1].hooks.map((h) => h.outcome), ['success', 'non_blocking_error']);
    strict_1.default.equal(entries[2].reason, 'budget spent');
    strict_1.default.deepEqual([entries[2].attempts, entries[2].failures], [2, ['lost worker']]);
    strict_1.default.deepEqual([entries[3].status, entries[3].hooks], ['failed', []]);
});
//# sourceMappingURL=audit-session-hooks.test.js.map