// unit: the pure session loop against a scripted executor (no Temporal, no I/O).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyContextModifiers, initialContext } from '../../src/core/context';
import type { Message } from '../../src/core/apiMessages';
import {
  END_REASONS,
  addUsage,
  initialSessionState,
  runSession,
  sessionConfig,
  type SessionExecutor,
  type SessionState,
  type TurnReport,
} from '../../src/core/session';

type Step = Partial<TurnReport> & { reason: TurnReport['reason']; interruptDuring?: boolean; sendDuring?: string };

function scripted(
  state: SessionState,
  steps: Step[],
  hooks: { onWait?: () => boolean; checkpointAfter?: number; interruptWhileDraining?: boolean } = {},
) {
  const log: string[] = [];
  let interrupt = false;
  const exec: SessionExecutor = {
    async runTurn(turn: number, append: Message[]) {
      const step = steps.shift();
      assert.ok(step, `no scripted turn ${turn}`);
      log.push(`turn ${turn} [${append.map((m) => m.content).join(', ')}]`);
      if (step.interruptDuring) interrupt = true;
      if (step.sendDuring) state.pendingMessages.push(step.sendDuring);
      return {
        consumedAppend: true,
        head: `h${turn}`,
        context: state.context,
        records: [],
        text: `t${turn}`,
        usage: { input_tokens: 10, output_tokens: 1 },
        ...step,
      };
    },
    takeInterrupt() {
      const was = interrupt;
      interrupt = false;
      return was;
    },
    async waitForMessage() {
      log.push('wait');
      return hooks.onWait ? hooks.onWait() : false;
    },
    ...(hooks.checkpointAfter !== undefined
      ? { shouldCheckpoint: (n: number) => n >= (hooks.checkpointAfter as number) }
      : {}),
    async drain() {
      if (hooks.interruptWhileDraining) interrupt = true;
    },
    onStatus: (s, p) => log.push(`status ${s}/${p}`),
  };
  return { exec, log, interruptNow: () => (interrupt = true) };
}

const fresh = (prompt = 'go') => initialSessionState(prompt, initialContext('/w'));

test('unit: session — tool_use turns continue, end_turn ends; usage, last usage and counts are summed', async () => {
  const state = fresh();
  const { exec, log } = scripted(state, [
    { reason: 'tool_use', records: [{ status: 'ok' }, { status: 'denied' }] },
    { reason: 'end_turn', usage: { input_tokens: 30, output_tokens: 2, cache_read_input_tokens: 20 } },
  ]);
  const end = await runSession(state, sessionConfig({}), exec);
  assert.deepEqual(end, { kind: 'end', status: 'completed', endReason: END_REASONS.endTurn });
  assert.deepEqual(
    log.filter((l) => l.startsWith('turn')),
    ['turn 1 [go]', 'turn 2 []'],
  );
  assert.deepEqual(state.usage, { input_tokens: 40, output_tokens: 3, cache_read_input_tokens: 20 });
  assert.deepEqual(state.lastUsage, { input_tokens: 30, output_tokens: 2, cache_read_input_tokens: 20 });
  assert.deepEqual(state.toolCallCounts, { ok: 1, denied: 1 });
  assert.equal(state.head, 'h2');
  assert.equal(state.lastText, 't2');
});

test('unit: session — limits end with the same messages (turns, tokens)', async () => {
  const s1 = fresh();
  const r1 = await runSession(
    s1,
    sessionConfig({ maxTurns: 2 }),
    scripted(s1, [{ reason: 'tool_use' }, { reason: 'tool_use' }]).exec,
  );
  assert.deepEqual(r1, { kind: 'end', status: 'max_turns', endReason: 'reached the limit of 2 turns' });
  const s2 = fresh();
  const r2 = await runSession(
    s2,
    sessionConfig({ maxTotalTokens: 15 }),
    scripted(s2, [{ reason: 'tool_use' }, { reason: 'tool_use' }]).exec,
  );
  assert.deepEqual(r2, { kind: 'end', status: 'max_tokens', endReason: 'reached the limit of 15 tokens (used 22)' });
  assert.equal(s2.turn, 2);
});

test('unit: session — an interrupted turn waits for a follow-up, which the next turn sends', async () => {
  const state = fresh();
  const { exec, log } = scripted(state, [{ reason: 'interrupted', interruptDuring: true }, { reason: 'end_turn' }], {
    onWait: () => {
      state.pendingMessages.push('carry on');
      return true;
    },
  });
  const end = await runSession(state, sessionConfig({}), exec);
  assert.equal(end.kind === 'end' && end.status, 'completed');
  assert.deepEqual(log, [
    'status running/starting',
    'status running/turn',
    'turn 1 [go]',
    'status interrupted/waiting_for_message',
    'wait',
    'status running/waiting_for_message',
    'status running/turn',
    'turn 2 [carry on]',
  ]);
});

