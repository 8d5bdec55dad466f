// unit: background tasks in the audit (issue 19): `taskEntries` reads the session's `task-<id>`
// activities as the session decided their ends (a result's state; cancelled or cancel-requested:
// killed, with the TaskStop call that asked; timed out: lost; failed: failed), takes the whole
// command and the tool from the starting call, and the text row names the command, state, times,
// exit code, output size and where the whole output is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatAuditText, type AuditReport, type AuditToolCall } from '../../src/audit';
import { taskEntries } from '../../src/audit/tasks';
import type { ActivityTrack } from '../../src/audit/history';

const T = (s: number): number => Date.UTC(2025, 0, 2, 10, 0, s);

function call(toolUseId: string, tool: string, input: unknown, turn = 1): AuditToolCall {
  return {
    kind: 'tool_call',
    turn,
    run: 0,
    toolUseId,
    tool,
    input,
    summary: tool,
    attempts: 1,
    activities: [],
    status: 'ok',
    resultPreview: '',
  };
}

function activity(id: string, toolUseId: string, over: Partial<ActivityTrack>): ActivityTrack {
  return {
    activityId: `task-${id}`,
    type: 'runBackgroundTask',
    input: {
      task: { id, toolUseId, command: 'preview', cwd: '/w', timeoutMs: 1000, outputPath: `/tmp/tasks/${id}.output` },
    },
    attempt: 1,
    failures: [],
    outcome: 'completed',
    scheduledAt: T(1),
    startedAt: T(1),
    endedAt: T(5),
    ...over,
  };
}

const calls = [
  call('toolu_ok', 'Bash', { command: 'make all && echo done', description: 'Build', run_in_background: true }),
  call('toolu_srv', 'Bash', { command: 'sleep 900', run_in_background: true }),
  call('toolu_lost', 'Bash', { command: 'sleep 600', run_in_background: true }),
  call('toolu_end', 'Bash', { command: 'tail -f log', run_in_background: true }),
  call('toolu_stop', 'TaskStop', { task_id: 'bsrv00000' }, 2),
  call('toolu_agent', 'Agent', { description: 'Review the diff', prompt: 'review', run_in_background: true }),
];

test('unit: taskEntries: ends as the session decides them, the whole command, who stopped it', () => {
  const tasks = taskEntries(
    [
      { activityId: 'hook-Stop-1', type: 'runSessionHooks', attempt: 1, failures: [], outcome: 'completed' },
      activity('bok000000', 'toolu_ok', {
        result: { state: 'completed', exitCode: 0, signal: null, outputBytes: 5, outputRef: 'taskoutput-abc' },
      }),
      // TaskStop: the activity completed with what it had after the cancellation: killed all the same.
      activity('bsrv00000', 'toolu_srv', {
        cancelRequestedAt: T(3),
        result: { state: 'killed', exitCode: null, signal: 'SIGTERM', outputBytes: 0 },
      }),
      activity('blost0000', 'toolu_lost', { outcome: 'timed_out', failures: ['activity Heartbeat timeout'] }),
      activity('bend00000', 'toolu_end', { outcome: 'cancelled', cancelRequestedAt: T(4) }),
      activity('brun00000', 'toolu_gone', { outcome: 'running', endedAt: undefined }),
      // A Monitor task: its own activity type, the same input, a result with the events it delivered.
      {
        ...activity('bmon00000', 'toolu_none', {
          result: { state: 'completed', exitCode: 0, signal: null, outputBytes: 30, events: 4 },
        }),
        type: 'runMonitorTask',
      },
      // A background agent's wait for its child session (another activity type, another input and result).
      {
        ...activity('aagent000', '', {}),
        type: 'awaitAgentTask',
        input: { workflowId: 'sess-1/agent-toolu_agent' },
        result: { result: { status: 'failed' } },
      },
    ],
    1,
    calls,
  );
  assert.deepEqual(
    tasks.map((t) => [t.taskId, t.taskKind, t.state, t.command, t.stoppedBy, t.exitCode, t.outputBytes]),
    [
      ['bok000000', 'local_bash', 'completed', 'make all && echo done', undefined, 0, 5],
      ['bsrv00000', 'local_bash', 'killed', 'sleep 900', 'TaskStop toolu_stop', null, 0],
      ['blost0000', 'local_bash', 'lost', 'sleep 600', undefined, undefined, undefined],
      ['bend00000', 'local_bash', 'killed', 'tail -f log', 'the session ended', undefined, undefined],
      // The starting call is not in the report (a turn it could not read): the activity's preview and type.
      ['brun00000', 'local_bash', 'running', 'preview', undefined, undefined, undefined],
      ['bmon00000', 'monitor', 'completed', 'preview', undefined, 0, 30],
      ['aagent000', 'local_agent', 'failed', 'Review the diff', undefined, undefined, undefined],
    ],
  );
  assert.equal(tasks[5]!.events, 4);
  assert.equal(tasks[6]!.childSession, 'sess-1/agent-toolu_agent');
  assert.equal(tasks[6]!.toolUseId, 'toolu_agent');
  assert.equal(tasks[6]!.tool, 'Agent');
  const ok = tasks[0]!;
  assert.equal(ok.description, 'Build');
  assert.equal(ok.outputRef, 'taskoutput-abc');
  assert.equal(ok.outputFile, '/tmp/tasks/bok000000.output');
  assert.equal(ok.turn, 1);
  assert.equal(ok.run, 1);
  assert.equal(ok.startedAt, new Date(T(1)).toISOString());
  assert.equal(ok.endedAt, new Date(T(5)).toISOString());
  assert.equal(tasks[2]!.error, 'activity Heartbeat timeout');
  assert.equal(tasks[4]!.tool, undefined);
});

test('unit: the audit text has one row per task, after its turn, with exit, size and where the output is', () => {
  const tasks = taskEntries(
    [
      activity('bok000000', 'toolu_ok', {
        result: { state: 'failed', exitCode: 3, signal: null, outputBytes: 12, outputRef: 'taskoutput-abc' },
      }),
    ],
    0,
    calls,
  );
  const report: AuditReport = {
    session: {
      kind: 'session',
      sessionId: 's',
      prompt: 'p',
      status: 'completed',
      runs: 1,
      runIds: ['r'],
      turns: 1,
      usage: { input_tokens: 0, output_tokens: 0 },
      toolCalls: 1,
      modelCalls: 0,
      tasks: 1,
      messages: [],
      interrupts: [],
    },
    modelCalls: [],
    toolCalls: [{ ...calls[0]!, startedAt: new Date(T(0)).toISOString() }],
    tasks,
  };
  const text = formatAuditText(report);
  assert.match(text, /1 background task\b/);
  const row = text.split('\n').find((l) => l.includes('task-bok000000'));
  assert.ok(row, text);
  assert.match(row, / t1 +task +task-bok000000 /);
  assert.match(row, /local_bash: Build \(\$ make all && echo done\)/);
  assert.match(row, /by Bash toolu_ok/);
  assert.match(row, / failed /);
  assert.match(
    row,
    /ended 10:00:05\.000, exit 3, 12 B output, file \/tmp\/tasks\/bok000000\.output, stored taskoutput-abc/,
  );
  // After the call that started it.
  assert.ok(text.indexOf('toolu_ok  ') < text.indexOf('task-bok000000'));
});
