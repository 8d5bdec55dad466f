// unit: notifications (issue 35) — which status is which kind (budget_exceeded included, for the
// status the budgets work adds), the body of each kind and its idempotency key, the approval's
// commands, the Notification hook's fields, the settings check, and one webhook delivery against a
// real local HTTP server (headers, the worker's auth header, 500 retryable, 4xx refused).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { loadSettings, SettingsError } from '../../src/cli/settings';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  approvalCommands,
  notificationHookFields,
  notifySettingsProblems,
  outageIsLong,
  sessionNotification,
  statusNotificationKind,
} from '../../src/core/notifications';
import { deliverNotificationWith, NotificationRejectedError, notifyAuthHeader } from '../../src/runtime/notify';
import { sessionInput, sessionInputProblems } from '../../src/sessionInput';

const run = { sessionId: 'sess-1', firstRunId: 'run-a', status: 'awaiting_approval', now: Date.UTC(2026, 0, 2) };

test('unit: statuses and kinds — ends, refusal, the budget status; running states none', () => {
  assert.equal(statusNotificationKind('completed'), 'completed');
  assert.equal(statusNotificationKind('max_turns'), 'completed');
  assert.equal(statusNotificationKind('failed'), 'failed');
  assert.equal(statusNotificationKind('refused'), 'failed');
  assert.equal(statusNotificationKind('budget_exceeded'), 'budget_exceeded');
  for (const s of ['running', 'waiting', 'awaiting_approval', 'waiting_for_model', 'interrupted', 'cancelled'])
    assert.equal(statusNotificationKind(s), undefined, s);
});

test('unit: needs_approval carries the commands as the CLI spells them; the key is per event', () => {
  const n = sessionNotification(run, { kind: 'needs_approval', toolUseId: 'toolu_1', toolName: 'Bash', turn: 3 });
  assert.equal(n.id, 'durable-agent:sess-1:run-a:needs_approval:toolu_1');
  assert.equal(n.command, 'durable-agent approve sess-1 toolu_1');
  assert.equal(n.denyCommand, "durable-agent deny sess-1 toolu_1 --reason '<why>'");
  assert.ok(n.message.includes(n.command!));
  assert.equal(n.at, '2026-01-02T00:00:00.000Z');
  const other = sessionNotification(run, { kind: 'needs_approval', toolUseId: 'toolu_2', toolName: 'Bash', turn: 3 });
  assert.notEqual(other.id, n.id);
  // An id the shell would split is quoted.
  assert.equal(approvalCommands("it's odd", 'toolu_1').approve, "durable-agent approve 'it'\\''s odd' toolu_1");
});

test('unit: the end, the budget, the outage — a long end reason is cut; only ids and our texts', () => {
  const long = 'x'.repeat(1000);
  const f = sessionNotification(run, { kind: 'failed', status: 'failed', endReason: long });
  assert.equal(f.endReason!.length, 300);
  assert.equal(f.status, 'failed');
  assert.equal(f.id, 'durable-agent:sess-1:run-a:failed:end');
  const b = sessionNotification(run, { kind: 'budget_exceeded', key: 'turn-4-1' });
  assert.equal(b.id, 'durable-agent:sess-1:run-a:budget_exceeded:turn-4-1');
  const o = sessionNotification(run, {
    kind: 'waiting_for_model',
    outage: { what: 'model', kind: 'overloaded', since: 0, attempts: 7, nextTryAt: 12 * 60_000 },
  });
  assert.match(o.message, /about 12 min \(overloaded, 7 attempts\)/);
  assert.equal(o.id, 'durable-agent:sess-1:run-a:waiting_for_model:outage-0');
  assert.equal(outageIsLong({ since: 0, nextTryAt: 10 * 60_000 }, undefined), false);
  assert.equal(outageIsLong({ since: 0, nextTryAt: 10 * 60_000 + 1 }, undefined), true);
  assert.equal(outageIsLong({ since: 0, nextTryAt: 2 }, { waitingForModelAfterMs: 1 }), true);
});

test("unit: the Notification hook's fields — the reference's shape; needs_approval is the approval's own permission_prompt", () => {
  const end = sessionNotification(run, { kind: 'completed', status: 'completed', endReason: 'done' });
  assert.deepEqual(notificationHookFields(end), {
    message: end.message,
    title: 'durable-agent',
    notification_type: 'agent_completed',
  });
  const wait = sessionNotification(run, {
    kind: 'waiting_for_model',
    outage: { what: 'model', kind: 'overloaded', since: 0, attempts: 1, nextTryAt: 1 },
  });
  assert.equal(notificationHookFields(wait)?.notification_type, 'waiting_for_model');
  assert.equal(
    notificationHookFields(
      sessionNotification(run, { kind: 'needs_approval', toolUseId: 't', toolName: 'X', turn: 1 }),
    ),
    undefined,
  );
});