test('unit: session — interrupted before the model answered: the prompt is sent again with the follow-up', async () => {
  const state = fresh();
  const { exec, log } = scripted(state, [{ reason: 'interrupted', consumedAppend: false }, { reason: 'end_turn' }], {
    onWait: () => {
      state.pendingMessages.push('now');
      return true;
    },
  });
  await runSession(state, sessionConfig({}), exec);
  assert.ok(log.includes('turn 2 [go, now]'), log.join('\n'));
});

test('unit: session — onInterrupt end, and no follow-up within the idle timeout', async () => {
  const s1 = fresh();
  const r1 = await runSession(
    s1,
    sessionConfig({ onInterrupt: 'end' }),
    scripted(s1, [{ reason: 'interrupted' }]).exec,
  );
  assert.deepEqual(r1, { kind: 'end', status: 'interrupted', endReason: END_REASONS.interrupted });
  const s2 = fresh();
  const r2 = await runSession(s2, sessionConfig({}), scripted(s2, [{ reason: 'interrupted' }]).exec);
  assert.deepEqual(r2, { kind: 'end', status: 'interrupted', endReason: END_REASONS.idle });
});

test('unit: session — a follow-up that arrives during a final turn runs another turn', async () => {
  const state = fresh();
  const { exec, log } = scripted(state, [{ reason: 'end_turn', sendDuring: 'one more' }, { reason: 'max_tokens' }]);
  const end = await runSession(state, sessionConfig({}), exec);
  assert.deepEqual(end, { kind: 'end', status: 'completed', endReason: END_REASONS.modelMaxTokens });
  assert.ok(log.includes('turn 2 [one more]'));
});

test("unit: session — a hook's continue:false stops the session after its turn", async () => {
  const state = fresh();
  const { exec } = scripted(state, [
    { reason: 'tool_use', records: [{ status: 'ok', stop: { reason: 'enough', hook: 'stop.sh' } }] },
  ]);
  const end = await runSession(state, sessionConfig({}), exec);
  assert.deepEqual(end, { kind: 'end', status: 'stopped', endReason: 'stopped by a hook (stop.sh): enough' });
  assert.equal(state.head, 'h1', 'the turn (with its results) is kept');
});

test('unit: session — a failed turn ends the session with its cause and keeps the prompt pending', async () => {
  const state = fresh();
  const end = await runSession(
    state,
    sessionConfig({}),
    scripted(state, [{ reason: 'failed', error: 'model API error 401' }]).exec,
  );
  assert.deepEqual(end, { kind: 'end', status: 'failed', endReason: 'turn 1 failed: model API error 401' });
  assert.deepEqual(state.pendingMessages, ['go']);
});

test('unit: session — checkpoint after a turn; an interrupt that arrives while handlers drain is carried', async () => {
  const state = fresh();
  const { exec } = scripted(state, [{ reason: 'tool_use' }], { checkpointAfter: 1, interruptWhileDraining: true });
  const out = await runSession(state, sessionConfig({}), exec);
  assert.deepEqual(out, { kind: 'checkpoint' });
  assert.equal(state.interrupted, true, 'the next run starts interrupted (waits for a follow-up)');
  // The next run (same state): waits for a message first.
  state.runs++;
  const next = scripted(state, [{ reason: 'end_turn' }], {
    onWait: () => {
      state.pendingMessages.push('resume');
      return true;
    },
  });
  const end = await runSession(state, sessionConfig({}), next.exec);
  assert.equal(end.kind === 'end' && end.status, 'completed');
  assert.ok(next.log.includes('wait') && next.log.includes('turn 2 [resume]'), next.log.join('\n'));
});

test('unit: session — addUsage keeps absent cache counters absent', () => {
  assert.deepEqual(addUsage({ input_tokens: 1, output_tokens: 2 }, { input_tokens: 3, output_tokens: 4 }), {
    input_tokens: 4,
    output_tokens: 6,
  });
  assert.deepEqual(
    addUsage(
      { input_tokens: 1, output_tokens: 2 },
      { input_tokens: 3, output_tokens: 4, cache_creation_input_tokens: 5 },
    ),
    { input_tokens: 4, output_tokens: 6, cache_creation_input_tokens: 5 },
  );
});

