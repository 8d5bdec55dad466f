// unit: background agents in the in-process runner (issue 19), with the fake Messages API: an Agent
// call without `run_in_background: false` answers at once with the launched text (the workflow's,
// core/subagents.ts), its turn ends, the child session runs after it, and the agent's
// `<task-notification>` (tasks/core/taskNotifications.ts) with the child's report starts the next turn;
// TaskStop of a running child aborts it (the reference's "was stopped" notification follows);
// handle.stop() during the wait aborts it too (no notification).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
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
import { agentLaunchedText, agentTaskId, subagentSessionId } from '../../src/core/subagents';
import { agentNotification } from '../../src/tasks/core/taskNotifications';

function lastUserTexts(req: MessagesRequest): string[] {
  const m = req.messages[req.messages.length - 1]!;
  if (typeof m.content === 'string') return [m.content];
  return (m.content as Array<{ type: string; text?: string; content?: unknown }>).map((b) =>
    b.type === 'text'
      ? (b.text ?? '')
      : typeof b.content === 'string'
        ? b.content
        : (b.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n'),
  );
}

const isChild = (req: MessagesRequest): boolean => JSON.stringify(req.messages[0]?.content ?? '').includes('SUBTASK');

async function start(fake: FakeAnthropicServer, sessionId: string): Promise<LocalSession> {
  const work = await mkdtemp(join(tmpdir(), 'da-local-bga-'));
  return startLocalSession(
    {
      sessionId,
      prompt: 'delegate',
      cwd: work,
      tools: ['Read', 'Agent', 'TaskStop'],
      permissionMode: 'bypassPermissions',
      model: { model: 'claude-test', maxTokens: 256 },
    },
    { anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) },
  );
}

async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 1500 && !ok(); i++) await new Promise((r) => setTimeout(r, 20));
  assert.ok(ok(), what);
}

/** The session's result, or a failure after a minute (a child the stop did not reach would hang it). */
function within<T>(p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the session did not end: its child was not stopped')), 60_000);
    }),
  ]).finally(() => clearTimeout(timer));
}

test('unit: local background agent — launched result at once, the turn ends, the child report comes as the next turn', async () => {
  const fake = await startFakeAnthropic();
  try {
    const sessionId = `local-bga-${Date.now()}`;
    const taskId = agentTaskId(sessionId, 'toolu_ag');
    const childId = subagentSessionId(sessionId, 'toolu_ag');
    const order: string[] = [];
    fake.script((req) => {
      if (isChild(req)) {
        order.push('child');
        return textResponse('child report <x> & done');
      }
      const texts = lastUserTexts(req);
      if (req.messages.length === 1) {
        order.push('parent: launch');
        return toolUseResponse([
          { id: 'toolu_ag', name: 'Agent', input: { description: 'report', prompt: 'SUBTASK report' } },
        ]);
      }
      if (texts.some((t) => t.includes('<task-notification>'))) {
        order.push('parent: notification');
        return textResponse('The agent reported.');
      }
      order.push('parent: after launch');
      return textResponse('Waiting for the agent.');
    });
    const s = await start(fake, sessionId);
    const r = await within(s.result);
    assert.equal(r.status, 'completed', r.endReason);
    assert.deepEqual(order, ['parent: launch', 'parent: after launch', 'child', 'parent: notification']);
    assert.equal(r.turns, 3, 'the Agent call, the answer to its launch, the notification turn');
    const parent = fake.messageRequests().filter((q) => !isChild(q));
    assert.deepEqual(lastUserTexts(parent[1]!), [agentLaunchedText(taskId, childId)]);
    const rec = r.records.find((x) => x.toolUseId === 'toolu_ag')!;
    assert.equal(rec.result.is_error, undefined);
    const task = r.context.autonomy?.tasks.find((t) => t.id === taskId);
    assert.equal(task?.kind, 'local_agent');
    assert.equal(task?.state, 'completed');
    const [note, ...rest] = lastUserTexts(parent[2]!);
    assert.deepEqual(rest, []);
    const m =
      /<subagent_tokens>(\d+)<\/subagent_tokens><tool_uses>0<\/tool_uses><duration_ms>(\d+)<\/duration_ms>/.exec(
        note ?? '',
      );
    assert.ok(m, note);
    assert.ok(Number(m[1]) > 0, 'the child tokens are counted');
    const expected = agentNotification(
      { id: taskId, description: 'report', toolUseId: 'toolu_ag' },
      {
        state: 'completed',
        result: 'child report <x> & done',
        totalTokens: Number(m[1]),
        toolUses: 0,
        durationMs: Number(m[2]),
      },
    );
    assert.equal(note, expected);
    assert.ok(note!.includes('<result>child report &lt;x&gt; &amp; done</result>'), note);
  } finally {
    await fake.close();
  }
});

