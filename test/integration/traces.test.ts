// integration: OpenTelemetry traces (issue 35). A local OTLP receiver (test/support/otlpReceiver.ts)
// gets a session's trace across a worker restart: the client (this process, OTLP/JSON) starts the
// session; worker-1 (its own process, OTLP/protobuf, bundling the workflows with the tracing
// interceptors itself) runs turn 1's model call and starts a non-idempotent tool call, and is
// SIGKILLed; worker-2 (a prebuilt tracing bundle) replays the session and the turn, runs the call's
// retry (`unknown_outcome`) and turn 2, and the session ends. Then:
// - every span is in one trace, no span id arrives twice (a replaying worker exports nothing again),
//   and every span but the client's root has its parent among them (the chain holds);
// - our spans form session → turn → model call / tool call, with their attributes, the turn span
//   that worker-1's spans are under being the one worker-2 ended (same id after the restart);
// - nothing of the session's content is in any attribute (the prompt; the workflow memo).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { startSession } from '../../src/temporal/client';
import { bundleAgentWorkflows } from '../../src/temporal/worker';
import { flushTracing, startTracing, tracingClientInterceptors } from '../../src/temporal/tracing';
import { SPAN } from '../../src/core/spanAttributes';
import { closeTestEnv, uniqueWorkflowId } from '../support/temporal';
import { withAgent } from '../support/agent';
import { waitFor } from '../support/wait';
import { killGroup, lines, spawnWorker, type WorkerProc } from '../support/workerProcs';
import { startOtlpReceiver, type ReceivedSpan } from '../support/otlpReceiver';

after(closeTestEnv);

const PROMPT = 'append once, secret-prompt-marker';

test(
  'integration: a session traced across a worker SIGKILL: one trace, session → turn → model/tool call, parents intact, nothing exported twice',
  { timeout: 300_000 },
  async () => {
    const receiver = await startOtlpReceiver();
    // The client's spans go out as OTLP/JSON, the workers' as OTLP/protobuf (the default).
    const tracing = startTracing({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'traces-test-client',
    });
    assert.ok(tracing, 'tracing is on with an endpoint');
    try {
      await withAgent({ noWorker: true }, async ({ env, fake, workDir, storeDir, taskQueue }) => {
        const bundlePath = join(storeDir, 'tracing-bundle.js');
        await writeFile(bundlePath, (await bundleAgentWorkflows({ tracing: true })).code);
        const workerEnv = (n: number, bundle: boolean): NodeJS.ProcessEnv => ({
          TEMPORAL_TEST_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS ?? env.address,
          TEMPORAL_TEST_NAMESPACE: env.namespace ?? 'default',
          TASK_QUEUE: taskQueue,
          STORE_DIR: storeDir,
          FAKE_ANTHROPIC_URL: fake.baseURL,
          ...(bundle ? { WORKFLOW_BUNDLE_PATH: bundlePath } : { WORKFLOW_BUNDLE_PATH: '' }),
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
          OTEL_SERVICE_NAME: 'traces-test-worker',
          OTEL_RESOURCE_ATTRIBUTES: `test.worker=worker-${n}`,
          // Spans leave within 100 ms: what worker-1 ended before its SIGKILL has left when we kill it.
          OTEL_BSP_SCHEDULE_DELAY: '100',
        });
        const log = join(workDir, 'side-effect.log');
        fake.enqueue(
          toolUseResponse([
            {
              id: 'toolu_traced',
              name: 'AppendSlow',
              input: { file: log, text: 'once', delayMs: 120_000, idempotent: false },
            },
          ]),
          toolUseResponse([{ id: 'toolu_quick', name: 'AppendSlow', input: { file: log, text: 'twice' } }]),
          textResponse('Traced.'),
        );
        const client = new Client({
          connection: env.connection,
          namespace: env.namespace ?? 'default',
          interceptors: tracingClientInterceptors(tracing),
        });
        const procs: WorkerProc[] = [];
        try {
          // worker-1 bundles the workflows itself: createAgentWorker adds the tracing module.
          const w1 = await spawnWorker('worker-1', workerEnv(1, false), procs);
          const handle = await startSession(client, {
            cwd: workDir,
            prompt: PROMPT,
            tools: ['AppendSlow'],
            permissionMode: 'bypassPermissions',
            id: uniqueWorkflowId('traced'),
            taskQueue,
            model: { model: 'claude-sonnet-4-6', maxTokens: 1024 },
          });
          await waitFor('the tool call to start', async () => (await lines(log)).length >= 1);
          // What worker-1 ended has reached the receiver before the kill (a SIGKILL loses the spans its
          // batch had not sent yet: docs/deployment.md "Traces"). The last span it ends before the
          // tool call is the turn's StartActivity:callModel (the model call's result taken by the turn);
          // its spans leave in the order they ended, so every earlier one has arrived with it.
          await waitFor("worker-1 to export the turn's StartActivity:callModel span", async () =>
            receiver.spans.some(
              (s) => s.name === 'StartActivity:callModel' && s.resource['test.worker'] === 'worker-1',
            ),
          );
          killGroup(w1);
          await w1.exited;
          await spawnWorker('worker-2', workerEnv(2, true), procs);
          const result = await handle.result();
          assert.equal(result.status, 'completed');
          assert.deepEqual(await lines(log), ['once', 'twice'], 'the non-idempotent call ran once');
          await flushTracing();
          await waitFor(
            'the session span from worker-2',
            async () => receiver.spans.some((s) => s.name === SPAN.session),
            60_000,
          );
          if (process.env.TRACES_DUMP)
            await writeFile(process.env.TRACES_DUMP, JSON.stringify(receiver.spans, null, 1));
          checkTrace(receiver.spans, handle.workflowId);
          // Turning tracing off is safe too: the traced histories replay on the plain bundle (and the tracing one).
          for (const bundle of [await bundleAgentWorkflows(), await bundleAgentWorkflows({ tracing: true })])
            for (const id of [handle.workflowId, ...[1, 2].map((n) => `${handle.workflowId}/turn-${n}`)])
              await Worker.runReplayHistory(
                { workflowBundle: bundle, sinks: { exporter: { export: { fn: () => undefined } } } },
                await client.workflow.getHandle(id).fetchHistory(),
                id,
              );
          fake.assertDone();
        } finally {
          for (const p of procs) killGroup(p);
          await Promise.all(procs.map((p) => p.exited));
        }
      });
    } finally {
      await receiver.close();
    }
  },
);