test('unit: session — an end_turn with background work pending waits for it; the event runs the next turn', async () => {
  const state = fresh();
  const running = applyContextModifiers(state.context, [
    {
      type: 'taskStarted',
      task: {
        id: 'b1',
        kind: 'local_bash',
        toolUseId: 't1',
        description: 'npm test',
        startedAt: 0,
        timeoutMs: 60_000,
        state: 'running',
      },
    },
  ]);
  const { exec, log } = scripted(state, [{ reason: 'end_turn', context: running }, { reason: 'end_turn' }]);
  let waits = 0;
  exec.waitForWork = async (s) => {
    waits++;
    log.push('waitForWork');
    // The task ended: its notification is queued and it no longer runs.
    s.pendingMessages.push('<task-notification>b1 completed</task-notification>');
    s.context = { ...s.context, autonomy: { tasks: [], crons: [] } };
    return true;
  };
  const end = await runSession(state, sessionConfig({}), exec);
  assert.equal(end.kind === 'end' && end.status, 'completed');
  assert.equal(waits, 1, 'the second end_turn has nothing pending: no second wait');
  assert.deepEqual(
    log.filter((l) => l.startsWith('turn') || l === 'waitForWork' || l.includes('waiting_for_work')),
    [
      'turn 1 [go]',
      'status waiting/waiting_for_work',
      'waitForWork',
      'turn 2 [<task-notification>b1 completed</task-notification>]',
    ],
  );
});

test('unit: session — waitForWork false (stopped, or nothing left) ends the session as the model ended it', async () => {
  const state = fresh();
  const sleeping = applyContextModifiers(state.context, [
    { type: 'wakeupScheduled', wakeup: { at: 1, prompt: 'again', reason: 'poll', toolUseId: 't' } },
  ]);
  const { exec } = scripted(state, [{ reason: 'end_turn', context: sleeping }]);
  exec.waitForWork = async () => false;
  const end = await runSession(state, sessionConfig({}), exec);
  assert.deepEqual(end, { kind: 'end', status: 'completed', endReason: END_REASONS.endTurn });
});

test('unit: session — a message queued after the turn ended the session (a task ended while Stop hooks ran) gets a turn when the executor says so', async () => {
  const run = async (wakes: boolean | undefined) => {
    const state = fresh();
    const { exec, log } = scripted(state, [{ reason: 'end_turn' }, { reason: 'end_turn' }]);
    let stops = 0;
    exec.hasHooks = (e) => e === 'Stop';
    exec.runHooks = async () => {
      // The first Stop hook's wait: the task's end notification is queued meanwhile.
      if (stops++ === 0) state.pendingMessages.push('<task-notification>b1 completed</task-notification>');
      return [];
    };
    if (wakes !== undefined) exec.wakesForQueued = () => wakes;
    const end = await runSession(state, sessionConfig({}), exec);
    return { end, turns: log.filter((l) => l.startsWith('turn')), pending: state.pendingMessages };
  };
  const woke = await run(true);
  assert.deepEqual(woke.turns, ['turn 1 [go]', 'turn 2 [<task-notification>b1 completed</task-notification>]']);
  assert.deepEqual(woke.pending, []);
  // Before the patch (or without the method): the session ended with the notification unread.
  for (const before of [false, undefined]) {
    const ended = await run(before);
    assert.deepEqual(ended.turns, ['turn 1 [go]']);
    assert.deepEqual(ended.end, { kind: 'end', status: 'completed', endReason: END_REASONS.endTurn });
    assert.deepEqual(ended.pending, ['<task-notification>b1 completed</task-notification>']);
  }
});

test('unit: session — a message queued while UserPromptSubmit hooks run is kept and checked (keepsLatePrompts); lost without it, as before', async () => {
  const run = async (keeps: boolean | undefined) => {
    const state = fresh('go');
    const { exec, log } = scripted(state, [{ reason: 'end_turn' }, { reason: 'end_turn' }]);
    const checked: string[] = [];
    exec.hasHooks = (e) => e === 'UserPromptSubmit';
    exec.runHooks = async (_event, fields) => {
      const prompt = String(fields.prompt);
      checked.push(prompt);
      // A task's notification arrives while the hook for the first prompt runs.
      if (prompt === 'go') state.pendingMessages.push('<task-notification>late</task-notification>');
      return [];
    };
    if (keeps !== undefined) exec.keepsLatePrompts = () => keeps;
    await runSession(state, sessionConfig({}), exec);
    return { turns: log.filter((l) => l.startsWith('turn')), checked };
  };
  const kept = await run(true);
  assert.deepEqual(kept.turns, ['turn 1 [go, <task-notification>late</task-notification>]']);
  assert.deepEqual(
    kept.checked,
    ['go', '<task-notification>late</task-notification>'],
    'the late message is checked too',
  );
  for (const before of [await run(undefined), await run(false)]) {
    assert.deepEqual(before.turns, ['turn 1 [go]'], 'the behaviour before: the late message is lost');
    assert.deepEqual(before.checked, ['go']);
  }
});
