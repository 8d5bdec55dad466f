// unit: Monitor in the in-process runner (issue 19), with real processes: the watch starts after its
// turn, each stdout batch reaches the model once and in order as the engine's event notification
// (the idle session wakes for it), then the end notification (tasks/core/monitorTasks.ts `monitorEndText`);
// TaskStop kills the watch's process, nothing more is queued for it and no end notification comes;
// handle.stop() during the wait kills a running watch; at timeout_ms the expiry notice is the last notification.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFile, mkdtemp, writeFile } from 'node:fs/promises';
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
import { monitorTaskId } from '../../src/tools/monitor';
import {
  monitorEventNotification,
  monitorEndNotification,
  monitorExpiredText,
} from '../../src/tasks/core/taskNotifications';
import { sessionTasksPath } from '../../src/sandbox/host';
import { waitFor } from '../support/wait';

const execFileAsync = promisify(execFile);

function userTexts(req: MessagesRequest): string[] {
  const m = req.messages[req.messages.length - 1]!;
  if (typeof m.content === 'string') return [m.content];
  return (m.content as Array<{ type: string; text?: string; content?: unknown }>).map((b) =>
    b.type === 'text' ? (b.text ?? '') : typeof b.content === 'string' ? b.content : JSON.stringify(b.content),
  );
}

/** Every task notification the model was sent, in the order it got them. */
function notifications(fake: FakeAnthropicServer): string[] {
  return fake
    .messageRequests()
    .flatMap(userTexts)
    .filter((t) => t.includes('<task-notification>'));
}

function start(fake: FakeAnthropicServer, cwd: string, sessionId: string): LocalSession {
  return startLocalSession(
    {
      sessionId,
      prompt: 'watch it',
      cwd,
      tools: ['Monitor', 'TaskStop'],
      permissionMode: 'bypassPermissions',
      model: { model: 'claude-test', maxTokens: 256 },
    },
    { anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) },
  );
}

/**
 * Whether a process with `marker` in its command line runs. Asynchronous on purpose: the watch is
 * read in this process, and a synchronous `ps` polled every 20 ms starves its event loop on a loaded
 * machine (lines half a second apart then arrive as one batch).
 */
async function running(marker: string): Promise<boolean> {
  const { stdout } = await execFileAsync('ps', ['-eo', 'args'], { encoding: 'utf8' });
  return stdout.split('\n').some((l) => l.includes(marker) && !l.includes('ps -eo'));
}

async function until(what: string, ok: () => boolean | Promise<boolean>): Promise<void> {
  await waitFor(what, async () => ok(), 30_000, 20);
}

test('unit: local monitor — each batch once and in order as an event notification (the idle session wakes), then the end notification', async () => {
  const fake = await startFakeAnthropic();
  try {
    const work = await mkdtemp(join(tmpdir(), 'da-local-monitor-'));
    const sessionId = `local-monitor-${Date.now()}`;
    const id = monitorTaskId(sessionId, 'toolu_mon');
    const command = 'for i in 1 2 3; do echo "tick <$i>"; sleep 0.6; done; echo err >&2';
    fake.enqueue(
      toolUseResponse([
        { id: 'toolu_mon', name: 'Monitor', input: { description: 'ticks', command, timeout_ms: 60_000 } },
      ]),
    );
    fake.script(() => textResponse('Noted.'));
    // The output file is read after the session ended: kept (a session's temp goes with it otherwise; unit/sessions-apart).
    process.env.DURABLE_AGENT_KEEP_SESSION_TEMP = '1';
    const r = await start(fake, work, sessionId).result.finally(
      () => delete process.env.DURABLE_AGENT_KEEP_SESSION_TEMP,
    );
    assert.equal(r.status, 'completed', r.endReason);
    assert.match(userTexts(fake.messageRequests()[1]!)[0]!, new RegExp(`^Monitor started \\(task ${id}, `));
    const task = {
      id,
      description: 'ticks',
      toolUseId: 'toolu_mon',
      outputPath: join(sessionTasksPath(sessionId), `${id}.output`),
    };
    assert.deepEqual(notifications(fake), [
      monitorEventNotification(task, 'tick <1>'),
      monitorEventNotification(task, 'tick <2>'),
      monitorEventNotification(task, 'tick <3>'),
      monitorEndNotification(task, { state: 'completed', exitCode: 0, events: 3 }),
    ]);
    assert.ok(notifications(fake)[3]!.includes('<status>completed</status>'));
    assert.ok(notifications(fake)[0]!.includes('<event>tick &lt;1&gt;</event>'));
    // Idle between events: each event woke the session for a turn of its own or joined the next one.
    assert.ok(r.turns >= 3, `turns ${r.turns}`);
    const record = r.context.autonomy?.tasks.find((t) => t.id === id);
    assert.equal(record?.kind, 'monitor');
    assert.equal(record?.state, 'completed');
    assert.equal(record?.exitCode, 0);
    assert.equal(
      await readFile(task.outputPath, 'utf8'),
      'tick <1>\ntick <2>\ntick <3>\nerr\n\n[exited with code 0]\n',
    );
  } finally {
    await fake.close();
  }
});

