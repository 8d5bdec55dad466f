"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: prompt caching. The session marks cache breakpoints (tools, system prompt, the
// conversation's last messages); the fake API simulates the prompt cache (prefix match at or up
// to 20 blocks before a breakpoint, 5-minute entries, ≥ 1024 tokens) and reports usage as the API
// does. Over a 50-turn session, after turn 3, ≥ 80 % of the input tokens are read from the cache;
// `status` and the audit sum the cache fields.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const definitions_1 = require("../../src/workflows/definitions");
const audit_1 = require("../../src/audit");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
(0, node_test_1.after)(temporal_1.closeTestEnv);
const TURNS = 50;
(0, node_test_1.test)('integration: prompt caching — on a 50-turn session ≥ 80 % of input tokens are cache reads after turn 3; status and audit sum them', { timeout: 300_000 }, async () => {
    await (0, agent_1.withAgent)({ fake: { textChunkSize: 400, jsonChunkSize: 200 } }, async ({ fake, start, workDir, client }) => {
        await (0, promises_1.mkdir)((0, node_path_1.join)(workDir, 'src'));
        for (let i = 1; i < TURNS; i++) {
            await (0, promises_1.writeFile)((0, node_path_1.join)(workDir, 'src', `mod${i}.ts`), Array.from({ length: 30 }, (_, l) => `export const value${i}_${l} = ${l}; // module ${i}`).join('\n'));
        }
        fake.script((req) => {
            const turn = req.messages.filter((m) => m.role === 'assistant').length + 1;
            if (turn >= TURNS)
                return (0, fakeAnthropic_1.textResponse)('Read every module.');
            return (0, fakeAnthropic_1.toolUseResponse)([{ name: 'Read', input: { file_path: (0, node_path_1.join)(workDir, 'src', `mod${turn}.ts`) } }], {
                text: `Reading module ${turn}.`,
            });
        });
        const handle = await start({
            prompt: 'Read every module in src/ and summarise them.',
            tools: ['Read', 'Grep', 'Glob'],
            maxTurns: TURNS + 5,
        });
        const result = await handle.result();
        strict_1.default.equal(result.status, 'completed', result.endReason);
        strict_1.default.equal(result.turns, TURNS);
        fake.assertDone();
        // What was sent: breakpoints on the last tool, the system prompt and the last message(s), never more than 4.
        const requests = fake.messageRequests();
        for (const r of requests) {
            const marks = JSON.stringify(r).match(/"cache_control"/g)?.length ?? 0;
            strict_1.default.ok(marks >= 3 && marks <= 4, `${marks} breakpoints`);
            strict_1.default.ok(Array.isArray(r.system) && JSON.stringify(r.system).includes('cache_control'));
            strict_1.default.ok(JSON.stringify(r.tools?.[r.tools.length - 1]).includes('cache_control'));
        }
        const usages = fake.requests.filter((r) => r.response?.message).map((r) => r.response.message.usage);
        strict_1.default.equal(usages.length, TURNS);
        const after3 = usages.slice(3);
        const read = after3.reduce((n, u) => n + (u.cache_read_input_tokens ?? 0), 0);
        const created = after3.reduce((n, u) => n + (u.cache_creation_input_tokens ?? 0), 0);
        const uncached = after3.reduce((n, u) => n + u.input_tokens, 0);
        const share = read / (read + created + uncached);
        console.log(`[cache] turns 4–${TURNS}: ${read} tokens read from cache, ${created} written, ${uncached} uncached: ${(share * 100).toFixed(1)} % of input tokens read from cache`);
        strict_1.default.ok(share >= 0.8, `only ${(share * 100).toFixed(1)} % read from cache`);
        // status sums every call's usage with the cache fields; the audit lists them per model call.
        const status = await handle.query(definitions_1.statusQuery);
        const sum = (k) => usages.reduce((n, u) => n + (u[k] ?? 0), 0);
        strict_1.default.equal(status.usage.cache_read_input_tokens, sum('cache_read_input_tokens'));
        strict_1.default.equal(status.usage.cache_creation_input_tokens, sum('cache_creation_input_tokens'));
        strict_1.default.equal(status.usage.input_tokens, sum('input_tokens'));
        const audit = await (0, audit_1.buildAudit)(client, handle.workflowId);
        strict_1.default.equal(audit.session.usage.cache_read_input_tokens, sum('cache_read_input_tokens'));
    });
});
//# sourceMappingURL=prompt-cache.test.js.map