"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the in-process scheduler runs the same turn algorithm as the workflows (no Temporal),
// here with a custom tool defined with buildTool and the real SDK against the fake API.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const sdk_1 = __importDefault(require("@anthropic-ai/sdk"));
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const runSession_1 = require("../../src/local/runSession");
const client_1 = require("../../src/client");
const custom_tool_1 = require("../../examples/custom-tool");
(0, node_test_1.test)('unit: runLocalSession — [WordCount, Read] [Edit] [Grep] with ordered results, a custom tool, and an approval callback', async () => {
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    const work = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-local-'));
    const store = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-local-store-'));
    try {
        await (0, promises_1.writeFile)((0, node_path_1.join)(work, 'a.txt'), 'timeout = 10\n');
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_wc', name: 'WordCount', input: { text: 'the quick brown fox' } },
            { id: 'toolu_rd', name: 'Read', input: { file_path: 'a.txt' } },
            { id: 'toolu_ed', name: 'Edit', input: { file_path: 'a.txt', old_string: '10', new_string: '30' } },
            { id: 'toolu_gr', name: 'Grep', input: { pattern: 'timeout = 30', output_mode: 'content' } },
        ]), (0, fakeAnthropic_1.textResponse)('done'));
        const asked = [];
        const result = await (0, runSession_1.runLocalSession)({
            prompt: 'go',
            cwd: work,
            tools: [...client_1.BUILTIN_TOOL_NAMES, 'WordCount'],
            permissionMode: 'default',
            model: { model: 'claude-test', maxTokens: 256 },
            onAsk: async (a) => {
                asked.push(a.toolUseId);
                return { decision: 'approve', source: 'human', by: 'tester' };
            },
        }, {
            tools: [custom_tool_1.WordCount],
            storeDir: store,
            anthropic: () => new sdk_1.default({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }),
        });
        strict_1.default.equal(result.status, 'completed');
        strict_1.default.deepEqual(asked, ['toolu_ed'], 'only the Edit asks in default mode');
        strict_1.default.deepEqual(result.turnsDetail[0]?.batches.map((b) => [b.concurrencySafe, b.toolUseIds]), [
            [true, ['toolu_wc', 'toolu_rd']],
            [false, ['toolu_ed']],
            [true, ['toolu_gr']],
        ]);
        const results = (0, fakeAnthropic_1.lastToolResults)(fake.messageRequests()[1]);
        strict_1.default.deepEqual(results.map((r) => r.tool_use_id), ['toolu_wc', 'toolu_rd', 'toolu_ed', 'toolu_gr']);
        strict_1.default.equal(results[0]?.content, '4 words');
        strict_1.default.match(JSON.stringify(results[3]?.content), /timeout = 30/);
        strict_1.default.equal(await (0, promises_1.readFile)((0, node_path_1.join)(work, 'a.txt'), 'utf8'), 'timeout = 30\n');
        // The custom tool was offered to the model with its schema.
        const wc = (fake.messageRequests()[0]?.tools ?? []).find((t) => t.name === 'WordCount');
        strict_1.default.deepEqual(wc?.input_schema, {
            type: 'object',
            properties: { text: { type: 'string', minLength: 1, description: 'The text to count words in' } },
            required: ['text'],
            additionalProperties: false,
        });
    }
    finally {
        await fake.close();
    }
});
(0, node_test_1.test)('unit: a large result that cannot be stored stays inline, and the failure is recorded on the call (never silent)', async () => {
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    const work = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-local-'));
    const store = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-local-store-'));
    try {
        // A file where the results directory should be: storing a large result fails (ENOTDIR), even as root.
        await (0, promises_1.writeFile)((0, node_path_1.join)(store, 'results'), 'not a directory\n');
        const lines = Array.from({ length: 1000 }, (_, i) => `match line ${String(i).padStart(4, '0')} ${'x'.repeat(40)}`);
        await (0, promises_1.writeFile)((0, node_path_1.join)(work, 'big.txt'), `${lines.join('\n')}\n`);
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_big', name: 'Grep', input: { pattern: 'match line', output_mode: 'content', head_limit: 0 } },
        ]), (0, fakeAnthropic_1.textResponse)('done'));
        const result = await (0, runSession_1.runLocalSession)({
            prompt: 'go',
            cwd: work,
            tools: ['Grep'],
            permissionMode: 'bypassPermissions',
            model: { model: 'claude-test', maxTokens: 256 },
        }, { storeDir: store, anthropic: () => new sdk_1.default({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) });
        strict_1.default.equal(result.status, 'completed', result.endReason);
        const [record] = result.records;
        strict_1.default.equal(record?.status, 'ok');
        strict_1.default.equal(record?.persistedTo, undefined);
        strict_1.default.ok(record?.notices?.some((n) => /Could not store the large Grep result \(\d+ chars\); kept it inline: .*ENOTDIR|not a directory/.test(n)), JSON.stringify(record?.notices));
        // The model got the whole result inline.
        const [sent] = (0, fakeAnthropic_1.lastToolResults)(fake.messageRequests()[1]);
        strict_1.default.match(JSON.stringify(sent?.content), /match line 0999/);
    }
    finally {
        await fake.close();
    }
});
//# sourceMappingURL=local-session.test.js.map