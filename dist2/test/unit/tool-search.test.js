"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: deferred tools and ToolSearch (docs/tools.md "Deferred tools and ToolSearch"): the search
// (select and keywords, the reference's scoring), the loaded set derived from the transcript, the
// request's tools and messages, the tool through the one pipeline, the edge's settings, and the
// fake Messages API's wire checks and token counts.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const zod_1 = require("zod");
const toolSearch_1 = require("../../src/tools/toolSearch");
const builtin_1 = require("../../src/tools/builtin");
const Tool_1 = require("../../src/tools/Tool");
const pipeline_1 = require("../../src/pipeline");
const contextWindow_1 = require("../../src/engine/contextWindow");
const sessionInput_1 = require("../../src/sessionInput");
const promptCache_1 = require("../../src/engine/promptCache");
const fakeAnthropic_1 = require("../support/fakeAnthropic");
const pipelineFixtures_1 = require("./pipelineFixtures");
const tool = (name, description, deferrable = true) => ({
    name,
    description,
    input_schema: { type: 'object', properties: { x: { type: 'string', description: description.repeat(4) } } },
    ...(deferrable ? { deferrable: true } : {}),
});
const DEFERRED = [
    { name: 'WebFetch', description: 'Fetches a URL and answers a prompt about the page' },
    { name: 'WebSearch', description: 'Searches the web' },
    { name: 'CronCreate', description: 'Schedules a prompt on a cron expression' },
    { name: 'CronList', description: 'Lists the cron jobs' },
    { name: 'CronDelete', description: 'Deletes a cron job' },
    { name: 'mcp__t__ping', description: 'Answers pong with the message' },
    { name: 'mcp__t__pid', description: 'The process id of the server' },
    { name: 'mcp__t__extra_000', description: 'Looks up a record of the catalogue' },
    { name: 'mcp__t__extra_001', description: 'Looks up a record of the catalogue' },
    { name: 'mcp__t__extra_002', description: 'Looks up a record of the catalogue' },
];
const ALL = [...DEFERRED, { name: 'Read', description: 'Reads a file' }, { name: 'ToolSearch', description: 'x' }];
const search = (q, max) => (0, toolSearch_1.searchTools)(q, { deferred: DEFERRED, all: ALL, ...(max !== undefined ? { maxResults: max } : {}) });
(0, node_test_1.test)('unit: select: loads tools by name, in query order, ignoring case and unknown names', () => {
    strict_1.default.deepEqual(search('select:mcp__t__ping,WebFetch'), ['mcp__t__ping', 'WebFetch']);
    strict_1.default.deepEqual(search('select: webfetch , Nope ,mcp__t__pid'), ['WebFetch', 'mcp__t__pid']);
    strict_1.default.deepEqual(search('SELECT:Read'), ['Read'], 'an up-front tool is selectable (the reference answers it too)');
    strict_1.default.deepEqual(search('select:Nope'), []);
    strict_1.default.deepEqual(search('select:WebFetch,WebFetch'), ['WebFetch']);
});
(0, node_test_1.test)('unit: keyword search scores names and descriptions as the reference does', () => {
    strict_1.default.deepEqual(search('ping'), ['mcp__t__ping']);
    strict_1.default.deepEqual(search('WEBSEARCH'), ['WebSearch'], 'a tool name, any case');
    strict_1.default.deepEqual(search('mcp__t__ext'), ['mcp__t__extra_000', 'mcp__t__extra_001', 'mcp__t__extra_002']);
    strict_1.default.deepEqual(search('extra record', 2), ['mcp__t__extra_000', 'mcp__t__extra_001'], 'max_results');
    strict_1.default.deepEqual(search('+cron list'), ['CronList', 'CronCreate', 'CronDelete'], 'a required word, ranked by the rest');
    strict_1.default.deepEqual(search('web'), ['WebSearch', 'WebFetch'], "WebSearch's description says web too");
    strict_1.default.deepEqual(search('zzzunknown'), []);
    strict_1.default.deepEqual(search('+zzz web'), [], 'nothing has the required word');
    strict_1.default.deepEqual(search('   '), []);
});
(0, node_test_1.test)('unit: the loaded set is the tool_reference blocks of the transcript, in order of first appearance', () => {
    const full = [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'ToolSearch', input: { query: 'x' } }] },
        {
            role: 'user',
            content: [
                {
                    type: 'tool_result',
                    tool_use_id: 't1',
                    content: [
                        { type: 'tool_reference', tool_name: 'B' },
                        { type: 'tool_reference', tool_name: 'A' },
                    ],
                },
            ],
        },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't2', name: 'ToolSearch', input: { query: 'y' } }] },
        {
            role: 'user',
            content: [
                { type: 'tool_result', tool_use_id: 't2', content: [{ type: 'tool_reference', tool_name: 'A' }] },
                { type: 'tool_result', tool_use_id: 't3', content: 'No matching deferred tools found' },
            ],
        },
    ];
    strict_1.default.deepEqual((0, toolSearch_1.referencedToolNames)(full), ['B', 'A']);
    strict_1.default.deepEqual((0, toolSearch_1.referencedToolNames)(full.slice(0, 2)), []);
});
/** A conversation whose ToolSearch call loaded `names`. */
function loadedConversation(names) {
    return [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'ts1', name: 'ToolSearch', input: { query: 'q' } }] },
        {
            role: 'user',
            content: [
                {
                    type: 'tool_result',
                    tool_use_id: 'ts1',
                    content: names.map((tool_name) => ({ type: 'tool_reference', tool_name })),
                },
            ],
        },
    ];
}
const defined = [
    tool('Read', 'Reads a file', false),
    tool('ToolSearch', 'Loads deferred tools', false),
    tool('WebFetch', 'Fetches a URL'),
    ...Array.from({ length: 50 }, (_, i) => tool(`mcp__big__t${i}`, `Tool ${i} of a big server`)),
];
const settings = (mode, window = 200_000) => ({
    mode,
    pct: 10,
    window,
    estimate: contextWindow_1.estimateTokens,
});
(0, node_test_1.test)('unit: on: up-front tools, a deferred placeholder, the loaded tools with defer_loading; names in the note', () => {
    const full = loadedConversation(['mcp__big__t3', 'Nope']);
    const r = (0, toolSearch_1.deferTools)(defined, full, full, settings('on'));
    strict_1.default.equal(r.active, true);
    strict_1.default.deepEqual(r.tools.map((t) => `${t.name}${t.defer_loading ? '*' : ''}`), ['Read', 'ToolSearch', 'DeferredToolPlaceholder*', 'mcp__big__t3*']);
    strict_1.default.ok(r.tools.every((t) => !('deferrable' in t)), 'our flag is never sent');
    strict_1.default.match(r.note ?? '', /select:/);
    strict_1.default.ok(r.note?.includes('\nmcp__big__t49') && r.note.includes('\nWebFetch'), 'every deferred tool is named');
    // Nothing loaded yet: only the placeholder is deferred.
    const first = (0, toolSearch_1.deferTools)(defined, full.slice(0, 1), full.slice(0, 1), settings('on'));
    strict_1.default.deepEqual(first.tools.map((t) => t.name), ['Read', 'ToolSearch', 'DeferredToolPlaceholder']);
});
(0, node_test_1.test)('unit: a tool loaded before a compaction stays loaded, sent whole (its reference is summarised away)', () => {
    const full = loadedConversation(['mcp__big__t7']);
    const view = [{ role: 'user', content: 'summary of the earlier conversation' }];
    const r = (0, toolSearch_1.deferTools)(defined, full, view, settings('on'));
    const t7 = r.tools.find((t) => t.name === 'mcp__big__t7');
    strict_1.default.ok(t7, 'still offered');
    strict_1.default.equal(t7.defer_loading, undefined, 'whole: the model has no reference to expand');
});
(0, node_test_1.test)('unit: off sends every schema up front and no ToolSearch; auto defers only above the threshold, then stays on', () => {
    const off = (0, toolSearch_1.deferTools)(defined, [], [], settings('off'));
    strict_1.default.equal(off.active, false);
    strict_1.default.equal(off.note, undefined);
    strict_1.default.deepEqual(off.tools.map((t) => t.name), defined.filter((t) => t.name !== 'ToolSearch').map((t) => t.name));
    const tokens = (0, contextWindow_1.estimateTokens)(defined.filter((t) => t.deferrable));
    // The 51 deferrable schemas are above 10% of a small window, below 10% of a big one.
    strict_1.default.equal((0, toolSearch_1.deferTools)(defined, [], [], settings('auto', tokens * 5)).active, true);
    const below = (0, toolSearch_1.deferTools)(defined, [], [], settings('auto', tokens * 20));
    strict_1.default.equal(below.active, false);
    strict_1.default.ok(!below.tools.some((t) => t.name === 'ToolSearch'));
    // Once the model called ToolSearch the conversation keeps it (the reference's "held" auto mode).
    const used = loadedConversation(['WebFetch']);
    strict_1.default.equal((0, toolSearch_1.deferTools)(defined, used, used, settings('auto', tokens * 20)).active, true);
    // No ToolSearch in the session (an explicit tool list without it): nothing is deferred.
    const without = defined.filter((t) => t.name !== 'ToolSearch');
    strict_1.default.equal((0, toolSearch_1.deferTools)(without, [], [], settings('on')).active, false);
});
(0, node_test_1.test)('unit: the messages as sent: Tool loaded. after each result that loaded tools; a reference to a missing tool becomes text', () => {
    const full = loadedConversation(['A', 'Gone']);
    const [, , results] = (0, toolSearch_1.shapeMessages)(full, new Set(['A']));
    strict_1.default.ok(results && results.role === 'user' && Array.isArray(results.content));
    strict_1.default.deepEqual(results.content, [
        {
            type: 'tool_result',
            tool_use_id: 'ts1',
            content: [
                { type: 'tool_reference', tool_name: 'A' },
                { type: 'text', text: 'Tool Gone is not available in this request.' },
            ],
        },
        { type: 'text', text: toolSearch_1.TOOL_LOADED_TEXT },
    ]);
    strict_1.default.deepEqual((0, toolSearch_1.shapeMessages)(full.slice(0, 2), new Set()), full.slice(0, 2), 'untouched without references');
});
(0, node_test_1.test)('unit: the cache breakpoint goes on the last tool sent whole, not on a deferred one', () => {
    const shaped = (0, promptCache_1.applyCacheBreakpoints)({
        tools: [
            { name: 'Read', defer_loading: false },
            { name: 'X', defer_loading: true },
        ],
        messages: [{ role: 'user', content: 'hi' }],
    });
    strict_1.default.deepEqual(shaped.tools[0], { name: 'Read', defer_loading: false, cache_control: { type: 'ephemeral' } });
    strict_1.default.deepEqual(shaped.tools[1], { name: 'X', defer_loading: true });
});
(0, node_test_1.test)('unit: ToolSearch through the pipeline: tool_reference blocks for the deferred tools of the pool, no permission asked', async () => {
    const cwd = await (0, pipelineFixtures_1.tempDir)();
    const mk = (name, description, shouldDefer) => (0, Tool_1.buildTool)({
        name,
        inputSchema: zod_1.z.object({}),
        ...(shouldDefer ? { shouldDefer: true } : {}),
        prompt: () => description,
        async call() {
            return { data: 'ok' };
        },
        mapToolResultToToolResultBlockParam: (d, id) => ({
            type: 'tool_result',
            tool_use_id: id,
            content: d,
        }),
    });
    const tools = [
        builtin_1.ToolSearchTool,
        mk('Echo', 'Echoes its input', false),
        mk('mcp__cal__create_event', 'Creates a calendar event', true),
        mk('mcp__cal__list_events', 'Lists calendar events', true),
        mk('mcp__mail__send', 'Sends an email', true),
    ];
    const env = (0, pipelineFixtures_1.makeEnv)(cwd, { tools, mode: 'default' });
    const k = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('ToolSearch', { query: 'calendar event' }), env);
    strict_1.default.equal(k.status, 'ok');
    strict_1.default.deepEqual(k.result.content, [
        { type: 'tool_reference', tool_name: 'mcp__cal__create_event' },
        { type: 'tool_reference', tool_name: 'mcp__cal__list_events' },
    ]);
    const s = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('ToolSearch', { query: 'select:mcp__mail__send', max_results: 1 }), env);
    strict_1.default.deepEqual(s.result.content, [{ type: 'tool_reference', tool_name: 'mcp__mail__send' }]);
    const none = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('ToolSearch', { query: 'echo' }), env);
    strict_1.default.deepEqual(none.result.content, [{ type: 'tool_reference', tool_name: 'Echo' }], 'a name finds any tool');
    const miss = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('ToolSearch', { query: 'weather forecast' }), env);
    strict_1.default.equal(miss.status, 'ok');
    strict_1.default.equal(miss.result.content, 'No matching deferred tools found');
    strict_1.default.ok(!miss.result.is_error);
    const bad = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('ToolSearch', { max_results: 3 }), env);
    strict_1.default.equal(bad.status, 'error');
    strict_1.default.equal(bad.result.is_error, true);
});
(0, node_test_1.test)('unit: ENABLE_TOOL_SEARCH and the session input: default auto with ToolSearch in the default tools; off drops it; bad values are refused', () => {
    strict_1.default.deepEqual((0, sessionInput_1.toolSearchFromEnv)(undefined), { toolSearch: 'auto' });
    strict_1.default.deepEqual((0, sessionInput_1.toolSearchFromEnv)('true'), { toolSearch: 'on' });
    strict_1.default.deepEqual((0, sessionInput_1.toolSearchFromEnv)('0'), { toolSearch: 'off' });
    strict_1.default.deepEqual((0, sessionInput_1.toolSearchFromEnv)('auto:25'), { toolSearch: 'auto', toolSearchPct: 25 });
    strict_1.default.deepEqual((0, sessionInput_1.toolSearchFromEnv)('auto:0'), { toolSearch: 'on' });
    strict_1.default.deepEqual((0, sessionInput_1.toolSearchFromEnv)('auto:100'), { toolSearch: 'off' });
    strict_1.default.throws(() => (0, sessionInput_1.toolSearchFromEnv)('sometimes'), /ENABLE_TOOL_SEARCH.*true, false, auto or auto:N/);
    const saved = process.env.ENABLE_TOOL_SEARCH;
    try {
        delete process.env.ENABLE_TOOL_SEARCH;
        const dflt = (0, sessionInput_1.sessionInput)({ prompt: 'x', cwd: '/tmp' });
        strict_1.default.deepEqual(dflt.tools, [...sessionInput_1.BUILTIN_TOOL_NAMES, 'ToolSearch']);
        strict_1.default.equal(dflt.contextManagement?.toolSearch, 'auto');
        process.env.ENABLE_TOOL_SEARCH = 'false';
        const off = (0, sessionInput_1.sessionInput)({ prompt: 'x', cwd: '/tmp' });
        strict_1.default.deepEqual(off.tools, sessionInput_1.BUILTIN_TOOL_NAMES);
        strict_1.default.equal(off.contextManagement?.toolSearch, 'off');
        const explicit = (0, sessionInput_1.sessionInput)({ prompt: 'x', cwd: '/tmp', contextManagement: { toolSearch: 'on' } });
        strict_1.default.equal(explicit.contextManagement?.toolSearch, 'on', 'an explicit option beats the env var');
        strict_1.default.ok(explicit.tools.includes('ToolSearch'));
    }
    finally {
        if (saved === undefined)
            delete process.env.ENABLE_TOOL_SEARCH;
        else
            process.env.ENABLE_TOOL_SEARCH = saved;
    }
    const problems = (0, sessionInput_1.sessionInputProblems)({
        ...(0, sessionInput_1.sessionInput)({ prompt: 'x', cwd: '/tmp' }),
        contextManagement: { toolSearch: 'maybe', toolSearchPct: 300 },
    });
    strict_1.default.ok(problems.some((p) => /toolSearch must be/.test(p)));
    strict_1.default.ok(problems.some((p) => /toolSearchPct must be/.test(p)));
});
(0, node_test_1.test)('unit: the fake Messages API checks tool_reference blocks and counts deferred tools only once referenced', async () => {
    const server = await (0, fakeAnthropic_1.startFakeAnthropic)();
    try {
        server.script(() => (0, fakeAnthropic_1.textResponse)('ok'));
        const client = (0, fakeAnthropic_1.fakeClient)(server);
        const big = { type: 'object', properties: { q: { type: 'string', description: 'x'.repeat(4000) } } };
        const base = {
            model: 'claude-test',
            max_tokens: 10,
            tools: [
                { name: 'Read', description: 'r', input_schema: { type: 'object' } },
                { name: 'mcp__s__big', description: 'big', input_schema: big, defer_loading: true },
            ],
        };
        const plain = await client.messages.create({ ...base, messages: [{ role: 'user', content: 'hi' }] });
        const withRef = await client.messages.create({
            ...base,
            messages: [
                { role: 'user', content: 'hi' },
                { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'ToolSearch', input: {} }] },
                {
                    role: 'user',
                    content: [
                        {
                            type: 'tool_result',
                            tool_use_id: 'toolu_1',
                            content: [{ type: 'tool_reference', tool_name: 'mcp__s__big' }],
                        },
                    ],
                },
            ],
        });
        strict_1.default.ok(plain.usage.input_tokens < 100, `the unreferenced deferred tool is not counted (${plain.usage.input_tokens})`);
        strict_1.default.ok(withRef.usage.input_tokens > 1000, `the referenced one is (${withRef.usage.input_tokens})`);
        await strict_1.default.rejects(client.messages.create({
            ...base,
            messages: [
                { role: 'user', content: 'hi' },
                { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_2', name: 'ToolSearch', input: {} }] },
                {
                    role: 'user',
                    content: [
                        { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'tool_reference', tool_name: 'Nope' }] },
                    ],
                },
            ],
        }), (e) => e.status === 400 && /tool reference 'Nope' not found/.test(e.message ?? ''));
        await strict_1.default.rejects(client.messages.create({
            model: 'claude-test',
            max_tokens: 10,
            tools: [{ name: 'X', description: 'x', input_schema: { type: 'object' }, defer_loading: true }],
            messages: [{ role: 'user', content: 'hi' }],
        }), (e) => e.status === 400);
    }
    finally {
        await server.close();
    }
});
//# sourceMappingURL=tool-search.test.js.map