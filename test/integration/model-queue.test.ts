// integration: one model-call limit for many workers (issue 34), on a real dev server started with
// the model queue's dynamic config (fairness on, one partition) and two in-process workers polling
// the same model task queue. Sessions started with `modelTaskQueue` schedule every model call there
// with their root session as the fairness key; both workers ask the server for the same dispatch
// rate (DescribeTaskQueue shows it per poller); against a fake API limited to 60 requests a minute
// the fleet meets fewer 429s than it has sessions; a 429 one session meets delays another
// session's first call by its retry-after (the limiter workflow's shared backoff); a session with
// five subagents (one fairness key) does not get five shares while three other sessions run.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import {
  startFakeAnthropic,
  textResponse,
  toolUseResponse,
  type FakeAnthropicOptions,
  type FakeAnthropicServer,
  type MessagesRequest,
} from '../../src/testing/fakeAnthropic';
import { startSession, type SessionHandle, type SessionOptions } from '../../src/temporal/client';
import { createAgentWorker, workflowsPath } from '../../src/temporal/worker';
import { startDevServer, MODEL_QUEUE_DYNAMIC_CONFIG, type DevServer } from '../../src/temporal/service/devServer';
import { MODEL_GATE } from '../../src/core/modelLimit';
import { getWorkflowBundle, uniqueTaskQueue, uniqueWorkflowId } from '../support/temporal';
import { waitFor } from '../support/wait';
import '../support/isolatedHome';

let server: DevServer;
let connection: Connection;
let client: Client;

before(async () => {
  server = await startDevServer({ dynamicConfig: MODEL_QUEUE_DYNAMIC_CONFIG });
  connection = await Connection.connect({ address: server.address });
  client = new Client({ connection });
});
after(async () => {
  await connection?.close();
  await server?.stop();
});

interface Fleet {
  fake: FakeAnthropicServer;
  taskQueue: string;
  modelTaskQueue: string;
  start(opts: Partial<SessionOptions> & { prompt: string }): Promise<SessionHandle>;
}

/** Two workers on one task queue and one model queue (limited to `rpm` when given), and a fake API. */
async function withFleet<T>(
  opts: { fake: FakeAnthropicOptions; rpm?: number },
  fn: (f: Fleet) => Promise<T>,
): Promise<T> {
  const fake = await startFakeAnthropic(opts.fake);
  const taskQueue = uniqueTaskQueue('fleet');
  const modelTaskQueue = `${taskQueue}-model`;
  const storeDir = await mkdtemp(join(tmpdir(), 'da-store-'));
  const workDir = await mkdtemp(join(tmpdir(), 'da-work-'));
  const workers: Worker[] = [];
  const connections: NativeConnection[] = [];
  for (const identity of ['worker-a', 'worker-b']) {
    // A connection each: the SDK refuses two workers of one queue on one connection (as two hosts would be).
    const own = await NativeConnection.connect({ address: server.address });
    connections.push(own);
    workers.push(
      await createAgentWorker({
        connection: own,
        taskQueue,
        modelTaskQueue,
        ...(opts.rpm ? { modelLimit: { requestsPerMinute: opts.rpm } } : {}),
        storeDir,
        anthropic: () => new Anthropic({ apiKey: 'test-key', baseURL: fake.baseURL, maxRetries: 0 }),
        workflowBundle: await getWorkflowBundle(workflowsPath),
        workerOptions: { identity, stickyQueueScheduleToStartTimeout: '1s' },
      }),
    );
  }
  const runs = workers.map((w) => w.run());
  try {
    return await fn({
      fake,
      taskQueue,
      modelTaskQueue,
      start: (s) =>
        startSession(client, {
          cwd: workDir,
          permissionMode: 'bypassPermissions',
          useSearchAttributes: false,
          modelTaskQueue,
          ...s,
          id: uniqueWorkflowId('fleet'),
          taskQueue,
          model: { model: 'claude-test', maxTokens: 1024 },
        }),
    });
  } finally {
    for (const w of workers) w.shutdown();
    await Promise.all(runs);
    for (const c of connections) await c.close();
    await fake.close();
  }
}

const turnOf = (req: MessagesRequest): number => req.messages.filter((m) => m.role === 'assistant').length + 1;
const firstText = (req: MessagesRequest): string => {
  const c = req.messages[0]?.content;
  return typeof c === 'string' ? c : (c ?? []).map((b) => ('text' in b ? String(b.text) : '')).join('');
};

/** Two model calls per session: a Glob, then the answer. */
function twoCalls(req: MessagesRequest) {
  return turnOf(req) >= 2
    ? textResponse('done')
    : toolUseResponse([
        { id: `toolu_${Math.random().toString(36).slice(2, 12)}`, name: 'Glob', input: { pattern: '*' } },
      ]);
}

