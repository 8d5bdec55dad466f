// integration: metrics (issue 35 deliverable 2). A `durable-agent worker --metrics-bind` process on
// the real dev server, calling the fake Messages API through the real SDK, serves /metrics over HTTP:
// after a session with tool calls the durable_agent_* counters moved with their labels (tool and
// outcome, model, token type, permission decision), the cost is there, Temporal's own worker metrics
// sit beside them, and the session gauges follow a session that waits for an approval. Without the
// flag the worker listens on nothing. The session runs in a namespace of its own with the
// DurableAgentStatus search attribute (the gauges read it; the shared namespace stays as it is).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, readlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Client } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';
import { startFakeAnthropic, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { denyToolUse, sessionStatus, startSession } from '../../src/temporal/client';
import { closeTestEnv, getTestEnv, uniqueTaskQueue, uniqueWorkflowId } from '../support/temporal';
import { stopChild, waitFor } from '../support/wait';
import '../support/isolatedHome';

after(closeTestEnv);

const MAIN = join(__dirname, '..', '..', 'src', 'cli', 'main.js');

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** A namespace with the status search attribute, ready for a workflow start. */
async function namespaceWithStatus(client: Client): Promise<string> {
  const namespace = `metrics-${randomUUID().slice(0, 8)}`;
  const ws = client.connection.workflowService;
  await ws.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('24h') });
  await waitFor('the namespace', () => ws.describeNamespace({ namespace }).then(() => true));
  await waitFor('the search attribute', async () => {
    await client.connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: { DurableAgentStatus: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD },
    });
    return true;
  });
  return namespace;
}

