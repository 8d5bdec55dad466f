"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: a session's configuration does not ride in every tool call's history (invariant 11;
// issue 21 finding 7). A session with 20 hooks, 10 MCP servers and 10 agent types stores its tool
// settings once per run; each runToolUse input carries a reference, so a tool call adds as many
// history bytes as in a session configured with nothing. Measured on the real dev server from the
// ActivityTaskScheduled events' input payloads.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const messageStore_1 = require("../../src/stores/messageStore");
const configured_1 = require("../../src/stores/configured");
const toolSettingsStore_1 = require("../../src/stores/toolSettingsStore");
const tools_1 = require("../../src/calls/tools");
const toolSettings_1 = require("../../src/workflows/toolSettings");
const client_1 = require("../../src/client");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
(0, node_test_1.after)(temporal_1.closeTestEnv);
const testServer = (0, node_path_1.join)(__dirname, '..', 'support', 'mcpServer.js');
/** The runToolUse activities a workflow scheduled: their ids, input payload bytes and decoded input. */
function runToolUseInputs(history) {
    return (history.events ?? []).flatMap((e) => {
        const a = e.activityTaskScheduledEventAttributes;
        if (!a || a.activityType?.name !== 'runToolUse')
            return [];
        const payloads = a.input?.payloads ?? [];
        const bytes = payloads.reduce((n, p) => n + (p.data?.length ?? 0), 0);
        return [
            {
                activityId: a.activityId ?? '',
                bytes,
                input: JSON.parse(Buffer.from(payloads[0]?.data ?? new Uint8Array()).toString('utf8')),
            },
        ];
    });
}
/** Three Reads in one message, then an answer; the session's id has the same length in both runs. */
async function threeReads(ctx, id, extra) {
    for (const n of ['a', 'b', 'c'])
        await (0, promises_1.writeFile)((0, node_path_1.join)(ctx.workDir, `${n}.txt`), `${n}\n`);
    ctx.fake.enqueue((0, fakeAnthropic_1.toolUseResponse)(['a', 'b', 'c'].map((n) => ({
        id: `toolu_r${n}`,
        name: 'Read',
        input: { file_path: (0, node_path_1.join)(ctx.workDir, `${n}.txt`) },
    }))), (0, fakeAnthropic_1.textResponse)('Read them.'));
    const handle = await ctx.start({ id, prompt: 'read three files', tools: ['Read', 'Agent'], ...extra });
    const result = await handle.result();
    strict_1.default.equal(result.status, 'completed', result.endReason);
    return runToolUseInputs(await ctx.client.workflow.getHandle(`${id}/turn-1`).fetchHistory());
}
(0, node_test_1.test)('integration: 20 hooks, 10 MCP servers and 10 agents add no history bytes per tool call (the settings go by reference)', { timeout: 180_000 }, async () => {
    const portFile = (0, node_path_1.join)(await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'mcp-http-')), 'port');
    const server = (0, node_child_process_1.spawn)(process.execPath, [testServer, 'http', portFile], { stdio: 'ignore' });
    try {
        let port = '';
        for (let i = 0; i < 200 && !port; i++) {
            port = await (0, promises_1.readFile)(portFile, 'utf8').catch(() => '');
            if (!port)
                await new Promise((r) => setTimeout(r, 50));
        }
        strict_1.default.ok(port, 'the MCP server wrote its port');
        const stamp = Date.now().toString(36);
        const plain = await (0, agent_1.withAgent)({}, (ctx) => threeReads(ctx, `settings-plain-${stamp}`, {}));
        let stored = 0;
        const big = await (0, agent_1.withAgent)({}, async (ctx) => {
            await (0, promises_1.mkdir)((0, node_path_1.join)(ctx.workDir, '.claude', 'agents'), { recursive: true });
            for (let i = 0; i < 10; i++) {
                await (0, promises_1.writeFile)((0, node_path_1.join)(ctx.workDir, '.claude', 'agents', `agent${i}.md`), `---\nname: agent${i}\ndescription: Agent number ${i}.\ntools: Read\n---\n${`You are agent ${i}; review carefully and report. `.repeat(40)}\n`);
            }
            // 20 hooks that never match these calls (they need not run to be configuration).
            const hooks = {
                PreToolUse: Array.from({ length: 20 }, (_, i) => ({
                    matcher: `NoSuchTool${i}`,
                    hooks: [{ type: 'command', command: `echo hook ${i} ${'x'.repeat(200)} >/dev/null`, timeout: 30 }],
                })),
            };
            const mcpServers = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [
                `srv${i}`,
                {
                    type: 'http',
                    url: `http://127.0.0.1:${port}/mcp`,
                    headers: { 'X-Server': `server-${i}-${'h'.repeat(100)}` },
                },
            ]));
            const rules = {
                allow: Array.from({ length: 30 }, (_, i) => `Bash(npm run script-${i}:*)`),
                ask: [],
                deny: ['Read(./.env)'],
            };
            const calls = await threeReads(ctx, `settings-large-${stamp}`, { hooks, mcpServers, rules });
            // The settings really are large: what every call would carry inline.
            const ref = (calls[0]?.input).session?.settingsRef;
            strict_1.default.match(ref ?? '', /^toolsettings-[0-9a-f]{64}$/);
            const settings = await new toolSettingsStore_1.ToolSettingsStore((0, configured_1.configuredBlobStore)({ storeDir: ctx.storeDir })).get(ref);
            strict_1.default.equal(settings.hooks?.PreToolUse?.length, 20);
            strict_1.default.equal(Object.keys(settings.mcpServers ?? {}).length, 10);
            strict_1.default.equal(settings.agents?.filter((a) => a.name.startsWith('agent')).length, 10);
            stored = JSON.stringify(settings).length;
            return calls;
        });
        strict_1.default.equal(plain.length, 3);
        strict_1.default.equal(big.length, 3);
        const perCall = (xs) => xs.reduce((n, x) => n + x.bytes, 0) / xs.length;
        console.log(`[settings-ref] runToolUse input per call: ${perCall(plain)} B without configuration, ${perCall(big)} B with 20 hooks, 10 MCP servers, 10 agents (their settings: ${stored} B, stored once)`);
        strict_1.default.ok(stored > 20_000, `the configuration is large (${stored} B)`);
        for (let i = 0; i < 3; i++) {
            // Same ids, same-length paths and refs: equal within a few bytes (paths of two temp dirs, a ref vs a ref).
            strict_1.default.ok(Math.abs(big[i].bytes - plain[i].bytes) <= 16, `${big[i]?.activityId}: ${big[i]?.bytes} B vs ${plain[i]?.bytes} B`);
        }
    }
    finally {
        server.kill();
    }
});
(0, node_test_1.test)('unit: a tool session by reference resolves to the whole settings; an inline one (histories before the patch) is used as it is', async () => {
    const dir = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-settings-'));
    const store = new toolSettingsStore_1.ToolSettingsStore(new messageStore_1.LocalBlobStore(dir));
    const ref = await store.put({
        toolNames: ['Read'],
        rules: { allow: ['Read'], ask: [], deny: [] },
        sandbox: {},
        hooks: { PreToolUse: [] },
    });
    strict_1.default.equal(await store.put({
        toolNames: ['Read'],
        rules: { allow: ['Read'], ask: [], deny: [] },
        sandbox: {},
        hooks: { PreToolUse: [] },
    }), ref, 'content-addressed');
    const resolved = await (0, tools_1.resolveToolSession)({ sessionId: 's', ledgerKey: 'k', settingsRef: ref, mode: 'acceptEdits', workingDirectories: ['/w'] }, new toolSettingsStore_1.ToolSettingsStore(new messageStore_1.LocalBlobStore(dir)));
    strict_1.default.deepEqual(resolved, {
        sessionId: 's',
        ledgerKey: 'k',
        toolNames: ['Read'],
        permission: {
            mode: 'acceptEdits',
            rules: { allow: ['Read'], ask: [], deny: [] },
            workingDirectories: ['/w'],
            sandbox: {},
        },
        hooks: { PreToolUse: [] },
    });
    const inline = {
        sessionId: 's',
        toolNames: ['Read'],
        permission: { mode: 'default', rules: { allow: [], ask: [], deny: [] }, workingDirectories: ['/w'] },
    };
    strict_1.default.equal(await (0, tools_1.resolveToolSession)(inline, undefined), inline);
    await strict_1.default.rejects((0, tools_1.resolveToolSession)({ sessionId: 's', settingsRef: 'toolsettings-00', mode: 'default', workingDirectories: ['/w'] }, store), (e) => e.code === 'STORE_BLOB_MISSING');
});
(0, node_test_1.test)("unit: a turn's tool session by reference resolves to exactly what the turn sends inline (every field the session stores)", async () => {
    const input = {
        ...(0, client_1.sessionInput)({
            prompt: 'x',
            cwd: '/w',
            tools: ['Read', 'Agent'],
            rules: { allow: ['Read'], ask: ['Bash'], deny: ['Read(./.env)'] },
            additionalDirectories: ['/x'],
        }),
        hooks: { PreToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: 'true' }] }] },
        mcpServers: { s: { type: 'http', url: 'http://127.0.0.1:1/mcp' } },
        agents: [{ name: 'a', description: 'd', prompt: 'p', source: 'built-in' }],
    };
    // The turn input as the session workflow builds it (runTurnChild).
    const turn = {
        sessionId: 's',
        ledgerKey: 'k',
        turn: 1,
        head: null,
        append: [],
        model: input.model,
        tools: input.tools,
        permissionMode: 'acceptEdits',
        rules: input.rules,
        sandbox: input.sandbox,
        hooks: input.hooks,
        mcpServers: input.mcpServers,
        agentHookFields: { session_id: 'p', agent_id: 'p/agent-1', agent_type: 'a' },
        context: { cwd: '/w', additionalDirectories: ['/x'], readFiles: {} },
        maxConcurrency: 10,
        approvalTimeoutMs: 1000,
        subagents: { agents: input.agents },
    };
    const store = new toolSettingsStore_1.ToolSettingsStore(new messageStore_1.LocalBlobStore(await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-settings-'))));
    const ref = await store.put((0, toolSettings_1.storedToolSettings)(input));
    strict_1.default.deepEqual(await (0, tools_1.resolveToolSession)((0, toolSettings_1.toolSession)({ ...turn, toolSettingsRef: ref }), store), (0, toolSettings_1.toolSession)(turn));
});
//# sourceMappingURL=tool-settings-ref.test.js.map