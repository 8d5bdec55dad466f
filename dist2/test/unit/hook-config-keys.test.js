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
// unit: the command-hook keys of the reference's schema (checked against Claude Code 2.1.197):
// `if` (a permission rule selecting the calls), `args` (exec form), `async` (background), `shell`;
// what is rejected at load (invalid matcher regex, `if` outside tool events, asyncRewake,
// powershell) and what loads with a warning naming the file and key (`once`, typos).
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const path = __importStar(require("node:path"));
const settings_1 = require("../../src/cli/settings");
const hooks_1 = require("../../src/hooks");
const pipeline_1 = require("../../src/pipeline");
const pipelineFixtures_1 = require("./pipelineFixtures");
const hook = (extra, event = 'PreToolUse') => ({
    hooks: { [event]: [{ matcher: 'WriteFile', hooks: [{ type: 'command', command: 'true', ...extra }] }] },
});
(0, node_test_1.test)('unit: hook keys rejected at load name the key', () => {
    strict_1.default.throws(() => (0, hooks_1.normalizeHooksConfig)({ hooks: { PreToolUse: [{ matcher: '(Bash', hooks: [] }] } }), /hooks\.PreToolUse\[0\]\.matcher "\(Bash" is not a valid regular expression/);
    strict_1.default.throws(() => (0, hooks_1.normalizeHooksConfig)(hook({ if: 'Bash(git *)' }, 'Stop')), /hooks\.Stop\[0\]\.hooks\[0\]\.if applies to tool events only/);
    strict_1.default.throws(() => (0, hooks_1.normalizeHooksConfig)(hook({ if: 'Bash(git *' })), /hooks\.PreToolUse\[0\]\.hooks\[0\]\.if "Bash\(git \*" is not a permission rule/);
    strict_1.default.throws(() => (0, hooks_1.normalizeHooksConfig)(hook({ args: 'x' })), /\.args must be an array of strings/);
    strict_1.default.throws(() => (0, hooks_1.normalizeHooksConfig)(hook({ shell: 'powershell' })), /\.shell "powershell" is not supported/);
    strict_1.default.throws(() => (0, hooks_1.normalizeHooksConfig)(hook({ asyncRewake: true })), /\.asyncRewake is not supported/);
    strict_1.default.throws(() => (0, hooks_1.normalizeHooksConfig)(hook({ async: 'yes' })), /\.async must be true or false/);
    // Stop/UserPromptSubmit ignore a matcher, so an odd one there is no error.
    strict_1.default.doesNotThrow(() => (0, hooks_1.normalizeHooksConfig)({ hooks: { Stop: [{ matcher: '(x', hooks: [] }] } }));
    const ok = (0, hooks_1.normalizeHooksConfig)(hook({ if: 'WriteFile(src/**)', args: ['a'], shell: 'bash', async: true, statusMessage: 'checking' }));
    strict_1.default.deepEqual(ok.PreToolUse?.[0]?.hooks[0], {
        type: 'command',
        command: 'true',
        args: ['a'],
        if: 'WriteFile(src/**)',
        shell: 'bash',
        async: true,
    });
});
(0, node_test_1.test)('unit: once, typos and extra matcher keys load with a warning naming the file and key', async () => {
    strict_1.default.deepEqual((0, hooks_1.hookConfigWarnings)(hook({ once: true, timout: 5 })), [
        ['hooks.PreToolUse[0].hooks[0].once', 'is not supported by durable-agent: the hook runs every time'],
        ['hooks.PreToolUse[0].hooks[0].timout', 'is not a command hook key; it is ignored'],
    ]);
    const dir = await (0, pipelineFixtures_1.tempDir)('hook-keys-');
    const file = path.join(dir, 'settings.json');
    await node_fs_1.promises.writeFile(file, JSON.stringify({
        hooks: {
            PostToolUse: [
                { matcher: 'Edit', description: 'fmt', hooks: [{ type: 'command', command: 'true', once: true }] },
            ],
        },
    }));
    const eff = (0, settings_1.loadSettings)(dir, [file]);
    strict_1.default.ok(eff.warnings.some((w) => w.includes(file) && w.includes('hooks.PostToolUse[0].description')), eff.warnings.join('\n'));
    strict_1.default.ok(eff.warnings.some((w) => w.includes(file) && w.includes('hooks.PostToolUse[0].hooks[0].once')), eff.warnings.join('\n'));
    await node_fs_1.promises.writeFile(file, JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'B[', hooks: [{ type: 'command', command: 'true' }] }] } }));
    strict_1.default.throws(() => (0, settings_1.loadSettings)(dir, [file]), (e) => e.message.includes(file) && /matcher "B\[" is not a valid regular expression/.test(e.message));
});
(0, node_test_1.test)('unit: a hook with `if` runs only for the calls its permission rule matches', async () => {
    const cwd = await (0, pipelineFixtures_1.tempDir)('hook-if-');
    const log = path.join(cwd, 'ran.log');
    const hooks = {
        PreToolUse: [
            {
                matcher: 'WriteFile',
                hooks: [
                    {
                        type: 'command',
                        if: 'WriteFile(src/**)',
                        command: `cat >> '${log}'; echo '' >> '${log}'; echo 'no writes under src' >&2; exit 2`,
                    },
                ],
            },
        ],
    };
    const env = (0, pipelineFixtures_1.makeEnv)(cwd, { mode: 'bypassPermissions', hooks: hooks });
    const blocked = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('WriteFile', { file_path: 'src/a.ts', content: 'x' }), env);
    const allowed = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('WriteFile', { file_path: 'b.md', content: 'y' }), env);
    strict_1.default.equal(blocked.status, 'denied');
    strict_1.default.equal(allowed.status, 'ok');
    const lines = (await node_fs_1.promises.readFile(log, 'utf8')).trim().split('\n');
    strict_1.default.equal(lines.length, 1);
    strict_1.default.match(lines[0], /src\/a\.ts/);
});
(0, node_test_1.test)('unit: args runs the executable without a shell; async does not wait and its answer is ignored', async () => {
    const cwd = await (0, pipelineFixtures_1.tempDir)('hook-args-');
    const script = path.join(cwd, 'h.sh');
    await node_fs_1.promises.writeFile(script, '#!/bin/sh\nprintf "%s|" "$@" > "$CLAUDE_PROJECT_DIR/args.txt"\n');
    await node_fs_1.promises.chmod(script, 0o755);
    const input = {
        session_id: 's',
        cwd,
        permission_mode: 'default',
        tool_name: 'Bash',
        tool_input: {},
        tool_use_id: 't',
    };
    await (0, hooks_1.runPreToolUseHooks)(input, {
        cwd,
        config: (0, hooks_1.normalizeHooksConfig)({
            PreToolUse: [{ hooks: [{ type: 'command', command: script, args: ['a b', '$HOME', '; rm -rf x'] }] }],
        }),
    });
    strict_1.default.equal(await node_fs_1.promises.readFile(path.join(cwd, 'args.txt'), 'utf8'), 'a b|$HOME|; rm -rf x|');
    const marker = path.join(cwd, 'async-done');
    const r = await (0, hooks_1.runPreToolUseHooks)(input, {
        cwd,
        config: (0, hooks_1.normalizeHooksConfig)({
            PreToolUse: [
                { hooks: [{ type: 'command', async: true, command: `sleep 2; touch '${marker}'; echo no >&2; exit 2` }] },
            ],
        }),
    });
    strict_1.default.ok(!(0, node_fs_1.existsSync)(marker), 'an async hook is not waited for');
    strict_1.default.equal(r.block, undefined);
    strict_1.default.equal(r.runs[0]?.async, true);
    for (let i = 0; i < 50 && !(0, node_fs_1.existsSync)(marker); i++)
        await new Promise((res) => setTimeout(res, 100));
    strict_1.default.ok((0, node_fs_1.existsSync)(marker), 'the async hook ran to its end in the background');
});
//# sourceMappingURL=hook-config-keys.test.js.map