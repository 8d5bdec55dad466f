"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: tools stay on the host that has the files — a session whose tool activities go to
// their own task queue, served by a `durable-agent worker` process (the product command), while
// the model calls and workflows run on another worker.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const proto_1 = require("@temporalio/proto");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
(0, node_test_1.after)(temporal_1.closeTestEnv);
const EventType = proto_1.temporal.api.enums.v1.EventType;
(0, node_test_1.test)('integration: --tool-task-queue sends runToolUse to a `durable-agent worker` on that queue', { timeout: 120_000 }, async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, start, workDir, storeDir, client }) => {
        const toolQueue = (0, temporal_1.uniqueTaskQueue)('host-a');
        const worker = (0, node_child_process_1.spawn)(process.execPath, [(0, node_path_1.join)(__dirname, '..', '..', 'src', 'cli', 'main.js'), 'worker', '--task-queue', toolQueue], {
            env: {
                ...process.env,
                TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
                DURABLE_AGENT_STORE_DIR: storeDir,
            },
            stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        worker.stdout.on('data', (d) => (out += d.toString()));
        worker.stderr.on('data', (d) => (out += d.toString()));
        try {
            await new Promise((resolve, reject) => {
                const t = setInterval(() => out.includes('worker:') && (clearInterval(t), resolve()), 50);
                worker.once('exit', (code) => reject(new Error(`worker exited ${code}: ${out}`)));
            });
            await (0, promises_1.writeFile)((0, node_path_1.join)(workDir, 'here.txt'), 'on host A\n');
            fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_q1', name: 'Read', input: { file_path: (0, node_path_1.join)(workDir, 'here.txt') } }]), (0, fakeAnthropic_1.textResponse)('read it'));
            const handle = await start({ prompt: 'read', toolTaskQueue: toolQueue });
            strict_1.default.equal((await handle.result()).status, 'completed');
            strict_1.default.match(JSON.stringify((0, fakeAnthropic_1.lastToolResults)(fake.messageRequests()[1])[0]?.content), /on host A/);
            // The tool activity was scheduled on the host's queue and run by the worker process.
            const events = (await client.workflow.getHandle(`${handle.workflowId}/turn-1`).fetchHistory()).events ?? [];
            const scheduled = events.find((e) => e.activityTaskScheduledEventAttributes?.activityId === 'tool-toolu_q1');
            strict_1.default.equal(scheduled?.activityTaskScheduledEventAttributes?.taskQueue?.name, toolQueue);
            const started = events.find((e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED &&
                Number(e.activityTaskStartedEventAttributes?.scheduledEventId) === Number(scheduled?.eventId));
            strict_1.default.match(started?.activityTaskStartedEventAttributes?.identity ?? '', new RegExp(`^${worker.pid}@`));
            const model = events.find((e) => e.activityTaskScheduledEventAttributes?.activityId === 'model-1');
            strict_1.default.notEqual(model?.activityTaskScheduledEventAttributes?.taskQueue?.name, toolQueue, 'the model call stays on the shared queue');
        }
        finally {
            worker.kill('SIGINT');
            await new Promise((r) => setTimeout(r, 1500));
            if (worker.exitCode === null)
                worker.kill('SIGKILL');
        }
    });
});
//# sourceMappingURL=tool-queue.test.js.map