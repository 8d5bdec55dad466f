// unit: background tasks in the in-process runner (issue 19), with real processes: Bash
// run_in_background answers at once, the task starts after its turn (a later call of the same turn
// does not see it), writes its output file in the session's temp dir, and its notification (the
// engine's text) is the next turn's user message — the idle session wakes for it; TaskStop kills a
// running task (no notification), an unknown id is an error; handle.stop() ends the wait and kills
// every running task. Monitor in process: local-monitor.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import {
  startFakeAnthropic,
  textResponse,
  toolUseResponse,
  type FakeAnthropicServer,
  type MessagesRequest,
} from '../../src/testing/fakeAnthropic';
import { startLocalSession, type LocalSession } from '../../src/inprocess/runSession';
import { sessionTasksPath } from '../../src/sandbox/host';
import { backgroundTaskId } from '../../src/tools/bash';
import { taskNotification } from '../../src/tasks/core/taskNotifications';

const STARTED =
  /^Command running in background with ID: (b[a-z0-9]{8})\. Output is being written to: (\S+\.output)\. You will be notified when it completes\. To check interim output, use Read on that file path\.$/;

function userTexts(req: MessagesRequest): string[] {
  const m = req.messages[req.messages.length - 1]!;
  if (typeof m.content === 'string') return [m.content];
  return (m.content as Array<{ type: string; text?: string; content?: unknown }>).map((b) =>
    b.type === 'text' ? (b.text ?? '') : typeof b.content === 'string' ? b.content : JSON.stringify(b.content),
  );
}

function start(fake: FakeAnthropicServer, cwd: string, sessionId: string, tools = ['Bash', 'TaskStop']): LocalSession {
  return startLocalSession(
    {
      sessionId,
      prompt: 'start the jobs',
      cwd,
      tools,
      permissionMode: 'bypassPermissions',
      model: { model: 'claude-test', maxTokens: 256 },
    },
    { anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) },
  );
}

/** Is a process whose command line holds `marker` alive? */
function running(marker: string): boolean {
  return execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
    .split('\n')
    .some((l) => l.includes(marker) && !l.includes('ps -eo'));
}

async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 1500 && !ok(); i++) await new Promise((r) => setTimeout(r, 20));
  assert.ok(ok(), what);
}

test('unit: local tasks — run_in_background answers at once; the task starts after its turn, writes its output file; its notification is the next turn', async () => {
  const fake = await startFakeAnthropic();
  try {
    const work = await mkdtemp(join(tmpdir(), 'da-local-task-'));
    const sessionId = `local-task-${Date.now()}`;
    const id = backgroundTaskId(sessionId, 'toolu_bg');
    fake.enqueue(
      toolUseResponse([
        {
          id: 'toolu_bg',
          name: 'Bash',
          // It ends once the next turn's request reached the model (the fake makes `go` then): its
          // notification is the turn after's, whatever the machine's load (no pause to outlast).
          input: {
            command: 'touch started; until [ -e go ]; do sleep 0.05; done; echo "built <ok> & done"',
            run_in_background: true,
          },
        },
        // The same turn: the task has not started yet (it starts after the turn).
        { id: 'toolu_look', name: 'Bash', input: { command: 'test -e started && echo SEEN || echo NOT-YET' } },
      ]),
    );
    fake.script(async (req) => {
      if (userTexts(req).some((t) => t.startsWith('Command running in background'))) {
        await writeFile(join(work, 'go'), '');
        return textResponse('Waiting for the build.');
      }
      return textResponse('The build is done.');
    });
    // The output file is read after the session ended: kept (a session's temp goes with it otherwise; unit/sessions-apart).
    process.env.DURABLE_AGENT_KEEP_SESSION_TEMP = '1';
    const s = start(fake, work, sessionId);
    const r = await s.result.finally(() => delete process.env.DURABLE_AGENT_KEEP_SESSION_TEMP);
    assert.equal(r.status, 'completed', r.endReason);
    assert.equal(r.turns, 3, 'tools, wait, the notification turn');
    const reqs = fake.messageRequests();
    assert.equal(reqs.length, 3);
    const [bgResult, look] = userTexts(reqs[1]!);
    const m = STARTED.exec(bgResult ?? '');
    assert.ok(m, bgResult);
    assert.equal(m[1], id);
    assert.equal(m[2], join(sessionTasksPath(sessionId), `${id}.output`));
    assert.equal(look, 'NOT-YET');
    assert.equal(await readFile(m[2]!, 'utf8'), 'built <ok> & done\n\n[exited with code 0]\n');
    assert.ok(existsSync(join(work, 'started')), 'the task ran in the session cwd');
    const task = r.context.autonomy?.tasks.find((t) => t.id === id);
    assert.equal(task?.state, 'completed');
    assert.equal(task?.exitCode, 0);
    assert.equal(task?.outputBytes, 'built <ok> & done\n'.length);
    assert.deepEqual(userTexts(reqs[2]!), [taskNotification(task!)]);
    assert.ok(
      userTexts(reqs[2]!)[0]!.includes(
        '\n\n<task-notification>\n' +
          `<task-id>${id}</task-id>\n<tool-use-id>toolu_bg</tool-use-id>\n<output-file>${m[2]}</output-file>\n<status>completed</status>\n` +
          '<summary>Background command "touch started; until [ -e go ]; do sleep 0.05; done; echo "built &lt;ok&gt; &amp; done"" completed (exit code 0)</summary>\n</task-notification>\n</system-reminder>',
      ),
      userTexts(reqs[2]!)[0],
    );
  } finally {
    await fake.close();
  }
});

