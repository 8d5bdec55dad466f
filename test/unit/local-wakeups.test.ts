// unit: wake-ups in the in-process runner (issue 19): the model calls ScheduleWakeup and ends its
// turn; the session waits (status 'waiting'), and at the wake-up (a clock that skips ahead) the
// prompt comes back as a user message and the session goes on; `stop` ends the next wait.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { startFakeAnthropic, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { startLocalSession } from '../../src/inprocess/runSession';
import type { LocalClock } from '../../src/inprocess/timers';

/** Real time plus what was skipped: the first `skips` timers fire at once (time jumps), later ones never. */
function skippingClock(skips: number): LocalClock & { skipped: number } {
  const clock = {
    skipped: 0,
    now: () => Date.now() + clock.skipped,
    timer(ms: number, fire: () => void) {
      if (skips-- <= 0) return () => undefined;
      clock.skipped += ms;
      const t = setImmediate(fire);
      return () => clearImmediate(t);
    },
  };
  return clock;
}

function lastUserText(req: { messages: Array<{ role: string; content: unknown }> }): string {
  const m = req.messages[req.messages.length - 1]!;
  if (typeof m.content === 'string') return m.content;
  return (m.content as Array<{ type: string; text?: string }>)
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join('\n');
}

test('unit: local wake-ups — ScheduleWakeup, the wait, the prompt back as a user message, then stop ends the next wait', async () => {
  const fake = await startFakeAnthropic();
  try {
    const work = await mkdtemp(join(tmpdir(), 'da-local-wake-'));
    const wake = (id: string, delaySeconds: number) =>
      toolUseResponse([
        { id, name: 'ScheduleWakeup', input: { delaySeconds, reason: 'poll the build', prompt: 'WAKE-PROMPT' } },
      ]);
    // The tool reads real time, the wait this clock, which is ahead by what it skipped (90 s less the
    // real time from the first ScheduleWakeup to its wait): a second 90 s wake-up could be due at
    // once on a loaded machine. The second is an hour away, past any skip.
    fake.enqueue(
      wake('toolu_w1', 90),
      textResponse('sleeping'),
      wake('toolu_w2', 3600),
      textResponse('sleeping again'),
    );
    const clock = skippingClock(1);
    const started = Date.now();
    const s = startLocalSession(
      {
        prompt: 'watch the build',
        cwd: work,
        tools: ['Read', 'ScheduleWakeup'],
        model: { model: 'claude-test', maxTokens: 256 },
        clock,
      },
      { anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) },
    );
    // The second wait: the session waits for its wake-up (this clock never fires it), then stop.
    for (let i = 0; i < 1500 && !(s.status().turn === 4 && s.status().status === 'waiting'); i++)
      await new Promise((r) => setTimeout(r, 20));
    const waiting = s.status();
    assert.equal(waiting.status, 'waiting', JSON.stringify(waiting));
    assert.equal(waiting.phase, 'waiting_for_work');
    s.stop();
    const r = await s.result;
    assert.equal(r.status, 'completed', r.endReason);
    assert.equal(r.turns, 4);
    assert.equal(r.context.autonomy?.wakeup, undefined, 'stop drops the pending wake-up');
    const reqs = fake.messageRequests();
    assert.equal(reqs.length, 4);
    // The third request is the wake-up's turn: its new user message is the scheduled prompt.
    assert.equal(lastUserText(reqs[2]!), 'WAKE-PROMPT');
    // It skipped the 90 s less the real time that had passed since the tool call (bounded by the run's).
    const elapsed = Date.now() - started;
    assert.equal(clock.skipped >= 90_000 - elapsed && clock.skipped <= 90_000, true, `${clock.skipped} ${elapsed}`);
    assert.ok(elapsed < 60_000, 'the wait skipped ahead, it did not sleep 90 s');
  } finally {
    await fake.close();
  }
});

test('unit: local wake-ups — stop while waiting ends the session at once; a follow-up during the wait starts a turn first', async () => {
  const fake = await startFakeAnthropic();
  try {
    const work = await mkdtemp(join(tmpdir(), 'da-local-wake-'));
    fake.enqueue(
      toolUseResponse([
        { id: 'toolu_w1', name: 'ScheduleWakeup', input: { delaySeconds: 3600, reason: 'later', prompt: 'LATER' } },
      ]),
      textResponse('sleeping'),
      textResponse('answered the follow-up'),
    );
    const s = startLocalSession(
      { prompt: 'go', cwd: work, tools: ['ScheduleWakeup'], model: { model: 'claude-test', maxTokens: 256 } },
      { anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) },
    );
    const waitFor = async (turn: number) => {
      for (let i = 0; i < 1500 && !(s.status().turn === turn && s.status().status === 'waiting'); i++)
        await new Promise((r) => setTimeout(r, 20));
      assert.equal(s.status().status, 'waiting');
    };
    await waitFor(2);
    s.send('FOLLOW-UP');
    await waitFor(3);
    assert.equal(lastUserText(fake.messageRequests()[2]!), 'FOLLOW-UP');
    s.stop();
    const r = await s.result;
    assert.equal(r.status, 'completed', r.endReason);
    assert.equal(r.turns, 3);
    assert.equal(fake.messageRequests().length, 3, 'the hour-long wake-up never fired');
  } finally {
    await fake.close();
  }
});
