// integration: a malformed session input fails the session at once with a readable,
// non-retryable error (a plain throw would retry the workflow task forever).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { WorkflowFailedError } from '@temporalio/client';
import { sessionInput, startSession } from '../../src/temporal/client';
import { textResponse } from '../../src/testing/fakeAnthropic';
import { InvalidSessionInputError } from '../../src/sessionInput';
import { sessionInputShapeProblems } from '../../src/temporal/workflows/inputShape';
import { startLocalSession } from '../../src/inprocess/runSession';
import { sessionInputProblems } from '../../src/sessionInput';
import { closeTestEnv, uniqueWorkflowId } from '../support/temporal';
import { withAgent } from '../support/agent';

after(closeTestEnv);

test('unit: the client always builds a valid session input; junk is described field by field', () => {
  assert.deepEqual(sessionInputProblems(sessionInput({ prompt: 'hi', cwd: '/tmp' })), []);
  const problems = sessionInputProblems({
    prompt: '',
    model: { model: 'm', maxTokens: 0 },
    tools: 'Read',
    permissionMode: 'yolo',
    rules: { allow: [] },
    cwd: 'rel',
    maxTurns: -1,
  });
  assert.deepEqual(problems, [
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

test('integration: a session started with a malformed input fails at once, non-retryably', async () => {
  await withAgent({}, async ({ client, taskQueue }) => {
    const handle = await client.workflow.start('sessionWorkflow', {
      workflowId: uniqueWorkflowId('bad-input'),
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
    await assert.rejects(
      handle.result(),
      (err: unknown) =>
        err instanceof WorkflowFailedError &&
        /invalid session input: permissionMode must be one of/.test(err.cause?.message ?? ''),
    );
    const history = await handle.fetchHistory();
    // "At once" read from the history (its first workflow task, no retries), not from a clock.
    assert.ok((history.events ?? []).length < 10, 'failed on its first workflow task, no retries');
  });
});

test('unit: the system prompt — a default naming the working directory, replaceable, appendable', () => {
  const d = sessionInput({ prompt: 'x', cwd: '/srv/repo' });
  assert.match(d.model.system ?? '', /working directory is \/srv\/repo/);
  assert.equal(
    sessionInput({ prompt: 'x', cwd: '/srv/repo', model: { system: 'Be brief.' } }).model.system,
    'Be brief.',
  );
  const appended =
    sessionInput({ prompt: 'x', cwd: '/srv/repo', appendSystemPrompt: 'Never touch vendor/.' }).model.system ?? '';
  assert.match(appended, /working directory is \/srv\/repo[\s\S]*\n\nNever touch vendor\/\.$/);
  assert.equal(
    (sessionInput({ prompt: 'x', cwd: '/srv/repo', appendSystemPrompt: 'y' }) as unknown as Record<string, unknown>)
      .appendSystemPrompt,
    undefined,
  );
});

test('integration: a bypassPermissions session whose settings disable that mode fails at once, saying why', async () => {
  await withAgent({}, async ({ client, taskQueue }) => {
    const input = {
      ...sessionInput({ prompt: 'x', cwd: '/tmp', disableBypassPermissionsMode: true }),
      permissionMode: 'bypassPermissions',
    };
    const handle = await client.workflow.start('sessionWorkflow', {
      workflowId: uniqueWorkflowId('bypass-disabled'),
      taskQueue,
      args: [input],
    });
    await assert.rejects(
      handle.result(),
      (err: unknown) =>
        err instanceof WorkflowFailedError &&
        /disabled by permissions\.disableBypassPermissionsMode/.test(err.cause?.message ?? ''),
    );
  });
});

/** Hooks that today's hooks/config.ts rejects (asyncRewake became an error after sessions ran with it). */
const rewakeHooks = { Stop: [{ hooks: [{ type: 'command' as const, command: 'true', asyncRewake: true }] }] };

test('unit: hook rules are checked at the edge only; the workflow checks the shape, which accepts what older releases started', () => {
  const input = { ...sessionInput({ prompt: 'hi', cwd: '/tmp' }), hooks: rewakeHooks as never };
  assert.deepEqual(sessionInputProblems(input), [
    'hooks.Stop[0].hooks[0].asyncRewake is not supported by durable-agent (a background hook cannot wake the session); use "async": true, or a blocking hook',
  ]);
  assert.deepEqual(
    sessionInputShapeProblems(input),
    [],
    'a running session with such hooks is not failed by the workflow',
  );
  assert.deepEqual(sessionInputShapeProblems({ ...input, hooks: [] }), ['hooks must be an object of hook events']);
  assert.throws(
    () => startLocalSession({ prompt: 'hi', cwd: '/tmp', hooks: rewakeHooks as never }),
    (err: unknown) =>
      err instanceof InvalidSessionInputError &&
      err.code === 'INVALID_SESSION_INPUT' &&
      /asyncRewake/.test(err.message),
  );
});

test('integration: startSession refuses hooks the rules reject before starting anything; a session already running with them finishes', async () => {
  await withAgent({}, async ({ client, taskQueue, fake }) => {
    const refused = uniqueWorkflowId('edge-refused');
    await assert.rejects(
      startSession(client, {
        id: refused,
        taskQueue,
        prompt: 'hi',
        cwd: '/tmp',
        tools: [],
        hooks: rewakeHooks as never,
      }),
      (err: unknown) => err instanceof InvalidSessionInputError && /asyncRewake/.test(err.message),
    );
    await assert.rejects(client.workflow.getHandle(refused).describe(), /not found/i, 'no workflow was started');
    // As a session started by an earlier release, whose edge accepted these hooks: the workflow runs it.
    fake.enqueue(textResponse('Hello.'));
    const handle = await client.workflow.start('sessionWorkflow', {
      workflowId: uniqueWorkflowId('edge-older'),
      taskQueue,
      args: [
        {
          ...sessionInput({ prompt: 'hi', cwd: '/tmp', tools: [], onInterrupt: 'end' }),
          hooks: { PreToolUse: rewakeHooks.Stop },
        },
      ],
    });
    const result = (await handle.result()) as { status: string; lastText: string };
    assert.equal(result.status, 'completed');
    assert.equal(result.lastText, 'Hello.');
  });
});
