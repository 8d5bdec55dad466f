// The attributes of our own spans (issue 35; docs/deployment.md "Traces"): session → turn → model
// call / tool call. Pure (bundled with the workflows' tracing interceptors, used by the activities'
// too): a session's or call's shape in, plain attribute values out. Never content: no prompt, no
// tool input or result, no model text — ids, names, counts, outcomes, tokens and cost.
import type { ModelUsage } from './modelUsage';
import type { ToolRunResult } from './toolCall';

export type SpanAttributes = Record<string, string | number | boolean | string[]>;

/** The span names, one per level of a session's trace. */
export const SPAN = {
  session: 'durable_agent.session',
  turn: 'durable_agent.turn',
  modelCall: 'durable_agent.model_call',
  toolCall: 'durable_agent.tool_call',
} as const;

/** Tokens and cost summed over the models of `usage` (absent: nothing). */
export function usageAttributes(usage: ModelUsage | undefined): SpanAttributes {
  const entries = Object.values(usage ?? {});
  if (entries.length === 0) return {};
  const sum = (f: (e: (typeof entries)[number]) => number): number => entries.reduce((n, e) => n + f(e), 0);
  const out: SpanAttributes = {
    'gen_ai.usage.input_tokens': sum((e) => e.inputTokens),
    'gen_ai.usage.output_tokens': sum((e) => e.outputTokens),
    'durable_agent.usage.cache_read_tokens': sum((e) => e.cacheReadInputTokens),
    'durable_agent.usage.cache_write_tokens': sum((e) => e.cacheCreationInputTokens),
    'durable_agent.model_calls': sum((e) => e.calls),
  };
  // A model without a price has costUSD null: the cost is then what the priced models cost.
  if (entries.some((e) => e.costUSD !== null)) out['durable_agent.cost_usd'] = sum((e) => e.costUSD ?? 0);
  return out;
}

/** A session's start: its id, model, and whether it is a subagent (a child of a turn). */
export function sessionStartAttributes(
  sessionId: string,
  input: { model?: { model?: unknown } } | undefined,
  parentWorkflowId: string | undefined,
): SpanAttributes {
  const model = input?.model?.model;
  return {
    'durable_agent.session.id': sessionId,
    ...(typeof model === 'string' ? { 'gen_ai.request.model': model } : {}),
    'durable_agent.subagent': parentWorkflowId !== undefined,
    ...(parentWorkflowId !== undefined ? { 'durable_agent.parent_workflow_id': parentWorkflowId } : {}),
  };
}

/** A session's end: status, why, turns, tool calls, tokens and cost of its whole tree. */
export function sessionEndAttributes(r: {
  status?: string;
  endReason?: string;
  turns?: number;
  toolCalls?: number;
  modelUsage?: ModelUsage;
}): SpanAttributes {
  return {
    ...(r.status ? { 'durable_agent.session.status': r.status } : {}),
    ...(r.endReason ? { 'durable_agent.session.end_reason': r.endReason } : {}),
    ...(typeof r.turns === 'number' ? { 'durable_agent.session.turns': r.turns } : {}),
    ...(typeof r.toolCalls === 'number' ? { 'durable_agent.session.tool_calls': r.toolCalls } : {}),
    ...usageAttributes(r.modelUsage),
  };
}

/** A turn's start. */
export function turnStartAttributes(input: { sessionId?: unknown; turn?: unknown } | undefined): SpanAttributes {
  return {
    ...(typeof input?.sessionId === 'string' ? { 'durable_agent.session.id': input.sessionId } : {}),
    ...(typeof input?.turn === 'number' ? { 'durable_agent.turn.number': input.turn } : {}),
  };
}

/** A turn's end: why it ended, the model's stop reason, its tool calls by outcome, tokens and cost. */
export function turnEndAttributes(r: {
  reason?: string;
  stopReason?: string;
  error?: string;
  records?: Array<{ status: string }>;
  modelUsage?: ModelUsage;
}): SpanAttributes {
  const out: SpanAttributes = {
    ...(r.reason ? { 'durable_agent.turn.reason': r.reason } : {}),
    ...(r.stopReason ? { 'gen_ai.response.finish_reasons': [r.stopReason] } : {}),
    ...(r.error ? { 'durable_agent.turn.error': r.error.slice(0, 200) } : {}),
    'durable_agent.turn.tool_calls': r.records?.length ?? 0,
    ...usageAttributes(r.modelUsage),
  };
  for (const rec of r.records ?? []) {
    const k = `durable_agent.turn.tool_calls.${rec.status}`;
    out[k] = ((out[k] as number | undefined) ?? 0) + 1;
  }
  return out;
}

