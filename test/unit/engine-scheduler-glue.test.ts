// unit: the glue both schedulers share (issue 21, finding 4; src/core/schedulerShared.ts): the
// store-outage loop, reading a transient failure, the approval-timeout denial, a hook firing that
// could not run, and the Notification hook on an approval wait — and that the in-process runner,
// like the session workflow, ends a session only after that hook has finished.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { retryPolicy, type OutageState } from '../../src/core/retry';
import {
  approvalTimeoutDenial,
  hookFailureRuns,
  notifyApprovalPending,
  transientFailureFromDetails,
  waitOutStoreOutage,
} from '../../src/core/schedulerShared';
import { startFakeAnthropic, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { runLocalSession } from '../../src/inprocess/runSession';

function scheduler(classify: (err: unknown) => { kind: string; message: string } | undefined, maxOutageMs?: number) {
  const shown: Array<OutageState | undefined> = [];
  const slept: number[] = [];
  let now = 1_000;
  return {
    shown,
    slept,
    s: {
      policy: retryPolicy({ retryCapMs: 10_000, ...(maxOutageMs !== undefined ? { maxOutageMs } : {}) }),
      now: () => now,
      sleep: async (ms: number) => {
        slept.push(ms);
        now += ms;
      },
      classify,
      onOutage: (o: OutageState | undefined) => shown.push(o),
      giveUp: (reason: string) => new Error(`gave up: ${reason}`),
    },
  };
}

test('unit: scheduler glue — a store call waits out failures attempt by attempt, shows the outage and its end', async () => {
  const { s, shown, slept } = scheduler((err) => ({ kind: 'store', message: (err as Error).message }));
  const attempts: number[] = [];
  const r = await waitOutStoreOutage(async (attempt) => {
    attempts.push(attempt);
    if (attempt < 3) throw new Error(`disk full ${attempt}`);
    return 'ref-1';
  }, s);
  assert.equal(r, 'ref-1');
  assert.deepEqual(attempts, [1, 2, 3]);
  assert.deepEqual(slept, [2_000, 4_000]);
  assert.deepEqual(
    shown.map((o) => o && [o.what, o.kind, o.attempts, o.lastError, o.since]),
    [['store', 'store', 1, 'disk full 1', 1_000], ['store', 'store', 2, 'disk full 2', 1_000], undefined],
  );
});

test('unit: scheduler glue — a permanent failure is rethrown at once; past the outage limit the scheduler error is thrown', async () => {
  const permanent = scheduler(() => undefined);
  const boom = new Error('bad request');
  await assert.rejects(
    waitOutStoreOutage(async () => Promise.reject(boom), permanent.s),
    (err) => err === boom,
  );
  assert.deepEqual(permanent.shown, []);
  const limited = scheduler((err) => ({ kind: 'store', message: (err as Error).message }), 5_000);
  await assert.rejects(
    waitOutStoreOutage(async () => Promise.reject(new Error('down')), limited.s),
    /gave up: the store was unavailable for longer than 5 s \(2 attempts; last: down\)/,
  );
  assert.deepEqual(limited.slept, [2_000]);
});

test('unit: scheduler glue — transient failures, the timeout denial and a hook firing that could not run', () => {
  assert.deepEqual(transientFailureFromDetails('model', 'overloaded', [{ kind: 'overloaded', retryAfterMs: 3_000 }]), {
    kind: 'overloaded',
    message: 'overloaded',
    retryAfterMs: 3_000,
  });
  assert.deepEqual(transientFailureFromDetails('model', 'x', undefined), { kind: 'other', message: 'x' });
  assert.deepEqual(transientFailureFromDetails('store', 'y', [{ kind: 'overloaded' }]), {
    kind: 'store',
    message: 'y',
  });
  assert.deepEqual(approvalTimeoutDenial(90_000), {
    decision: 'deny',
    source: 'timeout',
    afterMs: 90_000,
    reason: 'No approval arrived within 90 s; denied by default for unattended runs.',
  });
  assert.deepEqual(hookFailureRuns('Stop', new Error('no worker')), [
    { event: 'Stop', hook: 'Stop hooks', outcome: 'non_blocking_error', durationMs: 0, error: 'no worker' },
  ]);
  assert.equal(hookFailureRuns('Stop', 'plain')[0]?.error, 'plain');
});

test('unit: scheduler glue — the Notification hook of an approval wait runs only when configured, with the reference fields', async () => {
  const fired: unknown[] = [];
  const runner = (has: boolean) => ({
    hasHooks: (e: string) => has && e === 'Notification',
    runHooks: async (...args: unknown[]) => (fired.push(args), []),
  });
  assert.equal(notifyApprovalPending(runner(false), 'Write', 'h1'), undefined);
  assert.equal(notifyApprovalPending({}, 'Write', 'h1'), undefined);
  await notifyApprovalPending(runner(true), 'Write', 'h1');
  assert.deepEqual(fired, [
    [
      'Notification',
      { message: 'Claude needs your permission to use Write', notification_type: 'permission_prompt' },
      'h1',
    ],
  ]);
});

test('unit: in-process runner — a Notification hook still running when the approval is answered finishes before the session ends', async () => {
  const fake = await startFakeAnthropic();
  const work = await mkdtemp(join(tmpdir(), 'da-glue-'));
  const store = await mkdtemp(join(tmpdir(), 'da-glue-store-'));
  try {
    const done = join(work, 'notified.txt');
    const hook = join(work, 'note.sh');
    // The hook is slow on purpose: the approver answers at once, long before it writes.
    await writeFile(hook, `#!/bin/bash\ninput=$(cat)\nsleep 1\nprintf '%s' "$input" > ${done}\n`);
    await chmod(hook, 0o755);
    fake.enqueue(
      toolUseResponse([{ id: 'toolu_w', name: 'Write', input: { file_path: join(work, 'x.txt'), content: 'x\n' } }]),
      textResponse('ok'),
    );
    const result = await runLocalSession(
      {
        prompt: 'write x',
        cwd: work,
        tools: ['Write'],
        permissionMode: 'default',
        model: { model: 'claude-test', maxTokens: 256 },
        hooks: { Notification: [{ hooks: [{ type: 'command', command: hook, timeout: 30 }] }] },
        onAsk: async () => ({ decision: 'approve', source: 'human', by: 'tester' }),
      },
      { storeDir: store, anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) },
    );
    assert.equal(result.status, 'completed');
    assert.equal(await readFile(join(work, 'x.txt'), 'utf8'), 'x\n');
    const notified = JSON.parse(await readFile(done, 'utf8')) as Record<string, unknown>;
    assert.equal(notified.hook_event_name, 'Notification');
    assert.equal(notified.notification_type, 'permission_prompt');
  } finally {
    await fake.close();
  }
});
