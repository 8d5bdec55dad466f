"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the fake API's context window and prompt-cache simulation, through the real SDK.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const sdk_1 = __importDefault(require("@anthropic-ai/sdk"));
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const big = (tag) => `${tag} `.repeat(1500);
const EPH = { type: 'ephemeral' };
function request(turns, marks = true) {
    const messages = [];
    for (let i = 0; i < turns; i++) {
        messages.push({ role: 'user', content: [{ type: 'text', text: `question ${i} ${big('q')}` }] });
        messages.push({ role: 'assistant', content: [{ type: 'text', text: `answer ${i}` }] });
    }
    messages.push({ role: 'user', content: [{ type: 'text', text: 'next', ...(marks ? { cache_control: EPH } : {}) }] });
    return {
        model: 'm',
        max_tokens: 10,
        system: [{ type: 'text', text: big('system'), ...(marks ? { cache_control: EPH } : {}) }],
        messages,
    };
}
(0, node_test_1.test)('unit: fake prompt cache — first request writes, a longer one reads the old prefix and writes the rest; no marks, no cache', () => {
    const sim = new fakeAnthropic_1.PromptCacheSim();
    const first = sim.use((0, fakeAnthropic_1.promptSegments)(request(1)));
    strict_1.default.equal(first.cache_read_input_tokens, 0);
    strict_1.default.ok(first.cache_creation_input_tokens > 1024);
    const again = sim.use((0, fakeAnthropic_1.promptSegments)(request(1)));
    strict_1.default.equal(again.cache_creation_input_tokens, 0);
    strict_1.default.equal(again.cache_read_input_tokens, first.cache_creation_input_tokens);
    const longer = sim.use((0, fakeAnthropic_1.promptSegments)(request(2)));
    strict_1.default.ok(longer.cache_read_input_tokens > 0 && longer.cache_creation_input_tokens > 0);
    strict_1.default.equal(longer.cache_read_input_tokens + longer.cache_creation_input_tokens + longer.input_tokens, (0, fakeAnthropic_1.promptTokens)((0, fakeAnthropic_1.promptSegments)(request(2))));
    const unmarked = sim.use((0, fakeAnthropic_1.promptSegments)(request(2, false)));
    strict_1.default.deepEqual([unmarked.cache_read_input_tokens, unmarked.cache_creation_input_tokens], [0, 0]);
    // Entries expire after the TTL; a prefix below the minimum is never cached.
    let now = 0;
    const timed = new fakeAnthropic_1.PromptCacheSim({ now: () => now, ttlMs: 1000, minTokens: 1_000_000 });
    timed.use((0, fakeAnthropic_1.promptSegments)(request(1)));
    strict_1.default.equal(timed.use((0, fakeAnthropic_1.promptSegments)(request(1))).cache_read_input_tokens, 0);
    const ttl = new fakeAnthropic_1.PromptCacheSim({ now: () => now, ttlMs: 1000 });
    ttl.use((0, fakeAnthropic_1.promptSegments)(request(1)));
    now = 2000;
    strict_1.default.equal(ttl.use((0, fakeAnthropic_1.promptSegments)(request(1))).cache_read_input_tokens, 0);
});
(0, node_test_1.test)('unit: fake API enforces its context window with the API\'s 400 "prompt is too long"; usage reports cache reads', async () => {
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)({ contextWindow: 3000 });
    try {
        const client = new sdk_1.default({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 });
        fake.enqueue((0, fakeAnthropic_1.textResponse)('ok'), (0, fakeAnthropic_1.textResponse)('ok again'));
        const body = request(0);
        const r1 = await client.messages.create(body);
        strict_1.default.ok((r1.usage.cache_creation_input_tokens ?? 0) > 0);
        const r2 = await client.messages.create(body);
        strict_1.default.equal(r2.usage.cache_read_input_tokens, r1.usage.cache_creation_input_tokens);
        const tooLong = request(1);
        await strict_1.default.rejects(client.messages.create(tooLong), (err) => {
            strict_1.default.ok(err instanceof sdk_1.default.BadRequestError);
            strict_1.default.match(err.message, /prompt is too long: \d+ tokens > 3000 maximum/);
            strict_1.default.equal(err.error?.error?.type, 'invalid_request_error');
            return true;
        });
        strict_1.default.equal(fake.remaining(), 0, 'the refused request used no scripted response');
        fake.setContextWindow(undefined);
        fake.enqueue((0, fakeAnthropic_1.textResponse)('fits now'));
        await client.messages.create(tooLong);
        fake.assertDone();
    }
    finally {
        await fake.close();
    }
});
//# sourceMappingURL=fake-prompt-cache.test.js.map