function checkTrace(spans: ReceivedSpan[], sessionId: string): void {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const describe = (s: ReceivedSpan): string =>
    `${s.name} (${String(s.resource['test.worker'] ?? s.resource['service.name'])})`;
  // One trace.
  const traces = new Set(spans.map((s) => s.traceId));
  assert.equal(traces.size, 1, `one trace id, got ${[...traces].join(', ')}`);
  // Nothing exported twice: worker-2's replay of spans worker-1 had ended sent none of them again.
  assert.equal(byId.size, spans.length, `duplicate span ids: ${spans.length - byId.size}`);
  // Every parent arrived; the only root is the client's start.
  const roots = spans.filter((s) => s.parentSpanId === '');
  assert.deepEqual(
    roots.map((s) => [s.name, s.resource['service.name'], s.encoding]),
    [['StartWorkflow:sessionWorkflow', 'traces-test-client', 'json']],
  );
  const orphans = spans.filter((s) => s.parentSpanId !== '' && !byId.has(s.parentSpanId));
  assert.deepEqual(orphans.map(describe), [], 'every parent span arrived');
  const ancestors = (s: ReceivedSpan): ReceivedSpan[] => {
    const out: ReceivedSpan[] = [];
    for (let p = byId.get(s.parentSpanId); p; p = byId.get(p.parentSpanId)) out.push(p);
    return out;
  };
  const nearest = (s: ReceivedSpan, name: string): ReceivedSpan | undefined =>
    ancestors(s).find((a) => a.name === name);

  // session → turn → model call / tool call.
  const sessions = spans.filter((s) => s.name === SPAN.session);
  assert.equal(sessions.length, 1, 'one session span');
  const session = sessions[0]!;
  assert.equal(session.attributes['durable_agent.session.id'], sessionId);
  assert.equal(session.attributes['durable_agent.session.status'], 'completed');
  assert.equal(session.attributes['durable_agent.session.turns'], 3);
  assert.equal(session.attributes['gen_ai.request.model'], 'claude-sonnet-4-6');
  assert.equal(session.resource['test.worker'], 'worker-2', 'the session ended on worker-2');
  const turns = spans.filter((s) => s.name === SPAN.turn);
  // One span per turn child: turn 1's child returns after its step (an unknown outcome needs the
  // session), turn 2's child runs steps 2 and 3 (turn children of several model steps, issue 33).
  assert.deepEqual(
    turns.map((t) => t.attributes['durable_agent.turn.number']).sort(),
    [1, 2],
    'one span per turn child',
  );
  for (const t of turns)
    assert.equal(
      nearest(t, SPAN.session),
      session,
      `turn ${t.attributes['durable_agent.turn.number']} is under the session`,
    );
  const turn1 = turns.find((t) => t.attributes['durable_agent.turn.number'] === 1)!;
  assert.equal(turn1.resource['test.worker'], 'worker-2', 'turn 1 began on worker-1 and ended on worker-2');

  const models = spans.filter((s) => s.name === SPAN.modelCall);
  assert.equal(models.length, 3, 'one span per model call: worker-2 did not export turn 1 again');
  const model1 = models.find((m) => m.attributes['durable_agent.turn.number'] === 1)!;
  assert.equal(model1.resource['test.worker'], 'worker-1');
  // The chain worker-1 made holds to the turn span worker-2 ended: same id after the restart.
  assert.equal(nearest(model1, SPAN.turn), turn1, 'worker-1 model call is under the turn span worker-2 ended');
  assert.deepEqual(model1.attributes['gen_ai.response.finish_reasons'], ['tool_use']);
  assert.equal(model1.attributes['durable_agent.model_call.outcome'], 'ok');
  assert.equal(typeof model1.attributes['gen_ai.usage.input_tokens'], 'number');
  assert.equal(typeof model1.attributes['durable_agent.cost_usd'], 'number', 'a priced model has a cost');
  const model2 = models.find((m) => m.attributes['durable_agent.turn.number'] === 2)!;
  assert.equal(model2.resource['test.worker'], 'worker-2');
  assert.equal(nearest(model2, SPAN.turn)?.attributes['durable_agent.turn.number'], 2);
  const model3 = models.find((m) => m.attributes['durable_agent.turn.number'] === 3)!;
  assert.equal(
    nearest(model3, SPAN.turn)?.attributes['durable_agent.turn.number'],
    2,
    'step 3 runs in the child of turn 2',
  );

  const tools = spans.filter((s) => s.name === SPAN.toolCall);
  assert.equal(tools.length, 2, 'the killed attempt never ended: only its retry and the next call have a span');
  const tool = tools.find((t) => t.attributes['durable_agent.tool.use_id'] === 'toolu_traced')!;
  assert.equal(tool.resource['test.worker'], 'worker-2');
  assert.equal(nearest(tool, SPAN.turn), turn1);
  assert.equal(tool.attributes['durable_agent.tool.name'], 'AppendSlow');
  assert.equal(tool.attributes['durable_agent.tool.outcome'], 'unknown_outcome');
  assert.equal(tool.attributes['durable_agent.attempt'], 2);
  const quick = tools.find((t) => t.attributes['durable_agent.tool.use_id'] === 'toolu_quick')!;
  assert.equal(nearest(quick, SPAN.turn)?.attributes['durable_agent.turn.number'], 2);
  assert.equal(quick.attributes['durable_agent.tool.outcome'], 'ok');
  assert.equal(quick.attributes['durable_agent.permission.decision'], 'allow');
  assert.equal(quick.attributes['durable_agent.permission.source'], 'mode');
  // Temporal's own spans are in the chain: the tool span's parent is the retried activity's run.
  assert.equal(byId.get(tool.parentSpanId)?.name, 'RunActivity:runToolUse');

  // No content in any attribute: the prompt is in the workflow memo and input, never in a span.
  for (const s of spans)
    assert.ok(!JSON.stringify(s.attributes).includes('secret-prompt-marker'), `${describe(s)} carries the prompt`);
}
