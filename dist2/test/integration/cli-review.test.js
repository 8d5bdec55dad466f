"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: CLI bugs found in review (issue 13), each as a user meets it: real processes, the
// real dev server, the fake Messages API.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const common_1 = require("@temporalio/common");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const client_1 = require("../../src/client");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const cli_1 = require("../support/cli");
const wait_1 = require("../support/wait");
(0, node_test_1.after)(temporal_1.closeTestEnv);
async function startInput(client, id) {
    const history = await client.workflow.getHandle(id).fetchHistory();
    const payload = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
    strict_1.default.ok(payload);
    return common_1.defaultPayloadConverter.fromPayload(payload);
}
(0, node_test_1.test)('cli: run honours DURABLE_AGENT_PERMISSION_MODE (a flag still wins); the workflow input carries no id or taskQueue', async () => {
    // No worker: only the start input is looked at.
    await (0, agent_1.withAgent)({ noWorker: true }, async ({ taskQueue, workDir, client }) => {
        const env = {
            TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
            DURABLE_AGENT_TASK_QUEUE: taskQueue,
            DURABLE_AGENT_PERMISSION_MODE: 'dontAsk',
        };
        const byEnv = await (0, cli_1.cli)([
            'run',
            '--detach',
            '--json',
            '--cwd',
            workDir,
            '--model',
            'claude-test',
            '--id',
            `perm-env-${Date.now()}`,
            'do it',
        ], env);
        strict_1.default.equal(byEnv.code, 0, byEnv.stderr);
        const byFlag = await (0, cli_1.cli)(['run', '--detach', '--json', '--cwd', workDir, '--model', 'claude-test', '--permission-mode', 'plan', 'do it'], env);
        strict_1.default.equal(byFlag.code, 0, byFlag.stderr);
        for (const [r, mode] of [
            [byEnv, 'dontAsk'],
            [byFlag, 'plan'],
        ]) {
            const id = JSON.parse(r.stdout).session;
            const input = await startInput(client, id);
            strict_1.default.equal(input.permissionMode, mode);
            // The workflow id and task queue are the start options' business, not the input's.
            strict_1.default.equal('id' in input, false, JSON.stringify(Object.keys(input)));
            strict_1.default.equal('taskQueue' in input, false, JSON.stringify(Object.keys(input)));
            await client.workflow.getHandle(id).terminate('test done');
        }
    });
});
(0, node_test_1.test)('cli: send, interrupt, approve and deny act while no worker is up; approve says it is pending until a worker applies it', async () => {
    await (0, agent_1.withAgent)({ noWorker: true }, async ({ fake, start, startWorker, workDir, taskQueue, client }) => {
        const env = {
            TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
            DURABLE_AGENT_TASK_QUEUE: taskQueue,
            DURABLE_AGENT_UPDATE_WAIT_MS: '1500',
        };
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_nw_write', name: 'Write', input: { file_path: (0, node_path_1.join)(workDir, 'out.txt'), content: 'hi\n' } },
        ]), (0, fakeAnthropic_1.textResponse)('wrote it, and read your note'));
        let worker = await startWorker();
        const handle = await start({ prompt: 'write a file', permissionMode: 'default' });
        await (0, wait_1.waitFor)('the Write to ask', async () => (await (0, client_1.sessionStatus)(client, handle.workflowId)).pendingApprovals.length > 0);
        await worker.stop();
        // No worker now: a signal is accepted by the server alone.
        const sent = await (0, cli_1.cli)(['send', handle.workflowId, 'a', 'note'], env);
        strict_1.default.equal(sent.code, 0, sent.stderr);
        strict_1.default.match(sent.stdout, /message sent to /);
        // An update needs a worker to be accepted: the CLI says what happened instead of failing or hanging.
        const approved = await (0, cli_1.cli)(['approve', handle.workflowId, 'toolu_nw_write', '--by', 'dana'], env);
        strict_1.default.equal(approved.code, 0, approved.stderr);
        strict_1.default.match(approved.stdout, /approve of toolu_nw_write sent to .*no worker has taken it yet/);
        // deny of another id: pending as well (the worker's validator refuses it later; nothing breaks).
        const denied = await (0, cli_1.cli)(['deny', handle.workflowId, 'toolu_other', '--reason', 'late'], env);
        strict_1.default.equal(denied.code, 0, denied.stderr);
        strict_1.default.match(denied.stdout, /no worker has taken it yet/);
        // A worker comes back: the approval is applied (first decision wins), the note is read.
        worker = await startWorker();
        try {
            const result = await handle.result();
            strict_1.default.equal(result.status, 'completed', result.endReason);
            fake.assertDone();
            // The approval was applied (the Write ran, its result is no error) and the note reached the model.
            const [request] = fake.messageRequests().slice(-1);
            const results = request?.messages.flatMap((m) => Array.isArray(m.content) ? m.content.filter((b) => b.type === 'tool_result') : []) ?? [];
            strict_1.default.equal(results.length, 1);
            strict_1.default.notEqual(results[0]?.is_error, true, JSON.stringify(results[0]));
            strict_1.default.equal(await (0, promises_1.readFile)((0, node_path_1.join)(workDir, 'out.txt'), 'utf8'), 'hi\n');
            strict_1.default.match(JSON.stringify(request?.messages), /a note/);
        }
        finally {
            await worker.stop();
        }
        // interrupt with no worker: accepted by the server (the session has ended here, which is said).
        const second = await start({ prompt: 'wait', permissionMode: 'default' });
        const interrupted = await (0, cli_1.cli)(['interrupt', second.workflowId], env);
        strict_1.default.equal(interrupted.code, 0, interrupted.stderr);
        strict_1.default.match(interrupted.stdout, /interrupt sent to /);
        const ended = await (0, cli_1.cli)(['send', handle.workflowId, 'x'], env);
        strict_1.default.notEqual(ended.code, 0);
        strict_1.default.match(ended.stderr, /has ended \(completed\)/);
        await second.terminate('test done');
    });
});
(0, node_test_1.test)('cli: transcript reads the store the worker is configured with (DURABLE_AGENT_BLOB_STORE), not the default file store', async () => {
    const dir = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-custom-store-'));
    const modulePath = (0, node_path_1.join)(dir, 'store.js');
    // A store with its own layout: `<DA_CUSTOM_STORE_DIR>/<key>.blob`.
    await (0, promises_1.writeFile)(modulePath, `const fs = require('node:fs'); const path = require('node:path');
     exports.createBlobStore = () => {
       const root = process.env.DA_CUSTOM_STORE_DIR; fs.mkdirSync(root, { recursive: true });
       return {
         async put(key, data) { fs.writeFileSync(path.join(root, key + '.blob'), data); },
         async get(key) { try { return fs.readFileSync(path.join(root, key + '.blob'), 'utf8'); } catch { return undefined; } },
       };
     };\n`);
    const storeEnv = { DURABLE_AGENT_BLOB_STORE: modulePath, DA_CUSTOM_STORE_DIR: (0, node_path_1.join)(dir, 'blobs') };
    const saved = { ...process.env };
    Object.assign(process.env, storeEnv);
    try {
        await (0, agent_1.withAgent)({}, async ({ fake, start, taskQueue }) => {
            fake.enqueue((0, fakeAnthropic_1.textResponse)('the custom store answer'));
            const handle = await start({ prompt: 'say something' });
            strict_1.default.equal((await handle.result()).status, 'completed');
            const env = {
                TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
                DURABLE_AGENT_TASK_QUEUE: taskQueue,
                ...storeEnv,
                DURABLE_AGENT_STORE_DIR: (0, node_path_1.join)(dir, 'not-this-one'),
            };
            const r = await (0, cli_1.cli)(['transcript', handle.workflowId], env);
            strict_1.default.equal(r.code, 0, r.stderr);
            strict_1.default.match(r.stdout, /user: say something/);
            strict_1.default.match(r.stdout, /assistant: the custom store answer/);
        });
    }
    finally {
        for (const k of Object.keys(storeEnv))
            if (saved[k] === undefined)
                delete process.env[k];
    }
});
//# sourceMappingURL=cli-review.test.js.map