"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the pure parts of background and isolated agents (issue 19): the task id (the reference's
// shape, derived from the call), the launched result (the reference's first sentence and agentId
// line), the worktree lines of a foreground result, the `<worktree>` element of the notification
// (captured from 2.1.328: after `<usage>`, only when the worktree was kept), and the status line.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const subagents_1 = require("../../src/engine/subagents");
const taskNotifications_1 = require("../../src/engine/taskNotifications");
const agent_1 = require("../../src/tools/builtin/agent");
const autonomyText_1 = require("../../src/cli/autonomyText");
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const sdk_1 = __importDefault(require("@anthropic-ai/sdk"));
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const runSession_1 = require("../../src/local/runSession");
(0, node_test_1.test)('unit: an agent task id is a + 16 hex digits, the same for the same call, different for another', () => {
    const id = (0, subagents_1.agentTaskId)('sess-1', 'toolu_a');
    strict_1.default.match(id, /^a[0-9a-f]{16}$/);
    strict_1.default.equal((0, subagents_1.agentTaskId)('sess-1', 'toolu_a'), id);
    strict_1.default.notEqual((0, subagents_1.agentTaskId)('sess-1', 'toolu_b'), id);
    strict_1.default.notEqual((0, subagents_1.agentTaskId)('sess-2', 'toolu_a'), id);
    strict_1.default.equal((0, subagents_1.agentWorktreeName)(id), `agent-${id}`);
});
(0, node_test_1.test)('unit: the launched result starts with the reference sentence and agentId line; the Agent tool maps it, not an error', () => {
    const text = (0, subagents_1.agentLaunchedText)('a0123456789abcdef', 's/agent-toolu_x');
    strict_1.default.match(text, /^Async agent launched successfully\.\nagentId: a0123456789abcdef \(/);
    strict_1.default.match(text, /TaskStop/);
    const block = agent_1.AgentTool.mapToolResultToToolResultBlockParam({
        agentType: 'general-purpose',
        sessionId: 's/agent-toolu_x',
        status: 'launched',
        endReason: 'running in the background',
        text: '',
        turns: 0,
        launched: { taskId: 'a0123456789abcdef' },
    }, 'toolu_x');
    strict_1.default.equal(block.is_error, undefined);
    strict_1.default.deepEqual(block.content, [{ type: 'text', text }]);
});
(0, node_test_1.test)('unit: a kept worktree: its lines before <usage> in a foreground result, <worktree> after <usage> in a notification', () => {
    const base = {
        agentType: 'general-purpose',
        sessionId: 's/agent-toolu_x',
        status: 'completed',
        endReason: 'completed',
        text: 'done',
        turns: 1,
        toolUses: 1,
        totalTokens: 10,
        durationMs: 5,
    };
    strict_1.default.equal((0, subagents_1.subagentUsageNote)(base), '<usage>subagent_tokens: 10\ntool_uses: 1\nduration_ms: 5</usage>');
    strict_1.default.equal((0, subagents_1.subagentUsageNote)({ ...base, worktree: { path: '/r/.claude/worktrees/agent-a1', branch: 'worktree-agent-a1' } }), 'worktreePath: /r/.claude/worktrees/agent-a1\nworktreeBranch: worktree-agent-a1\n<usage>subagent_tokens: 10\ntool_uses: 1\nduration_ms: 5</usage>');
    const task = { id: 'a1', description: 'do sub', toolUseId: 'toolu_x' };
    const end = { state: 'completed', result: 'ok', totalTokens: 3, toolUses: 1, durationMs: 2 };
    strict_1.default.ok(!(0, taskNotifications_1.agentNotification)(task, end).includes('<worktree>'));
    strict_1.default.match((0, taskNotifications_1.agentNotification)(task, { ...end, worktree: { path: '/r/w&1', branch: 'worktree-agent-a1' } }), /<\/usage>\n<worktree><worktreePath>\/r\/w&amp;1<\/worktreePath><worktreeBranch>worktree-agent-a1<\/worktreeBranch><\/worktree>\n<\/task-notification>/);
});
(0, node_test_1.test)('unit: status names a background agent task, its child session and worktree', () => {
    const lines = (0, autonomyText_1.autonomyLines)({
        autonomy: {
            crons: [],
            tasks: [
                {
                    id: 'a1',
                    kind: 'local_agent',
                    toolUseId: 'toolu_x',
                    description: 'check things',
                    startedAt: Date.UTC(2026, 11, 2, 10),
                    timeoutMs: 0,
                    state: 'running',
                    agent: {
                        sessionId: 's/agent-toolu_x',
                        worktree: { path: '/r/wt', branch: 'b', base: 'c', repoRoot: '/r', allowWrite: [], denyWrite: [] },
                    },
                },
            ],
        },
    });
    strict_1.default.deepEqual(lines, [
        'task a1 [running] agent check things — started 2026-12-02T10:00:00Z; agent session s/agent-toolu_x, worktree /r/wt',
    ]);
});
(0, node_test_1.test)('unit: in process, an Agent call runs in the foreground (its report is the result) and isolation "worktree" is refused, never run unisolated', async () => {
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    try {
        const work = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'bga-local-'));
        const store = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'bga-local-store-'));
        let childRuns = 0;
        fake.script((req) => {
            if (JSON.stringify(req.messages[0]?.content ?? '').includes('SUBTASK')) {
                childRuns++;
                return (0, fakeAnthropic_1.textResponse)('child report');
            }
            if (req.messages.length === 1)
                return (0, fakeAnthropic_1.toolUseResponse)([
                    {
                        id: 'toolu_fg',
                        name: 'Agent',
                        input: { description: 'plain', prompt: 'SUBTASK plain', run_in_background: false },
                    },
                    {
                        id: 'toolu_iso',
                        name: 'Agent',
                        input: { description: 'isolated', prompt: 'SUBTASK isolated', isolation: 'worktree' },
                    },
                ]);
            return (0, fakeAnthropic_1.textResponse)('done');
        });
        const result = await (0, runSession_1.runLocalSession)({
            prompt: 'delegate',
            cwd: work,
            tools: ['Read', 'Agent'],
            permissionMode: 'default',
            model: { model: 'claude-test', maxTokens: 256 },
        }, { storeDir: store, anthropic: () => new sdk_1.default({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) });
        strict_1.default.equal(result.status, 'completed', result.endReason);
        const fg = result.records.find((r) => r.toolUseId === 'toolu_fg');
        strict_1.default.equal(fg.result.is_error, undefined);
        strict_1.default.match(JSON.stringify(fg.result.content), /child report/);
        const iso = result.records.find((r) => r.toolUseId === 'toolu_iso');
        strict_1.default.equal(iso.result.is_error, true);
        strict_1.default.match(JSON.stringify(iso.result.content), /isolation \\"worktree\\" needs a durable session/);
        strict_1.default.equal(childRuns, 1, 'only the plain agent ran');
    }
    finally {
        await fake.close();
    }
});
//# sourceMappingURL=background-agents.test.js.map