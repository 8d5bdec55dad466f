// integration: notifications (issue 35) on the real dev server, with a webhook receiver in this
// process (a real HTTP server that records every POST and dedupes on the idempotency key, as a
// receiver should). A session whose Write asks: the receiver answers 500 to the first delivery, the
// retry gets through; the worker is replaced (the new one replays the session) before the command
// in the message is run as a user runs it; the session completes. Each event reaches the receiver
// once (the 500's retry carries the same key); the auth header comes from the worker's environment
// and is nowhere in the history. A failing session says `failed`; a long model outage says
// `waiting_for_model`; the Notification hook fires with the reference's input. A session with
// neither webhook nor Notification hook records nothing of it. A worker SIGKILLed while the receiver
// holds a delivery: the attempt times out and the next worker's retry carries the same key (a
// deduping receiver keeps one).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errorResponse, overloadedError, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import type { SessionNotification } from '../../src/core/notifications';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { cli } from '../support/cli';
import { waitFor } from '../support/wait';
import { killGroup, spawnWorker, workerProcessEnv, type WorkerProc } from '../support/workerProcs';

after(closeTestEnv);

interface Received {
  status: number;
  headers: IncomingHttpHeaders;
  body: SessionNotification;
}

/** A webhook receiver: every POST recorded; the first `fail` answered 500, the first `hold` never answered (status 0). */
async function receiver(fail = 0, hold = 0) {
  const got: Received[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d.toString()));
    req.on('end', () => {
      const status = hold-- > 0 ? 0 : fail-- > 0 ? 500 : 200;
      got.push({ status, headers: req.headers, body: JSON.parse(raw) as SessionNotification });
      if (status) res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    got,
    /** What a deduping receiver keeps: the accepted deliveries, one per idempotency key. */
    accepted: () => [...new Map(got.filter((g) => g.status === 200).map((g) => [g.body.id, g.body])).values()],
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const SECRET = 'Bearer s3cret-notify-token';

test('integration: webhook — approval (500 once, then the command in it works), worker replaced, completed: each once', async () => {
  const hook = await receiver(1);
  process.env.DURABLE_AGENT_NOTIFY_AUTH_HEADER = `Authorization: ${SECRET}`;
  try {
    await withAgent({ noWorker: true }, async ({ fake, startWorker, workDir, client, taskQueue }) => {
      let worker = await startWorker();
      const target = join(workDir, 'approved.txt');
      fake.enqueue(
        toolUseResponse([
          { id: 'toolu_nt_w', name: 'Write', input: { file_path: target, content: 'TOP-SECRET-INPUT\n' } },
        ]),
        textResponse('wrote it'),
      );
      // Started as a user starts it: the flag names the webhook.
      const env = { TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS, DURABLE_AGENT_TASK_QUEUE: taskQueue };
      const started = await cli(
        [
          'run',
          '--detach',
          '--json',
          '--cwd',
          workDir,
          '--model',
          'claude-test',
          '--notify-webhook',
          hook.url,
          'write it',
        ],
        env,
      );
      assert.equal(started.code, 0, started.stderr);
      const id = (JSON.parse(started.stdout) as { session: string }).session;
      const handle = client.workflow.getHandle(id);
      const approval = await waitFor('the approval notification to get through', async () =>
        hook.accepted().find((n) => n.kind === 'needs_approval'),
      );
      // The first delivery got 500; the activity's retry carried the same key and body.
      const tries = hook.got.filter((g) => g.body.kind === 'needs_approval');
      assert.deepEqual(
        tries.map((t) => t.status),
        [500, 200],
      );
      assert.equal(tries[0]!.headers['idempotency-key'], approval.id);
      assert.equal(tries[1]!.headers['idempotency-key'], approval.id);
      assert.deepEqual(tries[0]!.body, tries[1]!.body);
      assert.equal(tries[1]!.headers.authorization, SECRET);
      assert.equal(approval.session, id);
      assert.equal(approval.toolUseId, 'toolu_nt_w');
      assert.equal(approval.command, `durable-agent approve ${id} toolu_nt_w`);
      assert.ok(approval.message.includes(approval.command!), approval.message);
      // The worker goes; a new one (no cache) replays the session before it goes on.
      await worker.stop();
      worker = await startWorker();
      const [prog, ...args] = approval.command!.split(' ');
      assert.equal(prog, 'durable-agent');
      const ran = await cli(args, env);
      assert.equal(ran.code, 0, ran.stderr);
      assert.match(ran.stdout, /approved toolu_nt_w/);
      assert.equal(((await handle.result()) as { status: string }).status, 'completed');
      assert.equal(await readFile(target, 'utf8'), 'TOP-SECRET-INPUT\n');
      await worker.stop();
      // The audit reads a history with notification activities.
      const audit = await cli(['audit', id], env);
      assert.equal(audit.code, 0, audit.stderr);
      assert.match(audit.stdout, /toolu_nt_w/);
      // Each event once: what a deduping receiver kept, and what came with status 200 at all.
      assert.deepEqual(
        hook.accepted().map((n) => n.kind),
        ['needs_approval', 'completed'],
      );
      assert.equal(hook.got.filter((g) => g.status === 200).length, 2);
      const done = hook.accepted()[1]!;
      assert.equal(done.status, 'completed');
      assert.match(done.message, new RegExp(`Session ${id} ended \\(completed\\)`));
      // No secret in a body (the tool's input) or in the history (the auth header).
      assert.doesNotMatch(JSON.stringify(hook.got.map((g) => g.body)), /TOP-SECRET-INPUT/);
      const history = JSON.stringify(await client.workflow.getHandle(id).fetchHistory());
      assert.doesNotMatch(history, /s3cret-notify-token/);
      const scheduled = (await client.workflow.getHandle(id).fetchHistory()).events!.filter(
        (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'deliverNotification',
      );
      assert.deepEqual(
        scheduled.map((e) => e.activityTaskScheduledEventAttributes?.activityId),
        ['notify-needs_approval-1', 'notify-completed-1'],
      );
    });
  } finally {
    delete process.env.DURABLE_AGENT_NOTIFY_AUTH_HEADER;
    await hook.close();
  }
});

test('integration: webhook — a failing session says failed; a long outage says waiting_for_model once', async () => {
  const hook = await receiver();
  try {
    await withAgent({}, async ({ fake, start }) => {
      fake.enqueue(errorResponse(400, { message: 'bad request here' }));
      const failing = await start({ prompt: 'x', notify: { webhook: hook.url } });
      await assert.rejects(failing.result());
      const failed = await waitFor('the failed notification', async () =>
        hook.accepted().find((n) => n.kind === 'failed' && n.session === failing.workflowId),
      );
      assert.match(failed.message, /failed: .*bad request here/);
      // Two overloads in a row, a threshold of 0: said once for the outage, then the session completes.
      fake.enqueue(
        { ...overloadedError(), retryAfterMs: 50 } as never,
        { ...overloadedError(), retryAfterMs: 50 } as never,
      );
      fake.enqueue(textResponse('back'));
      const slow = await start({ prompt: 'y', notify: { webhook: hook.url, waitingForModelAfterMs: 0 } });
      assert.equal((await slow.result()).status, 'completed');
      const mine = () => hook.accepted().filter((n) => n.session === slow.workflowId);
      await waitFor('the completed notification', async () => mine().some((n) => n.kind === 'completed'));
      assert.deepEqual(
        mine().map((n) => n.kind),
        ['waiting_for_model', 'completed'],
      );
      assert.equal(mine()[0]!.outage?.what, 'model');
    });
  } finally {
    await hook.close();
  }
});

test('integration: the Notification hook gets the reference input on the end; nothing is recorded without configuration', async () => {
  await withAgent({}, async ({ fake, start, workDir, client }) => {
    const log = join(workDir, 'captured.jsonl');
    const script = join(workDir, 'note.sh');
    await writeFile(script, `#!/bin/bash\ninput=$(cat)\nprintf '%s\\n' "$input" >> ${log}\n`);
    await chmod(script, 0o755);
    fake.enqueue(textResponse('done'));
    const h = await start({
      prompt: 'x',
      hooks: { Notification: [{ hooks: [{ type: 'command', command: script, timeout: 30 }] }] },
    });
    assert.equal((await h.result()).status, 'completed');
    const captured = (await readFile(log, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const end = captured.find((c) => c.notification_type === 'agent_completed');
    assert.ok(end, JSON.stringify(captured));
    assert.equal(end.hook_event_name, 'Notification');
    assert.equal(end.session_id, h.workflowId);
    assert.equal(typeof end.cwd, 'string');
    assert.equal(typeof end.transcript_path, 'string');
    assert.match(String(end.message), /ended \(completed\)/);
    // A session with no webhook and no Notification hook: no notification activity, no patch marker.
    fake.enqueue(textResponse('plain'));
    const plain = await start({ prompt: 'z' });
    assert.equal((await plain.result()).status, 'completed');
    const history = JSON.stringify(await client.workflow.getHandle(plain.workflowId).fetchHistory());
    assert.doesNotMatch(history, /deliverNotification|hook-Notification/);
  });
});

test(
  'integration: webhook — the worker is SIGKILLed while the receiver holds a delivery: the retry on the next worker has the same key',
  { timeout: 240_000 },
  async () => {
    const hook = await receiver(0, 1);
    const procs: WorkerProc[] = [];
    try {
      await withAgent({ noWorker: true }, async ({ env, fake, start, storeDir, taskQueue, workDir, client }) => {
        const workerEnv = await workerProcessEnv({ env, fake, storeDir, taskQueue });
        const w1 = await spawnWorker('worker-1', workerEnv, procs);
        fake.enqueue(
          toolUseResponse([
            { id: 'toolu_nk_w', name: 'Write', input: { file_path: join(workDir, 'k.txt'), content: 'k\n' } },
          ]),
          textResponse('done'),
        );
        const handle = await start({ prompt: 'write k', permissionMode: 'default', notify: { webhook: hook.url } });
        await waitFor('the first delivery to reach the receiver', async () => hook.got.length === 1);
        killGroup(w1);
        await w1.exited;
        await spawnWorker('worker-2', workerEnv, procs);
        // The attempt the dead worker held times out (startToClose 30 s); the retry runs on worker-2.
        const approval = await waitFor('the retried delivery', async () => hook.accepted()[0], 120_000);
        assert.deepEqual(
          hook.got.map((g) => [g.status, g.headers['idempotency-key']]),
          [
            [0, approval.id],
            [200, approval.id],
          ],
        );
        const ran = await cli(approval.command!.split(' ').slice(1), {
          TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
          DURABLE_AGENT_TASK_QUEUE: taskQueue,
        });
        assert.equal(ran.code, 0, ran.stderr);
        assert.equal((await handle.result()).status, 'completed');
        await waitFor('the end', async () => hook.accepted().length === 2);
        assert.deepEqual(
          hook.accepted().map((n) => n.kind),
          ['needs_approval', 'completed'],
        );
        const scheduled = (await client.workflow.getHandle(handle.workflowId).fetchHistory()).events!.filter(
          (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'deliverNotification',
        );
        assert.equal(scheduled.length, 2, 'one activity per event');
      });
    } finally {
      for (const p of procs) killGroup(p);
      await Promise.all(procs.map((p) => p.exited));
      await hook.close();
    }
  },
);

test('integration: a session over its budget notifies budget_exceeded once (webhook and Notification hook) with the raise command, which resumes it', async () => {
  const hook = await receiver();
  try {
    await withAgent({}, async ({ fake, start, workDir, taskQueue }) => {
      const log = join(workDir, 'budget-notes.jsonl');
      const script = join(workDir, 'note.sh');
      await writeFile(script, `#!/bin/bash\ninput=$(cat)\nprintf '%s\\n' "$input" >> ${log}\n`);
      await chmod(script, 0o755);
      // claude-sonnet-4-5 at $3 per million input tokens: $0.30 a call, past a budget of $0.20.
      const usage = { usage: { input_tokens: 100_000, output_tokens: 0 } };
      fake.enqueue(
        toolUseResponse([{ id: 'toolu_nb_r', name: 'Read', input: { file_path: '/nonexistent/x' } }], usage),
        textResponse('done', usage),
      );
      const h = await start({
        prompt: 'spend',
        tools: ['Read'],
        model: { model: 'claude-sonnet-4-5', maxTokens: 1024 },
        maxBudgetUsd: 0.2,
        onBudget: 'wait',
        notify: { webhook: hook.url },
        hooks: { Notification: [{ hooks: [{ type: 'command', command: script, timeout: 30 }] }] },
      });
      const id = h.workflowId;
      const over = await waitFor('the budget_exceeded notification', async () =>
        hook.accepted().find((n) => n.kind === 'budget_exceeded' && n.session === id),
      );
      assert.equal(over.status, 'budget_exceeded');
      assert.equal(over.command, `durable-agent budget ${id} --add <usd>`);
      assert.equal(over.denyCommand, `durable-agent budget ${id} --on-budget end`);
      assert.ok(over.message.includes(over.command!), over.message);
      assert.equal(fake.requests.length, 1, 'no model call past the budget');
      // The command in the message, with an amount, run as a user runs it.
      const [prog, ...args] = over.command!.replace('<usd>', '1').split(' ');
      assert.equal(prog, 'durable-agent');
      const env = { TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS, DURABLE_AGENT_TASK_QUEUE: taskQueue };
      const ran = await cli(args, env);
      assert.equal(ran.code, 0, ran.stderr);
      assert.equal((await h.result()).status, 'completed');
      const mine = () => hook.accepted().filter((n) => n.session === id);
      await waitFor('the completed notification', async () => mine().some((n) => n.kind === 'completed'));
      assert.deepEqual(
        mine().map((n) => n.kind),
        ['budget_exceeded', 'completed'],
      );
      const types = (await readFile(log, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { notification_type?: string }).notification_type);
      assert.deepEqual(
        types.filter((t) => t === 'budget_exceeded'),
        ['budget_exceeded'],
        `the Notification hook said budget_exceeded once: ${types.join(', ')}`,
      );
    });
  } finally {
    await hook.close();
  }
});
