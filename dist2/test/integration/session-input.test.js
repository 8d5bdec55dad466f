"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: a malformed session input fails the session at once with a readable,
// non-retryable error (a plain throw would retry the workflow task forever).
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const client_1 = require("@temporalio/client");
const client_2 = require("../../src/client");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const sessionInput_1 = require("../../src/sessionInput");
const inputShape_1 = require("../../src/workflows/inputShape");
const runSession_1 = require("../../src/local/runSession");
const sessionInput_2 = require("../../src/sessionInput");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
(0, node_test_1.after)(temporal_1.closeTestEnv);
(0, node_test_1.test)('unit: the client always builds a valid session input; junk is described field by field', () => {
    strict_1.default.deepEqual((0, sessionInput_2.sessionInputProblems)((0, client_2.sessionInput)({ prompt: 'hi', cwd: '/tmp' })), []);
    const problems = (0, sessionInput_2.sessionInputProblems)({
        prompt: '',
        model: { model: 'm', maxTokens: 0 },
        tools: 'Read',
        permissionMode: 'yolo',
        rules: { allow: [] },
        cwd: 'rel',
        maxTurns: -1,
    });
    strict_1.default.deepEqual(problems, [
        'prompt must be a non-empty string',
        'model.maxTokens must be a positive integer',
        'tools must be a list of tool names',
        'permissionMode must be one of default, acceptEdits, plan, dontAsk, bypassPermissions',
        'rules.ask must be a list of rule strings',
        'rules.deny must be a list of rule strings',
        'cwd must be an absolute path',
        'maxTurns must be a positive number',
    ]);
});
(0, node_test_1.test)('integration: a session started with a malformed input fails at once, non-retryably', async () => {
    await (0, agent_1.withAgent)({}, async ({ client, taskQueue }) => {
        const t0 = Date.now();
        const handle = await client.workflow.start('sessionWorkflow', {
            workflowId: (0, temporal_1.uniqueWorkflowId)('bad-input'),
            taskQueue,
            args: [
                {
                    prompt: 'x',
                    model: { model: 'm', maxTokens: 10 },
                    tools: [],
                    permissionMode: 'yolo',
                    rules: { allow: [], ask: [], deny: [] },
                    cwd: '/tmp',
                },
            ],
        });
        await strict_1.default.rejects(handle.result(), (err) => err instanceof client_1.WorkflowFailedError &&
            /invalid session input: permissionMode must be one of/.test(err.cause?.message ?? ''));
        strict_1.default.ok(Date.now() - t0 < 20_000);
        const history = await handle.fetchHistory();
        strict_1.default.ok((history.events ?? []).length < 10, 'failed on its first workflow task, no retries');
    });
});
(0, node_test_1.test)('unit: the system prompt — a default naming the working directory, replaceable, appendable', () => {
    const d = (0, client_2.sessionInput)({ prompt: 'x', cwd: '/srv/repo' });
    strict_1.default.match(d.model.system ?? '', /working directory is \/srv\/repo/);
    strict_1.default.equal((0, client_2.sessionInput)({ prompt: 'x', cwd: '/srv/repo', model: { system: 'Be brief.' } }).model.system, 'Be brief.');
    const appended = (0, client_2.sessionInput)({ prompt: 'x', cwd: '/srv/repo', appendSystemPrompt: 'Never touch vendor/.' }).model.system ?? '';
    strict_1.default.match(appended, /working directory is \/srv\/repo[\s\S]*\n\nNever touch vendor\/\.$/);
    strict_1.default.equal((0, client_2.sessionInput)({ prompt: 'x', cwd: '/srv/repo', appendSystemPrompt: 'y' })
        .appendSystemPrompt, undefined);
});
(0, node_test_1.test)('integration: a bypassPermissions session whose settings disable that mode fails at once, saying why', async () => {
    await (0, agent_1.withAgent)({}, async ({ client, taskQueue }) => {
        const input = {
            ...(0, client_2.sessionInput)({ prompt: 'x', cwd: '/tmp', disableBypassPermissionsMode: true }),
            permissionMode: 'bypassPermissions',
        };
        const handle = await client.workflow.start('sessionWorkflow', {
            workflowId: (0, temporal_1.uniqueWorkflowId)('bypass-disabled'),
            taskQueue,
            args: [input],
        });
        await strict_1.default.rejects(handle.result(), (err) => err instanceof client_1.WorkflowFailedError &&
            /disabled by permissions\.disableBypassPermissionsMode/.test(err.cause?.message ?? ''));
    });
});
/** Hooks that today's hooks/config.ts rejects (asyncRewake became an error after sessions ran with it). */
const rewakeHooks = { Stop: [{ hooks: [{ type: 'command', command: 'true', asyncRewake: true }] }] };
(0, node_test_1.test)('unit: hook rules are checked at the edge only; the workflow checks the shape, which accepts what older releases started', () => {
    const input = { ...(0, client_2.sessionInput)({ prompt: 'hi', cwd: '/tmp' }), hooks: rewakeHooks };
    strict_1.default.deepEqual((0, sessionInput_2.sessionInputProblems)(input), [
        'hooks.Stop[0].hooks[0].asyncRewake is not supported by durable-agent (a background hook cannot wake the session); use "async": true, or a blocking hook',
    ]);
    strict_1.default.deepEqual((0, inputShape_1.sessionInputShapeProblems)(input), [], 'a running session with such hooks is not failed by the workflow');
    strict_1.default.deepEqual((0, inputShape_1.sessionInputShapeProblems)({ ...input, hooks: [] }), ['hooks must be an object of hook events']);
    strict_1.default.throws(() => (0, runSession_1.startLocalSession)({ prompt: 'hi', cwd: '/tmp', hooks: rewakeHooks }), (err) => err instanceof sessionInput_1.InvalidSessionInputError &&
        err.code === 'INVALID_SESSION_INPUT' &&
        /asyncRewake/.test(err.message));
});
(0, node_test_1.test)('integration: startSession refuses hooks the rules reject before starting anything; a session already running with them finishes', async () => {
    await (0, agent_1.withAgent)({}, async ({ client, taskQueue, fake }) => {
        const refused = (0, temporal_1.uniqueWorkflowId)('edge-refused');
        await strict_1.default.rejects((0, client_2.startSession)(client, {
            id: refused,
            taskQueue,
            prompt: 'hi',
            cwd: '/tmp',
            tools: [],
            hooks: rewakeHooks,
        }), (err) => err instanceof sessionInput_1.InvalidSessionInputError && /asyncRewake/.test(err.message));
        await strict_1.default.rejects(client.workflow.getHandle(refused).describe(), /not found/i, 'no workflow was started');
        // As a session started by an earlier release, whose edge accepted these hooks: the workflow runs it.
        fake.enqueue((0, fakeAnthropic_1.textResponse)('Hello.'));
        const handle = await client.workflow.start('sessionWorkflow', {
            workflowId: (0, temporal_1.uniqueWorkflowId)('edge-older'),
            taskQueue,
            args: [
                {
                    ...(0, client_2.sessionInput)({ prompt: 'hi', cwd: '/tmp', tools: [], onInterrupt: 'end' }),
                    hooks: { PreToolUse: rewakeHooks.Stop },
                },
            ],
        });
        const result = (await handle.result());
        strict_1.default.equal(result.status, 'completed');
        strict_1.default.equal(result.lastText, 'Hello.');
    });
});
//# sourceMappingURL=session-input.test.js.map