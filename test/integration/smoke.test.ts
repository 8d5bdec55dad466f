// Integration: a workflow calls an activity on a real worker on the real dev server.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SmokeActivities } from '../fixtures/smokeWorkflows';
import { closeTestEnv, uniqueTaskQueue, uniqueWorkflowId, withWorker } from '../support/temporal';

after(closeTestEnv);

const workflowsPath = require.resolve('../fixtures/smokeWorkflows');

test('integration: smoke workflow runs an activity and records ActivityTaskCompleted', async () => {
  const activities: SmokeActivities = { greet: async (name) => `hello, ${name}` };
  const taskQueue = uniqueTaskQueue('smoke');
  await withWorker({ taskQueue, workflowsPath, activities }, async ({ client }) => {
    const handle = await client.workflow.start('smokeWorkflow', {
      taskQueue,
      workflowId: uniqueWorkflowId('smoke'),
      args: ['temporal'],
    });
    assert.equal(await handle.result(), 'hello, temporal');
    const history = await handle.fetchHistory();
    const types = (history.events ?? []).map((e) => String(e.eventType));
    assert.ok(
      types.some((t) => t === 'EVENT_TYPE_ACTIVITY_TASK_COMPLETED' || t === '12'),
      `no ActivityTaskCompleted in history: ${types.join(', ')}`,
    );
  });
});

test('integration: withWorker shuts the worker down when the body throws', async () => {
  let seen: { getState(): string } | undefined;
  await assert.rejects(
    withWorker({ taskQueue: uniqueTaskQueue('smoke-throw'), workflowsPath }, async ({ worker }) => {
      seen = worker;
      throw new Error('boom');
    }),
    /boom/,
  );
  assert.equal(seen?.getState(), 'STOPPED');
});