/** A parent whose child's model call never answers until released; the test decides what stops it. */
function blockedChild(fake: FakeAnthropicServer, parentTurn2: (texts: string[]) => ReturnType<typeof textResponse>) {
  const seen = { child: 0, notifications: 0 };
  const notices: string[] = [];
  let release: (() => void) | undefined;
  const released = new Promise<void>((r) => (release = r));
  fake.script(async (req) => {
    if (isChild(req)) {
      seen.child++;
      await released;
      return textResponse('late child report');
    }
    const texts = lastUserTexts(req);
    for (const t of texts.filter((x) => x.includes('<task-notification>'))) {
      seen.notifications++;
      notices.push(t);
    }
    if (req.messages.length === 1)
      return toolUseResponse([
        { id: 'toolu_ag', name: 'Agent', input: { description: 'slow', prompt: 'SUBTASK slow' } },
      ]);
    return parentTurn2(texts);
  });
  return { seen, notices, release: () => release?.() };
}

test('unit: local background agent — TaskStop aborts the running child (its "was stopped" notification follows); stopping it again: not running (killed)', async () => {
  const fake = await startFakeAnthropic();
  const sessionId = `local-bga-stop-${Date.now()}`;
  const taskId = agentTaskId(sessionId, 'toolu_ag');
  const b = blockedChild(fake, (texts) => {
    if (texts.includes('stop the agent'))
      return toolUseResponse([{ id: 'toolu_stop', name: 'TaskStop', input: { task_id: taskId } }]);
    if (texts.some((t) => t.includes('Successfully stopped task')))
      return toolUseResponse([{ id: 'toolu_stop2', name: 'TaskStop', input: { task_id: taskId } }]);
    if (texts.some((t) => t.includes('is not running (status: killed)'))) return textResponse('Stopped.');
    return textResponse('Waiting.');
  });
  try {
    const s = await start(fake, sessionId);
    await until('the child runs', () => b.seen.child === 1);
    s.send('stop the agent');
    const r = await within(s.result);
    assert.equal(r.status, 'completed', r.endReason);
    const stopped = r.records.find((x) => x.toolUseId === 'toolu_stop')!;
    assert.equal(
      JSON.stringify(stopped.result.content).includes(
        JSON.stringify(`Successfully stopped task: ${taskId} (slow)`).slice(1, -1),
      ),
      true,
      JSON.stringify(stopped.result.content),
    );
    assert.equal(r.records.find((x) => x.toolUseId === 'toolu_stop2')!.result.is_error, true);
    assert.equal(r.context.autonomy?.tasks.find((t) => t.id === taskId)?.state, 'killed');
    // The reference's notice of a stopped agent (status killed), once, in the turn after the stop.
    assert.equal(b.seen.notifications, 1, 'the stopped notification');
    assert.match(
      b.notices[0] ?? '',
      /<status>killed<\/status>\n<summary>Agent "slow" was stopped by Claude<\/summary>/,
    );
    assert.equal(b.seen.child, 1);
  } finally {
    b.release();
    await fake.close();
  }
});

test('unit: local background agent — handle.stop() during the wait aborts the running child', async () => {
  const fake = await startFakeAnthropic();
  const sessionId = `local-bga-all-${Date.now()}`;
  const taskId = agentTaskId(sessionId, 'toolu_ag');
  const b = blockedChild(fake, () => textResponse('Waiting.'));
  try {
    const s = await start(fake, sessionId);
    await until('the child runs while its parent waits', () => b.seen.child === 1 && s.status().status === 'waiting');
    s.stop();
    const r = await within(s.result);
    assert.equal(r.status, 'completed', r.endReason);
    assert.equal(r.context.autonomy?.tasks.find((t) => t.id === taskId)?.state, 'killed');
    assert.equal(b.seen.notifications, 0);
    assert.equal(r.turns, 2, 'no notification turn');
  } finally {
    b.release();
    await fake.close();
  }
});
