"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: streaming tool execution in the in-process scheduler (no Temporal): the same scenarios as
// integration/streaming-tools, through the same engine algorithm, with the real SDK against the
// fake Messages API pacing its SSE events.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const sdk_1 = __importDefault(require("@anthropic-ai/sdk"));
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const runSession_1 = require("../../src/local/runSession");
const testTools_1 = require("../support/testTools");
async function setup() {
    return {
        fake: await (0, fakeAnthropic_1.startFakeAnthropic)(),
        work: await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-lstream-')),
        store: await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-lstream-store-')),
    };
}
function run(s, opts) {
    return (0, runSession_1.runLocalSession)({ cwd: s.work, permissionMode: 'bypassPermissions', model: { model: 'claude-test', maxTokens: 256 }, ...opts }, {
        tools: testTools_1.TEST_TOOLS,
        storeDir: s.store,
        anthropic: () => new sdk_1.default({ apiKey: 'k', baseURL: s.fake.baseURL, maxRetries: 0 }),
    });
}
function readWriteRead(dir) {
    return {
        content: [
            { type: 'text', text: 'Reading first.' },
            {
                type: 'tool_use',
                id: 'toolu_read1',
                name: 'Read',
                input: { file_path: (0, node_path_1.join)(dir, 'a.txt') },
                pauseAfterMs: 5000,
            },
            {
                type: 'tool_use',
                id: 'toolu_write1',
                name: 'Write',
                input: { file_path: (0, node_path_1.join)(dir, 'b.txt'), content: 'written\n' },
                pauseAfterMs: 300,
            },
            { type: 'tool_use', id: 'toolu_read2', name: 'Read', input: { file_path: (0, node_path_1.join)(dir, 'a.txt') } },
        ],
    };
}
(0, node_test_1.test)('unit: in-process — a Read streamed before its message ends starts before the message is complete; the Write and what follows wait', async () => {
    const s = await setup();
    try {
        await (0, promises_1.writeFile)((0, node_path_1.join)(s.work, 'a.txt'), 'alpha\n');
        s.fake.enqueue(readWriteRead(s.work), (0, fakeAnthropic_1.textResponse)('Done.'));
        const result = await run(s, { prompt: 'read then write', tools: ['Read', 'Write'] });
        strict_1.default.equal(result.status, 'completed', result.endReason);
        const streamedUntil = s.fake.requests.filter((r) => r.valid)[0]?.finishedAt;
        const [read1, write1, read2] = result.records;
        strict_1.default.ok(streamedUntil && read1?.startedAt, JSON.stringify({ streamedUntil, read1 }));
        strict_1.default.ok(read1.startedAt < streamedUntil, `the Read started (${read1.startedAt}) before the message was complete (${streamedUntil})`);
        strict_1.default.deepEqual(result.records.map((r) => [r.toolUseId, r.status, r.early ?? false]), [
            ['toolu_read1', 'ok', true],
            ['toolu_write1', 'ok', false],
            ['toolu_read2', 'ok', false],
        ]);
        strict_1.default.ok((write1?.startedAt ?? 0) >= (read1.endedAt ?? Infinity) &&
            (read2?.startedAt ?? 0) >= (write1?.endedAt ?? Infinity), 'the Write ran alone, the Read after it waited');
        strict_1.default.equal(await (0, promises_1.readFile)((0, node_path_1.join)(s.work, 'b.txt'), 'utf8'), 'written\n');
    }
    finally {
        await s.fake.close();
    }
});
(0, node_test_1.test)('unit: in-process — streamingToolExecution: false starts the tools only when the message is complete', async () => {
    const s = await setup();
    try {
        await (0, promises_1.writeFile)((0, node_path_1.join)(s.work, 'a.txt'), 'alpha\n');
        s.fake.enqueue(readWriteRead(s.work), (0, fakeAnthropic_1.textResponse)('Done.'));
        const result = await run(s, { prompt: 'read then write', tools: ['Read', 'Write'], streamingToolExecution: false });
        strict_1.default.equal(result.status, 'completed', result.endReason);
        const streamedUntil = s.fake.requests.filter((r) => r.valid)[0]?.finishedAt ?? Infinity;
        strict_1.default.ok((result.records[0]?.startedAt ?? 0) >= streamedUntil, 'the Read waited for the message');
        strict_1.default.ok(result.records.every((r) => !r.early));
    }
    finally {
        await s.fake.close();
    }
});
(0, node_test_1.test)('unit: in-process — a stream that fails after early starts falls back; the repeated id is reused (ran once), the dropped one is cancelled and never sent', async () => {
    const s = await setup();
    try {
        const counter = (0, node_path_1.join)(s.work, 'count.log');
        const kept = {
            type: 'tool_use',
            id: 'toolu_kept',
            name: 'CountSafe',
            input: { file: counter, text: 'kept' },
        };
        s.fake.enqueue({
            content: [
                { type: 'text', text: 'Counting.' },
                kept,
                {
                    type: 'tool_use',
                    id: 'toolu_dropped',
                    name: 'CountSafe',
                    input: { file: counter, text: 'dropped', delayMs: 120_000 },
                    pauseAfterMs: 4000,
                },
            ],
            dropAfterBlocks: 3,
        }, { content: [{ type: 'text', text: 'Counting.' }, kept] }, (0, fakeAnthropic_1.textResponse)('Counted.'));
        const result = await run(s, { prompt: 'count', tools: ['CountSafe'] });
        strict_1.default.equal(result.status, 'completed', result.endReason);
        strict_1.default.deepEqual((await (0, promises_1.readFile)(counter, 'utf8')).trim().split('\n').sort(), ['dropped', 'kept']);
        const reqs = s.fake.messageRequests();
        strict_1.default.equal(reqs.length, 3);
        strict_1.default.notEqual(reqs[1]?.stream, true, 'the fallback is non-streamed');
        strict_1.default.doesNotMatch(JSON.stringify(reqs[2]), /toolu_dropped/);
        strict_1.default.deepEqual(result.records.map((r) => [r.toolUseId, r.early ?? false]), [['toolu_kept', true]]);
        strict_1.default.deepEqual(result.turnsDetail[0]?.discarded?.map((d) => [d.toolUseId, d.state]), [['toolu_dropped', 'cancelled']]);
    }
    finally {
        await s.fake.close();
    }
});
//# sourceMappingURL=local-streaming.test.js.map