test(
  'integration: model calls of sessions on two workers go to the model queue with their fairness key, both workers ask the server for the shared rate, and the fleet meets fewer 429s than it has sessions',
  { timeout: 240_000 },
  async () => {
    // The API allows 60 a minute (one a second); the workers are told 50 (headroom: docs/deployment.md).
    await withFleet({ fake: { requestLimit: { requestsPerMinute: 60 }, script: twoCalls }, rpm: 50 }, async (f) => {
      const sessions = await Promise.all(Array.from({ length: 6 }, (_, i) => f.start({ prompt: `s${i}` })));
      for (const h of sessions) assert.equal((await h.result()).status, 'completed');
      // 12 calls at once would meet ≥ 5 refusals in the first second alone (one passes a second).
      assert.ok(f.fake.rateLimited() < sessions.length, `429s: ${f.fake.rateLimited()}`);

      // Every model call of a turn was scheduled on the model queue, keyed by its session.
      const turn = await client.workflow.getHandle(`${sessions[0]!.workflowId}/turn-1`).fetchHistory();
      const scheduled = (turn.events ?? []).filter((e) => e.activityTaskScheduledEventAttributes);
      const model = scheduled.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'callModel');
      assert.ok(model.length >= 1);
      for (const e of model) {
        const a = e.activityTaskScheduledEventAttributes!;
        assert.equal(a.taskQueue?.name, f.modelTaskQueue);
        assert.equal(a.priority?.fairnessKey, sessions[0]!.workflowId);
      }
      // Tools stay on the session's queue.
      const tool = scheduled.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runToolUse');
      assert.equal(tool?.activityTaskScheduledEventAttributes?.taskQueue?.name, f.taskQueue);

      // Both workers poll the model queue asking for the same rate (50 a minute).
      const q = await client.workflowService.describeTaskQueue({
        namespace: 'default',
        taskQueue: { name: f.modelTaskQueue, kind: temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
        taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
      });
      const pollers = new Map((q.pollers ?? []).map((p) => [p.identity, p.ratePerSecond]));
      assert.deepEqual([...pollers.keys()].sort(), ['worker-a', 'worker-b']);
      for (const rate of pollers.values()) assert.ok(Math.abs((rate ?? 0) - 50 / 60) < 1e-6, `rate ${rate}`);
    });
  },
);

test(
  "integration: a 429 one session meets holds another session's first model call back until its retry-after (the shared backoff)",
  { timeout: 120_000 },
  async () => {
    let refused = false;
    const script = (req: MessagesRequest) => {
      if (firstText(req) === 'first' && !refused) {
        refused = true;
        return { kind: 'error' as const, status: 429, retryAfter: 4 };
      }
      return textResponse('done');
    };
    await withFleet({ fake: { script } }, async (f) => {
      const a = await f.start({ prompt: 'first' });
      const refusal = await waitFor('the 429', async () => f.fake.requests.find((r) => r.response?.status === 429));
      // The refusing worker has told the queue's limiter (signal-with-start) before the second session starts.
      const gate = client.workflow.getHandle(MODEL_GATE.workflowId(f.modelTaskQueue));
      const until = await waitFor('the shared backoff', () => gate.query<number>(MODEL_GATE.query).catch(() => 0));
      assert.ok(until >= refusal.receivedAt + 4000, `backoff until ${until - refusal.receivedAt} ms after the 429`);
      const b = await f.start({ prompt: 'second' });
      assert.equal((await b.result()).status, 'completed');
      assert.equal((await a.result()).status, 'completed');
      const second = f.fake.requests.find((r) => r.valid && firstText(r.body as MessagesRequest) === 'second');
      assert.ok(second, 'the second session called the model');
      // Without the shared backoff it calls at once (well under a second after it starts).
      assert.ok(
        second.receivedAt >= until - 50,
        `second session called ${until - second.receivedAt} ms before the backoff ended`,
      );
    });
  },
);

test(
  'integration: a session with four subagents (one fairness key) gets one share of the model queue, not four, while three other sessions run',
  { timeout: 240_000 },
  async () => {
    const calls = (req: MessagesRequest) => req.messages.filter((m) => m.role === 'assistant').length;
    const glob = () =>
      toolUseResponse([
        { id: `toolu_${Math.random().toString(36).slice(2, 12)}`, name: 'Glob', input: { pattern: '*' } },
      ]);
    const script = (req: MessagesRequest) => {
      const text = firstText(req);
      if (text.includes('hog-sub') || text.includes('small')) return calls(req) >= 3 ? textResponse('done') : glob();
      if (text === 'hog' && calls(req) === 0)
        return toolUseResponse(
          [0, 1, 2, 3].map((i) => ({
            id: `toolu_agent_${i}`,
            name: 'Agent',
            input: { run_in_background: false, description: `part ${i}`, prompt: `hog-sub ${i}` },
          })),
        );
      return textResponse('hog done');
    };
    // One call a second across the queue: a backlog forms, and the server dispatches it by fairness key.
    await withFleet({ fake: { script }, rpm: 60 }, async (f) => {
      const hog = await f.start({ prompt: 'hog', tools: ['Glob', 'Agent'] });
      const family = (r: { body?: unknown }) => /hog/.test(firstText(r.body as MessagesRequest));
      await waitFor('all four subagents calling', async () => {
        const subs = new Set(f.fake.requests.filter((r) => r.valid).map((r) => firstText(r.body as MessagesRequest)));
        return [0, 1, 2, 3].every((i) => [...subs].some((t) => t.includes(`hog-sub ${i}`)));
      });
      const from = f.fake.requests.length;
      const small = await Promise.all([0, 1, 2].map((i) => f.start({ prompt: `small ${i}`, tools: ['Glob'] })));
      for (const h of small) assert.equal((await h.result()).status, 'completed');
      const during = f.fake.requests.slice(from);
      const lastSmall = during.map((r) => !family(r)).lastIndexOf(true);
      const hogDuring = during.slice(0, lastSmall + 1).filter(family).length;
      const smallCalls = during.length - during.filter(family).length;
      // Fair: four keys share the queue, so the hog's family gets about a third of the small sessions'
      // 12 calls (4); first come, first served it would take four of every seven calls (≈ 13, all it has left).
      assert.equal(smallCalls, 12);
      assert.ok(hogDuring <= 8, `the hog's family made ${hogDuring} calls while the small sessions made 12`);
      assert.equal((await hog.result()).status, 'completed');
    });
  },
);
