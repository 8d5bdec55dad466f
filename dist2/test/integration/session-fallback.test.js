"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: model-call failures: a stream dropped mid-way falls back to a non-streamed
// request (tombstoned partial output, tools run once); overloads are retried by Temporal.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const proto_1 = require("@temporalio/proto");
const common_1 = require("@temporalio/common");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
(0, node_test_1.after)(temporal_1.closeTestEnv);
const EventType = proto_1.temporal.api.enums.v1.EventType;
(0, node_test_1.test)('integration: a stream dropped after a tool_use block falls back; the tool runs once; the partial output is a tombstone', async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, start, workDir, client }) => {
        const counter = (0, node_path_1.join)(workDir, 'count.log');
        const call = { id: 'toolu_fb1', name: 'Bash', input: { command: `echo ran >> ${counter}` } };
        // message_start, ping?, content_block_start/deltas/stop for the text and the tool_use, then the drop.
        fake.enqueue({ ...(0, fakeAnthropic_1.toolUseResponse)([call], { text: 'Counting.' }), dropAfterEvents: 12 }, (0, fakeAnthropic_1.toolUseResponse)([call], { text: 'Counting.' }), (0, fakeAnthropic_1.textResponse)('Counted.'));
        const handle = await start({ prompt: 'count once' });
        const result = await handle.result();
        strict_1.default.equal(result.status, 'completed');
        strict_1.default.equal(await (0, promises_1.readFile)(counter, 'utf8'), 'ran\n');
        const reqs = fake.messageRequests();
        strict_1.default.equal(reqs.length, 3);
        strict_1.default.equal(reqs[0]?.stream, true);
        strict_1.default.notEqual(reqs[1]?.stream, true, 'the fallback is a non-streamed request');
        // The conversation holds one assistant message for turn 1: the abandoned attempt is not in it.
        const third = reqs[2];
        strict_1.default.ok(third);
        strict_1.default.deepEqual(third.messages.map((m) => m.role), ['user', 'assistant', 'user']);
        strict_1.default.deepEqual((0, fakeAnthropic_1.lastToolResults)(third).map((r) => r.tool_use_id), ['toolu_fb1']);
        // The audit trail (the turn's history) keeps the tombstone.
        const history = await client.workflow.getHandle(`${handle.workflowId}/turn-1`).fetchHistory();
        const completed = (history.events ?? []).filter((e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED);
        const modelResult = common_1.defaultPayloadConverter.fromPayload(completed[0].activityTaskCompletedEventAttributes.result.payloads[0]);
        strict_1.default.equal(modelResult.fallback, true);
        strict_1.default.equal(modelResult.tombstones.length, 1);
        strict_1.default.ok(modelResult.tombstones[0].eventsReceived >= 1);
        strict_1.default.ok(modelResult.tombstones[0].partialContent.length >= 1, JSON.stringify(modelResult.tombstones));
    });
});
(0, node_test_1.test)('integration: a 529 with retry-after is retried by the activity; a 400 fails the session without retries', async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, start }) => {
        fake.enqueue({ ...(0, fakeAnthropic_1.overloadedError)(), retryAfterMs: 100 }, (0, fakeAnthropic_1.textResponse)('hello'));
        const r = await (await start({ prompt: 'hi' })).result();
        strict_1.default.equal(r.status, 'completed');
        strict_1.default.equal(fake.messageRequests().length, 2);
        fake.enqueue({ kind: 'error', status: 400, type: 'invalid_request_error', message: 'bad request for test' });
        const h = await start({ prompt: 'bad' });
        await strict_1.default.rejects(h.result(), (err) => /bad request for test|model call failed|session failed/.test(String(err.cause?.message ?? err.message)));
        strict_1.default.equal(fake.messageRequests().length, 3, 'the 400 was sent once and not retried');
    });
});
//# sourceMappingURL=session-fallback.test.js.map