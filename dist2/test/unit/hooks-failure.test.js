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
// unit: PostToolUseFailure (a failed call fires it instead of PostToolUse, as the reference does)
// and the hooks' tool_input (the reference's observable input: absolute paths, defaults filled in).
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const path = __importStar(require("node:path"));
const messages_1 = require("../../src/engine/messages");
const pipeline_1 = require("../../src/pipeline");
const builtin_1 = require("../../src/tools/builtin");
const pipelineFixtures_1 = require("./pipelineFixtures");
let cwd = '';
(0, node_test_1.before)(async () => {
    cwd = await (0, pipelineFixtures_1.tempDir)('hooks-failure-');
});
(0, node_test_1.after)(async () => {
    await node_fs_1.promises.rm(cwd, { recursive: true, force: true });
});
const capture = async (name, out, reply = '') => (0, pipelineFixtures_1.script)(cwd, name, `cat > '${out}'${reply ? `; printf '%s' '${reply}'` : ''}`);
const read = async (p) => JSON.parse(await node_fs_1.promises.readFile(p, 'utf8'));
const exists = (p) => node_fs_1.promises.access(p).then(() => true, () => false);
(0, node_test_1.test)('unit: a Bash call that exits non-zero fires PostToolUseFailure (error, is_interrupt) and no PostToolUse; its context reaches the model', async () => {
    const post = path.join(cwd, 'post.json');
    const fail = path.join(cwd, 'fail.json');
    const hooks = {
        PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: await capture('post.sh', post) }] }],
        PostToolUseFailure: [
            {
                matcher: 'Bash',
                hooks: [
                    {
                        type: 'command',
                        command: await capture('fail.sh', fail, JSON.stringify({
                            hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: 'check the build log' },
                        })),
                    },
                ],
            },
        ],
    };
    const o = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Bash', { command: 'echo out; exit 3' }, 'toolu_fail'), (0, pipelineFixtures_1.makeEnv)(cwd, { hooks, tools: [builtin_1.BashTool], mode: 'bypassPermissions' }));
    strict_1.default.equal(o.status, 'error');
    strict_1.default.equal(await exists(post), false, 'PostToolUse did not run');
    const input = await read(fail);
    strict_1.default.equal(input.hook_event_name, 'PostToolUseFailure');
    strict_1.default.equal(input.tool_use_id, 'toolu_fail');
    strict_1.default.deepEqual(input.tool_input, { command: 'echo out; exit 3' });
    strict_1.default.match(String(input.error), /out[\s\S]*Exit code 3/);
    strict_1.default.equal(input.is_interrupt, false);
    strict_1.default.equal(typeof input.duration_ms, 'number');
    strict_1.default.match((0, messages_1.toolResultText)(o.result), /PostToolUseFailure hook additional context: check the build log/);
    strict_1.default.deepEqual(o.hookRuns?.map((r) => r.event), ['PostToolUseFailure']);
});
(0, node_test_1.test)('unit: a call that throws fires PostToolUseFailure; a successful one fires PostToolUse only', async () => {
    const fail = path.join(cwd, 'fail2.json');
    const post = path.join(cwd, 'post2.json');
    const hooks = {
        PostToolUse: [{ hooks: [{ type: 'command', command: await capture('post2.sh', post) }] }],
        PostToolUseFailure: [{ hooks: [{ type: 'command', command: await capture('fail2.sh', fail) }] }],
    };
    const thrown = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Thrower', {}), (0, pipelineFixtures_1.makeEnv)(cwd, { hooks, tools: pipelineFixtures_1.FAKE_TOOLS, mode: 'bypassPermissions' }));
    strict_1.default.equal(thrown.status, 'error');
    strict_1.default.match(String((await read(fail)).error), /disk on fire/);
    strict_1.default.equal(await exists(post), false);
    await node_fs_1.promises.rm(fail);
    const ok = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Echo', { text: 'a' }), (0, pipelineFixtures_1.makeEnv)(cwd, { hooks, tools: pipelineFixtures_1.FAKE_TOOLS, mode: 'bypassPermissions' }));
    strict_1.default.equal(ok.status, 'ok');
    strict_1.default.equal((await read(post)).hook_event_name, 'PostToolUse');
    strict_1.default.equal(await exists(fail), false);
});
(0, node_test_1.test)('unit: a check that fails before the call (validateInput) fires neither PreToolUse nor PostToolUseFailure (the seed)', async () => {
    const any = path.join(cwd, 'any.json');
    const cmd = await capture('any.sh', any);
    const hooks = {
        PreToolUse: [{ hooks: [{ type: 'command', command: cmd }] }],
        PostToolUseFailure: [{ hooks: [{ type: 'command', command: cmd }] }],
    };
    const o = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Read', { file_path: 'missing.txt' }), (0, pipelineFixtures_1.makeEnv)(cwd, { hooks, tools: [builtin_1.ReadTool], mode: 'bypassPermissions' }));
    strict_1.default.equal(o.status, 'error');
    strict_1.default.equal(o.failure?.stage, 'validate');
    strict_1.default.equal(await exists(any), false);
});
(0, node_test_1.test)("unit: hooks see the reference's observable tool_input: absolute file_path, Edit's replace_all filled in; the call keeps the model's input", async () => {
    await node_fs_1.promises.writeFile(path.join(cwd, 'a.txt'), 'timeout = 10\n');
    const cmd = await (0, pipelineFixtures_1.script)(cwd, 'pre.sh', `f=$(mktemp '${cwd}/pre-XXXXXX'); cat > "$f"`);
    const hooks = { PreToolUse: [{ hooks: [{ type: 'command', command: cmd }] }] };
    const env = (0, pipelineFixtures_1.makeEnv)(cwd, { hooks, tools: [builtin_1.ReadTool, builtin_1.EditTool], mode: 'bypassPermissions' });
    const r = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Read', { file_path: 'a.txt' }), env);
    strict_1.default.equal(r.status, 'ok');
    strict_1.default.deepEqual(r.input, { file_path: 'a.txt' }, 'the call and the record keep the input as given');
    const e = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Edit', { file_path: 'made.txt', old_string: '', new_string: 'made\n' }), env);
    strict_1.default.equal(e.status, 'ok', (0, messages_1.toolResultText)(e.result));
    const seen = [];
    for (const f of await node_fs_1.promises.readdir(cwd))
        if (/^pre-[A-Za-z0-9]{6}$/.test(f))
            seen.push(await read(path.join(cwd, f)));
    const inputs = seen.map((s) => JSON.stringify(s.tool_input)).sort();
    strict_1.default.deepEqual(inputs, [
        JSON.stringify({ file_path: path.join(cwd, 'a.txt') }),
        JSON.stringify({
            file_path: path.join(cwd, 'made.txt'),
            old_string: '',
            new_string: 'made\n',
            replace_all: false,
        }),
    ].sort());
});
//# sourceMappingURL=hooks-failure.test.js.map