"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: a session on the real dev server, the real SDK against the fake Messages API.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const proto_1 = require("@temporalio/proto");
(0, node_test_1.after)(temporal_1.closeTestEnv);
const EventType = proto_1.temporal.api.enums.v1.EventType;
(0, node_test_1.test)('integration: [Grep, Read] [Edit] [Grep] runs as 3 batches; safe calls overlap; last Grep sees the edit', async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, start, workDir, client }) => {
        await (0, promises_1.mkdir)((0, node_path_1.join)(workDir, 'src'));
        await (0, promises_1.writeFile)((0, node_path_1.join)(workDir, 'src', 'auth.ts'), 'export const timeout = 10;\nexport function login() {}\n');
        await (0, promises_1.writeFile)((0, node_path_1.join)(workDir, 'src', 'other.ts'), 'const timeout = 5;\n');
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_g1', name: 'Grep', input: { pattern: 'timeout', path: 'src' } },
            { id: 'toolu_r1', name: 'Read', input: { file_path: (0, node_path_1.join)(workDir, 'src', 'auth.ts') } },
            {
                id: 'toolu_e1',
                name: 'Edit',
                input: { file_path: (0, node_path_1.join)(workDir, 'src', 'auth.ts'), old_string: 'timeout = 10', new_string: 'timeout = 30' },
            },
            { id: 'toolu_g2', name: 'Grep', input: { pattern: 'timeout = 30', path: 'src', output_mode: 'content' } },
        ]), (0, fakeAnthropic_1.textResponse)('All done.'));
        // The tool phase's batches as such: with streaming execution the safe calls would start one
        // by one as their blocks arrive (integration/streaming-tools covers that path).
        const handle = await start({ prompt: 'raise the login timeout', streamingToolExecution: false });
        const result = await handle.result();
        strict_1.default.equal(result.status, 'completed');
        strict_1.default.equal(result.turns, 2);
        fake.assertDone();
        // What the model was sent on the second call: one tool_result per tool_use, in block order.
        const second = fake.messageRequests()[1];
        strict_1.default.ok(second);
        const results = (0, fakeAnthropic_1.lastToolResults)(second);
        strict_1.default.deepEqual(results.map((r) => r.tool_use_id), ['toolu_g1', 'toolu_r1', 'toolu_e1', 'toolu_g2']);
        strict_1.default.ok(results.every((r) => r.is_error !== true), JSON.stringify(results));
        const g2 = JSON.stringify(results[3]?.content);
        strict_1.default.match(g2, /timeout = 30/);
        strict_1.default.equal(await (0, promises_1.readFile)((0, node_path_1.join)(workDir, 'src', 'auth.ts'), 'utf8'), 'export const timeout = 30;\nexport function login() {}\n');
        // The default system prompt went along, naming the working directory.
        // (a list of text blocks: the last carries the prompt-cache breakpoint)
        strict_1.default.match(JSON.stringify(fake.messageRequests()[0]?.system), new RegExp(`working directory is ${workDir}`));
        // The tools were sent to the model with their schemas.
        const toolNames = (fake.messageRequests()[0]?.tools ?? []).map((t) => t.name);
        strict_1.default.deepEqual(toolNames.sort(), [
            'Agent',
            'Bash',
            'CronCreate',
            'CronDelete',
            'CronList',
            'Edit',
            'EnterWorktree',
            'ExitWorktree',
            'Glob',
            'Grep',
            'Monitor',
            'NotebookEdit',
            'Read',
            'ScheduleWakeup',
            'Skill',
            'TaskStop',
            'WebFetch',
            'WebSearch',
            'Write',
        ]);
        // The turn's history: the two safe calls overlap, Edit starts after both end, the last Grep after Edit.
        const history = await client.workflow.getHandle(`${handle.workflowId}/turn-1`).fetchHistory();
        const byScheduled = new Map();
        const timeline = [];
        for (const e of history.events ?? []) {
            if (e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)
                byScheduled.set(Number(e.eventId), e.activityTaskScheduledEventAttributes?.activityId ?? '');
            if (e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED)
                timeline.push(['start', byScheduled.get(Number(e.activityTaskStartedEventAttributes?.scheduledEventId)) ?? '']);
            if (e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED)
                timeline.push(['end', byScheduled.get(Number(e.activityTaskCompletedEventAttributes?.scheduledEventId)) ?? '']);
        }
        const at = (kind, id) => timeline.findIndex(([k, a]) => k === kind && a === id);
        strict_1.default.ok(at('start', 'tool-toolu_g1') >= 0 && at('start', 'tool-toolu_r1') >= 0, JSON.stringify(timeline));
        // Scheduled together: both scheduled before either completed.
        const scheduledIds = [...byScheduled.values()];
        strict_1.default.ok(scheduledIds.indexOf('tool-toolu_r1') < scheduledIds.indexOf('tool-toolu_e1'));
        strict_1.default.ok(at('start', 'tool-toolu_e1') > Math.max(at('end', 'tool-toolu_g1'), at('end', 'tool-toolu_r1')), JSON.stringify(timeline));
        strict_1.default.ok(at('start', 'tool-toolu_g2') > at('end', 'tool-toolu_e1'), JSON.stringify(timeline));
        const firstEnd = Math.min(at('end', 'tool-toolu_g1'), at('end', 'tool-toolu_r1'));
        strict_1.default.ok(byScheduledBefore(history.events ?? [], 'tool-toolu_g1', 'tool-toolu_r1'), 'the two safe calls were scheduled in the same workflow task');
        strict_1.default.ok(firstEnd > 0);
    });
});
/** True when both activities were scheduled with no completion event between them. */
function byScheduledBefore(events, a, b) {
    let seen = 0;
    for (const e of events) {
        if (e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) {
            const id = e.activityTaskScheduledEventAttributes?.activityId;
            if (id === a || id === b)
                seen++;
            if (seen === 2)
                return true;
        }
        if (seen === 1 && e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED)
            return false;
    }
    return false;
}
(0, node_test_1.test)('integration: a tool denied outright is not offered to the model, and a call to it is an unknown tool', async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, start }) => {
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_nobash', name: 'Bash', input: { command: 'echo hi' } }]), (0, fakeAnthropic_1.textResponse)('ok'));
        const result = await (await start({ prompt: 'try bash', rules: { allow: [], ask: [], deny: ['Bash'] } })).result();
        strict_1.default.equal(result.status, 'completed');
        const offered = (fake.messageRequests()[0]?.tools ?? []).map((t) => t.name).sort();
        // A blanket Bash deny takes Monitor (whose rules are Bash's) out too.
        strict_1.default.deepEqual(offered, [
            'Agent',
            'CronCreate',
            'CronDelete',
            'CronList',
            'Edit',
            'EnterWorktree',
            'ExitWorktree',
            'Glob',
            'Grep',
            'NotebookEdit',
            'Read',
            'ScheduleWakeup',
            'Skill',
            'TaskStop',
            'WebFetch',
            'WebSearch',
            'Write',
        ]);
        const [r] = (0, fakeAnthropic_1.lastToolResults)(fake.messageRequests()[1]);
        strict_1.default.equal(r?.is_error, true);
        strict_1.default.match(JSON.stringify(r?.content), /No such tool available: Bash/);
    });
});
(0, node_test_1.test)('integration: a large result is stored whole; reading it back needs no approval, even in default mode', async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, start, workDir }) => {
        await (0, promises_1.writeFile)((0, node_path_1.join)(workDir, 'big.txt'), Array.from({ length: 3000 }, (_, i) => `match line ${i}`).join('\n') + '\n');
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_big', name: 'Grep', input: { pattern: 'match', output_mode: 'content', head_limit: 0 } },
        ]));
        let savedTo = '';
        fake.script((req) => {
            const assistants = req.messages.filter((m) => m.role === 'assistant').length;
            if (assistants === 1) {
                const [r] = (0, fakeAnthropic_1.lastToolResults)(req);
                savedTo = /Full output saved to: (\S+)/.exec(JSON.stringify(r?.content).replace(/\\n/g, '\n'))?.[1] ?? '';
                return (0, fakeAnthropic_1.toolUseResponse)([
                    { id: 'toolu_readback', name: 'Read', input: { file_path: savedTo, offset: 2990, limit: 20 } },
                ]);
            }
            return (0, fakeAnthropic_1.textResponse)('done');
        });
        const result = await (await start({ prompt: 'find all matches', permissionMode: 'default', approvalTimeoutMs: 10_000 })).result();
        strict_1.default.equal(result.status, 'completed');
        strict_1.default.ok(savedTo.length > 0, 'the result was persisted with its path');
        const first = (0, fakeAnthropic_1.lastToolResults)(fake.messageRequests()[1])[0];
        strict_1.default.match(JSON.stringify(first?.content), /<persisted-output>/);
        strict_1.default.ok(JSON.stringify(first?.content).length < 5_000, 'the model got a preview, not 40 KB');
        const full = await (0, promises_1.readFile)(savedTo, 'utf8');
        strict_1.default.match(full, /match line 2999/);
        const [readBack] = (0, fakeAnthropic_1.lastToolResults)(fake.messageRequests()[2]);
        strict_1.default.notEqual(readBack?.is_error, true, JSON.stringify(readBack));
        strict_1.default.match(JSON.stringify(readBack?.content), /match line 29\d\d/);
    });
});
//# sourceMappingURL=session-batches.test.js.map