"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const path = __importStar(require("node:path"));
const zod_1 = require("zod");
const messages_1 = require("../../src/engine/messages");
const pipeline_1 = require("../../src/pipeline");
const Tool_1 = require("../../src/tools/Tool");
const resultStore_1 = require("../../src/tools/resultStore");
const toolPool_1 = require("../../src/permissions/toolPool");
const pipelineFixtures_1 = require("./pipelineFixtures");
let cwd = '';
(0, node_test_1.before)(async () => {
    cwd = await (0, pipelineFixtures_1.tempDir)();
});
(0, node_test_1.after)(async () => {
    await node_fs_1.promises.rm(cwd, { recursive: true, force: true });
});
(0, node_test_1.beforeEach)(() => {
    pipelineFixtures_1.calls.length = 0;
});
function assertWellFormed(o, id) {
    strict_1.default.equal(o.toolUseId, id);
    strict_1.default.ok(o.result, 'has a result');
    strict_1.default.equal(o.result.type, 'tool_result');
    strict_1.default.equal(o.result.tool_use_id, id);
    strict_1.default.ok(o.endedAt >= o.startedAt);
}
const text = (o) => (0, messages_1.toolResultText)(o.result);
(0, node_test_1.test)('ok: the call runs with the idempotency key and its result is mapped', async () => {
    const b = (0, pipelineFixtures_1.use)('Echo', { text: 'hi', times: 2 });
    const o = await (0, pipeline_1.runToolPipeline)(b, (0, pipelineFixtures_1.makeEnv)(cwd));
    assertWellFormed(o, b.id);
    strict_1.default.equal(o.status, 'ok');
    strict_1.default.equal(text(o), 'hihi');
    strict_1.default.equal(o.result.is_error, undefined);
    strict_1.default.equal(pipelineFixtures_1.calls.length, 1);
    strict_1.default.equal(pipelineFixtures_1.calls[0].ctx.idempotencyKey, `sess-1/${b.id}`);
    strict_1.default.equal(pipelineFixtures_1.calls[0].ctx.toolUseId, b.id);
    strict_1.default.deepEqual(o.permission, { behavior: 'allow', decisionReason: { type: 'mode', mode: 'default' } });
});
(0, node_test_1.test)('ok: the idempotency key is scoped to the session run, so a session reusing an id gets new keys', async () => {
    const b = (0, pipelineFixtures_1.use)('Echo', { text: 'hi' });
    await (0, pipeline_1.runToolPipeline)(b, { ...(0, pipelineFixtures_1.makeEnv)(cwd), idempotencyScope: 'run-a' });
    await (0, pipeline_1.runToolPipeline)(b, { ...(0, pipelineFixtures_1.makeEnv)(cwd), idempotencyScope: 'run-b' });
    strict_1.default.deepEqual(pipelineFixtures_1.calls.map((c) => c.ctx.idempotencyKey), [`sess-1/run-a/${b.id}`, `sess-1/run-b/${b.id}`]);
});
(0, node_test_1.test)('aliases resolve; context modifiers come back as data', async () => {
    strict_1.default.equal((await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Say', { text: 'a' }), (0, pipelineFixtures_1.makeEnv)(cwd))).status, 'ok');
    const o = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('WriteFile', { file_path: 'f.txt', content: 'abc' }), (0, pipelineFixtures_1.makeEnv)(cwd, { mode: 'acceptEdits' }));
    strict_1.default.equal(o.status, 'ok');
    strict_1.default.deepEqual(o.contextModifiers, [{ type: 'fileWritten', path: path.join(cwd, 'f.txt'), mtimeMs: 1 }]);
    strict_1.default.equal(await node_fs_1.promises.readFile(path.join(cwd, 'f.txt'), 'utf8'), 'abc');
});
// ---- the failure table ------------------------------------------------------------------------
(0, node_test_1.test)('failure: unknown tool (also a tool outside the pool)', async () => {
    const b = (0, pipelineFixtures_1.use)('Nope', {});
    const o = await (0, pipeline_1.runToolPipeline)(b, (0, pipelineFixtures_1.makeEnv)(cwd));
    assertWellFormed(o, b.id);
    strict_1.default.equal(o.status, 'error');
    strict_1.default.equal(o.failure?.stage, 'unknown_tool');
    strict_1.default.equal(o.result.is_error, true);
    strict_1.default.ok(text(o).startsWith('No such tool available: Nope'));
    const narrow = (0, pipelineFixtures_1.makeEnv)(cwd, { rules: { deny: ['Echo'] } });
    const o2 = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Echo', { text: 'x' }), narrow);
    strict_1.default.equal(o2.failure?.stage, 'unknown_tool');
    strict_1.default.equal(pipelineFixtures_1.calls.length, 0);
});
(0, node_test_1.test)('failure: schema — missing field, wrong type, extra field, null input', async () => {
    const o = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Echo', { times: 'two', extra: 1 }), (0, pipelineFixtures_1.makeEnv)(cwd));
    strict_1.default.equal(o.status, 'error');
    strict_1.default.equal(o.failure?.stage, 'schema');
    strict_1.default.ok(text(o).startsWith('InputValidationError:'));
    strict_1.default.match(text(o), /The required parameter `text` is missing/);
    strict_1.default.match(text(o), /The parameter `times` type is expected as `number` but provided as `string`/);
    strict_1.default.match(text(o), /An unexpected parameter `extra` was provided/);
    const o2 = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Echo', null), (0, pipelineFixtures_1.makeEnv)(cwd));
    strict_1.default.match(text(o2), /^InputValidationError: Echo failed due to the following issue:\n- The input is expected to be `object` but was provided as `null`/);
    const o3 = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Echo', { text: 'x', times: 0 }), (0, pipelineFixtures_1.makeEnv)(cwd));
    strict_1.default.match(text(o3), /`times` is invalid: Too small/);
    strict_1.default.equal(pipelineFixtures_1.calls.length, 0);
});
(0, node_test_1.test)('failure: validateInput — the tool’s own message', async () => {
    const o = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Echo', { text: 'invalid' }), (0, pipelineFixtures_1.makeEnv)(cwd));
    strict_1.default.equal(o.status, 'error');
    strict_1.default.equal(o.failure?.stage, 'validate');
    strict_1.default.equal(text(o), 'Echo refuses the text "invalid".');
    strict_1.default.equal(pipelineFixtures_1.calls.length, 0);
});
(0, node_test_1.test)('failure: hook block — the hook’s reason', async () => {
    const cmd = await (0, pipelineFixtures_1.script)(cwd, 'block.sh', 'echo "no echoing today" >&2; exit 2');
    const o = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Echo', { text: 'x' }), (0, pipelineFixtures_1.makeEnv)(cwd, { hooks: { PreToolUse: [{ matcher: 'Echo', hooks: [{ type: 'command', command: cmd }] }] } }));
    strict_1.default.equal(o.status, 'denied');
    strict_1.default.equal(o.failure?.stage, 'hook');
    strict_1.default.match(text(o), /no echoing today/);
    strict_1.default.equal(o.result.is_error, true);
    strict_1.default.equal(pipelineFixtures_1.calls.length, 0);
});
(0, node_test_1.test)('failure: permission deny — rule and mode reasons', async () => {
    const o = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('WriteFile', { file_path: 'x', content: '' }), (0, pipelineFixtures_1.makeEnv)(cwd, { mode: 'bypassPermissions', rules: { deny: ['WriteFile(x)'] } }));
    strict_1.default.equal(o.status, 'denied');
    strict_1.default.equal(o.failure?.stage, 'permission');
    strict_1.default.match(text(o), /denied by the rule WriteFile\(x\)/);
    strict_1.default.deepEqual(o.permission?.decisionReason, { type: 'rule', rule: 'WriteFile(x)', behavior: 'deny' });
    const o2 = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('WriteFile', { file_path: 'x', content: '' }), (0, pipelineFixtures_1.makeEnv)(cwd, { mode: 'plan' }));
    strict_1.default.equal(o2.status, 'denied');
    strict_1.default.match(text(o2), /plan mode/);
    const o3 = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('WriteFile', { file_path: 'x', content: '' }), (0, pipelineFixtures_1.makeEnv)(cwd, { mode: 'dontAsk' }));
    strict_1.default.equal(o3.status, 'denied');
    strict_1.default.match(text(o3), /dontAsk/);
    strict_1.default.equal(pipelineFixtures_1.calls.length, 0);
});
(0, node_test_1.test)('failure: call() throws — Error calling tool', async () => {
    const o = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Thrower', {}), (0, pipelineFixtures_1.makeEnv)(cwd));
    strict_1.default.equal(o.status, 'error');
    strict_1.default.equal(o.failure?.stage, 'call');
    strict_1.default.equal(text(o), 'Error calling tool Thrower: disk on fire');
});
(0, node_test_1.test)('failure: aborted before the call — interrupted, never called', async () => {
    const ac = new AbortController();
    ac.abort();
    const b = (0, pipelineFixtures_1.use)('Echo', { text: 'x' });
    const o = await (0, pipeline_1.runToolPipeline)(b, (0, pipelineFixtures_1.makeEnv)(cwd, { abortSignal: ac.signal }));
    assertWellFormed(o, b.id);
    strict_1.default.equal(o.status, 'interrupted');
    strict_1.default.equal(o.failure?.stage, 'aborted');
    strict_1.default.match(text(o), /^Interrupted by user/);
    strict_1.default.match(text(o), /did not complete/);
    strict_1.default.equal(pipelineFixtures_1.calls.length, 0);
});
(0, node_test_1.test)('abort during a slow call: interrupted promptly; progress forwarded', async () => {
    const ac = new AbortController();
    const progress = [];
    const t0 = Date.now();
    setTimeout(() => ac.abort(), 100);
    const o = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Slow', { ms: 10_000 }), (0, pipelineFixtures_1.makeEnv)(cwd, { abortSignal: ac.signal, onProgress: (p) => progress.push(p) }));
    strict_1.default.ok(Date.now() - t0 < 2000);
    strict_1.default.equal(o.status, 'interrupted');
    strict_1.default.equal(o.result.is_error, true);
    strict_1.default.deepEqual(progress, [{ stage: 'started' }]);
    strict_1.default.equal(pipelineFixtures_1.calls[0].ctx.abortSignal.aborted, true, 'the tool saw the abort');
    const p2 = [];
    const ok = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Slow', { ms: 5 }), (0, pipelineFixtures_1.makeEnv)(cwd, {
        onProgress: (p) => {
            p2.push(p);
            throw new Error('observer bug');
        },
    }));
    strict_1.default.equal(ok.status, 'ok');
    strict_1.default.deepEqual(p2, [{ stage: 'started' }, { stage: 'done' }]);
});
(0, node_test_1.test)('a tool that ignores the abort signal still yields an interrupted result', async () => {
    const Stubborn = (0, Tool_1.buildTool)({
        name: 'Stubborn',
        inputSchema: zod_1.z.object({}),
        prompt: () => '',
        call: () => new Promise((r) => setTimeout(() => r({ data: 'late' }), 1500)),
        mapToolResultToToolResultBlockParam: (d, id) => ({
            type: 'tool_result',
            tool_use_id: id,
            content: d,
        }),
    });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const t0 = Date.now();
    const o = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Stubborn', {}), (0, pipelineFixtures_1.makeEnv)(cwd, { tools: [Stubborn], mode: 'bypassPermissions', abortSignal: ac.signal }));
    strict_1.default.equal(o.status, 'interrupted');
    strict_1.default.ok(Date.now() - t0 < 1000);
});
// ---- ask and approvals ------------------------------------------------------------------------
(0, node_test_1.test)('ask is returned without calling; approval approve runs, deny rejects', async () => {
    const b = (0, pipelineFixtures_1.use)('WriteFile', { file_path: 'asked.txt', content: 'v' });
    const o = await (0, pipeline_1.runToolPipeline)(b, (0, pipelineFixtures_1.makeEnv)(cwd));
    strict_1.default.equal(o.status, 'ask');
    strict_1.default.equal(o.result, undefined);
    strict_1.default.match(o.ask.message, /needs approval/);
    strict_1.default.deepEqual(o.ask.decisionReason, { type: 'mode', mode: 'default' });
    strict_1.default.equal(pipelineFixtures_1.calls.length, 0);
    const yes = await (0, pipeline_1.runToolPipeline)(b, (0, pipelineFixtures_1.makeEnv)(cwd, { approval: { decision: 'approve', by: 'alice', source: 'human' } }));
    strict_1.default.equal(yes.status, 'ok');
    strict_1.default.deepEqual(yes.permission, {
        behavior: 'allow',
        decisionReason: { type: 'human', decision: 'approve', by: 'alice' },
    });
    strict_1.default.equal(pipelineFixtures_1.calls.length, 1);
    const no = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('WriteFile', { file_path: 'no.txt', content: 'v' }), (0, pipelineFixtures_1.makeEnv)(cwd, { approval: { decision: 'deny', reason: 'not now', source: 'human' } }));
    strict_1.default.equal(no.status, 'denied');
    strict_1.default.equal(no.failure?.stage, 'permission');
    strict_1.default.equal(text(no), `${pipeline_1.REJECT_MESSAGE} Reason: not now`);
    strict_1.default.equal(pipelineFixtures_1.calls.length, 1);
    await strict_1.default.rejects(node_fs_1.promises.stat(path.join(cwd, 'no.txt')));
    const timeout = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('WriteFile', { file_path: 'no.txt', content: 'v' }), (0, pipelineFixtures_1.makeEnv)(cwd, { approval: { decision: 'deny', source: 'timeout', afterMs: 1000 } }));
    strict_1.default.equal(timeout.status, 'denied');
    strict_1.default.equal(text(timeout), pipeline_1.REJECT_MESSAGE);
    strict_1.default.deepEqual(timeout.permission?.decisionReason, { type: 'timeout', afterMs: 1000 });
});
(0, node_test_1.test)('an approval never overrides a deny', async () => {
    const o = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('WriteFile', { file_path: 'x', content: '' }), (0, pipelineFixtures_1.makeEnv)(cwd, { rules: { deny: ['WriteFile'] }, tools: pipelineFixtures_1.FAKE_TOOLS, approval: { decision: 'approve' } }));
    // a blanket deny removes the tool from the pool altogether
    strict_1.default.equal(o.failure?.stage, 'unknown_tool');
    const o2 = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('WriteFile', { file_path: 'x', content: '' }), (0, pipelineFixtures_1.makeEnv)(cwd, { rules: { deny: ['WriteFile(x)'] }, approval: { decision: 'approve' } }));
    strict_1.default.equal(o2.status, 'denied');
    strict_1.default.equal(pipelineFixtures_1.calls.length, 0);
});
// ---- size policy ------------------------------------------------------------------------------
(0, node_test_1.test)('size policy: a 50,000-char result becomes a preview plus a stored file', async () => {
    const store = new resultStore_1.LocalResultStore(path.join(cwd, 'tool-results'));
    const b = (0, pipelineFixtures_1.use)('Big', { size: 50_000 }, 'toolu_big01');
    const o = await (0, pipeline_1.runToolPipeline)(b, (0, pipelineFixtures_1.makeEnv)(cwd, { resultStore: store }));
    strict_1.default.equal(o.status, 'ok');
    const file = path.join(cwd, 'tool-results', 'toolu_big01.txt');
    strict_1.default.equal(o.persistedTo, file);
    const stored = await node_fs_1.promises.readFile(file, 'utf8');
    strict_1.default.equal(stored.length, 50_000);
    const c = text(o);
    strict_1.default.ok(c.startsWith('<persisted-output>\nOutput too large (48.8KB). Full output saved to: ' +
        file +
        '\n\nPreview (first 2KB):\nline 0 '));
    strict_1.default.ok(c.endsWith('\n...\n</persisted-output>'));
    strict_1.default.ok(c.length < 2300);
    strict_1.default.ok(stored.startsWith(c.split('Preview (first 2KB):\n')[1].split('\n...\n')[0]));
    // idempotent for the same id
    const again = await (0, pipeline_1.runToolPipeline)(b, (0, pipelineFixtures_1.makeEnv)(cwd, { resultStore: store }));
    strict_1.default.equal(again.persistedTo, file);
    // under the limit: untouched
    const small = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Big', { size: 20_000 }), (0, pipelineFixtures_1.makeEnv)(cwd, { resultStore: store }));
    strict_1.default.equal(text(small).length, 20_000);
    strict_1.default.equal(small.persistedTo, undefined);
});
(0, node_test_1.test)('size policy: a storage failure keeps the original result', async () => {
    const failing = {
        put: async () => {
            throw new Error('disk full');
        },
    };
    const o = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Big', { size: 50_000 }), (0, pipelineFixtures_1.makeEnv)(cwd, { resultStore: failing }));
    strict_1.default.equal(o.status, 'ok');
    strict_1.default.equal(text(o).length, 50_000);
    strict_1.default.equal(o.persistedTo, undefined);
    strict_1.default.ok(o.hookNotices.some((n) => /disk full/.test(n)));
});
// ---- describeToolUse --------------------------------------------------------------------------
(0, node_test_1.test)('describeToolUse: conservative on unknown tools, bad input and throwing predicates', () => {
    const Weird = (0, Tool_1.buildTool)({
        name: 'Weird',
        inputSchema: zod_1.z.object({}),
        prompt: () => '',
        isConcurrencySafe: () => {
            throw new Error('x');
        },
        isReadOnly: () => true,
        call: async () => ({ data: '' }),
        mapToolResultToToolResultBlockParam: (d, id) => ({
            type: 'tool_result',
            tool_use_id: id,
            content: d,
        }),
    });
    const pool = (0, toolPool_1.createToolPool)([...pipelineFixtures_1.FAKE_TOOLS, Weird], {
        mode: 'default',
        rules: { allow: [], ask: [], deny: [] },
        workingDirectories: [cwd],
    });
    strict_1.default.deepEqual((0, pipeline_1.describeToolUse)((0, pipelineFixtures_1.use)('Echo', { text: 'a' }), pool), {
        known: true,
        concurrencySafe: true,
        readOnly: true,
        idempotent: true,
        summary: 'Echo a',
    });
    strict_1.default.deepEqual((0, pipeline_1.describeToolUse)((0, pipelineFixtures_1.use)('Nope', {}), pool), {
        known: false,
        concurrencySafe: false,
        readOnly: false,
        idempotent: false,
        summary: 'Nope (unknown tool)',
    });
    strict_1.default.equal((0, pipeline_1.describeToolUse)((0, pipelineFixtures_1.use)('Echo', { text: 5 }), pool).concurrencySafe, false);
    strict_1.default.deepEqual((0, pipeline_1.describeToolUse)((0, pipelineFixtures_1.use)('Weird', {}), pool), {
        known: true,
        concurrencySafe: false,
        readOnly: true,
        idempotent: false,
        summary: 'Weird {}',
    });
    const w = (0, pipeline_1.describeToolUse)((0, pipelineFixtures_1.use)('WriteFile', { file_path: 'a', content: 'b' }), pool);
    strict_1.default.deepEqual([w.concurrencySafe, w.readOnly, w.idempotent], [false, false, false]);
});
(0, node_test_1.test)('runToolPipeline never throws, even for malformed blocks and hostile tools', async () => {
    const Hostile = (0, Tool_1.buildTool)({
        name: 'Hostile',
        inputSchema: zod_1.z.object({}),
        prompt: () => '',
        isReadOnly: () => {
            throw new Error('pred');
        },
        call: async () => ({ data: 1 }),
        mapToolResultToToolResultBlockParam: () => {
            throw new Error('map');
        },
    });
    const env = (0, pipelineFixtures_1.makeEnv)(cwd, { tools: [Hostile], mode: 'bypassPermissions' });
    const o = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Hostile', {}), env);
    strict_1.default.equal(o.status, 'error');
    strict_1.default.match(text(o), /the tool ran, but its result could not be converted: map/);
    const bad = await (0, pipeline_1.runToolPipeline)({ type: 'tool_use', id: 'x', name: undefined, input: undefined }, env);
    strict_1.default.equal(bad.result.tool_use_id, 'x');
    strict_1.default.equal(bad.failure?.stage, 'unknown_tool');
});
(0, node_test_1.test)('Echo schema exposes defaults to the call', async () => {
    const o = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Echo', { text: 'z' }), (0, pipelineFixtures_1.makeEnv)(cwd));
    strict_1.default.deepEqual(o.input, { text: 'z', times: 1 });
    strict_1.default.equal(pipelineFixtures_1.Echo.name, 'Echo');
    strict_1.default.equal(pipelineFixtures_1.Slow.name, 'Slow');
    strict_1.default.equal(pipelineFixtures_1.Big.maxResultSizeChars, 20_000);
});
//# sourceMappingURL=pipeline.test.js.map