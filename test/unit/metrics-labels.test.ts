// unit: the labels and values of our metrics (src/temporal/activities/metrics.ts, issue 35): bounded labels
// (price keys, tool names, decision sources), a reused ledger record counted once, an `ask` as a
// pending decision, tokens and exact nano-dollar cost by model, and a bad bind address refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { METRIC, modelLabel, toolCallPoints, toolLabel, usagePoints } from '../../src/temporal/activities/metrics';
import { callModelUsage } from '../../src/core/modelUsage';
import { callCostNanos } from '../../src/core/prices';
import type { ToolCallRecord } from '../../src/core/toolRecords';
import { parseMetricsBind } from '../../src/temporal/service/metrics';

const record = (over: Partial<ToolCallRecord>): ToolCallRecord => ({
  toolUseId: 'toolu_1',
  toolName: 'Read',
  input: {},
  summary: 'Read x',
  status: 'ok',
  result: { type: 'tool_result', tool_use_id: 'toolu_1', content: 'x' },
  contextModifiers: [],
  ...over,
});

test('unit: metric labels are bounded: price keys, tool names, MCP servers', () => {
  assert.equal(modelLabel('claude-sonnet-4-5-20250929'), 'claude-sonnet-4-5');
  assert.equal(modelLabel('my-finetune-abc123'), 'other');
  assert.equal(toolLabel('Read'), 'Read');
  assert.equal(toolLabel('mcp__github__create_issue'), 'mcp__github');
  assert.equal(toolLabel('weird name {x}'), 'other');
});

test('unit: a tool call adds its outcome, duration, decision and sandbox violations; a reused record nothing', () => {
  const points = toolCallPoints({
    kind: 'done',
    record: record({
      toolName: 'Bash',
      status: 'error',
      startedAt: 1000,
      endedAt: 1250,
      decision: { behavior: 'allow', source: 'rule', detail: 'Bash(ls:*)' },
      sandbox: { sandboxed: true, reason: 'default', violations: ['write /etc/x', 'net evil.example'] },
    }),
  });
  assert.deepEqual(points, [
    { metric: METRIC.toolCalls, value: 1, tags: { tool: 'Bash', outcome: 'error' } },
    { metric: METRIC.toolCallDuration, value: 250, tags: { tool: 'Bash', outcome: 'error' } },
    { metric: METRIC.permissionDecisions, value: 1, tags: { behavior: 'allow', source: 'rule' } },
    { metric: METRIC.sandboxViolations, value: 2, tags: { tool: 'Bash' } },
  ]);
  assert.deepEqual(toolCallPoints({ kind: 'done', record: record({ reused: true }) }), []);
  assert.deepEqual(toolCallPoints({ kind: 'ask', message: 'may I?' }), [
    { metric: METRIC.permissionDecisions, value: 1, tags: { behavior: 'ask', source: 'pending' } },
  ]);
  const odd = toolCallPoints({ kind: 'done', record: record({ decision: { behavior: 'deny', source: 'made-up' } }) });
  assert.deepEqual(odd.at(-1)?.tags, { behavior: 'deny', source: 'other' });
});

test('unit: tokens by type and the exact cost in nano-dollars by model', () => {
  const u = { input_tokens: 1200, output_tokens: 300, cache_read_input_tokens: 5000, cache_creation_input_tokens: 0 };
  const points = usagePoints(callModelUsage('claude-sonnet-4-5', u));
  assert.deepEqual(
    points.filter((p) => p.metric === METRIC.modelTokens).map((p) => [p.tags['type'], p.value]),
    [
      ['input', 1200],
      ['output', 300],
      ['cache_read', 5000],
    ],
  );
  const cost = points.find((p) => p.metric === METRIC.modelCost);
  assert.equal(cost?.value, callCostNanos('claude-sonnet-4-5', u));
  assert.deepEqual(cost?.tags, { model: 'claude-sonnet-4-5' });
  // An unpriced model: tokens, no cost (never 0 presented as a price).
  assert.equal(usagePoints(callModelUsage('mystery', u)).filter((p) => p.metric === METRIC.modelCost).length, 0);
});

test('unit: --metrics-bind wants host:port', () => {
  assert.equal(parseMetricsBind('127.0.0.1:9464'), '127.0.0.1:9464');
  assert.equal(parseMetricsBind('[::1]:9464'), '[::1]:9464');
  assert.throws(() => parseMetricsBind('9464'), /host:port/);
  assert.throws(() => parseMetricsBind('localhost:99999'), /host:port/);
});
