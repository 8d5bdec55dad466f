"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: the audit is never silently incomplete. With a payload codec configured on the
// worker and the client (a scrambling codec, as an encryption codec would be), the audit decodes
// with the client's own data converter; audited by a client without the codec, every payload it
// cannot read is an explicit "undecodable" gap in the text and JSON output. A turn whose history
// was deleted is a "history unavailable" gap, not a turn that silently never happened.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const client_1 = require("@temporalio/client");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const audit_1 = require("../../src/audit");
const client_2 = require("../../src/client");
const ids_1 = require("../../src/engine/ids");
const codec_1 = require("../support/codec");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const wait_1 = require("../support/wait");
const cli_1 = require("../support/cli");
(0, node_test_1.after)(temporal_1.closeTestEnv);
const jsonEntries = (text) => text
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l));
(0, node_test_1.test)('integration: the audit decodes with the client’s codec, and reports every payload a client without it cannot read', async () => {
    const codec = new codec_1.ScramblingCodec();
    await (0, agent_1.withAgent)({ worker: { workerOptions: { dataConverter: { payloadCodecs: [codec] } } } }, async ({ env, fake, taskQueue, workDir }) => {
        await (0, promises_1.writeFile)((0, node_path_1.join)(workDir, 'a.txt'), 'secret contents\n');
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_read', name: 'Read', input: { file_path: (0, node_path_1.join)(workDir, 'a.txt') } }]), (0, fakeAnthropic_1.textResponse)('Read it.'));
        const withCodec = new client_1.Client({
            connection: env.connection,
            namespace: env.namespace ?? 'default',
            dataConverter: { payloadCodecs: [codec] },
        });
        const handle = await (0, client_2.startSession)(withCodec, {
            id: (0, temporal_1.uniqueWorkflowId)('codec'),
            taskQueue,
            prompt: 'read a.txt',
            cwd: workDir,
            tools: ['Read'],
            permissionMode: 'bypassPermissions',
            model: { model: 'claude-test', maxTokens: 1024 },
        });
        const result = await handle.result();
        strict_1.default.equal(result.status, 'completed');
        // The client that has the codec: a complete audit, read through the codec.
        const before = codec.decoded;
        const full = await (0, audit_1.buildAudit)(withCodec, handle.workflowId);
        strict_1.default.ok(codec.decoded > before, 'the audit decoded through the client’s codec');
        strict_1.default.equal(full.gaps, undefined, JSON.stringify(full.gaps));
        strict_1.default.equal(full.session.prompt, 'read a.txt');
        strict_1.default.equal(full.session.status, 'completed');
        strict_1.default.deepEqual(full.toolCalls.map((c) => [c.toolUseId, c.tool, c.status]), [['toolu_read', 'Read', 'ok']]);
        strict_1.default.match(full.toolCalls[0]?.resultPreview ?? '', /secret contents/);
        strict_1.default.doesNotMatch((0, audit_1.formatAuditText)(full), /INCOMPLETE/);
        // A client without the codec (the default converter): the same session, every unreadable payload a gap.
        const plain = await (0, audit_1.buildAudit)(env.client, handle.workflowId);
        strict_1.default.ok(plain.gaps && plain.gaps.length > 0, 'gaps are reported');
        strict_1.default.equal(plain.session.gaps, plain.gaps.length);
        strict_1.default.ok(plain.gaps.every((g) => g.what === 'payload'), JSON.stringify(plain.gaps));
        const fields = new Set(plain.gaps.map((g) => g.field));
        for (const f of ['session input', 'turn input', 'activity input', 'activity result'])
            strict_1.default.ok(fields.has(f), `a gap for the ${f}: ${[...fields].join(', ')}`);
        const turnInput = plain.gaps.find((g) => g.field === 'turn input');
        strict_1.default.equal(turnInput?.workflowId, (0, ids_1.turnWorkflowId)(handle.workflowId, 1));
        strict_1.default.equal(turnInput?.eventType, 'WORKFLOW_EXECUTION_STARTED');
        strict_1.default.match(turnInput?.error ?? '', /encoding/i);
        // What can be read from history alone is still there: the call's id and status come from its events.
        strict_1.default.equal(plain.session.prompt, '');
        const text = (0, audit_1.formatAuditText)(plain);
        strict_1.default.match(text, new RegExp(`INCOMPLETE: ${plain.gaps.length} parts of the history could not be read`));
        strict_1.default.match(text, /undecodable turn input: .*\/turn-1 .*event 1 WORKFLOW_EXECUTION_STARTED/);
        const lines = jsonEntries((0, audit_1.auditJsonLines)(plain));
        strict_1.default.equal(lines[0]?.kind, 'session');
        strict_1.default.deepEqual(lines.slice(1, 1 + plain.gaps.length).map((l) => l.kind), plain.gaps.map(() => 'gap'));
        // `ls` (a client without the codec) lists the session with a note instead of failing on its memo.
        const ls = await (0, cli_1.cli)(['ls', '--json', '--limit', '1000'], {
            TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
        });
        strict_1.default.equal(ls.code, 0, ls.stderr);
        const row = ls.stdout
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l))
            .find((r) => r.id === handle.workflowId);
        strict_1.default.equal(row?.status, 'completed');
        strict_1.default.match(row?.prompt ?? '', /^\(memo unreadable by this client: .*encoding/i);
        // Leave no undecodable session behind for other tests' listings.
        for (const workflowId of [
            handle.workflowId,
            (0, ids_1.turnWorkflowId)(handle.workflowId, 1),
            (0, ids_1.turnWorkflowId)(handle.workflowId, 2),
        ]) {
            await env.client.workflowService
                .deleteWorkflowExecution({ namespace: env.namespace ?? 'default', workflowExecution: { workflowId } })
                .catch(() => undefined);
        }
    });
});
(0, node_test_1.test)('integration: a turn whose history cannot be fetched is a gap in the audit, not a missing turn', { timeout: 300_000 }, async () => {
    await (0, agent_1.withAgent)({}, async ({ env, fake, start, workDir, client }) => {
        await (0, promises_1.writeFile)((0, node_path_1.join)(workDir, 'b.txt'), 'bee\n');
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_one', name: 'Read', input: { file_path: (0, node_path_1.join)(workDir, 'b.txt') } }]), (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_two', name: 'Read', input: { file_path: (0, node_path_1.join)(workDir, 'b.txt') } }]), (0, fakeAnthropic_1.textResponse)('Done.'));
        const handle = await start({ prompt: 'read b twice', tools: ['Read'] });
        await handle.result();
        const complete = await (0, audit_1.buildAudit)(client, handle.workflowId);
        strict_1.default.equal(complete.gaps, undefined);
        strict_1.default.deepEqual(complete.toolCalls.map((c) => c.toolUseId), ['toolu_one', 'toolu_two']);
        // Turn 1's history goes (deleted, as retention or an operator would).
        const turn1 = (0, ids_1.turnWorkflowId)(handle.workflowId, 1);
        await env.client.workflowService.deleteWorkflowExecution({
            namespace: env.namespace ?? 'default',
            workflowExecution: { workflowId: turn1 },
        });
        // Deletion is a background task on the server: under load it can take a while.
        await (0, wait_1.waitFor)('turn 1 to be deleted', async () => await client.workflow
            .getHandle(turn1)
            .fetchHistory()
            .then(() => false, () => true), 180_000, 500);
        const audit = await (0, audit_1.buildAudit)(client, handle.workflowId);
        strict_1.default.equal(audit.session.turns, 3, 'the session still knows it ran three turns');
        strict_1.default.deepEqual(audit.toolCalls.map((c) => c.toolUseId), ['toolu_two']);
        strict_1.default.equal(audit.gaps?.length, 1, JSON.stringify(audit.gaps));
        const gap = audit.gaps?.[0];
        strict_1.default.equal(gap?.what, 'history');
        strict_1.default.equal(gap?.workflowId, turn1);
        strict_1.default.equal(gap?.turn, 1);
        strict_1.default.match(gap?.missing ?? '', /turn 1/);
        const text = (0, audit_1.formatAuditText)(audit);
        strict_1.default.match(text, /INCOMPLETE: 1 part of the history could not be read/);
        strict_1.default.match(text, new RegExp(`history unavailable: ${turn1.replace(/[/.-]/g, '\\$&')}`));
        const lines = jsonEntries((0, audit_1.auditJsonLines)(audit));
        strict_1.default.deepEqual(lines.slice(0, 2).map((l) => l.kind), ['session', 'gap']);
    });
});
//# sourceMappingURL=audit-gaps.test.js.map