// unit: the fault suite's invariant checker (test/faults/check.ts) — it must fail a transcript with
// a duplicated effect, a missing effect, an unanswered tool_use, an idempotent call reported
// unknown, or an effect of a call the transcript does not hold; and pass an honest one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Message } from '../../src/core/apiMessages';
import { checkSession, countLines, protocolProblems } from '../faults/check';
import { crashTurnCalls, effectKindOf, toolUseId, type EffectKind } from '../faults/plan';

const s = { name: 'u1', dir: '/w/u1' };
const pacing = { eventDelayMs: 0, toolMs: 0 };

function transcript(results: Record<string, { error?: string }>): Message[] {
  const calls = [...crashTurnCalls(s, 0, pacing), ...crashTurnCalls(s, 1, pacing)];
  return [
    { role: 'user', content: 'go' },
    {
      role: 'assistant',
      content: calls.map((c) => ({ type: 'tool_use' as const, id: c.id as string, name: c.name, input: c.input })),
    },
    {
      role: 'user',
      content: calls.map((c) => {
        const r = results[c.id as string];
        return {
          type: 'tool_result' as const,
          tool_use_id: c.id as string,
          content: r?.error ?? 'ok',
          ...(r?.error ? { is_error: true } : {}),
        };
      }),
    },
    { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
  ];
}

const bashId = toolUseId('u1', 0, 0);
const countId = toolUseId('u1', 1, 0);
const idemId = toolUseId('u1', 1, 1);
const counts = (m: Record<string, number>) => (_k: EffectKind, id: string) => m[id] ?? 0;

test('unit: faults check — an honest transcript passes; counts completed, unknown outcomes and idempotent re-runs', () => {
  const unknown = 'The outcome of this AppendSlow call is unknown: the worker running it was lost';
  const c = checkSession(
    transcript({ [countId]: { error: unknown } }),
    counts({ [bashId]: 1, [countId]: 1, [idemId]: 2 }),
    [bashId, countId, idemId],
  );
  assert.deepEqual(c.violations, []);
  assert.equal(c.completed, 2);
  assert.equal(c.unknownOutcomes, 1);
  assert.equal(c.idempotentReruns, 1);
  assert.equal(c.duplicated, 0);
});

test('unit: faults check — a completed non-idempotent call whose effect appears twice is a duplicate', () => {
  const c = checkSession(transcript({}), counts({ [bashId]: 2, [countId]: 1, [idemId]: 1 }));
  assert.equal(c.duplicated, 1);
  assert.match(c.violations.join('\n'), /completed and its effect appears 2 times/);
});

test('unit: faults check — missing effects, idempotent unknowns, plain errors and orphan effects are violations', () => {
  const unknown = 'The outcome of this AppendSlow call is unknown';
  const c = checkSession(
    transcript({ [idemId]: { error: unknown }, [bashId]: { error: 'Error calling tool Bash: boom' } }),
    counts({ [countId]: 0 }),
    ['toolu_other'],
  );
  const v = c.violations.join('\n');
  assert.match(v, new RegExp(`${countId} \\(count\\) completed but its effect is missing`));
  assert.match(v, /is idempotent but was reported unknown_outcome/);
  assert.match(v, /\(bash\) failed: Error calling tool Bash: boom/);
  assert.match(v, /no tool_use toolu_other is in the transcript/);
});

test('unit: faults check — a store error without an effect is a clear failure only when the pattern names it', () => {
  const t = transcript({ [bashId]: { error: 'Error calling tool Bash: ENOSPC: no space left on device' } });
  assert.equal(checkSession(t, counts({ [countId]: 1, [idemId]: 1 }), [], /ENOSPC/).failedClearly, 1);
  assert.match(
    checkSession(t, counts({ [bashId]: 1, [countId]: 1, [idemId]: 1 }), [], /ENOSPC/).violations.join('\n'),
    /its effect happened 1 time/,
  );
});

test('unit: faults check — protocol completeness: unanswered, doubly answered and stray results', () => {
  const m: Message[] = [
    { role: 'user', content: 'go' },
    {
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'a', name: 'Bash', input: {} },
        { type: 'tool_use', id: 'b', name: 'Bash', input: {} },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'a', content: 'x' },
        { type: 'tool_result', tool_use_id: 'a', content: 'y' },
        { type: 'tool_result', tool_use_id: 'z', content: 'y' },
      ],
    },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'c', name: 'Bash', input: {} }] },
  ];
  assert.deepEqual(protocolProblems(m), [
    'tool_use a (Bash) has 2 tool_result(s) in the next message',
    'tool_use b (Bash) has 0 tool_result(s) in the next message',
    'tool_result z answers no tool_use of the message before it',
    'tool_use c (Bash) has 0 tool_result(s) in the next message',
  ]);
});

test('unit: faults plan — ledger calls are recognised by kind; ids are per session, turn and block', () => {
  const kinds = [0, 1, 2, 3].flatMap((t) => crashTurnCalls(s, t, pacing).map((c) => effectKindOf(c)));
  assert.deepEqual(kinds, ['bash', 'count', 'idem', 'write', 'bash', 'count']);
  assert.equal(toolUseId('kill-3', 7, 1), 'toolu_kill3_t7_1');
  assert.deepEqual(
    [...countLines('a\nb\n\na\n')],
    [
      ['a', 2],
      ['b', 1],
    ],
  );
});
