"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: a large CLAUDE.md travels by reference (invariant 11) and reaches subagents.
// `durable-agent run` stores the memory text in the worker's store; the session, its turns and
// the subagent's session carry `{ ref, sha256, chars }`; the model activity puts the text before the
// first message, as the reference's claudeMd reminder — the parent's and the subagent's (the
// reference gives a subagent the same CLAUDE.md context; checked against Claude Code 2.1.197).
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const memory_1 = require("../../src/engine/memory");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const cli_1 = require("../support/cli");
(0, node_test_1.after)(temporal_1.closeTestEnv);
function systemOf(req) {
    const s = req.system;
    if (typeof s === 'string')
        return s;
    return Array.isArray(s) ? s.map((b) => b.text ?? '').join('\n') : '';
}
/** A history with its payloads decoded (JSON text), to search for a string. */
const historyText = (history) => JSON.stringify(history, (k, v) => {
    if (k === 'data' && typeof v === 'string')
        return Buffer.from(v, 'base64').toString('utf8');
    if (v instanceof Uint8Array)
        return Buffer.from(v).toString('utf8');
    const b = v;
    if (b && b.type === 'Buffer' && Array.isArray(b.data))
        return Buffer.from(b.data).toString('utf8');
    return v;
});
const firstUserText = (req) => {
    const c = req.messages[0]?.content;
    return typeof c === 'string' ? c : (c ?? []).map((b) => b.text ?? '').join('');
};
(0, node_test_1.test)('integration: a large CLAUDE.md is sent by reference — in no workflow history — and both the session and its subagent see it', { timeout: 120_000 }, async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, workDir, storeDir, taskQueue, client }) => {
        const home = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-memref-home-'));
        const body = Array.from({ length: 1500 }, (_, i) => `- rule ${i}: keep the MEMORY-BODY line ${i} in mind`).join('\n');
        const claudeMd = `MEMORY-HEAD project rules\n${body}\nMEMORY-TAIL last rule\n`;
        strict_1.default.ok(claudeMd.length > memory_1.MEMORY_INLINE_MAX_CHARS * 3);
        await (0, promises_1.writeFile)((0, node_path_1.join)(workDir, 'CLAUDE.md'), claudeMd);
        await (0, promises_1.mkdir)((0, node_path_1.join)(workDir, '.claude', 'agents'), { recursive: true });
        await (0, promises_1.writeFile)((0, node_path_1.join)(workDir, '.claude', 'agents', 'reviewer.md'), '---\nname: reviewer\ndescription: Reviews.\ntools: Read\n---\nYou are MARKER-REVIEWER.\n');
        fake.script((req) => {
            if (systemOf(req).includes('MARKER-REVIEWER'))
                return (0, fakeAnthropic_1.textResponse)('reviewed');
            if (!req.messages.some((m) => m.role === 'assistant'))
                return (0, fakeAnthropic_1.toolUseResponse)([
                    {
                        id: 'toolu_review',
                        name: 'Agent',
                        input: {
                            run_in_background: false,
                            description: 'review',
                            prompt: 'REVIEW-PROMPT',
                            subagent_type: 'reviewer',
                        },
                    },
                ]);
            return (0, fakeAnthropic_1.textResponse)('done');
        });
        const env = {
            TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
            DURABLE_AGENT_TASK_QUEUE: taskQueue,
            DURABLE_AGENT_STORE_DIR: storeDir,
            CLAUDE_CONFIG_DIR: (0, node_path_1.join)(home, '.claude'),
            DURABLE_AGENT_HOME: (0, node_path_1.join)(home, '.durable-agent'),
            DURABLE_AGENT_MANAGED_SETTINGS: (0, node_path_1.join)(home, 'none.json'),
            DURABLE_AGENT_MANAGED_MEMORY: (0, node_path_1.join)(home, 'none.md'),
        };
        const run = await (0, cli_1.cli)(['run', '--cwd', workDir, '--permission-mode', 'bypassPermissions', 'PARENT-PROMPT'], env, 90_000);
        strict_1.default.equal(run.code, 0, run.stderr);
        const id = /session (\S+) started/.exec(run.stdout)?.[1];
        strict_1.default.ok(id, run.stdout);
        const handle = client.workflow.getHandle(id);
        const result = (await handle.result());
        strict_1.default.equal(result.status, 'completed', result.endReason);
        // The model got the whole memory before the prompt, in the session and in its subagent.
        const parentFirst = fake.messageRequests().find((r) => !systemOf(r).includes('MARKER-REVIEWER'));
        const childFirst = fake.messageRequests().find((r) => systemOf(r).includes('MARKER-REVIEWER'));
        for (const [who, req, prompt] of [
            ['session', parentFirst, 'PARENT-PROMPT'],
            ['subagent', childFirst, 'REVIEW-PROMPT'],
        ]) {
            const text = firstUserText(req);
            strict_1.default.match(text, /^<system-reminder>/, who);
            strict_1.default.ok(text.includes('MEMORY-HEAD') && text.includes('MEMORY-BODY line 1499') && text.includes('MEMORY-TAIL'), `${who} sees the whole CLAUDE.md`);
            strict_1.default.ok(text.indexOf('MEMORY-TAIL') < text.indexOf(prompt), `${who}: memory before the prompt`);
        }
        // No workflow history holds the text: the session's, its turns', the subagent's.
        const ids = [id, `${id}/turn-1`, `${id}/turn-2`, `${id}/agent-toolu_review`, `${id}/agent-toolu_review/turn-1`];
        for (const wid of ids) {
            const history = historyText(await client.workflow.getHandle(wid).fetchHistory());
            strict_1.default.ok(history.includes('REVIEW-PROMPT') || history.includes('PARENT-PROMPT') || history.includes('Model call'), `${wid}: the history is decoded`);
            strict_1.default.ok(!history.includes('MEMORY-BODY'), `${wid}: the memory text is not in the history`);
        }
        const start = historyText(await client.workflow.getHandle(id).fetchHistory());
        strict_1.default.match(start, /memory-[0-9a-f]{64}/);
    });
});
//# sourceMappingURL=memory-ref.test.js.map