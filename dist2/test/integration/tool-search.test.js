"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: deferred tools and ToolSearch on the real dev server. A session with 200 MCP tools
// (test/support/mcpServer MCP_TEST_EXTRA_TOOLS) sends them deferred (tool search `auto`: their
// schemas pass 10% of the window); the model loads one with ToolSearch; the worker is SIGKILLed
// while the rest of that turn runs, and the next worker's request carries the loaded tool (the
// loaded set is derived from the transcript, not from a worker's memory); calling it works.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const definitions_1 = require("../../src/workflows/definitions");
const worker_1 = require("../../src/worker");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const wait_1 = require("../support/wait");
const workerProcs_1 = require("../support/workerProcs");
(0, node_test_1.after)(temporal_1.closeTestEnv);
const testServer = (0, node_path_1.join)(__dirname, '..', 'support', 'mcpServer.js');
const LOADED = 'mcp__big__extra_042';
const toolsOf = (r) => (r.tools ?? []);
(0, node_test_1.test)('integration: 200 MCP tools go deferred; ToolSearch loads one; after a worker SIGKILL the next request still carries it and calling it works', { timeout: 240_000 }, async () => {
    const procs = [];
    try {
        await (0, agent_1.withAgent)({ noWorker: true }, async ({ env, client, fake, start, storeDir, taskQueue }) => {
            const bundlePath = (0, node_path_1.join)(storeDir, 'workflow-bundle.js');
            await (0, promises_1.writeFile)(bundlePath, (await (0, temporal_1.getWorkflowBundle)(worker_1.workflowsPath)).code);
            const workerEnv = {
                TEMPORAL_TEST_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS ?? env.address,
                TEMPORAL_TEST_NAMESPACE: env.namespace ?? 'default',
                TASK_QUEUE: taskQueue,
                STORE_DIR: storeDir,
                FAKE_ANTHROPIC_URL: fake.baseURL,
                WORKFLOW_BUNDLE_PATH: bundlePath,
            };
            fake.enqueue(
            // Turn 1: load one deferred tool, and (same message) a slow call during which the worker dies.
            (0, fakeAnthropic_1.toolUseResponse)([
                { id: 'toolu_load', name: 'ToolSearch', input: { query: `select:${LOADED}` } },
                { id: 'toolu_wait', name: 'mcp__big__wait', input: { ms: 8000, tag: 'slow' } },
            ]), 
            // Turn 2 (the next worker): call the loaded tool.
            (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_call', name: LOADED, input: { id: 'r1' } }]), (0, fakeAnthropic_1.textResponse)('done'));
            const worker = await (0, workerProcs_1.spawnWorker)('worker-1', workerEnv, procs);
            const handle = await start({
                prompt: 'look up record r1',
                tools: ['Read', 'Bash', 'ToolSearch'],
                mcpServers: {
                    big: { command: process.execPath, args: [testServer], env: { MCP_TEST_EXTRA_TOOLS: '200' } },
                },
                contextManagement: { toolSearch: 'auto' },
                toolHeartbeatTimeoutMs: 2000,
            });
            const turn = client.workflow.getHandle(`${handle.workflowId}/turn-1`);
            await (0, wait_1.waitFor)('ToolSearch done and the slow call running', async () => {
                const p = await turn.query(definitions_1.turnProgressQuery);
                return (p.done.some((r) => r.toolUseId === 'toolu_load') && p.running.some((r) => r.toolUseId === 'toolu_wait'));
            }, 90_000);
            (0, workerProcs_1.killGroup)(worker);
            await worker.exited;
            await (0, workerProcs_1.spawnWorker)('worker-2', workerEnv, procs); // killed in finally
            const result = await handle.result();
            strict_1.default.equal(result.status, 'completed', result.endReason);
            const [first, second, third] = fake.messageRequests();
            strict_1.default.ok(first && second && third, 'three model requests');
            // The first request: no MCP schema whole, one defer_loading placeholder; the extras only named.
            const firstTools = toolsOf(first);
            strict_1.default.equal(firstTools.filter((t) => t.name?.startsWith('mcp__big__extra_')).length, 0);
            strict_1.default.equal(firstTools.filter((t) => t.defer_loading === true).length, 1);
            strict_1.default.ok(firstTools.some((t) => t.name === 'ToolSearch' && t.input_schema));
            strict_1.default.match(JSON.stringify(first.system ?? '') + JSON.stringify(first.messages), new RegExp(LOADED));
            // ToolSearch's result is the tool_reference block.
            const loadResult = (0, fakeAnthropic_1.lastToolResults)(second).find((r) => r.tool_use_id === 'toolu_load');
            strict_1.default.deepEqual(loadResult?.content, [{ type: 'tool_reference', tool_name: LOADED }]);
            // The request the second worker built carries the loaded tool whole (deferred), and no other extra.
            for (const r of [second, third]) {
                const loaded = toolsOf(r).filter((t) => t.name?.startsWith('mcp__big__extra_'));
                strict_1.default.deepEqual(loaded.map((t) => [t.name, t.defer_loading, !!t.input_schema]), [[LOADED, true, true]]);
            }
            // Calling it works.
            const callResult = (0, fakeAnthropic_1.lastToolResults)(third).find((r) => r.tool_use_id === 'toolu_call');
            strict_1.default.notEqual(callResult?.is_error, true, JSON.stringify(callResult));
            strict_1.default.match(JSON.stringify(callResult?.content), /extra_042 r1/);
            fake.assertDone();
        });
    }
    finally {
        for (const p of procs)
            (0, workerProcs_1.killGroup)(p);
    }
});
//# sourceMappingURL=tool-search.test.js.map