"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: hook events as the reference defines them — load-time validation, the session's reading of
// hook answers (engine/hooks.ts), the session loop's use of them, the transcript file format and
// Bash's tool_response shape.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const context_1 = require("../../src/engine/context");
const hooks_1 = require("../../src/engine/hooks");
const session_1 = require("../../src/engine/session");
const config_1 = require("../../src/hooks/config");
const toolResponse_1 = require("../../src/hooks/toolResponse");
const transcript_1 = require("../../src/hooks/transcript");
const memory_1 = require("../../src/engine/memory");
const claudeMd_1 = require("../../src/memory/claudeMd");
const types_1 = require("../../src/hooks/types");
const settings_1 = require("../../src/cli/settings");
const cmd = { type: 'command', command: 'true' };
(0, node_test_1.test)('unit: every reference event is accepted; an unknown event or hook type fails at load naming the key', () => {
    const all = Object.fromEntries(types_1.HOOK_EVENTS.map((e) => [e, [{ hooks: [cmd] }]]));
    strict_1.default.deepEqual(Object.keys((0, config_1.normalizeHooksConfig)({ hooks: all })).sort(), [...types_1.HOOK_EVENTS].sort());
    strict_1.default.throws(() => (0, config_1.normalizeHooksConfig)({ hooks: { PostToolUze: [] } }), /hooks\.PostToolUze is not a hook event/);
    strict_1.default.throws(() => (0, config_1.normalizeHooksConfig)({ Stop: [{ hooks: [{ type: 'prompt', prompt: 'x' }] }] }), /hooks\.Stop\[0\]\.hooks\[0\]\.type "prompt".*not supported/);
    strict_1.default.throws(() => (0, config_1.normalizeHooksConfig)({ Stop: [{ hooks: [{ type: 'script' }] }] }), /type must be "command"/);
});
(0, node_test_1.test)('unit: settings load fails on an unknown hook event, naming the file and the key', async () => {
    const dir = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-hooks-'));
    const file = (0, node_path_1.join)(dir, 'settings.json');
    await (0, promises_1.writeFile)(file, JSON.stringify({ hooks: { SessionBegin: [{ hooks: [cmd] }] } }));
    strict_1.default.throws(() => (0, settings_1.loadSettings)(dir, [file]), (e) => e.message.includes(file) && /hooks\.SessionBegin is not a hook event/.test(e.message));
    // An event of the current reference that durable-agent never fires loads with a warning.
    await (0, promises_1.writeFile)(file, JSON.stringify({ hooks: { PermissionRequest: [{ hooks: [cmd] }], Stop: [{ hooks: [cmd] }] } }));
    const eff = (0, settings_1.loadSettings)(dir, [file]);
    strict_1.default.ok(eff.warnings.some((w) => w.includes(file) && /hooks\.PermissionRequest.*never fires/.test(w)), eff.warnings.join('\n'));
    strict_1.default.deepEqual(Object.keys((0, config_1.normalizeHooksConfig)({ hooks: eff.hooks })), ['Stop']);
});
(0, node_test_1.test)('unit: matchers per event — SessionStart by source, Stop/UserPromptSubmit ignore a matcher', () => {
    const config = (0, config_1.normalizeHooksConfig)({
        SessionStart: [
            { matcher: 'startup|resume', hooks: [{ type: 'command', command: 'a' }] },
            { matcher: 'compact', hooks: [{ type: 'command', command: 'b' }] },
        ],
        Stop: [{ matcher: 'Whatever', hooks: [{ type: 'command', command: 'c' }] }],
    });
    strict_1.default.deepEqual((0, config_1.hooksFor)(config, 'SessionStart', 'startup').map((h) => h.label), ['a']);
    strict_1.default.deepEqual((0, config_1.hooksFor)(config, 'SessionStart', 'compact').map((h) => h.label), ['b']);
    strict_1.default.deepEqual((0, config_1.hooksFor)(config, 'Stop', '').map((h) => h.label), ['c']);
});
const run = (event, r) => ({
    event,
    hook: 'h.sh',
    outcome: 'success',
    durationMs: 1,
    ...r,
});
(0, node_test_1.test)('unit: output semantics — exit 2 blocks only where the reference says; plain stdout is context for UserPromptSubmit/SessionStart', () => {
    strict_1.default.equal((0, hooks_1.decideSessionHooks)('Stop', [run('Stop', { outcome: 'blocking', stderr: 'keep going' })]).block?.reason, '[h.sh]: keep going');
    strict_1.default.equal((0, hooks_1.decideSessionHooks)('UserPromptSubmit', [run('UserPromptSubmit', { outcome: 'blocking', stderr: 'no secrets' })])
        .block?.reason, 'no secrets');
    const n = (0, hooks_1.decideSessionHooks)('Notification', [run('Notification', { outcome: 'blocking', stderr: 'x' })]);
    strict_1.default.equal(n.block, undefined);
    strict_1.default.match(n.notices[0], /exited with code 2: x/);
    strict_1.default.deepEqual((0, hooks_1.decideSessionHooks)('UserPromptSubmit', [run('UserPromptSubmit', { stdout: 'ctx\n' })]).additionalContext, ['ctx']);
    strict_1.default.deepEqual((0, hooks_1.decideSessionHooks)('SessionStart', [run('SessionStart', { stdout: 'hello' })]).additionalContext, [
        'hello',
    ]);
    strict_1.default.deepEqual((0, hooks_1.decideSessionHooks)('Stop', [run('Stop', { stdout: 'ignored' })]).additionalContext, []);
    const j = (0, hooks_1.decideSessionHooks)('Stop', [
        run('Stop', { output: { decision: 'block', reason: 'tests fail', systemMessage: 'heads up' } }),
    ]);
    strict_1.default.equal(j.block?.reason, 'tests fail');
    strict_1.default.match(j.notices[0], /heads up/);
    const c = (0, hooks_1.decideSessionHooks)('SessionEnd', [
        run('SessionEnd', { output: { continue: false, stopReason: 'enough' } }),
    ]);
    strict_1.default.equal(c.stop?.reason, 'enough');
    const a = (0, hooks_1.decideSessionHooks)('UserPromptSubmit', [
        run('UserPromptSubmit', {
            output: { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'more' } },
        }),
    ]);
    strict_1.default.deepEqual(a.additionalContext, ['more']);
    strict_1.default.match((0, hooks_1.decideSessionHooks)('Stop', [run('Stop', { outcome: 'non_blocking_error', error: 'exit code 1', stderr: 'oops' })])
        .notices[0], /exit code 1: oops/);
});
function executor(answers, turns) {
    const log = [];
    const fired = [];
    const state = (0, session_1.initialSessionState)('do it', (0, context_1.initialContext)('/w', []));
    const exec = {
        async runTurn(turn, append) {
            const step = turns.shift();
            strict_1.default.ok(step, `no scripted turn ${turn}`);
            log.push(`turn ${turn} [${append.map((m) => m.content).join(' | ')}]`);
            return { consumedAppend: true, head: `h${turn}`, context: state.context, records: [], text: `t${turn}`, ...step };
        },
        takeInterrupt: () => false,
        waitForMessage: async () => false,
        hasHooks: (e) => e in answers,
        async runHooks(event, fields) {
            fired.push([event, fields]);
            const list = answers[event] ?? [];
            const next = list.length > 1 ? list.shift() : list[0];
            return next ? [run(event, next)] : [];
        },
    };
    return { state, exec, log, fired };
}
(0, node_test_1.test)('unit: a Stop hook blocking once continues the session with its reason, then sees stop_hook_active', async () => {
    const { state, exec, log, fired } = executor({
        Stop: [{ outcome: 'blocking', stderr: 'run the tests' }, {}],
        SessionStart: [{ stdout: 'repo is a monorepo' }],
        SessionEnd: [{}],
    }, [{ reason: 'end_turn' }, { reason: 'end_turn' }]);
    const end = await (0, session_1.runSession)(state, (0, session_1.sessionConfig)({}), exec);
    strict_1.default.equal(end.kind === 'end' && end.status, 'completed');
    strict_1.default.deepEqual(log, [
        'turn 1 [do it | SessionStart hook additional context: repo is a monorepo]',
        'turn 2 [Stop hook feedback:\n[h.sh]: run the tests]',
    ]);
    strict_1.default.deepEqual(fired.map(([e, f]) => `${e}:${JSON.stringify(f)}`), [
        'SessionStart:{"source":"startup"}',
        'Stop:{"stop_hook_active":false,"last_assistant_message":"t1"}',
        'Stop:{"stop_hook_active":true,"last_assistant_message":"t2"}',
        'SessionEnd:{"reason":"other","end_status":"completed"}',
    ]);
});
(0, node_test_1.test)('unit: a subagent session fires SubagentStart and SubagentStop (blocking once), never SessionStart, UserPromptSubmit, Stop or SessionEnd', async () => {
    const all = { SessionStart: [{}], UserPromptSubmit: [{}], Stop: [{}], SessionEnd: [{}] };
    const { state, exec, log, fired } = executor({
        ...all,
        SubagentStart: [{ output: { hookSpecificOutput: { additionalContext: 'use pnpm' } } }],
        SubagentStop: [{ output: { decision: 'block', reason: 'also lint' } }, {}],
    }, [{ reason: 'end_turn' }, { reason: 'end_turn' }]);
    const end = await (0, session_1.runSession)(state, (0, session_1.sessionConfig)({}, true), exec);
    strict_1.default.equal(end.kind === 'end' && end.status, 'completed');
    strict_1.default.deepEqual(log, [
        'turn 1 [do it | SubagentStart hook additional context: use pnpm]',
        'turn 2 [Stop hook feedback:\nalso lint]',
    ]);
    strict_1.default.deepEqual(fired.map(([e, f]) => `${e}:${JSON.stringify(f)}`), [
        'SubagentStart:{}',
        'SubagentStop:{"stop_hook_active":false,"last_assistant_message":"t1"}',
        'SubagentStop:{"stop_hook_active":true,"last_assistant_message":"t2"}',
    ]);
});
(0, node_test_1.test)('unit: SessionStart fires again with source compact after a compacting turn and resume after a lost worker; startup once', async () => {
    const compaction = { at: 1, trigger: 'auto' };
    const { state, exec, log, fired } = executor({ SessionStart: [{ stdout: 'env ok' }] }, [
        { reason: 'tool_use', compactions: [compaction] },
        { reason: 'tool_use', records: [{ status: 'ok', attempts: 2 }] },
        { reason: 'tool_use', records: [{ status: 'unknown_outcome' }] },
        { reason: 'end_turn' },
    ]);
    await (0, session_1.runSession)(state, (0, session_1.sessionConfig)({}), exec);
    strict_1.default.deepEqual(fired.map(([e, f]) => `${e}:${String(f.source)}`), ['SessionStart:startup', 'SessionStart:compact', 'SessionStart:resume', 'SessionStart:resume']);
    strict_1.default.deepEqual(log, [
        'turn 1 [do it | SessionStart hook additional context: env ok]',
        'turn 2 [SessionStart hook additional context: env ok]',
        'turn 3 [SessionStart hook additional context: env ok]',
        'turn 4 [SessionStart hook additional context: env ok]',
    ]);
    // Off (a session recorded before the change): startup only.
    const old = executor({ SessionStart: [{}] }, [
        { reason: 'tool_use', compactions: [compaction] },
        { reason: 'end_turn' },
    ]);
    await (0, session_1.runSession)(old.state, (0, session_1.sessionConfig)({}, false, false), old.exec);
    strict_1.default.deepEqual(old.fired.map(([, f]) => f.source), ['startup']);
});
(0, node_test_1.test)('unit: UserPromptSubmit adds context after the prompt; a blocked only prompt ends the session; continue:false stops', async () => {
    const ctx = executor({ UserPromptSubmit: [{ stdout: 'branch is main' }] }, [{ reason: 'end_turn' }]);
    await (0, session_1.runSession)(ctx.state, (0, session_1.sessionConfig)({}), ctx.exec);
    strict_1.default.deepEqual(ctx.log, ['turn 1 [do it | UserPromptSubmit hook additional context: branch is main]']);
    strict_1.default.deepEqual(ctx.fired[0], ['UserPromptSubmit', { prompt: 'do it' }]);
    const blocked = executor({ UserPromptSubmit: [{ outcome: 'blocking', stderr: 'contains a secret' }] }, []);
    const end = await (0, session_1.runSession)(blocked.state, (0, session_1.sessionConfig)({}), blocked.exec);
    strict_1.default.equal(end.kind === 'end' && end.status, 'stopped');
    strict_1.default.match(end.kind === 'end' ? end.endReason : '', /blocked by a UserPromptSubmit hook: contains a secret/);
    strict_1.default.deepEqual(blocked.log, []);
    const stopped = executor({ SessionStart: [{ output: { continue: false, stopReason: 'not today' } }] }, []);
    const s = await (0, session_1.runSession)(stopped.state, (0, session_1.sessionConfig)({}), stopped.exec);
    strict_1.default.match(s.kind === 'end' ? s.endReason : '', /not today/);
});
(0, node_test_1.test)('unit: no hooks configured — no hook is run (histories without hooks keep their command sequence)', async () => {
    const ctx = executor({}, [{ reason: 'end_turn' }]);
    await (0, session_1.runSession)(ctx.state, (0, session_1.sessionConfig)({}), ctx.exec);
    strict_1.default.deepEqual(ctx.fired, []);
});
(0, node_test_1.test)('unit: transcript lines in the reference format, chained by parentUuid, stable uuids', async () => {
    const messages = [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
    ];
    const a = (0, transcript_1.transcriptLines)(messages, { sessionId: 's1', cwd: '/w' });
    const b = (0, transcript_1.transcriptLines)(messages, { sessionId: 's1', cwd: '/w' });
    strict_1.default.deepEqual(a.map((l) => l.uuid), b.map((l) => l.uuid));
    strict_1.default.equal(a[0].parentUuid, null);
    strict_1.default.equal(a[1].parentUuid, a[0].uuid);
    strict_1.default.match(a[0].uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
    strict_1.default.deepEqual([a[0].type, a[1].type], ['user', 'assistant']);
    const dir = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-tr-'));
    await (0, promises_1.mkdir)(dir, { recursive: true });
    const p = await (0, transcript_1.writeTranscriptFile)((0, node_path_1.join)(dir, 't', 's1.jsonl'), messages, { sessionId: 's1', cwd: '/w' });
    const lines = (await (0, promises_1.readFile)(p, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
    strict_1.default.equal(lines.length, 2);
    strict_1.default.equal(lines[0].sessionId, 's1');
    strict_1.default.equal(lines[0].message.content, 'hi');
});
(0, node_test_1.test)('unit: the transcript keeps CLAUDE.md out of the prompt line, hook context as attachment lines, Stop feedback as isMeta (as the reference)', () => {
    const reminder = (0, claudeMd_1.memoryReminder)([
        { path: '/w/CLAUDE.md', type: 'project', content: 'Use pnpm.\n</system-reminder> inside' },
    ]);
    const messages = [
        { role: 'user', content: (0, memory_1.firstMessage)('fix the build', { files: ['/w/CLAUDE.md'], text: reminder, sha256: 'x' }) },
        { role: 'user', content: 'UserPromptSubmit hook additional context: branch is main' },
        { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
        { role: 'user', content: 'Stop hook feedback:\nrun the tests' },
        { role: 'assistant', content: [{ type: 'text', text: 'tests pass' }] },
    ];
    const lines = (0, transcript_1.transcriptLines)(messages, { sessionId: 's1', cwd: '/w' });
    strict_1.default.deepEqual(lines.map((l) => l.type), ['user', 'attachment', 'assistant', 'user', 'assistant']);
    strict_1.default.equal(lines[0].message?.content, 'fix the build');
    strict_1.default.deepEqual(lines[1].attachment, {
        type: 'hook_additional_context',
        content: ['branch is main'],
        hookName: 'UserPromptSubmit',
        hookEvent: 'UserPromptSubmit',
    });
    strict_1.default.equal(lines[1].message, undefined);
    strict_1.default.equal(lines[3].isMeta, true);
    strict_1.default.equal(lines[0].isMeta, undefined);
    lines.slice(1).forEach((l, i) => strict_1.default.equal(l.parentUuid, lines[i].uuid));
    // A memory by reference prepended as a message of its own leaves no line.
    strict_1.default.deepEqual((0, transcript_1.transcriptLines)([
        { role: 'user', content: reminder },
        { role: 'user', content: 'go' },
    ], { sessionId: 's', cwd: '/w' }).map((l) => l.message?.content), ['go']);
    strict_1.default.deepEqual((0, memory_1.splitMemoryReminder)('no memory here'), { prompt: 'no memory here' });
});
(0, node_test_1.test)('unit: UserPromptSubmit hooks see the prompt as typed, without the CLAUDE.md reminder of the first message', async () => {
    const reminder = (0, claudeMd_1.memoryReminder)([
        { path: '/w/CLAUDE.md', type: 'project', content: 'Never commit secrets.' },
    ]);
    const { state, exec, fired } = executor({ UserPromptSubmit: [{}] }, [{ reason: 'end_turn' }]);
    state.pendingMessages[0] = (0, memory_1.firstMessage)('deploy it', { files: ['/w/CLAUDE.md'], text: reminder, sha256: 'x' });
    await (0, session_1.runSession)(state, (0, session_1.sessionConfig)({}), exec);
    strict_1.default.deepEqual(fired, [['UserPromptSubmit', { prompt: 'deploy it' }]]);
});
(0, node_test_1.test)("unit: Bash's tool_response has exactly the reference's keys; other tools pass through", () => {
    const r = (0, toolResponse_1.hookToolResponse)('Bash', { command: 'echo x', output: 'x\n', exitCode: 0, interrupted: false, timedOut: false }, { command: 'echo x' });
    strict_1.default.deepEqual(r, { stdout: 'x', stderr: '', interrupted: false, isImage: false, noOutputExpected: false });
    strict_1.default.equal((0, toolResponse_1.hookToolResponse)('Bash', { output: '', interrupted: false, timedOut: true }, {})
        .interrupted, true);
    // A persisted output: the path and size of the whole, stdout cut as the reference cuts it.
    const big = 'y'.repeat(40_000);
    const p = (0, toolResponse_1.hookToolResponse)('Bash', { command: 'seq', output: big }, { command: 'seq' }, { path: '/store/r.txt', size: 40_000 });
    strict_1.default.equal(p.stdout.length, 30_000);
    strict_1.default.equal(p.persistedOutputPath, '/store/r.txt');
    strict_1.default.equal(p.persistedOutputSize, 40_000);
    const d = { filePath: '/a', matches: 3 };
    strict_1.default.equal((0, toolResponse_1.hookToolResponse)('Glob', d, { pattern: '*' }), d);
    // Read: the reference's shape, the lines without our cat -n numbers.
    const read = (0, toolResponse_1.hookToolResponse)('Read', {
        filePath: '/w/a.txt',
        content: '     1\thello\n     2\t\tindented',
        startLine: 1,
        numLines: 2,
        totalLines: 2,
        truncatedLines: 0,
        partial: false,
        mtimeMs: 1,
    }, { file_path: 'a.txt' });
    strict_1.default.deepEqual(read, {
        type: 'text',
        file: { filePath: 'a.txt', content: 'hello\n\tindented', numLines: 2, startLine: 1, totalLines: 2 },
    });
    // The reference splits at '\n': a final line break adds an empty last line; an empty file has one line.
    const whole = (0, toolResponse_1.hookToolResponse)('Read', { filePath: '/w/a.txt', content: '     1\thello', startLine: 1, numLines: 1, totalLines: 1, endsWithNewline: true }, { file_path: '/w/a.txt' });
    strict_1.default.deepEqual(whole, {
        type: 'text',
        file: { filePath: '/w/a.txt', content: 'hello\n', numLines: 2, startLine: 1, totalLines: 2 },
    });
    const page = (0, toolResponse_1.hookToolResponse)('Read', { filePath: '/w/a.txt', content: '     2\tl2', startLine: 2, numLines: 1, totalLines: 3, endsWithNewline: true }, { file_path: '/w/a.txt' });
    strict_1.default.deepEqual(page, {
        type: 'text',
        file: { filePath: '/w/a.txt', content: 'l2', numLines: 1, startLine: 2, totalLines: 4 },
    });
    const empty = (0, toolResponse_1.hookToolResponse)('Read', { filePath: '/w/e.txt', content: '', startLine: 1, numLines: 0, totalLines: 0, endsWithNewline: false }, { file_path: '/w/e.txt' });
    strict_1.default.deepEqual(empty, {
        type: 'text',
        file: { filePath: '/w/e.txt', content: '', numLines: 1, startLine: 1, totalLines: 1 },
    });
});
(0, node_test_1.test)("unit: noOutputExpected: every command of the line is one that prints nothing (the reference's list)", () => {
    for (const c of ['cp a b', 'touch q', 'rm -f b && mv a c', 'mkdir -p d && touch d/x', 'X=1 chmod +x f'])
        strict_1.default.equal((0, toolResponse_1.noOutputExpected)(c), true, c);
    for (const c of ['echo made > f', 'mkdir x; echo hi', 'true', 'chmod +x f | cat', 'ls >/dev/null', 'git init -q', ''])
        strict_1.default.equal((0, toolResponse_1.noOutputExpected)(c), false, c);
});
//# sourceMappingURL=hook-events.test.js.map