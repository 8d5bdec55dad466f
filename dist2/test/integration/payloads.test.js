"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: payloads by reference (invariant 11). One turn with 40 Reads whose results are
// ~100,000 characters each, one turn with 40 Writes whose inputs are 100,000 characters each:
// both complete on the real dev server, the model still gets every result and every file holds
// what was written, and no event of the session's or any turn's history is above 512 KiB.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const proto_1 = require("@temporalio/proto");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const runSession_1 = require("../../src/local/runSession");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const history_1 = require("../support/history");
(0, node_test_1.after)(temporal_1.closeTestEnv);
const CALLS = 40;
const CHARS = 100_000;
const MAX_EVENT = 512 * 1024;
const EventType = proto_1.temporal.api.enums.v1.EventType;
/** 40 distinct files whose Read output (numbered lines) is just under Read's 100,000-character budget. */
async function makeFiles(dir) {
    const paths = [];
    for (let k = 0; k < CALLS; k++) {
        const lines = [];
        for (let i = 0; i < 1000; i++)
            lines.push(`f${k} line ${String(i).padStart(4, '0')} `.padEnd(91, String.fromCharCode(97 + (k % 26))));
        const path = (0, node_path_1.join)(dir, `big-${k}.txt`);
        await (0, promises_1.writeFile)(path, `${lines.join('\n')}\n`);
        paths.push(path);
    }
    return paths;
}
const body = (k) => `written ${k} `.padEnd(CHARS, String.fromCharCode(65 + (k % 26)));
function script(dir, files) {
    return (req) => {
        const turn = req.messages.filter((m) => m.role === 'assistant').length + 1;
        if (turn === 1)
            return (0, fakeAnthropic_1.toolUseResponse)(files.map((f, k) => ({ id: `toolu_read_${k}`, name: 'Read', input: { file_path: f } })));
        if (turn === 2) {
            return (0, fakeAnthropic_1.toolUseResponse)(Array.from({ length: CALLS }, (_, k) => ({
                id: `toolu_write_${k}`,
                name: 'Write',
                input: { file_path: (0, node_path_1.join)(dir, `out-${k}.txt`), content: body(k) },
            })));
        }
        return (0, fakeAnthropic_1.textResponse)('done');
    };
}
/** Every tool_result of turn 1 reached the model whole, in block order. */
function assertReadResults(req) {
    const user = req.messages[2];
    strict_1.default.ok(user && user.role === 'user' && Array.isArray(user.content));
    const results = user.content.filter((b) => b.type === 'tool_result');
    strict_1.default.deepEqual(results.map((r) => r.tool_use_id), Array.from({ length: CALLS }, (_, k) => `toolu_read_${k}`));
    results.forEach((r, k) => {
        const text = JSON.stringify(r.content);
        strict_1.default.notEqual(r.is_error, true, text.slice(0, 300));
        strict_1.default.ok(text.length > 95_000, `result ${k} has ${text.length} characters`);
        strict_1.default.match(text, new RegExp(`f${k} line 0999 `));
    });
}
(0, node_test_1.test)('integration: 40 tool results and 40 tool inputs of 100,000 characters in one turn each; no history event above 512 KiB', async () => {
    await (0, agent_1.withAgent)({ fake: { textChunkSize: 4000, jsonChunkSize: 64 * 1024 } }, async ({ fake, start, workDir, client }) => {
        const files = await makeFiles(workDir);
        fake.script(script(workDir, files));
        // 4 M characters in one turn: a model whose window holds them (else the session would clear and compact, see context-window.test).
        const handle = await start({
            prompt: 'read the big files, then write the outputs',
            tools: ['Read', 'Write'],
            maxTurns: 5,
            contextManagement: { contextWindow: 10_000_000 },
        });
        const result = await handle.result();
        strict_1.default.equal(result.status, 'completed', result.endReason);
        strict_1.default.equal(result.turns, 3);
        fake.assertDone();
        const requests = fake.messageRequests();
        strict_1.default.equal(requests.length, 3);
        assertReadResults(requests[1]);
        const writes = requests[2].messages[4];
        strict_1.default.ok(writes && Array.isArray(writes.content));
        for (const r of writes.content)
            strict_1.default.ok(r.type === 'tool_result' && r.is_error !== true, JSON.stringify(r).slice(0, 300));
        for (let k = 0; k < CALLS; k++)
            strict_1.default.equal(await (0, promises_1.readFile)((0, node_path_1.join)(workDir, `out-${k}.txt`), 'utf8'), body(k));
        // Every event of every run of the session and of every turn.
        const runs = await (0, history_1.sessionRuns)(client, handle.workflowId, handle.firstExecutionRunId);
        const histories = runs.map((r, i) => ({ name: `session run ${i + 1}`, history: r.history }));
        for (let turn = 1; turn <= result.turns; turn++) {
            histories.push({
                name: `turn ${turn}`,
                history: await client.workflow.getHandle(`${handle.workflowId}/turn-${turn}`).fetchHistory(),
            });
        }
        let largest = { name: '', type: '', bytes: 0 };
        for (const { name, history } of histories) {
            for (const e of history.events ?? []) {
                const bytes = (0, history_1.eventBytes)(e);
                if (bytes > largest.bytes)
                    largest = { name, type: EventType[e.eventType ?? 0] ?? '?', bytes };
                strict_1.default.ok(bytes <= MAX_EVENT, `${name}: event ${e.eventId} (${EventType[e.eventType ?? 0]}) is ${(0, history_1.fmtBytes)(bytes)}`);
            }
        }
        const total = histories.reduce((n, h) => n + (h.history.events ?? []).reduce((m, e) => m + (0, history_1.eventBytes)(e), 0), 0);
        console.log(`[payloads] ${CALLS} × ${CHARS} chars of results and of inputs: largest event ${(0, history_1.fmtBytes)(largest.bytes)} (${largest.name}, ${largest.type}); all histories ${(0, history_1.fmtBytes)(total)}`);
    });
});
(0, node_test_1.test)('integration: the in-process runner takes the same by-reference path (the model gets the whole results)', async () => {
    await (0, agent_1.withAgent)({ noWorker: true }, async ({ fake, workDir, storeDir }) => {
        const files = (await makeFiles(workDir)).slice(0, 3);
        fake.script((req) => {
            const turn = req.messages.filter((m) => m.role === 'assistant').length + 1;
            if (turn === 1)
                return (0, fakeAnthropic_1.toolUseResponse)(files.map((f, k) => ({ id: `toolu_read_${k}`, name: 'Read', input: { file_path: f } })));
            return (0, fakeAnthropic_1.textResponse)('done');
        });
        const result = await (0, runSession_1.runLocalSession)({
            prompt: 'read',
            cwd: workDir,
            tools: ['Read'],
            permissionMode: 'bypassPermissions',
            model: { model: 'claude-test', maxTokens: 1024 },
        }, { storeDir, anthropic: (0, agent_1.fakeAnthropicFactory)(fake) });
        strict_1.default.equal(result.status, 'completed', result.endReason);
        // The records carry previews and references; the transcript got the whole blocks.
        for (const r of result.records) {
            strict_1.default.match(r.resultRef ?? '', /^toolresult-/);
            strict_1.default.ok(JSON.stringify(r.result.content).length < 2000);
        }
        const user = fake.messageRequests()[1].messages[2];
        strict_1.default.ok(user && Array.isArray(user.content));
        user.content.forEach((r, k) => strict_1.default.match(JSON.stringify(r), new RegExp(`f${k} line 0999 `)));
    });
});
//# sourceMappingURL=payloads.test.js.map