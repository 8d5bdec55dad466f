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
const messages_1 = require("../../src/engine/messages");
const pipeline_1 = require("../../src/pipeline");
const hooks_1 = require("../../src/hooks");
const pipelineFixtures_1 = require("./pipelineFixtures");
const context_1 = require("../../src/engine/context");
const builtin_1 = require("../../src/tools/builtin");
let cwd = '';
(0, node_test_1.before)(async () => {
    cwd = await (0, pipelineFixtures_1.tempDir)('hooks-');
});
(0, node_test_1.after)(async () => {
    await node_fs_1.promises.rm(cwd, { recursive: true, force: true });
});
(0, node_test_1.beforeEach)(() => {
    pipelineFixtures_1.calls.length = 0;
});
/** Alive and not a zombie (a container's PID 1 may never reap the killed orphan). */
function isAlive(pid) {
    try {
        const status = (0, node_fs_1.readFileSync)(`/proc/${pid}/status`, 'utf8');
        return !/^State:\s+Z/m.test(status);
    }
    catch {
        try {
            process.kill(pid, 0);
            return !(0, node_fs_1.existsSync)('/proc/self');
        }
        catch {
            return false;
        }
    }
}
const text = (o) => (0, messages_1.toolResultText)(o.result);
const pre = (command, matcher = '*', timeout) => ({
    PreToolUse: [
        { matcher, hooks: [timeout === undefined ? { type: 'command', command } : { type: 'command', command, timeout }] },
    ],
});
const preJson = async (name, json) => (0, pipelineFixtures_1.script)(cwd, name, `cat > /dev/null; printf '%s' '${JSON.stringify(json).replace(/'/g, "'\\''")}'`);
(0, node_test_1.test)('exit 0 without JSON: the call proceeds, nothing is recorded for the model', async () => {
    const cmd = await (0, pipelineFixtures_1.script)(cwd, 'ok.sh', 'cat > /dev/null; echo "just some log text"; exit 0');
    const o = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Echo', { text: 'a' }), (0, pipelineFixtures_1.makeEnv)(cwd, { hooks: pre(cmd) }));
    strict_1.default.equal(o.status, 'ok');
    strict_1.default.equal(text(o), 'a');
    strict_1.default.deepEqual(o.hookNotices, []);
    strict_1.default.equal(o.hookRuns?.[0]?.outcome, 'success');
    strict_1.default.equal(o.hookRuns?.[0]?.stdout, 'just some log text\n');
});
(0, node_test_1.test)('exit 0 with JSON: allow skips the mode’s ask, with the hook as the reason', async () => {
    const cmd = await preJson('allow.sh', {
        hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: 'allow',
            permissionDecisionReason: 'trusted',
        },
    });
    const o = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('WriteFile', { file_path: 'h.txt', content: 'x' }), (0, pipelineFixtures_1.makeEnv)(cwd, { hooks: pre(cmd, 'WriteFile') }));
    strict_1.default.equal(o.status, 'ok');
    strict_1.default.deepEqual(o.permission?.decisionReason, { type: 'hook', hook: cmd, reason: 'trusted' });
});
(0, node_test_1.test)('a hook’s allow never overrides a deny or an ask rule', async () => {
    const cmd = await preJson('allow2.sh', { hookSpecificOutput: { permissionDecision: 'allow' } });
    const denied = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('WriteFile', { file_path: 'd.txt', content: 'x' }), (0, pipelineFixtures_1.makeEnv)(cwd, { hooks: pre(cmd), rules: { deny: ['WriteFile(d.txt)'] } }));
    strict_1.default.equal(denied.status, 'denied');
    const asked = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('WriteFile', { file_path: 'd.txt', content: 'x' }), (0, pipelineFixtures_1.makeEnv)(cwd, { hooks: pre(cmd), rules: { ask: ['WriteFile'] } }));
    strict_1.default.equal(asked.status, 'ask');
    strict_1.default.equal(pipelineFixtures_1.calls.length, 0);
});
(0, node_test_1.test)('exit 2 blocks with the reason from stderr', async () => {
    const cmd = await (0, pipelineFixtures_1.script)(cwd, 'block.sh', 'cat > /dev/null; echo "Use rg instead of grep" >&2; exit 2');
    const o = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Echo', { text: 'a' }), (0, pipelineFixtures_1.makeEnv)(cwd, { hooks: pre(cmd, 'Echo') }));
    strict_1.default.equal(o.status, 'denied');
    strict_1.default.equal(o.failure?.stage, 'hook');
    strict_1.default.equal(o.result.is_error, true);
    strict_1.default.match(text(o), /Use rg instead of grep/);
    strict_1.default.equal(pipelineFixtures_1.calls.length, 0);
});
(0, node_test_1.test)('exit 1 is a non-blocking error: the call proceeds, with a notice', async () => {
    const cmd = await (0, pipelineFixtures_1.script)(cwd, 'fail.sh', 'cat > /dev/null; echo "oops" >&2; exit 1');
    const o = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Echo', { text: 'a' }), (0, pipelineFixtures_1.makeEnv)(cwd, { hooks: pre(cmd) }));
    strict_1.default.equal(o.status, 'ok');
    strict_1.default.equal(text(o), 'a');
    strict_1.default.equal(o.hookNotices.length, 1);
    strict_1.default.match(o.hookNotices[0], /exit code 1: oops/);
});
(0, node_test_1.test)('updatedInput replaces the input and is validated again', async () => {
    const good = await preJson('upd.sh', {
        hookSpecificOutput: { permissionDecision: 'allow', updatedInput: { text: 'rewritten' } },
    });
    const o = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Echo', { text: 'original' }), (0, pipelineFixtures_1.makeEnv)(cwd, { hooks: pre(good) }));
    strict_1.default.equal(o.status, 'ok');
    strict_1.default.equal(text(o), 'rewritten');
    strict_1.default.deepEqual(o.input, { text: 'rewritten', times: 1 });
    strict_1.default.deepEqual(pipelineFixtures_1.calls[0].input, { text: 'rewritten', times: 1 });
    const bad = await preJson('upd-bad.sh', { hookSpecificOutput: { updatedInput: { text: 42 } } });
    const o2 = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Echo', { text: 'original' }), (0, pipelineFixtures_1.makeEnv)(cwd, { hooks: pre(bad) }));
    strict_1.default.equal(o2.status, 'error');
    strict_1.default.equal(o2.failure?.stage, 'schema');
    strict_1.default.match(text(o2), /input replaced by a PreToolUse hook/);
    const semantic = await preJson('upd-sem.sh', { hookSpecificOutput: { updatedInput: { text: 'invalid' } } });
    const o3 = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Echo', { text: 'original' }), (0, pipelineFixtures_1.makeEnv)(cwd, { hooks: pre(semantic) }));
    strict_1.default.equal(o3.failure?.stage, 'validate');
    strict_1.default.equal(pipelineFixtures_1.calls.length, 1);
});
(0, node_test_1.test)('additionalContext reaches the result (Pre and Post), also on a block', async () => {
    const p1 = await preJson('ctx.sh', {
        hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'the repo uses tabs' },
    });
    const p2 = await preJson('ctx-post.sh', {
        hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'lint passed' },
    });
    const hooks = {
        ...pre(p1),
        PostToolUse: [{ matcher: 'Echo', hooks: [{ type: 'command', command: p2 }] }],
    };
    const o = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Echo', { text: 'a' }), (0, pipelineFixtures_1.makeEnv)(cwd, { hooks }));
    strict_1.default.equal(o.status, 'ok');
    strict_1.default.equal(text(o), 'a\n\nPreToolUse hook additional context: the repo uses tabs\n\nPostToolUse hook additional context: lint passed');
    const denyCtx = await preJson('ctx-deny.sh', {
        hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'no', additionalContext: 'see docs' },
    });
    const o2 = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Echo', { text: 'a' }), (0, pipelineFixtures_1.makeEnv)(cwd, { hooks: pre(denyCtx) }));
    strict_1.default.equal(o2.status, 'denied');
    strict_1.default.match(text(o2), /no[\s\S]*see docs/);
});
(0, node_test_1.test)('several hooks combine deny > ask > allow', async () => {
    const allow = await preJson('c-allow.sh', { hookSpecificOutput: { permissionDecision: 'allow' } });
    const ask = await preJson('c-ask.sh', {
        hookSpecificOutput: { permissionDecision: 'ask', permissionDecisionReason: 'double-check' },
    });
    const deny = await preJson('c-deny.sh', {
        hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'forbidden by policy' },
    });
    const cfg = (...cmds) => ({
        PreToolUse: cmds.map((c) => ({ matcher: 'Echo', hooks: [{ type: 'command', command: c }] })),
    });
    const o1 = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Echo', { text: 'a' }), (0, pipelineFixtures_1.makeEnv)(cwd, { hooks: cfg(allow, deny, ask), mode: 'bypassPermissions' }));
    strict_1.default.equal(o1.status, 'denied');
    strict_1.default.equal(o1.failure?.stage, 'permission');
    strict_1.default.match(text(o1), /forbidden by policy/);
    strict_1.default.deepEqual(o1.permission?.decisionReason, { type: 'hook', hook: deny, reason: 'forbidden by policy' });
    const o2 = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Echo', { text: 'a' }), (0, pipelineFixtures_1.makeEnv)(cwd, { hooks: cfg(ask, allow) }));
    strict_1.default.equal(o2.status, 'ask');
    strict_1.default.match(o2.ask.message, /double-check/);
    const o3 = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('WriteFile', { file_path: 'c.txt', content: '' }), (0, pipelineFixtures_1.makeEnv)(cwd, { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: allow }] }] } }));
    strict_1.default.equal(o3.status, 'ok');
    const o4 = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Echo', { text: 'a' }), (0, pipelineFixtures_1.makeEnv)(cwd, { hooks: cfg(allow, ask), mode: 'dontAsk' }));
    strict_1.default.equal(o4.status, 'denied', 'a hook ask in dontAsk mode is denied');
});
(0, node_test_1.test)('a hanging hook is killed (with its children) at its timeout and the call proceeds', async () => {
    const pidFile = path.join(cwd, 'sleep.pid');
    const cmd = await (0, pipelineFixtures_1.script)(cwd, 'hang.sh', `sleep 30 & echo $! > ${pidFile}; wait`);
    const t0 = Date.now();
    const o = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Echo', { text: 'a' }), (0, pipelineFixtures_1.makeEnv)(cwd, { hooks: pre(cmd, '*', 1) }));
    const elapsed = Date.now() - t0;
    strict_1.default.ok(elapsed >= 900 && elapsed < 2500, `took ${elapsed} ms`);
    strict_1.default.equal(o.status, 'ok');
    strict_1.default.equal(text(o), 'a');
    strict_1.default.equal(o.hookRuns?.[0]?.outcome, 'timeout');
    strict_1.default.match(o.hookNotices[0], /timed out after 1s/);
    const pid = Number((await node_fs_1.promises.readFile(pidFile, 'utf8')).trim());
    await new Promise((r) => setTimeout(r, 100));
    strict_1.default.equal(isAlive(pid), false, 'the background sleep was killed too');
});
(0, node_test_1.test)('stdin JSON carries what the reference says; PostToolUse adds tool_response', async () => {
    const preOut = path.join(cwd, 'pre-in.json');
    const postOut = path.join(cwd, 'post-in.json');
    const c1 = await (0, pipelineFixtures_1.script)(cwd, 'dump-pre.sh', `cat > ${preOut}; pwd > ${preOut}.cwd; printf '%s' "$CLAUDE_PROJECT_DIR" > ${preOut}.env`);
    const c2 = await (0, pipelineFixtures_1.script)(cwd, 'dump-post.sh', `cat > ${postOut}`);
    const hooks = {
        PreToolUse: [{ matcher: 'WriteFile', hooks: [{ type: 'command', command: c1 }] }],
        PostToolUse: [{ matcher: 'WriteFile', hooks: [{ type: 'command', command: c2 }] }],
    };
    const b = (0, pipelineFixtures_1.use)('WriteFile', { file_path: 'in.txt', content: 'hello' }, 'toolu_stdin');
    const o = await (0, pipeline_1.runToolPipeline)(b, (0, pipelineFixtures_1.makeEnv)(cwd, { hooks, mode: 'acceptEdits' }));
    strict_1.default.equal(o.status, 'ok');
    const preIn = JSON.parse(await node_fs_1.promises.readFile(preOut, 'utf8'));
    strict_1.default.deepEqual(preIn, {
        session_id: 'sess-1',
        cwd,
        permission_mode: 'acceptEdits',
        tool_name: 'WriteFile',
        tool_input: { file_path: 'in.txt', content: 'hello' },
        tool_use_id: 'toolu_stdin',
        hook_event_name: 'PreToolUse',
    });
    strict_1.default.equal((await node_fs_1.promises.readFile(`${preOut}.cwd`, 'utf8')).trim(), cwd, 'runs in the session cwd');
    strict_1.default.equal(await node_fs_1.promises.readFile(`${preOut}.env`, 'utf8'), cwd);
    const postIn = JSON.parse(await node_fs_1.promises.readFile(postOut, 'utf8'));
    strict_1.default.equal(postIn.hook_event_name, 'PostToolUse');
    strict_1.default.deepEqual(postIn.tool_response, { path: path.join(cwd, 'in.txt'), bytes: 5 });
    strict_1.default.equal(postIn.tool_use_id, 'toolu_stdin');
});
(0, node_test_1.test)('PostToolUse: decision block and exit 2 append feedback to the result', async () => {
    const c1 = await preJson('post-block.sh', { decision: 'block', reason: 'Format the file with prettier' });
    const c2 = await (0, pipelineFixtures_1.script)(cwd, 'post-2.sh', 'cat >/dev/null; echo "tests now fail" >&2; exit 2');
    const o = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Echo', { text: 'a' }), (0, pipelineFixtures_1.makeEnv)(cwd, {
        hooks: {
            PostToolUse: [
                {
                    matcher: 'Echo',
                    hooks: [
                        { type: 'command', command: c1 },
                        { type: 'command', command: c2 },
                    ],
                },
            ],
        },
    }));
    strict_1.default.equal(o.status, 'ok');
    strict_1.default.match(text(o), /^a\n\nPostToolUse hook feedback \(blocking\): Format the file with prettier\n\nPostToolUse hook feedback \(blocking\): tests now fail$/);
});
(0, node_test_1.test)('top-level decision:block and continue:false block a PreToolUse; continue:false also asks to stop', async () => {
    const b1 = await preJson('blk.sh', { decision: 'block', reason: 'legacy block' });
    const o1 = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Echo', { text: 'a' }), (0, pipelineFixtures_1.makeEnv)(cwd, { hooks: pre(b1) }));
    strict_1.default.equal(o1.status, 'denied');
    strict_1.default.match(text(o1), /legacy block/);
    const b2 = await preJson('stop.sh', { continue: false, stopReason: 'budget exhausted' });
    const o2 = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Echo', { text: 'a' }), (0, pipelineFixtures_1.makeEnv)(cwd, { hooks: pre(b2) }));
    strict_1.default.equal(o2.status, 'denied');
    strict_1.default.deepEqual(o2.stop, { reason: 'budget exhausted', hook: b2 });
    strict_1.default.equal(pipelineFixtures_1.calls.length, 0);
});
(0, node_test_1.test)('function hooks: same input/output; throwing is non-blocking; timeouts abort them', async () => {
    const seen = [];
    let sawAbort = false;
    const hooks = {
        PreToolUse: [
            {
                matcher: 'Echo',
                hooks: [
                    {
                        type: 'function',
                        name: 'rewrite',
                        fn: async (input) => {
                            seen.push(input);
                            return {
                                hookSpecificOutput: { permissionDecision: 'allow', updatedInput: { text: 'from fn', times: 2 } },
                            };
                        },
                    },
                    {
                        type: 'function',
                        fn: () => {
                            throw new Error('fn broke');
                        },
                    },
                    {
                        type: 'function',
                        name: 'slowpoke',
                        timeout: 0.2,
                        fn: (_i, { signal }) => new Promise((resolve) => signal.addEventListener('abort', () => {
                            sawAbort = true;
                            resolve(undefined);
                        })),
                    },
                ],
            },
        ],
    };
    const o = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Echo', { text: 'a' }), (0, pipelineFixtures_1.makeEnv)(cwd, { hooks }));
    strict_1.default.equal(o.status, 'ok');
    strict_1.default.equal(text(o), 'from fnfrom fn');
    strict_1.default.equal(seen[0].hook_event_name, 'PreToolUse');
    strict_1.default.deepEqual(seen[0].tool_input, { text: 'a', times: 1 });
    strict_1.default.equal(sawAbort, true);
    strict_1.default.equal(o.hookNotices.length, 2);
    strict_1.default.ok(o.hookNotices.some((n) => /fn broke/.test(n)));
    strict_1.default.ok(o.hookNotices.some((n) => /slowpoke.*timed out/.test(n)));
    const blocked = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Echo', { text: 'a' }), (0, pipelineFixtures_1.makeEnv)(cwd, {
        hooks: {
            PreToolUse: [{ hooks: [{ type: 'function', fn: () => ({ decision: 'block', reason: 'fn says no' }) }] }],
        },
    }));
    strict_1.default.equal(blocked.status, 'denied');
    strict_1.default.match(text(blocked), /fn says no/);
});
(0, node_test_1.test)('matchers: lists, *, empty, regex, aliases', () => {
    strict_1.default.equal((0, hooks_1.matcherMatches)('Edit|Write', 'Write'), true);
    strict_1.default.equal((0, hooks_1.matcherMatches)('Edit|Write', 'WriteFile'), false);
    strict_1.default.equal((0, hooks_1.matcherMatches)('*', 'Anything'), true);
    strict_1.default.equal((0, hooks_1.matcherMatches)('', 'Anything'), true);
    strict_1.default.equal((0, hooks_1.matcherMatches)(undefined, 'Anything'), true);
    strict_1.default.equal((0, hooks_1.matcherMatches)('mcp__.*', 'mcp__github__create_issue'), true);
    strict_1.default.equal((0, hooks_1.matcherMatches)('mcp__.*', 'Bash'), false);
    strict_1.default.equal((0, hooks_1.matcherMatches)('Notebook.*', 'NotebookEdit'), true);
    strict_1.default.equal((0, hooks_1.matcherMatches)('Say', 'Echo', ['Say']), true);
    strict_1.default.equal((0, hooks_1.matcherMatches)('(unclosed', 'Bash'), false);
    // A regular expression is searched, not anchored (checked against Claude Code 2.1.197: `B.s`,
    // `as.` and `Ba*` fire a Bash hook; `Ba` is a plain name and does not).
    strict_1.default.equal((0, hooks_1.matcherMatches)('B.s', 'Bash'), true);
    strict_1.default.equal((0, hooks_1.matcherMatches)('as.', 'Bash'), true);
    strict_1.default.equal((0, hooks_1.matcherMatches)('Ba*', 'Bash'), true);
    strict_1.default.equal((0, hooks_1.matcherMatches)('Ba', 'Bash'), false);
    strict_1.default.equal((0, hooks_1.matcherMatches)('bash', 'Bash'), false);
    strict_1.default.equal((0, hooks_1.matcherMatches)('Read | Bash', 'Bash'), true);
    strict_1.default.equal((0, hooks_1.matcherMatches)('^Bash$', 'Bash'), true);
    strict_1.default.equal((0, hooks_1.matcherMatches)('Bash(echo:*)', 'Bash'), false);
    strict_1.default.equal((0, hooks_1.matcherMatches)('mcp__github__.*', 'mcp__github__create_issue'), true);
    strict_1.default.equal((0, hooks_1.matcherMatches)('mcp__github__.*', 'mcp__gitlab__create_issue'), false);
});
(0, node_test_1.test)('a non-matching hook does not run; identical commands run once', async () => {
    const counter = path.join(cwd, 'count.txt');
    const cmd = await (0, pipelineFixtures_1.script)(cwd, 'count.sh', `cat >/dev/null; echo x >> ${counter}`);
    const r = await (0, hooks_1.runPreToolUseHooks)({ session_id: 's', cwd, permission_mode: 'default', tool_name: 'Echo', tool_input: {}, tool_use_id: 't' }, {
        cwd,
        config: {
            PreToolUse: [
                { matcher: 'Echo', hooks: [{ type: 'command', command: cmd }] },
                { matcher: '*', hooks: [{ type: 'command', command: cmd }] },
                { matcher: 'Bash', hooks: [{ type: 'command', command: 'exit 2' }] },
            ],
        },
    });
    strict_1.default.equal(r.runs.length, 1);
    strict_1.default.equal(r.block, undefined);
    strict_1.default.equal((await node_fs_1.promises.readFile(counter, 'utf8')).trim(), 'x');
});
(0, node_test_1.test)('hooks config: reference format accepted, bad shapes rejected (and the pipeline fails closed)', async () => {
    const cfg = (0, hooks_1.normalizeHooksConfig)({
        hooks: {
            PreToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'true', timeout: 60 }] }],
            Stop: [{ hooks: [] }],
        },
    });
    strict_1.default.deepEqual(cfg, {
        PreToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'true', timeout: 60 }] }],
        Stop: [{ hooks: [] }],
    });
    strict_1.default.throws(() => (0, hooks_1.normalizeHooksConfig)({ PreToolUse: {} }), /hooks.PreToolUse must be an array/);
    strict_1.default.throws(() => (0, hooks_1.normalizeHooksConfig)({ PreToolUse: [{ hooks: [{ type: 'http', url: 'x' }] }] }), /type must be "command"/);
    strict_1.default.throws(() => (0, hooks_1.normalizeHooksConfig)({ PreToolUse: [{ hooks: [{ type: 'command', command: 'x', timeout: -1 }] }] }), /positive number/);
    const o = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Echo', { text: 'a' }), (0, pipelineFixtures_1.makeEnv)(cwd, { hooks: { PreToolUse: 'nope' } }));
    strict_1.default.equal(o.status, 'error');
    strict_1.default.equal(o.failure?.stage, 'hook');
    strict_1.default.equal(pipelineFixtures_1.calls.length, 0);
    const wrapped = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Echo', { text: 'a' }), (0, pipelineFixtures_1.makeEnv)(cwd, {
        hooks: { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'echo no >&2; exit 2' }] }] } },
    }));
    strict_1.default.equal(wrapped.status, 'denied');
});
(0, node_test_1.test)("PostToolUse: Write and Edit send the reference's tool_response (originalFile, structuredPatch); without a PostToolUse hook the tools skip that work", async () => {
    const seen = [];
    const hooks = {
        PostToolUse: [
            {
                matcher: 'Write|Edit',
                hooks: [
                    {
                        type: 'function',
                        fn: (input) => void seen.push(input.tool_response),
                    },
                ],
            },
        ],
    };
    const tools = [builtin_1.ReadTool, builtin_1.WriteTool, builtin_1.EditTool];
    const file = path.join(cwd, 'patch.txt');
    const rows = Array.from({ length: 12 }, (_, i) => `row ${i + 1}`).join('\n') + '\n';
    // Write creates: no original, no hunks.
    let env = (0, pipelineFixtures_1.makeEnv)(cwd, { hooks, tools, mode: 'acceptEdits' });
    const created = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Write', { file_path: 'patch.txt', content: rows }), env);
    strict_1.default.equal(created.status, 'ok', text(created));
    strict_1.default.deepEqual(seen.pop(), {
        type: 'create',
        filePath: 'patch.txt',
        content: rows,
        structuredPatch: [],
        originalFile: null,
        userModified: false,
    });
    env = { ...env, agent: (0, context_1.applyContextModifiers)(env.agent, created.contextModifiers ?? []) };
    // Edit in the middle: one hunk with 3 lines of context each side.
    const edited = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Edit', { file_path: file, old_string: 'row 6\n', new_string: 'row six\nrow 6b\n' }), env);
    strict_1.default.equal(edited.status, 'ok', text(edited));
    strict_1.default.deepEqual(seen.pop(), {
        filePath: file,
        oldString: 'row 6\n',
        newString: 'row six\nrow 6b\n',
        originalFile: rows,
        structuredPatch: [
            {
                oldStart: 3,
                oldLines: 7,
                newStart: 3,
                newLines: 8,
                lines: [' row 3', ' row 4', ' row 5', '-row 6', '+row six', '+row 6b', ' row 7', ' row 8', ' row 9'],
            },
        ],
        userModified: false,
        replaceAll: false,
    });
    env = { ...env, agent: (0, context_1.applyContextModifiers)(env.agent, edited.contextModifiers ?? []) };
    // Write overwrites without a final newline: the marker lines of a unified diff.
    const after = await node_fs_1.promises.readFile(file, 'utf8');
    const rewritten = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Write', { file_path: file, content: after.replace('row 12\n', 'row 12') }), env);
    strict_1.default.equal(rewritten.status, 'ok', text(rewritten));
    const w = seen.pop();
    strict_1.default.equal(w.type, 'update');
    strict_1.default.equal(w.originalFile, after);
    strict_1.default.deepEqual(w.structuredPatch, [
        {
            oldStart: 10,
            oldLines: 4,
            newStart: 10,
            newLines: 4,
            lines: [' row 9', ' row 10', ' row 11', '-row 12', '+row 12', '\\ No newline at end of file'],
        },
    ]);
    // The tools add the original and the hunks only for a hook: the tool's own data stays small.
    const plain = (0, pipelineFixtures_1.makeEnv)(cwd, { tools, mode: 'acceptEdits' });
    const ctxSeen = [];
    const spy = {
        ...builtin_1.WriteTool,
        call: (input, ctx, p) => (ctxSeen.push(ctx.fileChangeForHooks === true),
            builtin_1.WriteTool.call(input, ctx, p)),
    };
    const o = await (0, pipeline_1.runToolPipeline)((0, pipelineFixtures_1.use)('Write', { file_path: 'plain.txt', content: 'x\n' }), {
        ...plain,
        pool: (0, pipelineFixtures_1.makeEnv)(cwd, { tools: [spy], mode: 'acceptEdits' }).pool,
    });
    strict_1.default.equal(o.status, 'ok', text(o));
    strict_1.default.deepEqual(ctxSeen, [false]);
});
//# sourceMappingURL=hooks.test.js.map