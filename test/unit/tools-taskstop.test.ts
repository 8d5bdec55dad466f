// unit: TaskStop (issue 19) — by task_id or its old name shell_id, the reference's JSON answer and a
// taskStopRequested modifier for a running task; an unknown id and a task that already ended are
// errors with the reference's texts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TaskStopTool } from '../../src/tools/builtin/taskStop';
import type { BackgroundTask } from '../../src/engine/autonomy';
import { ToolSession } from './tools-harness';

const task = (id: string, state: BackgroundTask['state']): BackgroundTask => ({
  id,
  kind: 'local_bash',
  toolUseId: `toolu_${id}`,
  description: 'Serve',
  startedAt: 1,
  timeoutMs: 60_000,
  state,
  ...(state === 'running' ? { command: 'npm run serve' } : {}),
});

test('unit: TaskStop stops a running task by task_id or shell_id; unknown and ended ids are errors', async () => {
  const s = new ToolSession('/tmp');
  s.agent = {
    ...s.agent,
    autonomy: { tasks: [task('brun00001', 'running'), task('bdone0001', 'completed')], crons: [] },
  };
  const unknown = await s.run(TaskStopTool, { task_id: 'bnope0001' });
  assert.deepEqual([unknown.isError, unknown.text], [true, 'No task found with ID: bnope0001']);
  const ended = await s.run(TaskStopTool, { task_id: 'bdone0001' });
  assert.deepEqual([ended.isError, ended.text], [true, 'Task bdone0001 is not running (status: completed)']);
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