/** A model call's start: the session, turn, model and kind (the turn's call or a compaction's summary). */
export function modelCallStartAttributes(
  input: { sessionId?: unknown; turn?: unknown; settings?: { model?: unknown } } | undefined,
  kind: 'turn' | 'compaction',
): SpanAttributes {
  return {
    ...turnStartAttributes(input),
    ...(typeof input?.settings?.model === 'string' ? { 'gen_ai.request.model': input.settings.model } : {}),
    'durable_agent.model_call.kind': kind,
  };
}

/** A model call's answer: outcome, stop reason, fallback, tokens and cost. */
export function modelCallEndAttributes(r: {
  kind?: string;
  trigger?: string;
  stopReason?: string;
  fallback?: boolean;
  continuations?: number;
  messageId?: string;
  modelUsage?: ModelUsage;
}): SpanAttributes {
  if (r.kind === 'compact')
    return {
      'durable_agent.model_call.outcome': 'compaction_needed',
      'durable_agent.compaction.trigger': r.trigger ?? '',
    };
  return {
    'durable_agent.model_call.outcome': 'ok',
    ...(r.stopReason ? { 'gen_ai.response.finish_reasons': [r.stopReason] } : {}),
    ...(r.messageId ? { 'gen_ai.response.id': r.messageId } : {}),
    ...(r.fallback ? { 'durable_agent.model_call.fallback': true } : {}),
    ...(r.continuations ? { 'durable_agent.model_call.continuations': r.continuations } : {}),
    ...usageAttributes(r.modelUsage),
  };
}

/** A tool call's start: its tool_use id and tool name (from the block the activity was given). */
export function toolCallStartAttributes(
  input:
    { block?: { id?: unknown; name?: unknown }; toolUseId?: unknown; session?: { sessionId?: unknown } } | undefined,
  phase: string,
  /** The session, when the input names it only by the turn's stored step inputs (`stepRef`, issue 33): from the turn's workflow id. */
  sessionId?: string,
): SpanAttributes {
  const session = typeof input?.session?.sessionId === 'string' ? input.session.sessionId : sessionId;
  return {
    ...(session !== undefined ? { 'durable_agent.session.id': session } : {}),
    ...(typeof input?.block?.id === 'string' ? { 'durable_agent.tool.use_id': input.block.id } : {}),
    // A call sent by its tool_use id (issue 33): the activity notes the tool name once it has read the block.
    ...(typeof input?.toolUseId === 'string' ? { 'durable_agent.tool.use_id': input.toolUseId } : {}),
    ...(typeof input?.block?.name === 'string' ? { 'durable_agent.tool.name': input.block.name } : {}),
    'durable_agent.tool.phase': phase,
  };
}

/** A tool call's result: outcome, the permission decision and who made it, reuse, tokens and cost of its side calls. */
export function toolCallEndAttributes(r: ToolRunResult | { kind: 'ready' }): SpanAttributes {
  if (r.kind === 'ask') return { 'durable_agent.tool.outcome': 'ask', 'durable_agent.permission.decision': 'ask' };
  if (r.kind !== 'done') return { 'durable_agent.tool.outcome': 'started' };
  const rec = r.record;
  return {
    'durable_agent.tool.outcome': rec.status,
    ...(rec.decision
      ? {
          'durable_agent.permission.decision': rec.decision.behavior,
          'durable_agent.permission.source': rec.decision.source,
        }
      : {}),
    ...(rec.reused ? { 'durable_agent.tool.reused': true } : {}),
    ...(rec.attempts !== undefined ? { 'durable_agent.tool.attempts': rec.attempts } : {}),
    ...(rec.sandbox?.violations?.length ? { 'durable_agent.sandbox.violations': rec.sandbox.violations.length } : {}),
    ...usageAttributes(rec.modelUsage),
  };
}
