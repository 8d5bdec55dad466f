"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: every session-level hook event on the real dev server, with real command hook
// scripts that capture their stdin: the reference's input fields, transcript_path (a JSONL file of
// the conversation so far), Bash's tool_response.stdout, a Stop hook blocking once (the session goes
// on), UserPromptSubmit context reaching the model, Notification on an approval wait, and an
// unknown event name failing at load.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const client_1 = require("../../src/client");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const wait_1 = require("../support/wait");
(0, node_test_1.after)(temporal_1.closeTestEnv);
async function captureHook(dir, name, body = 'exit 0') {
    const path = (0, node_path_1.join)(dir, `${name}.sh`);
    const log = (0, node_path_1.join)(dir, 'captured.jsonl');
    await (0, promises_1.writeFile)(path, `#!/bin/bash\ninput=$(cat)\nprintf '%s\\n' "$input" >> ${log}\n${body}\n`);
    await (0, promises_1.chmod)(path, 0o755);
    return { path, log };
}
async function readCaptured(log) {
    const text = await (0, promises_1.readFile)(log, 'utf8').catch(() => '');
    return text.trim()
        ? text
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l))
        : [];
}
function requestText(req) {
    return JSON.stringify(req);
}
(0, node_test_1.test)('integration: every event fires with the reference fields; transcript_path is JSONL; Bash stdout; Stop blocks once; UserPromptSubmit context reaches the model', async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, start, workDir }) => {
        const cmd = (p) => [{ type: 'command', command: p, timeout: 30 }];
        const start_ = await captureHook(workDir, 'start');
        const prompt = await captureHook(workDir, 'prompt', 'echo "the deploy window closes at 17:00"');
        const post = await captureHook(workDir, 'post');
        // Blocks the first stop only: the reference's loop guard is stop_hook_active.
        const stop = await captureHook(workDir, 'stop', 'case "$input" in *\'"stop_hook_active":true\'*) exit 0;; esac\necho "also update the changelog" >&2\nexit 2');
        const end = await captureHook(workDir, 'end');
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_ev_bash', name: 'Bash', input: { command: 'echo hello-from-bash' } }]), (0, fakeAnthropic_1.textResponse)('first answer'), (0, fakeAnthropic_1.textResponse)('changelog updated'));
        const handle = await start({
            prompt: 'say hello',
            permissionMode: 'bypassPermissions',
            hooks: {
                SessionStart: [{ matcher: 'startup', hooks: cmd(start_.path) }],
                UserPromptSubmit: [{ hooks: cmd(prompt.path) }],
                PostToolUse: [{ matcher: 'Bash', hooks: cmd(post.path) }],
                Stop: [{ hooks: cmd(stop.path) }],
                SessionEnd: [{ hooks: cmd(end.path) }],
            },
        });
        const result = await handle.result();
        strict_1.default.equal(result.status, 'completed', result.endReason);
        strict_1.default.equal(result.lastText, 'changelog updated');
        const seen = await readCaptured(start_.log);
        strict_1.default.deepEqual(seen.map((s) => s.hook_event_name), ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'Stop', 'Stop', 'SessionEnd']);
        for (const s of seen) {
            strict_1.default.equal(s.session_id, handle.workflowId);
            strict_1.default.equal(s.cwd, workDir);
            strict_1.default.equal(s.permission_mode, 'bypassPermissions');
            strict_1.default.equal(typeof s.transcript_path, 'string');
        }
        const [ss, ups, ptu, stop1, stop2, se] = seen;
        strict_1.default.equal(ss?.source, 'startup');
        strict_1.default.equal(ups?.prompt, 'say hello');
        strict_1.default.equal(ptu?.tool_name, 'Bash');
        strict_1.default.equal(ptu?.tool_use_id, 'toolu_ev_bash');
        const resp = ptu?.tool_response;
        strict_1.default.match(String(resp.stdout), /hello-from-bash/);
        strict_1.default.equal(resp.stderr, '');
        strict_1.default.equal(resp.interrupted, false);
        strict_1.default.equal(resp.isImage, false);
        strict_1.default.equal(stop1?.stop_hook_active, false);
        strict_1.default.equal(stop2?.stop_hook_active, true);
        strict_1.default.equal(se?.reason, 'other');
        // transcript_path: the conversation so far, one reference-format object per line.
        const lines = (await (0, promises_1.readFile)(String(se?.transcript_path), 'utf8'))
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l));
        strict_1.default.ok(lines.length >= 5, `transcript has ${lines.length} lines`);
        strict_1.default.equal(lines[0]?.type, 'user');
        strict_1.default.equal(lines[0]?.parentUuid, null);
        strict_1.default.equal(lines[0]?.sessionId, handle.workflowId);
        strict_1.default.equal(lines[1]?.parentUuid, lines[0]?.uuid);
        for (const l of lines) {
            strict_1.default.ok(['user', 'assistant', 'attachment'].includes(String(l.type)));
            strict_1.default.ok(typeof l.uuid === 'string' && typeof l.timestamp === 'string' && l.cwd === workDir);
            // A hook's added context is an attachment line, as the reference writes it.
            if (l.type === 'attachment')
                strict_1.default.equal(l.attachment.type, 'hook_additional_context');
            else
                strict_1.default.equal(l.message.role, l.type);
        }
        strict_1.default.ok(lines.some((l) => l.type === 'attachment'), 'the UserPromptSubmit context is an attachment line');
        strict_1.default.match(JSON.stringify(lines), /say hello/);
        strict_1.default.match(JSON.stringify(lines), /hello-from-bash/);
        strict_1.default.match(JSON.stringify(lines), /first answer/);
        // UserPromptSubmit's stdout is context for the model; the blocking Stop reason is the next message.
        const reqs = fake.messageRequests();
        strict_1.default.equal(reqs.length, 3);
        strict_1.default.match(requestText(reqs[0]), /the deploy window closes at 17:00/);
        strict_1.default.match(requestText(reqs[2]), /also update the changelog/);
    });
});
(0, node_test_1.test)('integration: a Notification hook fires when a call waits for approval', async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, start, workDir, client }) => {
        const note = await captureHook(workDir, 'note');
        const target = (0, node_path_1.join)(workDir, 'x.txt');
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_ev_write', name: 'Write', input: { file_path: target, content: 'x\n' } }]), (0, fakeAnthropic_1.textResponse)('ok'));
        const handle = await start({
            prompt: 'write x',
            permissionMode: 'default',
            hooks: { Notification: [{ hooks: [{ type: 'command', command: note.path, timeout: 30 }] }] },
        });
        const [n] = await (0, wait_1.waitFor)('the Notification hook', async () => {
            const c = await readCaptured(note.log);
            return c.length > 0 ? c : undefined;
        });
        strict_1.default.equal(n?.hook_event_name, 'Notification');
        strict_1.default.equal(n?.notification_type, 'permission_prompt');
        strict_1.default.match(String(n?.message), /permission to use Write/);
        strict_1.default.equal(n?.session_id, handle.workflowId);
        await (0, wait_1.waitFor)('the approval request', async () => (await (0, client_1.sessionStatus)(client, handle.workflowId)).pendingApprovals.length === 1);
        await (0, client_1.denyToolUse)(client, handle.workflowId, 'toolu_ev_write', 'test');
        strict_1.default.equal((await handle.result()).status, 'completed');
    });
});
(0, node_test_1.test)('integration: an unknown hook event name is refused at start, naming the key; no session starts', async () => {
    await (0, agent_1.withAgent)({}, async ({ start }) => {
        // Validation runs at the edge (src/sessionInput.ts): startSession throws and nothing is started.
        await strict_1.default.rejects(start({ prompt: 'x', hooks: { PreToolUze: [{ hooks: [{ type: 'command', command: 'true' }] }] } }), (err) => err.name === 'InvalidSessionInputError' && /hooks\.PreToolUze is not a hook event/.test(err.message));
    });
});
//# sourceMappingURL=hook-events.test.js.map