"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: context modifiers of a concurrent batch are applied in the original block order,
// whatever order the calls finish in (a custom tool on the real dev server).
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const zod_1 = require("zod");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const Tool_1 = require("../../src/tools/Tool");
const client_1 = require("../../src/client");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
(0, node_test_1.after)(temporal_1.closeTestEnv);
const finished = [];
const AddDir = (0, Tool_1.buildTool)({
    name: 'AddDir',
    inputSchema: zod_1.z.strictObject({ dir: zod_1.z.string(), delayMs: zod_1.z.number().int().min(0) }),
    prompt: () => 'Adds a working directory after a delay (test tool).',
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    async call(input) {
        await new Promise((r) => setTimeout(r, input.delayMs));
        finished.push(input.dir);
        return {
            data: input.dir,
            contextModifiers: [
                { type: 'addDirectory', path: input.dir },
                { type: 'setCwd', cwd: input.dir },
            ],
        };
    },
    mapToolResultToToolResultBlockParam: (d, id) => ({ type: 'tool_result', tool_use_id: id, content: `added ${d}` }),
});
(0, node_test_1.test)('integration: a batch whose calls finish in reverse order yields the context of the original order', async () => {
    await (0, agent_1.withAgent)({ worker: { tools: [AddDir] } }, async ({ fake, start, client }) => {
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_m1', name: 'AddDir', input: { dir: '/first', delayMs: 1500 } },
            { id: 'toolu_m2', name: 'AddDir', input: { dir: '/second', delayMs: 700 } },
            { id: 'toolu_m3', name: 'AddDir', input: { dir: '/third', delayMs: 10 } },
        ]), (0, fakeAnthropic_1.textResponse)('ok'));
        const handle = await start({ prompt: 'add dirs', tools: [...client_1.BUILTIN_TOOL_NAMES, 'AddDir'] });
        const result = await handle.result();
        strict_1.default.equal(result.status, 'completed');
        strict_1.default.deepEqual(finished, ['/third', '/second', '/first'], 'the calls finished in reverse order');
        const status = await (0, client_1.sessionStatus)(client, handle.workflowId);
        strict_1.default.deepEqual(status.context.additionalDirectories, ['/first', '/second', '/third']);
        strict_1.default.equal(status.context.cwd, '/third', 'the last block in order wins, not the last to finish');
    });
});
//# sourceMappingURL=session-modifiers.test.js.map