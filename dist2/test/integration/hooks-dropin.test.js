"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: hooks as a Claude Code user writes them, on the real dev server — a PreToolUse
// hook with an `if` rule, a UserPromptSubmit hook that reads the prompt (with a CLAUDE.md in the
// session), a Stop hook that blocks once and reads the transcript file, systemMessage notices
// printed by `run`'s follower.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const follow_1 = require("../../src/cli/follow");
const claudeMd_1 = require("../../src/memory/claudeMd");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
(0, node_test_1.after)(temporal_1.closeTestEnv);
(0, node_test_1.test)('integration: if-rule, prompt as typed, Stop feedback once, transcript lines and notices as in Claude Code', async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, start, workDir, client }) => {
        const log = (name) => (0, node_path_1.join)(workDir, `${name}.jsonl`);
        const capture = (name) => `cat >> '${log(name)}'; echo >> '${log(name)}'`;
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_git', name: 'Bash', input: { command: 'git push --force' } },
            { id: 'toolu_echo', name: 'Bash', input: { command: 'echo fine' } },
        ]), (0, fakeAnthropic_1.textResponse)('first answer'), (0, fakeAnthropic_1.textResponse)('second answer'));
        const memoryText = (0, claudeMd_1.memoryReminder)([
            { path: (0, node_path_1.join)(workDir, 'CLAUDE.md'), type: 'project', content: 'Never push with --force.' },
        ]);
        const handle = await start({
            prompt: 'ship it',
            memory: { files: [(0, node_path_1.join)(workDir, 'CLAUDE.md')], text: memoryText, sha256: (0, claudeMd_1.sha256)(memoryText) },
            hooks: {
                PreToolUse: [
                    {
                        matcher: 'Bash',
                        hooks: [
                            {
                                type: 'command',
                                if: 'Bash(git push:*)',
                                command: `${capture('pre-git')}; echo 'no force pushes' >&2; exit 2`,
                            },
                        ],
                    },
                    {
                        matcher: 'B.s',
                        hooks: [
                            { type: 'command', command: `${capture('pre-all')}; echo '{"systemMessage":"PRE-NOTICE checked"}'` },
                        ],
                    },
                ],
                UserPromptSubmit: [{ hooks: [{ type: 'command', command: capture('prompt') }] }],
                Stop: [
                    {
                        hooks: [
                            {
                                type: 'command',
                                command: `f=$(mktemp); cat > "$f"; (cat "$f"; echo) >> '${log('stop')}'; grep -q '"stop_hook_active":false' "$f" && echo '{"decision":"block","reason":"run the tests","systemMessage":"STOP-NOTICE kept going"}'; rm -f "$f"; true`,
                            },
                        ],
                    },
                ],
            },
        });
        const printed = [];
        const outcome = await (0, follow_1.followSession)(client, handle.workflowId, { out: (l) => printed.push(l), intervalMs: 200 });
        strict_1.default.equal(outcome.kind === 'ended' && outcome.status, 'completed');
        const lines = async (name) => (await (0, promises_1.readFile)(log(name), 'utf8'))
            .split('\n')
            .filter((l) => l.trim())
            .map((l) => JSON.parse(l));
        // `if`: only the git call ran the guard, and it was blocked; the regex matcher `B.s` saw both.
        strict_1.default.deepEqual((await lines('pre-git')).map((i) => i.tool_use_id), ['toolu_git']);
        strict_1.default.deepEqual((await lines('pre-all')).map((i) => i.tool_use_id).sort(), ['toolu_echo', 'toolu_git']);
        const second = fake.messageRequests()[1];
        strict_1.default.match(JSON.stringify(second.messages), /no force pushes/);
        // The prompt as typed, not the CLAUDE.md reminder in front of it.
        strict_1.default.deepEqual((await lines('prompt')).map((i) => i.prompt), ['ship it']);
        // Stop blocked once: the reference's wording reached the model, then stop_hook_active was true.
        const stops = await lines('stop');
        strict_1.default.deepEqual(stops.map((s) => [s.stop_hook_active, s.last_assistant_message]), [
            [false, 'first answer'],
            [true, 'second answer'],
        ]);
        strict_1.default.ok(fake.messageRequests().some((r) => /Stop hook feedback:\\nrun the tests/.test(JSON.stringify(r.messages))));
        // The transcript file at the second Stop: prompt line as typed, feedback as isMeta, the last assistant message complete.
        const transcript = (await (0, promises_1.readFile)(String(stops[1].transcript_path), 'utf8'))
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l));
        strict_1.default.equal(transcript[0].type, 'user');
        strict_1.default.equal(transcript[0].message?.content, 'ship it');
        strict_1.default.ok(transcript.some((l) => l.type === 'user' && l.isMeta === true && String(l.message?.content).startsWith('Stop hook feedback:')));
        const last = transcript[transcript.length - 1];
        strict_1.default.equal(last.type, 'assistant');
        strict_1.default.deepEqual(last.message?.content, [{ type: 'text', text: 'second answer' }]);
        // `run` printed the hooks' messages for the user: the tool call's and the session's.
        strict_1.default.ok(printed.some((l) => l.includes('⚑') && l.includes('PRE-NOTICE checked')), printed.join('\n'));
        strict_1.default.ok(printed.some((l) => l.includes('⚑') && l.includes('STOP-NOTICE kept going')), printed.join('\n'));
    });
});
//# sourceMappingURL=hooks-dropin.test.js.map