test('unit: notify settings are checked at the edge; the env var fills the webhook', () => {
  assert.deepEqual(notifySettingsProblems(undefined), []);
  assert.deepEqual(notifySettingsProblems({ webhook: 'https://example.com/h', events: ['completed'] }), []);
  assert.match(notifySettingsProblems({ webhook: 'ftp://x' }).join(), /http:\/\/ or https:\/\//);
  assert.match(notifySettingsProblems({ webhook: 'https://u:p@x.example' }).join(), /must not carry credentials/);
  assert.match(notifySettingsProblems({ events: ['done'] }).join(), /notify.events must be a list of needs_approval/);
  assert.match(notifySettingsProblems({ hook: true }).join(), /notify.hook is not a notification setting/);
  assert.match(sessionInputProblems({ ...sessionInput({ prompt: 'x' }), notify: 'yes' }).join(), /notify must be/);
  process.env.DURABLE_AGENT_NOTIFY_WEBHOOK = 'https://example.com/env';
  process.env.DURABLE_AGENT_NOTIFY_WAITING_FOR_MODEL_MINUTES = '2';
  try {
    assert.deepEqual(sessionInput({ prompt: 'x' }).notify, {
      webhook: 'https://example.com/env',
      waitingForModelAfterMs: 120_000,
    });
    assert.equal(
      sessionInput({ prompt: 'x', notify: { webhook: 'https://a.example/' } }).notify?.webhook,
      'https://a.example/',
    );
  } finally {
    delete process.env.DURABLE_AGENT_NOTIFY_WEBHOOK;
    delete process.env.DURABLE_AGENT_NOTIFY_WAITING_FOR_MODEL_MINUTES;
  }
  assert.equal(sessionInput({ prompt: 'x' }).notify, undefined);
});

test('unit: one delivery — idempotency key and auth header sent; 500 retryable, 404 refused for good', async () => {
  const seen: IncomingHttpHeaders[] = [];
  let answer = 200;
  const server = createServer((req, res) => {
    seen.push(req.headers);
    req.resume();
    req.on('end', () => res.writeHead(answer).end());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const notification = sessionNotification(run, { kind: 'completed', status: 'completed', endReason: 'ok' });
  try {
    const dir = await mkdtemp(join(tmpdir(), 'da-notify-'));
    await writeFile(join(dir, 'auth'), 'X-Token: from-file\n');
    const env = { DURABLE_AGENT_NOTIFY_AUTH_HEADER_FILE: join(dir, 'auth') };
    assert.deepEqual(await deliverNotificationWith({ url, notification }, undefined, env), { status: 200 });
    assert.equal(seen[0]!['idempotency-key'], notification.id);
    assert.equal(seen[0]!['x-token'], 'from-file');
    assert.equal(seen[0]!['content-type'], 'application/json');
    answer = 500;
    await assert.rejects(deliverNotificationWith({ url, notification }, undefined, {}), (e: Error) => {
      return !(e instanceof NotificationRejectedError) && /answered 500/.test(e.message);
    });
    answer = 404;
    await assert.rejects(deliverNotificationWith({ url, notification }, undefined, {}), NotificationRejectedError);
    assert.throws(
      () => notifyAuthHeader({ DURABLE_AGENT_NOTIFY_AUTH_HEADER: 'no colon here' }),
      /DURABLE_AGENT_NOTIFY_AUTH_HEADER must hold one header line/,
    );
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
});

test('unit: the settings key `notify` — honoured key by key over lower files; a bad one names the file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'da-notify-settings-'));
  const cwd = join(dir, 'repo');
  mkdirSync(join(cwd, '.durable-agent'), { recursive: true });
  const user = join(dir, 'user.json');
  const file = join(cwd, '.durable-agent', 'settings.json');
  writeFileSync(user, JSON.stringify({ notify: { webhook: 'https://a.example/h', events: ['failed'] } }));
  writeFileSync(file, JSON.stringify({ notify: { webhook: 'https://b.example/h' } }));
  assert.deepEqual(loadSettings(cwd, [user, file]).notify, { webhook: 'https://b.example/h', events: ['failed'] });
  writeFileSync(file, JSON.stringify({ notify: { webhook: 'https://user:pw@b.example/h' } }));
  assert.throws(
    () => loadSettings(cwd, [file]),
    (err: Error) =>
      err instanceof SettingsError &&
      err.message.includes(file) &&
      /notify.webhook must not carry credentials/.test(err.message),
  );
});
