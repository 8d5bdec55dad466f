"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: the audit trail rebuilt from Temporal history alone — one session with a parallel
// batch, an approval, a denial, an interrupt and a streaming fallback; and a session that
// continued-as-new, whose audit covers every run's turns.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const client_1 = require("../../src/client");
const definitions_1 = require("../../src/workflows/definitions");
const audit_1 = require("../../src/audit");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const wait_1 = require("../support/wait");
(0, node_test_1.after)(temporal_1.closeTestEnv);
function parseLines(text) {
    strict_1.default.ok(text.endsWith('\n'));
    return text
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l));
}
(0, node_test_1.test)('integration: the audit lists every tool and model call with status, decision source, approvals, interrupts and fallback', async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, start, workDir, client }) => {
        await (0, promises_1.mkdir)((0, node_path_1.join)(workDir, 'src'));
        await (0, promises_1.writeFile)((0, node_path_1.join)(workDir, 'src', 'auth.ts'), 'export const timeout = 10;\n');
        await (0, promises_1.writeFile)((0, node_path_1.join)(workDir, 'notes.txt'), 'notes\n');
        fake.enqueue(
        // Turn 1: a concurrent batch; Grep of the directory is allowed by the default mode (read-only, inside cwd), Read by the allow rule.
        (0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_grep', name: 'Grep', input: { pattern: 'timeout', path: 'src' } },
            { id: 'toolu_read', name: 'Read', input: { file_path: (0, node_path_1.join)(workDir, 'src', 'auth.ts') } },
        ]), 
        // Turn 2: a Write asks (default mode); alice approves it.
        (0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_w_ok', name: 'Write', input: { file_path: (0, node_path_1.join)(workDir, 'approved.txt'), content: 'yes\n' } },
        ]), 
        // Turn 3: a second Write asks; it is denied.
        (0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_w_no', name: 'Write', input: { file_path: (0, node_path_1.join)(workDir, 'denied.txt'), content: 'no\n' } },
        ]), 
        // Turn 4: Bash (allowed by rule) is interrupted while it sleeps; the Read after it never starts.
        (0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_sleep', name: 'Bash', input: { command: 'sleep 30' } },
            { id: 'toolu_after', name: 'Read', input: { file_path: (0, node_path_1.join)(workDir, 'notes.txt') } },
        ]), 
        // Turn 5 (after the follow-up message): the stream drops mid-way; the non-streamed fallback answers.
        {
            ...(0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_glob', name: 'Glob', input: { pattern: '*.txt' } }], {
                text: 'Listing the files.',
            }),
            dropAfterEvents: 6,
        }, (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_glob', name: 'Glob', input: { pattern: '*.txt' } }], {
            text: 'Listing the files.',
        }), (0, fakeAnthropic_1.textResponse)('All done.'));
        const handle = await start({
            prompt: 'audit me',
            permissionMode: 'default',
            rules: { allow: ['Read(./src/*.ts)', 'Bash(sleep:*)'], ask: [], deny: [] },
        });
        const id = handle.workflowId;
        const pendingId = async () => (await (0, client_1.sessionStatus)(client, id)).pendingApprovals[0]?.toolUseId;
        await (0, wait_1.waitFor)('the first approval request', async () => (await pendingId()) === 'toolu_w_ok');
        // While it waits, the audit of the live session says so.
        const live = await (0, audit_1.buildAudit)(client, id);
        strict_1.default.equal(live.session.status, 'awaiting_approval');
        strict_1.default.equal(live.toolCalls.find((c) => c.toolUseId === 'toolu_w_ok')?.status, 'awaiting_approval');
        await (0, client_1.approveToolUse)(client, id, 'toolu_w_ok', 'alice@example');
        await (0, wait_1.waitFor)('the second approval request', async () => (await pendingId()) === 'toolu_w_no');
        await (0, client_1.denyToolUse)(client, id, 'toolu_w_no', 'not this one');
        const turn4 = client.workflow.getHandle(`${id}/turn-4`);
        await (0, wait_1.waitFor)('Bash to run', async () => (await turn4.query(definitions_1.turnProgressQuery)).running.some((r) => r.toolUseId === 'toolu_sleep'));
        await new Promise((r) => setTimeout(r, 1500)); // let the sleep start
        const running = await (0, audit_1.buildAudit)(client, id);
        strict_1.default.deepEqual(running.toolCalls.filter((c) => c.turn === 4).map((c) => [c.toolUseId, c.status]), [
            ['toolu_sleep', 'running'],
            ['toolu_after', 'pending'],
        ]);
        // Batches of a running turn come from the describeToolUses marker.
        strict_1.default.deepEqual(running.toolCalls.filter((c) => c.turn === 4).map((c) => [c.batch, c.concurrent]), [
            [0, false],
            [1, true],
        ]);
        await (0, client_1.interruptSession)(client, id, 'bob@example');
        await (0, wait_1.waitFor)('the session to wait for a message', async () => (await (0, client_1.sessionStatus)(client, id)).phase === 'waiting_for_message');
        strict_1.default.equal((await (0, audit_1.buildAudit)(client, id)).session.status, 'interrupted');
        await (0, client_1.sendMessage)(client, id, 'carry on');
        const result = await handle.result();
        strict_1.default.equal(result.status, 'completed');
        fake.assertDone();
        const report = await (0, audit_1.buildAudit)(client, id);
        if (process.env.AUDIT_PRINT)
            console.log(`${(0, audit_1.formatAuditText)(report)}\n${(0, audit_1.auditJsonLines)(report)}`);
        const entries = parseLines((0, audit_1.auditJsonLines)(report));
        const session = entries[0];
        strict_1.default.equal(session.kind, 'session');
        strict_1.default.equal(session.prompt, 'audit me');
        strict_1.default.equal(session.status, 'completed');
        strict_1.default.equal(session.runs, 1);
        strict_1.default.equal(session.turns, 6);
        strict_1.default.deepEqual(session.usage, result.usage);
        strict_1.default.deepEqual(session.messages.map((m) => m.text), ['carry on']);
        strict_1.default.equal(session.interrupts[0]?.by, 'bob@example');
        const tools = entries.filter((e) => e.kind === 'tool_call');
        const models = entries.filter((e) => e.kind === 'model_call');
        // Every tool call, once each.
        strict_1.default.deepEqual(tools.map((c) => c.toolUseId).sort(), [
            'toolu_after',
            'toolu_glob',
            'toolu_grep',
            'toolu_read',
            'toolu_sleep',
            'toolu_w_no',
            'toolu_w_ok',
        ]);
        const call = (toolUseId) => {
            const c = tools.find((t) => t.toolUseId === toolUseId);
            strict_1.default.ok(c, toolUseId);
            return c;
        };
        // The parallel batch.
        const grep = call('toolu_grep');
        const read = call('toolu_read');
        strict_1.default.deepEqual([grep.turn, grep.status, grep.decision?.source, grep.decision?.detail, grep.decision?.behavior], [1, 'ok', 'mode', 'default', 'allow']);
        strict_1.default.deepEqual([read.turn, read.status, read.decision?.source, read.decision?.detail], [1, 'ok', 'rule', 'Read(./src/*.ts)']);
        strict_1.default.deepEqual([grep.batch, grep.concurrent, read.batch, read.concurrent], [0, true, 0, true]);
        strict_1.default.equal(grep.tool, 'Grep');
        strict_1.default.deepEqual(grep.input, { pattern: 'timeout', path: 'src' });
        strict_1.default.match(read.resultPreview, /timeout = 10/);
        strict_1.default.ok(read.resultPreview.length <= 200);
        strict_1.default.equal(read.attempts, 1);
        strict_1.default.ok(read.startedAt && read.endedAt && read.startedAt <= read.endedAt);
        // The approval.
        const ok = call('toolu_w_ok');
        strict_1.default.equal(ok.status, 'ok');
        strict_1.default.deepEqual(ok.decision, { behavior: 'allow', source: 'human', by: 'alice@example' });
        strict_1.default.equal(ok.approval?.resolution, 'approve');
        strict_1.default.equal(ok.approval?.by, 'alice@example');
        strict_1.default.deepEqual([ok.approval?.asked.behavior, ok.approval?.asked.source, ok.approval?.asked.detail], ['ask', 'mode', 'default']);
        strict_1.default.deepEqual(ok.activities.map((a) => [a.activityId, a.result]), [
            ['tool-toolu_w_ok', 'ask'],
            ['tool-toolu_w_ok-approve', 'done'],
        ]);
        // The denial.
        const no = call('toolu_w_no');
        strict_1.default.equal(no.status, 'denied');
        strict_1.default.deepEqual([no.decision?.behavior, no.decision?.source, no.decision?.reason], ['deny', 'human', 'not this one']);
        strict_1.default.equal(no.approval?.resolution, 'deny');
        strict_1.default.match(no.resultPreview, /doesn't want to proceed/);
        // The interrupt: the running Bash, and the Read that never started (no activity).
        const sleep = call('toolu_sleep');
        strict_1.default.equal(sleep.status, 'interrupted');
        strict_1.default.ok(sleep.activities[0]?.cancelRequestedAt, 'the interrupt cancelled the activity');
        strict_1.default.deepEqual([sleep.decision?.source, sleep.decision?.detail], ['rule', 'Bash(sleep:*)']);
        strict_1.default.ok(sleep.endedAt, 'the interrupted call has an end time');
        const after4 = call('toolu_after');
        strict_1.default.equal(after4.status, 'interrupted');
        strict_1.default.deepEqual(after4.activities, []);
        strict_1.default.match(after4.resultPreview, /not started/);
        strict_1.default.deepEqual([sleep.batch, sleep.concurrent, after4.batch], [0, false, 1]);
        // The fallback turn's tool ran once and its model call keeps the tombstone.
        const glob = call('toolu_glob');
        strict_1.default.deepEqual([glob.turn, glob.status, glob.decision?.source], [5, 'ok', 'mode']);
        const m5 = models.find((m) => m.turn === 5);
        strict_1.default.ok(m5);
        strict_1.default.equal(m5.fallback, true);
        strict_1.default.equal(m5.tombstones.length, 1);
        strict_1.default.ok(m5.tombstones[0]?.error);
        strict_1.default.ok(m5.tombstones[0]?.eventsReceived && m5.tombstones[0].eventsReceived >= 1);
        strict_1.default.equal(m5.status, 'ok');
        strict_1.default.deepEqual(m5.toolUseIds, ['toolu_glob']);
        // One model call per turn, each with usage; none other fell back.
        strict_1.default.deepEqual(models.map((m) => m.turn), [1, 2, 3, 4, 5, 6]);
        strict_1.default.ok(models.every((m) => m.usage && m.model === 'claude-test' && m.attempts === 1));
        strict_1.default.deepEqual(models.filter((m) => m.fallback).map((m) => m.turn), [5]);
        // Time order.
        const times = entries
            .slice(1)
            .flatMap((e) => (e.startedAt ? [e.startedAt] : []));
        strict_1.default.deepEqual([...times].sort(), times);
        const text = (0, audit_1.formatAuditText)(report);
        strict_1.default.match(text, /toolu_w_ok .*allow \[human: alice@example\].* ok .*ask→approve/);
        strict_1.default.match(text, /toolu_sleep .* interrupted/);
        strict_1.default.match(text, /FALLBACK/);
    });
});
(0, node_test_1.test)('integration: the audit of a session that continued-as-new covers every run; a retried 529 shows its attempts', async () => {
    const TURNS = 8;
    await (0, agent_1.withAgent)({}, async ({ fake, start, workDir, client }) => {
        for (let i = 1; i <= TURNS; i++)
            await (0, promises_1.writeFile)((0, node_path_1.join)(workDir, `f${i}.txt`), `file ${i}\n`);
        fake.enqueue({ ...(0, fakeAnthropic_1.overloadedError)(), retryAfterMs: 50 });
        fake.script((req) => {
            const turn = req.messages.filter((m) => m.role === 'assistant').length + 1;
            if (turn > TURNS)
                return (0, fakeAnthropic_1.textResponse)('Read them all.');
            return (0, fakeAnthropic_1.toolUseResponse)([
                { id: `toolu_f${turn}`, name: 'Read', input: { file_path: (0, node_path_1.join)(workDir, `f${turn}.txt`) } },
            ]);
        });
        const handle = await start({ prompt: 'read the files', tools: ['Read'], maxHistoryBytesPerRun: 20_000 });
        const result = await handle.result();
        strict_1.default.equal(result.status, 'completed', result.endReason);
        const report = await (0, audit_1.buildAudit)(client, handle.workflowId);
        strict_1.default.ok(report.session.runs >= 2, `runs: ${report.session.runs}`);
        strict_1.default.equal(report.session.runIds.length, report.session.runs);
        strict_1.default.equal(report.session.turns, TURNS + 1);
        strict_1.default.equal(report.session.prompt, 'read the files');
        strict_1.default.equal(report.session.status, 'completed');
        strict_1.default.deepEqual(report.toolCalls.map((c) => [c.turn, c.toolUseId, c.status, c.decision?.source]), Array.from({ length: TURNS }, (_, i) => [i + 1, `toolu_f${i + 1}`, 'ok', 'mode']));
        strict_1.default.ok(new Set(report.toolCalls.map((c) => c.run)).size >= 2, 'the calls come from more than one run');
        strict_1.default.deepEqual(report.modelCalls.map((m) => m.turn), Array.from({ length: TURNS + 1 }, (_, i) => i + 1));
        const first = report.modelCalls[0];
        strict_1.default.ok(first);
        strict_1.default.equal(first.attempts, 2);
        strict_1.default.match(first.failures.join(' '), /529/);
        strict_1.default.deepEqual(report.session.usage, result.usage);
        const lines = parseLines((0, audit_1.auditJsonLines)(report));
        strict_1.default.equal(lines.filter((l) => l.kind === 'tool_call').length, TURNS);
        strict_1.default.equal(lines.filter((l) => l.kind === 'model_call').length, TURNS + 1);
    });
});
//# sourceMappingURL=audit.test.js.map