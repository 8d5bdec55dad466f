"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: hooks configured in the session (the settings format) run around tool calls on
// the worker: a PreToolUse command hook blocks with exit 2, a PostToolUse hook adds context.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const audit_1 = require("../../src/audit");
(0, node_test_1.after)(temporal_1.closeTestEnv);
(0, node_test_1.test)('integration: PreToolUse hook blocks a Bash call (exit 2); PostToolUse adds context; the hook sees the session and ids', async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, start, workDir, client }) => {
        const seen = (0, node_path_1.join)(workDir, 'hook-input.jsonl');
        const pre = (0, node_path_1.join)(workDir, 'pre.sh');
        await (0, promises_1.writeFile)(pre, `#!/bin/sh\ninput=$(cat)\necho "$input" >> ${seen}\ncase "$input" in *'rm -rf'*) echo "no recursive deletes here" >&2; exit 2;; esac\nexit 0\n`);
        await (0, promises_1.chmod)(pre, 0o755);
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_h_rm', name: 'Bash', input: { command: 'rm -rf build' } },
            { id: 'toolu_h_ls', name: 'Bash', input: { command: 'echo hello' } },
        ]), (0, fakeAnthropic_1.textResponse)('ok'));
        const handle = await start({
            prompt: 'clean up',
            hooks: {
                PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: pre, timeout: 10 }] }],
                PostToolUse: [
                    {
                        matcher: 'Bash',
                        hooks: [
                            {
                                type: 'command',
                                command: `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"remember to run the tests"}}'`,
                            },
                        ],
                    },
                ],
            },
        });
        strict_1.default.equal((await handle.result()).status, 'completed');
        const [rm, echo] = (0, fakeAnthropic_1.lastToolResults)(fake.messageRequests()[1]);
        strict_1.default.equal(rm?.is_error, true);
        strict_1.default.match(JSON.stringify(rm?.content), /no recursive deletes here/);
        strict_1.default.notEqual(echo?.is_error, true);
        strict_1.default.match(JSON.stringify(echo?.content), /hello/);
        strict_1.default.match(JSON.stringify(echo?.content), /remember to run the tests/);
        const inputs = (await (0, promises_1.readFile)(seen, 'utf8'))
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l));
        strict_1.default.equal(inputs.length, 2);
        strict_1.default.equal(inputs[0]?.session_id, handle.workflowId);
        strict_1.default.equal(inputs[0]?.tool_use_id, 'toolu_h_rm');
        strict_1.default.equal(inputs[0]?.hook_event_name, 'PreToolUse');
        strict_1.default.equal(inputs[0]?.cwd, workDir);
        strict_1.default.deepEqual(inputs[1]?.tool_input, { command: 'echo hello' });
        // The audit trail says which hooks ran and how they ended.
        const audit = await (0, audit_1.buildAudit)(client, handle.workflowId);
        const rmCall = audit.toolCalls.find((c) => c.toolUseId === 'toolu_h_rm');
        strict_1.default.deepEqual(rmCall?.hooks?.map((h) => [h.event, h.outcome, h.exitCode]), [['PreToolUse', 'blocking', 2]]);
        strict_1.default.match(rmCall?.hooks?.[0]?.reason ?? '', /no recursive deletes here/);
        const echoCall = audit.toolCalls.find((c) => c.toolUseId === 'toolu_h_ls');
        strict_1.default.deepEqual(echoCall?.hooks?.map((h) => [h.event, h.outcome]), [
            ['PreToolUse', 'success'],
            ['PostToolUse', 'success'],
        ]);
    });
});
(0, node_test_1.test)("integration: a PostToolUse hook's continue:false stops the session after the turn, saying why", async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, start }) => {
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_h_stop', name: 'Bash', input: { command: 'echo done' } }]), (0, fakeAnthropic_1.textResponse)('never asked for'));
        const handle = await start({
            prompt: 'run and stop',
            hooks: {
                PostToolUse: [
                    {
                        matcher: 'Bash',
                        hooks: [{ type: 'command', command: `echo '{"continue":false,"stopReason":"the build is green"}'` }],
                    },
                ],
            },
        });
        const result = await handle.result();
        strict_1.default.equal(result.status, 'stopped');
        strict_1.default.match(result.endReason, /stopped by a hook .*: the build is green/);
        strict_1.default.equal(fake.messageRequests().length, 1, 'the model is not called again');
        strict_1.default.equal(fake.remaining(), 1);
    });
});
//# sourceMappingURL=session-hooks.test.js.map