test('unit: local monitor — TaskStop kills the watch (process gone); nothing more is queued for it, no end notification', async () => {
  const fake = await startFakeAnthropic();
  try {
    const work = await mkdtemp(join(tmpdir(), 'da-local-monitor-'));
    const sessionId = `local-monitor-stop-${Date.now()}`;
    const id = monitorTaskId(sessionId, 'toolu_mon');
    const marker = `${5000 + Math.floor(Math.random() * 1000)}.${process.pid}`;
    // One event, then a line every 0.2 s once the stop's result reached the model (a flag the fake makes
    // then, not a pause a loaded machine could outlast): what comes after TaskStop never reaches the model.
    const afterStop = join(work, 'after-stop');
    const command = `echo first; (until [ -e after-stop ]; do sleep 0.05; done; while :; do echo again; sleep 0.2; done) & sleep ${marker}`;
    fake.enqueue(
      toolUseResponse([
        { id: 'toolu_mon', name: 'Monitor', input: { description: 'watch', command, timeout_ms: 600_000 } },
      ]),
    );
    let stopped = false;
    fake.script(async (req) => {
      if (!stopped && userTexts(req).some((t) => t.includes('<event>first</event>'))) {
        stopped = true;
        return toolUseResponse([{ id: 'toolu_stop', name: 'TaskStop', input: { task_id: id } }]);
      }
      // The stop ran (its result is here): a watch it did not kill would now print "again".
      if (userTexts(req).some((t) => t.includes('Successfully stopped task'))) await writeFile(afterStop, '');
      return textResponse('ok');
    });
    const s = start(fake, work, sessionId);
    await until('the watch runs', () => running(`sleep ${marker}`));
    const r = await s.result;
    assert.equal(r.status, 'completed', r.endReason);
    assert.ok(stopped, `the first event reached the model: ${JSON.stringify(notifications(fake))} ${r.turns} turns`);
    await until(
      'its process is gone (a kill is delivered when the process is next scheduled)',
      async () => !(await running(`sleep ${marker}`)),
    );
    const stopResult = fake
      .messageRequests()
      .flatMap(userTexts)
      .find((t) => t.includes('Successfully stopped task'));
    assert.ok(stopResult?.includes(id), stopResult);
    // The first event only: no "again" after the stop, no end notification.
    const all = notifications(fake);
    assert.equal(all.length, 1, all.join('\n---\n'));
    assert.ok(all[0]!.includes('<event>first</event>'));
    assert.equal(r.context.autonomy?.tasks.find((t) => t.id === id)?.state, 'killed');
  } finally {
    await fake.close();
  }
});

test('unit: local monitor — handle.stop() during the wait kills a running watch (no end notification)', async () => {
  const fake = await startFakeAnthropic();
  try {
    const work = await mkdtemp(join(tmpdir(), 'da-local-monitor-'));
    const sessionId = `local-monitor-all-${Date.now()}`;
    const marker = `${6000 + Math.floor(Math.random() * 1000)}.${process.pid}`;
    fake.enqueue(
      toolUseResponse([
        {
          id: 'toolu_mon',
          name: 'Monitor',
          input: { description: 'w', command: `sleep ${marker}`, timeout_ms: 600_000 },
        },
      ]),
      textResponse('Waiting.'),
    );
    const s = start(fake, work, sessionId);
    await until('the session waits for its watch', () => s.status().status === 'waiting');
    await until('the watch runs', () => running(`sleep ${marker}`));
    s.stop();
    const r = await s.result;
    assert.equal(r.status, 'completed', r.endReason);
    await until(
      'its process to be gone (a kill is delivered when the process is next scheduled)',
      async () => !(await running(`sleep ${marker}`)),
    );
    assert.deepEqual(
      r.context.autonomy?.tasks.map((t) => [t.kind, t.state]),
      [['monitor', 'killed']],
    );
    assert.equal(fake.messageRequests().length, 2, 'no notification turn');
  } finally {
    await fake.close();
  }
});

test('unit: local monitor — at timeout_ms the watch is killed and the expiry notice is its last notification', async () => {
  const fake = await startFakeAnthropic();
  try {
    const work = await mkdtemp(join(tmpdir(), 'da-local-monitor-'));
    const sessionId = `local-monitor-expiry-${Date.now()}`;
    const id = monitorTaskId(sessionId, 'toolu_mon');
    const marker = `${7000 + Math.floor(Math.random() * 1000)}.${process.pid}`;
    fake.enqueue(
      toolUseResponse([
        {
          id: 'toolu_mon',
          name: 'Monitor',
          input: { description: 'quiet', command: `echo one; sleep ${marker}`, timeout_ms: 1500 },
        },
      ]),
    );
    fake.script(() => textResponse('ok'));
    const r = await start(fake, work, sessionId).result;
    assert.equal(r.status, 'completed', r.endReason);
    await until(
      'the watch is gone (a kill is delivered when the process is next scheduled)',
      async () => !(await running(`sleep ${marker}`)),
    );
    assert.deepEqual(notifications(fake), [
      monitorEventNotification({ id, description: 'quiet' }, 'one'),
      monitorEventNotification({ id, description: 'quiet' }, monitorExpiredText(1500, 1)),
    ]);
    assert.equal(r.context.autonomy?.tasks.find((t) => t.id === id)?.state, 'timed_out');
  } finally {
    await fake.close();
  }
});
