// unit: OpenTelemetry traces (issue 35). When the OTEL_* variables turn tracing on and where spans
// go (src/temporal/tracing/settings.ts), a clear error for what we cannot honour; the workflow span
// sink keeps no workflow memo (the prompt); our spans' attributes (src/core/spanAttributes.ts):
// outcome, decision, tool_use id, tokens and cost — and nothing of the content.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { tracingSettings, TracingConfigError, withoutWorkflowDetails } from '../../src/temporal/tracing';
import {
  modelCallEndAttributes,
  sessionEndAttributes,
  toolCallEndAttributes,
  toolCallStartAttributes,
  turnEndAttributes,
} from '../../src/core/spanAttributes';
import { callModelUsage } from '../../src/core/modelUsage';
import type { ToolCallRecord } from '../../src/core/toolRecords';

test('unit: tracing is off unless an OTLP endpoint or an exporter is named; none and OTEL_SDK_DISABLED turn it off', () => {
  assert.equal(tracingSettings({}), undefined);
  assert.equal(tracingSettings({ OTEL_SERVICE_NAME: 'x' }), undefined, 'a service name alone exports nothing');
  assert.deepEqual(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }), {
    exporter: 'otlp',
    url: 'http://collector:4318/v1/traces',
    protocol: 'http/protobuf',
    serviceName: 'durable-agent',
  });
  assert.equal(
    tracingSettings({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:9999/traces',
    })?.url,
    'http://b:9999/traces',
    'the traces endpoint is used as it is',
  );
  assert.equal(tracingSettings({ OTEL_TRACES_EXPORTER: 'otlp' })?.url, 'http://localhost:4318/v1/traces');
  assert.equal(
    tracingSettings({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318' }),
    undefined,
  );
  assert.equal(tracingSettings({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318' }), undefined);
  assert.equal(tracingSettings({ OTEL_TRACES_EXPORTER: 'console' })?.exporter, 'console');
  const s = tracingSettings({
    OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318',
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_SERVICE_NAME: 'agents-prod',
  });
  assert.equal(s?.protocol, 'http/json');
  assert.equal(s?.serviceName, 'agents-prod');
});

test('unit: what tracing cannot honour is refused with the variable named', () => {
  const refused = (env: Record<string, string>, re: RegExp) =>
    assert.throws(
      () => tracingSettings(env),
      (e: unknown) => e instanceof TracingConfigError && re.test(e.message),
    );
  refused({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, /PROTOCOL=grpc.*4318/);
  refused({ OTEL_TRACES_EXPORTER: 'zipkin' }, /OTEL_TRACES_EXPORTER=zipkin/);
  refused({ OTEL_TRACES_EXPORTER: 'none,otlp' }, /'none' cannot be combined/);
  refused({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, /not an http\(s\) URL/);
});

test("unit: the workflow span sink keeps the span's own attributes and the workflow's plain fields, never its memo", () => {
  const ended: ReadableSpan[] = [];
  const inner = { onEnd: (s: ReadableSpan) => ended.push(s) } as unknown as SpanProcessor;
  const span = {
    attributes: {
      'durable_agent.turn.number': 2,
      workflowId: 'session-1',
      workflowType: 'sessionWorkflow',
      attempt: 1,
      memo: { prompt: 'the secret prompt' },
      searchAttributes: { DurableAgentStatus: ['running'] },
      lastResult: 'a result',
      startTime: new Date(0),
    },
  } as unknown as ReadableSpan;
  withoutWorkflowDetails(inner).onEnd(span);
  assert.deepEqual(ended[0]?.attributes, {
    'durable_agent.turn.number': 2,
    workflowId: 'session-1',
    workflowType: 'sessionWorkflow',
    attempt: 1,
  });
});

const record = (over: Partial<ToolCallRecord>): ToolCallRecord => ({
  toolUseId: 'toolu_1',
  toolName: 'Bash',
  input: { command: 'cat secret.txt' },
  summary: 'Bash cat secret.txt',
  status: 'ok',
  result: { type: 'tool_result', tool_use_id: 'toolu_1', content: 'secret contents' },
  contextModifiers: [],
  ...over,
});

test('unit: tool call attributes: tool_use id and name at start; outcome, decision and its source, reuse at the end; no content', () => {
  assert.deepEqual(
    toolCallStartAttributes({ block: { id: 'toolu_1', name: 'Bash' }, session: { sessionId: 's-1' } }, 'call'),
    {
      'durable_agent.session.id': 's-1',
      'durable_agent.tool.use_id': 'toolu_1',
      'durable_agent.tool.name': 'Bash',
      'durable_agent.tool.phase': 'call',
    },
  );
  const done = toolCallEndAttributes({
    kind: 'done',
    record: record({
      status: 'denied',
      decision: { behavior: 'deny', source: 'rule', detail: 'Bash(cat:*)' },
      reused: true,
    }),
  });
  assert.deepEqual(done, {
    'durable_agent.tool.outcome': 'denied',
    'durable_agent.permission.decision': 'deny',
    'durable_agent.permission.source': 'rule',
    'durable_agent.tool.reused': true,
  });
  assert.ok(!JSON.stringify(done).includes('secret'));
  assert.deepEqual(toolCallEndAttributes({ kind: 'ask', message: 'may I?' }), {
    'durable_agent.tool.outcome': 'ask',
    'durable_agent.permission.decision': 'ask',
  });
});

test('unit: model call, turn and session attributes carry tokens and cost summed over models', () => {
  const usage = callModelUsage('claude-sonnet-4-6', { input_tokens: 1000, output_tokens: 200 } as never);
  const m = modelCallEndAttributes({ stopReason: 'tool_use', messageId: 'msg_1', modelUsage: usage });
  assert.equal(m['gen_ai.usage.input_tokens'], 1000);
  assert.equal(m['gen_ai.usage.output_tokens'], 200);
  assert.equal(typeof m['durable_agent.cost_usd'], 'number');
  assert.ok((m['durable_agent.cost_usd'] as number) > 0);
  assert.deepEqual(m['gen_ai.response.finish_reasons'], ['tool_use']);
  assert.deepEqual(modelCallEndAttributes({ kind: 'compact', trigger: 'auto' }), {
    'durable_agent.model_call.outcome': 'compaction_needed',
    'durable_agent.compaction.trigger': 'auto',
  });
  const t = turnEndAttributes({
    reason: 'tool_use',
    records: [{ status: 'ok' }, { status: 'ok' }, { status: 'denied' }],
  });
  assert.equal(t['durable_agent.turn.tool_calls'], 3);
  assert.equal(t['durable_agent.turn.tool_calls.ok'], 2);
  assert.equal(t['durable_agent.turn.tool_calls.denied'], 1);
  const s = sessionEndAttributes({ status: 'completed', turns: 3, toolCalls: 2, modelUsage: usage });
  assert.equal(s['durable_agent.session.status'], 'completed');
  assert.equal(s['gen_ai.usage.input_tokens'], 1000);
  // An unpriced model has no cost, not a cost of 0.
  const unpriced = callModelUsage('some-other-model', { input_tokens: 5, output_tokens: 1 } as never);
  assert.equal(usageCost(unpriced), undefined);
});

function usageCost(u: ReturnType<typeof callModelUsage>): unknown {
  return sessionEndAttributes({ modelUsage: u })['durable_agent.cost_usd'];
}
