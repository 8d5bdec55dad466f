// Our own metrics (issue 35 deliverable 2), recorded where the calls run: through the activity's
// metric meter (`Context.current().metricMeter`), so they reach the SDK runtime's exporter — the
// worker's Prometheus endpoint (`durable-agent worker --metrics-bind`) — next to Temporal's own, and
// cost nothing when no exporter is configured. Every label is drawn from a bounded set (model
// price keys, tool names, status and decision vocabularies): never a session or tool_use id.
// docs/deployment.md "Metrics" lists each name, type, labels and meaning.
import { Context } from '@temporalio/activity';
import type { MetricMeter } from '@temporalio/common';
import { ModelCallError } from '../../runtime/model';
import { DurableAgentError } from '../../core/errors';
import type { ModelUsage } from '../../core/modelUsage';
import { priceKey, usdToNanos } from '../../core/prices';
import { violationTotal } from '../../core/toolRecords';
import type { ToolRunResult } from '../../core/turn';

export const METRIC = {
  modelCalls: 'durable_agent_model_calls_total',
  modelCallDuration: 'durable_agent_model_call_duration_ms',
  modelTokens: 'durable_agent_model_tokens_total',
  modelCost: 'durable_agent_model_cost_nanodollars_total',
  toolCalls: 'durable_agent_tool_calls_total',
  toolCallDuration: 'durable_agent_tool_call_duration_ms',
  permissionDecisions: 'durable_agent_permission_decisions_total',
  sandboxViolations: 'durable_agent_sandbox_violations_total',
  backgroundTasksRunning: 'durable_agent_background_tasks_running',
  sessions: 'durable_agent_sessions',
  approvalsPending: 'durable_agent_approvals_pending',
  approvalOldestAge: 'durable_agent_approval_oldest_age_seconds',
} as const;

/** One labelled value to record. */
export interface MetricPoint {
  metric: string;
  value: number;
  tags: Record<string, string>;
}

/** A model id as a label: its price key (`claude-sonnet-4-5`), or `other` — never free text. */
export function modelLabel(model: string): string {
  return priceKey(model) ?? 'other';
}

/** A tool name as a label: built-in names as they are, an MCP tool by its server (`mcp__github`). */
export function toolLabel(name: string): string {
  if (name.startsWith('mcp__')) return name.split('__').slice(0, 2).join('__');
  return /^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(name) ? name : 'other';
}

const DECISION_SOURCES = new Set([
  'rule',
  'mode',
  'hook',
  'tool',
  'workingDirectory',
  'safetyCheck',
  'sandbox',
  'human',
  'timeout',
  'unattended',
]);

/** What failed, as a label: a model failure's type (`ModelHttp529`), a domain error's code, else `other`. */
export function errorLabel(err: unknown): string {
  if (err instanceof ModelCallError) return err.failureType;
  if (err instanceof DurableAgentError) return err.code;
  return 'other';
}

/** The labelled values one finished tool call adds (pure: unit-tested). */
export function toolCallPoints(result: ToolRunResult): MetricPoint[] {
  if (result.kind === 'ask') {
    return [{ metric: METRIC.permissionDecisions, value: 1, tags: { behavior: 'ask', source: 'pending' } }];
  }
  const r = result.record;
  // A record from the ledger ran before: it was counted then (an activity retry, a replayed id).
  if (r.reused) return [];
  const tool = toolLabel(r.toolName);
  const points: MetricPoint[] = [{ metric: METRIC.toolCalls, value: 1, tags: { tool, outcome: r.status } }];
  if (r.startedAt !== undefined && r.endedAt !== undefined && r.endedAt >= r.startedAt)
    points.push({ metric: METRIC.toolCallDuration, value: r.endedAt - r.startedAt, tags: { tool, outcome: r.status } });
  if (r.decision) {
    const source = DECISION_SOURCES.has(r.decision.source) ? r.decision.source : 'other';
    points.push({ metric: METRIC.permissionDecisions, value: 1, tags: { behavior: r.decision.behavior, source } });
  }
  const violations = violationTotal(r.sandbox);
  if (violations > 0) points.push({ metric: METRIC.sandboxViolations, value: violations, tags: { tool } });
  return points;
}

/** Tokens and cost of the model calls in `usage` (a call's entry, by model id). */
export function usagePoints(usage: ModelUsage | undefined): MetricPoint[] {
  const points: MetricPoint[] = [];
  for (const [id, u] of Object.entries(usage ?? {})) {
    const model = modelLabel(id);
    const tokens: Array<[string, number]> = [
      ['input', u.inputTokens],
      ['output', u.outputTokens],
      ['cache_read', u.cacheReadInputTokens],
      ['cache_write', u.cacheCreationInputTokens],
    ];
    for (const [type, n] of tokens)
      if (n > 0) points.push({ metric: METRIC.modelTokens, value: n, tags: { model, type } });
    if (u.costUSD !== null && u.costUSD > 0)
      points.push({ metric: METRIC.modelCost, value: usdToNanos(u.costUSD), tags: { model } });
  }
  return points;
}

function meter(): MetricMeter | undefined {
  try {
    return Context.current().metricMeter;
  } catch {
    return undefined; // not in an activity (a core called directly): nothing to record on
  }
}

function emit(points: MetricPoint[]): void {
  const m = meter();
  if (!m) return;
  for (const p of points) {
    if (p.metric.endsWith('_ms')) m.createHistogram(p.metric, 'int', 'ms').record(Math.round(p.value), p.tags);
    else m.createCounter(p.metric).add(Math.round(p.value), p.tags);
  }
}

/**
 * Runs one model call (`kind`: the turn's call or a compaction's summary) and records its outcome,
 * duration, tokens and cost. `outcomeOf` names a result (`ok`, `compaction_needed`, `blocked`) and
 * its reason (the stop reason); a throw counts as `error` with the failure type, and is rethrown.
 */
export async function measureModelCall<R>(
  model: string,
  kind: 'turn' | 'compaction',
  call: () => Promise<R>,
  outcomeOf: (r: R) => { outcome: string; reason: string; usage?: ModelUsage | undefined },
): Promise<R> {
  const started = Date.now();
  const tags = { model: modelLabel(model), kind };
  try {
    const r = await call();
    const o = outcomeOf(r);
    emit([
      { metric: METRIC.modelCalls, value: 1, tags: { ...tags, outcome: o.outcome, reason: o.reason } },
      { metric: METRIC.modelCallDuration, value: Date.now() - started, tags: { ...tags, outcome: o.outcome } },
      ...usagePoints(o.usage),
    ]);
    return r;
  } catch (err) {
    emit([
      { metric: METRIC.modelCalls, value: 1, tags: { ...tags, outcome: 'error', reason: errorLabel(err) } },
      { metric: METRIC.modelCallDuration, value: Date.now() - started, tags: { ...tags, outcome: 'error' } },
    ]);
    throw err;
  }
}

/** Records a finished tool call (its outcome, duration, decision, sandbox violations). */
export function recordToolCall(result: ToolRunResult): ToolRunResult {
  emit(toolCallPoints(result));
  return result;
}

/** Background and Monitor tasks running on this worker process (a gauge: per worker, sum them). */
const running = { bash: 0, monitor: 0 };
export async function countRunningTask<R>(kind: 'bash' | 'monitor', run: () => Promise<R>): Promise<R> {
  const gauge = meter()?.createGauge(METRIC.backgroundTasksRunning, 'int');
  running[kind]++;
  gauge?.set(running[kind], { kind });
  try {
    return await run();
  } finally {
    running[kind]--;
    gauge?.set(running[kind], { kind });
  }
}