type Worker = ChildProcessByStdio<null, Readable, Readable> & { out: () => string };
function spawnWorker(args: string[], env: Record<string, string>): Worker {
  const child = spawn(process.execPath, [MAIN, 'worker', ...args], {
    env: { ...process.env, DURABLE_AGENT_METRICS_BIND: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return Object.assign(child, { out: () => out });
}

async function ready(w: Worker): Promise<void> {
  await waitFor(`the worker to start (${w.out()})`, async () => {
    if (w.exitCode !== null) throw new Error(`worker exited ${w.exitCode}: ${w.out()}`);
    return w.out().includes('deployment:');
  });
}

/** The TCP ports a process listens on: its socket inodes matched against /proc/net/tcp{,6} LISTEN rows. */
async function listeningPorts(pid: number): Promise<number[]> {
  const inodes = new Set<string>();
  for (const fd of await readdir(`/proc/${pid}/fd`)) {
    const link = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
    const m = /^socket:\[(\d+)\]$/.exec(link);
    if (m) inodes.add(m[1] as string);
  }
  const ports: number[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const rows = (await readFile(table, 'utf8').catch(() => '')).split('\n').slice(1);
    for (const row of rows) {
      const f = row.trim().split(/\s+/);
      if (f[3] === '0A' && inodes.has(f[9] as string))
        ports.push(parseInt((f[1] as string).split(':')[1] as string, 16));
    }
  }
  return ports;
}

/** The value of the series `name{…labels…}` (labels: a subset, in any order); 0 when absent. */
function value(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
      sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

test('metrics: /metrics of a worker with --metrics-bind shows the counters of a real session, Temporal metrics and the session gauges', async () => {
  const env = await getTestEnv();
  const namespace = await namespaceWithStatus(env.client);
  const client = new Client({ connection: env.client.connection, namespace });
  const fake = await startFakeAnthropic({});
  const workDir = await mkdtemp(join(tmpdir(), 'da-metrics-'));
  const storeDir = await mkdtemp(join(tmpdir(), 'da-store-'));
  const taskQueue = uniqueTaskQueue('metrics');
  const port = await freePort();
  const workerEnv = {
    TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
    TEMPORAL_NAMESPACE: namespace,
    ANTHROPIC_API_KEY: 'test-key',
    ANTHROPIC_BASE_URL: fake.baseURL,
    DURABLE_AGENT_STORE_DIR: storeDir,
    DURABLE_AGENT_METRICS_POLL_MS: '300',
  };
  const worker = spawnWorker(['--task-queue', taskQueue, '--metrics-bind', `127.0.0.1:${port}`], workerEnv);
  const plain = spawnWorker(['--task-queue', uniqueTaskQueue('plain')], workerEnv);
  const scrape = async (): Promise<string> => {
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    assert.equal(res.status, 200);
    return res.text();
  };
  try {
    await ready(worker);
    await ready(plain);
    assert.match(worker.out(), new RegExp(`metrics: http://127\\.0\\.0\\.1:${port}/metrics`));
    // The flag on: the worker listens on the metrics port (and the way of looking sees it); off: on nothing.
    assert.ok((await listeningPorts(worker.pid as number)).includes(port));
    assert.deepEqual(await listeningPorts(plain.pid as number), []);
    assert.doesNotMatch(plain.out(), /metrics:/);

    await writeFile(join(workDir, 'a.txt'), 'alpha\n');
    await writeFile(join(workDir, 'b.txt'), 'beta\n');
    fake.enqueue(
      toolUseResponse([
        { id: 'toolu_m1', name: 'Read', input: { file_path: join(workDir, 'a.txt') } },
        { id: 'toolu_m2', name: 'Read', input: { file_path: join(workDir, 'b.txt') } },
        { id: 'toolu_m3', name: 'Read', input: { file_path: join(workDir, 'missing.txt') } },
      ]),
      textResponse('read them'),
    );
    const model = { model: 'claude-sonnet-4-5', maxTokens: 1024 };
    const done = await startSession(client, {
      prompt: 'read',
      cwd: workDir,
      permissionMode: 'default',
      taskQueue,
      model,
      id: uniqueWorkflowId('metrics'),
    });
    assert.equal((await done.result()).status, 'completed');

    const text = await waitFor('the tool counters', async () => {
      const t = await scrape();
      return value(t, 'durable_agent_tool_calls_total', { tool: 'Read' }) >= 3 ? t : undefined;
    });
    assert.equal(value(text, 'durable_agent_tool_calls_total', { tool: 'Read', outcome: 'ok' }), 2, text);
    assert.equal(value(text, 'durable_agent_tool_calls_total', { tool: 'Read', outcome: 'error' }), 1);
    assert.equal(value(text, 'durable_agent_tool_call_duration_ms_count', { tool: 'Read' }), 3);
    assert.ok(value(text, 'durable_agent_permission_decisions_total', { behavior: 'allow' }) >= 2);
    const calls = { model: 'claude-sonnet-4-5', kind: 'turn', outcome: 'ok' };
    assert.equal(value(text, 'durable_agent_model_calls_total', { ...calls, reason: 'tool_use' }), 1);
    assert.equal(value(text, 'durable_agent_model_calls_total', { ...calls, reason: 'end_turn' }), 1);
    // The fake caches the prompt (cache_write, then cache_read) and answers a few tokens.
    const tokens = (type: string) =>
      value(text, 'durable_agent_model_tokens_total', { model: 'claude-sonnet-4-5', type });
    assert.ok(tokens('cache_write') + tokens('cache_read') + tokens('input') > 0, text);
    assert.ok(value(text, 'durable_agent_model_tokens_total', { model: 'claude-sonnet-4-5', type: 'output' }) > 0);
    assert.ok(value(text, 'durable_agent_model_cost_nanodollars_total', { model: 'claude-sonnet-4-5' }) > 0);
    // No session or call id as a label.
    assert.doesNotMatch(text, /toolu_m|metrics-[0-9a-f]{8}-/);
    // Temporal's own worker metrics on the same endpoint.
    assert.match(text, /^temporal_[a-z_]+/m);
    assert.ok(value(text, 'temporal_activity_execution_latency_count') > 0 || /temporal_activity_/.test(text), text);

    // A session waiting for a person: the gauges see it (visibility + the session's status query).
    fake.enqueue(
      toolUseResponse([{ id: 'toolu_w', name: 'Write', input: { file_path: join(workDir, 'c.txt'), content: 'c\n' } }]),
      textResponse('ok'),
    );
    const waiting = await startSession(client, {
      prompt: 'write',
      cwd: workDir,
      permissionMode: 'default',
      taskQueue,
      model,
      id: uniqueWorkflowId('metrics-ask'),
    });
    await waitFor(
      'the approval',
      async () => (await sessionStatus(client, waiting.workflowId)).pendingApprovals.length === 1,
    );
    const asking = await waitFor('the gauges', async () => {
      const t = await scrape();
      return value(t, 'durable_agent_approvals_pending') === 1 &&
        value(t, 'durable_agent_sessions', { status: 'awaiting_approval' }) === 1
        ? t
        : undefined;
    });
    assert.ok(value(asking, 'durable_agent_approval_oldest_age_seconds') >= 0);
    assert.equal(value(asking, 'durable_agent_permission_decisions_total', { behavior: 'ask' }), 1);
    await denyToolUse(client, waiting.workflowId, 'toolu_w', 'not now');
    assert.equal((await waiting.result()).status, 'completed');
    // Both gauges drop; the sessions-by-status one reads visibility, which lags the status query
    // (under load the scrape between the two updates saw pending 0 beside awaiting_approval 1).
    const after = await waitFor('the gauges to drop', async () => {
      const t = await scrape();
      return value(t, 'durable_agent_approvals_pending') === 0 &&
        value(t, 'durable_agent_sessions', { status: 'awaiting_approval' }) === 0
        ? t
        : undefined;
    });
    assert.ok(value(after, 'durable_agent_permission_decisions_total', { behavior: 'deny', source: 'human' }) >= 1);
  } finally {
    await stopChild(worker);
    await stopChild(plain);
    await fake.close();
  }
});