test('unit: local tasks — TaskStop kills a running task (process gone, no notification); an unknown id is an error', async () => {
  const fake = await startFakeAnthropic();
  try {
    const work = await mkdtemp(join(tmpdir(), 'da-local-task-'));
    const sessionId = `local-taskstop-${Date.now()}`;
    const id = backgroundTaskId(sessionId, 'toolu_srv');
    const marker = `${3000 + Math.floor(Math.random() * 1000)}.${process.pid}`;
    fake.enqueue(
      toolUseResponse([
        { id: 'toolu_srv', name: 'Bash', input: { command: `sleep ${marker}`, run_in_background: true } },
      ]),
    );
    // Turn 2 (the task started before it): the process runs; stop it, and an unknown id.
    let sawRunning = false;
    fake.script(async (req) => {
      const texts = userTexts(req);
      if (texts.some((t) => t.startsWith('Command running in background'))) {
        // The task started before this turn; its process is spawned shortly after.
        for (let i = 0; i < 1500 && !sawRunning; i++) {
          sawRunning = running(`sleep ${marker}`);
          if (!sawRunning) await new Promise((r) => setTimeout(r, 20));
        }
        return toolUseResponse([
          { id: 'toolu_stop', name: 'TaskStop', input: { task_id: id } },
          { id: 'toolu_stop2', name: 'TaskStop', input: { task_id: 'bnosuchid' } },
        ]);
      }
      return textResponse('Stopped.');
    });
    const s = start(fake, work, sessionId);
    const r = await s.result;
    assert.equal(r.status, 'completed', r.endReason);
    assert.ok(sawRunning, 'the task ran during the next turn');
    const reqs = fake.messageRequests();
    assert.equal(reqs.length, 3);
    const [stopped, unknown] = userTexts(reqs[2]!);
    assert.equal(
      stopped,
      JSON.stringify({
        message: `Successfully stopped task: ${id} (sleep ${marker})`,
        task_id: id,
        task_type: 'local_bash',
        command: `sleep ${marker}`,
      }),
    );
    // A validation error, in the reference's <tool_use_error> tags as every tool's (docs/tools.md).
    assert.equal(unknown, '<tool_use_error>No task found with ID: bnosuchid</tool_use_error>');
    await until(
      'its process is gone (a kill is delivered when the process is next scheduled)',
      () => !running(`sleep ${marker}`),
    );
    assert.equal(r.context.autonomy?.tasks.find((t) => t.id === id)?.state, 'killed');
    for (const req of reqs) for (const t of userTexts(req)) assert.ok(!t.includes('<task-notification>'), t);
  } finally {
    await fake.close();
  }
});

test('unit: local tasks — handle.stop() during the wait ends the session and kills its running tasks', async () => {
  const fake = await startFakeAnthropic();
  try {
    const work = await mkdtemp(join(tmpdir(), 'da-local-task-'));
    const sessionId = `local-taskall-${Date.now()}`;
    const marker = `${4000 + Math.floor(Math.random() * 1000)}.${process.pid}`;
    fake.enqueue(
      toolUseResponse([
        { id: 'toolu_a', name: 'Bash', input: { command: `sleep ${marker}`, run_in_background: true } },
        { id: 'toolu_b', name: 'Bash', input: { command: `sleep ${marker}1`, run_in_background: true } },
      ]),
      textResponse('Waiting.'),
    );
    const s = start(fake, work, sessionId);
    await until('the session waits for its tasks', () => s.status().status === 'waiting');
    await until('both tasks run', () => running(`sleep ${marker}`) && running(`sleep ${marker}1`));
    s.stop();
    const r = await s.result;
    assert.equal(r.status, 'completed', r.endReason);
    await until(
      'its process to be gone (a kill is delivered when the process is next scheduled)',
      () => !running(`sleep ${marker}`),
    );
    assert.deepEqual(
      r.context.autonomy?.tasks.map((t) => t.state),
      ['killed', 'killed'],
    );
    assert.equal(fake.messageRequests().length, 2, 'no notification turn');
  } finally {
    await fake.close();
  }
});
