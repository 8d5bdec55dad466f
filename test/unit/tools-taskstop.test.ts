// unit: TaskStop (issue 19) — by task_id or its old name shell_id, the reference's JSON answer and a
// taskStopRequested modifier for a running task; an unknown id and a task that already ended are
// errors with the reference's texts (a command or Monitor is gone; an agent's record stays).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TaskStopTool } from '../../src/tools/taskStop';
import type { BackgroundTask } from '../../src/core/autonomy';
import { ToolSession } from './tools-harness';

const task = (
  id: string,
  state: BackgroundTask['state'],
  kind: BackgroundTask['kind'] = 'local_bash',
  extra: Partial<BackgroundTask> = {},
): BackgroundTask => ({
  id,
  kind,
  toolUseId: `toolu_${id}`,
  description: 'Serve',
  startedAt: 1,
  timeoutMs: 60_000,
  state,
  ...(state === 'running' ? { command: 'npm run serve' } : {}),
  ...extra,
});

test('unit: TaskStop stops a running task by task_id or shell_id; unknown and ended ids are errors', async () => {
  const s = new ToolSession('/tmp');
  s.agent = {
    ...s.agent,
    autonomy: {
      tasks: [
        task('brun00001', 'running'),
        task('bdone0001', 'completed'),
        task('bkill0001', 'killed'),
        task('bmondone1', 'completed', 'monitor'),
        task('a000000000000001', 'completed', 'local_agent'),
        task('a000000000000002', 'running', 'local_agent', { stopRequested: true }),
      ],
      crons: [],
    },
  };
  const unknown = await s.run(TaskStopTool, { task_id: 'bnope0001' });
  assert.deepEqual([unknown.isError, unknown.text], [true, 'No task found with ID: bnope0001']);
  // As the reference 2.1.328: a command or Monitor that ended or was stopped is gone; an agent's record stays.
  for (const id of ['bdone0001', 'bkill0001', 'bmondone1']) {
    const ended = await s.run(TaskStopTool, { task_id: id });
    assert.deepEqual([ended.isError, ended.text], [true, `No task found with ID: ${id}`]);
  }
  const agentDone = await s.run(TaskStopTool, { task_id: 'a000000000000001' });
  assert.deepEqual(
    [agentDone.isError, agentDone.text],
    [true, 'Task a000000000000001 is not running (status: completed)'],
  );
  const agentStopped = await s.run(TaskStopTool, { task_id: 'a000000000000002' });
  assert.deepEqual(
    [agentStopped.isError, agentStopped.text],
    [true, 'Task a000000000000002 is not running (status: killed)'],
  );
  const none = await s.run(TaskStopTool, {});
  assert.equal(none.isError, true);
  const stopped = await s.run(TaskStopTool, { shell_id: 'brun00001' });
  assert.equal(stopped.isError, false);
  assert.deepEqual(JSON.parse(stopped.text), {
    message: 'Successfully stopped task: brun00001 (npm run serve)',
    task_id: 'brun00001',
    task_type: 'local_bash',
    command: 'npm run serve',
  });
  assert.equal(s.agent.autonomy?.tasks.find((t) => t.id === 'brun00001')?.stopRequested, true);
  assert.equal(TaskStopTool.inputSchema.safeParse({ task_id: 'x', extra: 1 }).success, false);
});

test("unit: TaskStop of a Monitor answers task_type local_bash (the reference's), of an agent local_agent", async () => {
  const s = new ToolSession('/tmp');
  s.agent = {
    ...s.agent,
    autonomy: {
      tasks: [
        task('bmon00001', 'running', 'monitor', { command: 'tail -f log' }),
        { ...task('a000000000000003', 'completed', 'local_agent', { description: 'Look' }), state: 'running' },
      ],
      crons: [],
    },
  };
  const mon = JSON.parse((await s.run(TaskStopTool, { task_id: 'bmon00001' })).text) as Record<string, unknown>;
  assert.deepEqual([mon['task_type'], mon['command']], ['local_bash', 'tail -f log']);
  const agent = JSON.parse((await s.run(TaskStopTool, { task_id: 'a000000000000003' })).text) as Record<
    string,
    unknown
  >;
  assert.deepEqual([agent['task_type'], agent['command']], ['local_agent', 'Look']);
});
