// `run --output-format text|json|stream-json` (and `-p`): the objects the reference's `claude -p`
// prints, built from what a session leaves (its messages, its result, the model calls of its audit).
// Same message types and keys as Claude Code 2.1.328 (the version REFERENCE_FORMAT_VERSION names);
// our session id in `session_id`; fields of our own added, never renamed (docs/tools.md lists the
// reference's keys we do not send). Pure: no Temporal, no I/O.
import { createHash } from 'node:crypto';
import { splitMemoryReminder } from '../core/memoryReminder';
import type { Message, Usage } from '../core/apiMessages';
import { contextWindowFor } from '../core/contextWindow';
import {
  callModelUsage,
  modelUsageTotals,
  pricedCostUsd,
  sumModelUsage,
  totalCostUsd,
  unpricedModels,
  type ModelUsage,
} from '../core/modelUsage';
import { PRICES_AS_OF } from '../core/prices';

export const OUTPUT_FORMATS = ['text', 'json', 'stream-json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
/** The Claude Code version whose `-p` output these objects follow (`claude_code_version` in the init event). */
export const REFERENCE_FORMAT_VERSION = '2.1.328';

type Json = Record<string, unknown>;

/** A uuid-shaped id, stable for one position in one session (the same on every print). */
export function stableUuid(sessionId: string, what: string): string {
  const h = createHash('sha256').update(`${sessionId}\0${what}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export interface InitInfo {
  sessionId: string;
  cwd: string;
  tools: string[];
  mcpServers: string[];
  model: string;
  permissionMode: string;
  agents: string[];
  /** The session's skills (the Skill tool's list). */
  skills: string[];
  additionalDirectories: string[];
  /** Where the worker's Anthropic key comes from, as the CLI sees it (the worker reads its own environment). */
  apiKeySource: string;
  version: string;
}

/** The first line of stream-json: `{"type":"system","subtype":"init",…}`. */
export function initEvent(i: InitInfo): Json {
  return {
    type: 'system',
    subtype: 'init',
    cwd: i.cwd,
    session_id: i.sessionId,
    tools: i.tools,
    // The worker connects MCP servers when the first turn needs them: pending at start.
    mcp_servers: i.mcpServers.map((name) => ({ name, status: 'pending' })),
    model: i.model,
    permissionMode: i.permissionMode,
    slash_commands: [],
    apiKeySource: i.apiKeySource,
    claude_code_version: REFERENCE_FORMAT_VERSION,
    output_style: 'default',
    agents: i.agents,
    skills: i.skills,
    plugins: [],
    uuid: stableUuid(i.sessionId, 'init'),
    original_cwd: i.cwd,
    additional_directories: i.additionalDirectories,
    // Ours: the runner and its version.
    durable_agent_version: i.version,
  };
}

/** What the audit knows of the model call that produced an assistant message. */
export interface ModelCallMeta {
  model?: string;
  messageId?: string;
  requestId?: string;
  usage?: Usage;
  stopReason?: string;
  endedAt?: string;
}

/**
 * The stream-json lines for messages[from…]: an `assistant` line per content block (as the
 * reference splits a message), a `user` line per tool_result. The prompt and other text the user
 * side sent are not printed (the reference prints them only with --replay-user-messages).
 * `meta(n)` describes the n-th assistant message of the session (0-based).
 */
export function messageEvents(
  messages: readonly Message[],
  from: number,
  sessionId: string,
  meta: (assistantIndex: number) => ModelCallMeta | undefined,
  fallbackModel: string,
  now: () => string = () => new Date().toISOString(),
): Json[] {
  const out: Json[] = [];
  let assistantIndex = messages.slice(0, from).filter((m) => m.role === 'assistant').length;
  for (let i = from; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === 'assistant') {
      const call = meta(assistantIndex++);
      m.content.forEach((block, b) =>
        out.push({
          type: 'assistant',
          message: {
            id: call?.messageId ?? `msg_${stableUuid(sessionId, `message ${i}`).replace(/-/g, '')}`,
            type: 'message',
            role: 'assistant',
            model: call?.model ?? fallbackModel,
            content: [block],
            stop_reason: null,
            stop_sequence: null,
            stop_details: null,
            usage: wireUsage(call?.usage),
            context_management: null,
          },
          parent_tool_use_id: null,
          session_id: sessionId,
          uuid: stableUuid(sessionId, `message ${i} block ${b}`),
          timestamp: call?.endedAt ?? now(),
          ...(call?.requestId ? { request_id: call.requestId } : {}),
        }),
      );
      continue;
    }
    if (typeof m.content === 'string') continue;
    m.content.forEach((block, b) => {
      if (block.type !== 'tool_result') return;
      out.push({
        type: 'user',
        message: { role: 'user', content: [block] },
        parent_tool_use_id: null,
        session_id: sessionId,
        uuid: stableUuid(sessionId, `message ${i} block ${b}`),
        timestamp: now(),
      });
    });
  }
  return out;
}

function wireUsage(u: Usage | undefined): Json {
  return {
    input_tokens: u?.input_tokens ?? 0,
    cache_creation_input_tokens: u?.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: u?.cache_read_input_tokens ?? 0,
    output_tokens: u?.output_tokens ?? 0,
  };
}

/** How a session ended, in the terms the result line needs. */
export interface Ending {
  sessionId: string;
  /** The session's status (completed, failed, max_turns, max_tokens, interrupted, stopped, cancelled…). */
  status: string;
  /** Why (the session's endReason, or the workflow's failure). */
  reason: string;
  lastText: string;
  /** Model calls (the reference's num_turns: one per request of the agent loop). */
  turns: number;
  usage: Usage;
  durationMs: number;
  /** Model calls of the session (the audit's), in order: duration_api_ms, stop_reason, modelUsage. */
  calls: Array<ModelCallMeta & { startedAt?: string }>;
  /** Calls a rule or a person denied. */
  denials: Array<{ tool_name: string; tool_use_id: string; tool_input: unknown }>;
  /** Every model call of the session's tree by model, cost included (the session's result); absent: ended before it was kept. */
  modelUsage?: ModelUsage;
  /** The session's --max-turns, for the reference's error text. */
  maxTurns?: number;
}

/**
 * A model error in a failed session's reason (`turn 1 failed: model call failed: model API error 400: 400 {…"message":"…"}`):
 * its status, type and message, for the reference's `API Error: 400 <message>`.
 */
export function apiError(
  reason: string,
): { status: number; type?: string; message: string; requestId?: string } | undefined {
  const m = /model API error (\d{3})\b:?\s*(.*)$/s.exec(reason);
  if (!m) return undefined;
  const rest = m[2] ?? '';
  const message = /"message":"((?:[^"\\]|\\.)*)"/.exec(rest)?.[1];
  const type = /"error":\{"type":"([^"]+)"/.exec(rest)?.[1];
  const requestId = /"request_id":"([^"]+)"/.exec(rest)?.[1];
  return {
    status: Number(m[1]),
    ...(type ? { type } : {}),
    ...(requestId ? { requestId } : {}),
    message: message !== undefined ? (JSON.parse(`"${message}"`) as string) : rest.replace(/^\d{3}\s*/, '').trim(),
  };
}

/** The result line (`json` prints it alone; `stream-json` last). */
export function resultEvent(e: Ending): Json {
  const api = e.status === 'failed' || e.status === 'terminated' ? apiError(e.reason) : undefined;
  // A refusal is an error result that says so (issue 31): is_error, exit 1, the reason as its text.
  const refused = e.status === 'refused';
  const success = e.status === 'completed' || api !== undefined || refused;
  const last = e.calls[e.calls.length - 1];
  const apiMs = e.calls.reduce(
    (sum, c) => sum + (c.startedAt && c.endedAt ? Date.parse(c.endedAt) - Date.parse(c.startedAt) : 0),
    0,
  );
  // Every model call of the session's tree (its result's modelUsage); a session that ended before
  // usage by model was kept: its own model calls from the audit, priced now.
  const byModel: ModelUsage =
    e.modelUsage ?? sumModelUsage(e.calls.map((c) => (c.usage ? callModelUsage(c.model ?? 'unknown', c.usage) : {})));
  const modelUsage: Record<string, Json> = {};
  for (const [model, u] of Object.entries(byModel))
    modelUsage[model] = {
      inputTokens: u.inputTokens,
      outputTokens: u.outputTokens,
      cacheReadInputTokens: u.cacheReadInputTokens,
      cacheCreationInputTokens: u.cacheCreationInputTokens,
      webSearchRequests: u.webSearchRequests,
      // null: the price list (src/core/prices.ts) does not know the model — unknown, not free.
      costUSD: u.costUSD,
      contextWindow: contextWindowFor(model),
    };
  const totalCost = totalCostUsd(byModel);
  const unpriced = unpricedModels(byModel);
  const base: Json = {
    type: 'result',
    subtype: success ? 'success' : errorSubtype(e.status),
    is_error: e.status !== 'completed',
    duration_ms: Math.max(0, Math.round(e.durationMs)),
    duration_api_ms: Math.max(0, Math.round(apiMs)),
    num_turns: e.turns,
    ...(success
      ? {
          result: api
            ? `API Error: ${api.status} ${api.message}`
            : refused
              ? `${e.reason.charAt(0).toUpperCase()}${e.reason.slice(1)}`
              : e.lastText,
        }
      : {}),
    stop_reason: api ? 'stop_sequence' : (last?.stopReason ?? null),
    session_id: e.sessionId,
    // Summed over every call of the tree, priced by src/core/prices.ts; null when a model has no price.
    total_cost_usd: totalCost,
    ...(unpriced.length > 0
      ? {
          cost_note: `cost unknown: no price for ${unpriced.join(', ')} (src/core/prices.ts, prices as of ${PRICES_AS_OF}); the priced models cost $${pricedCostUsd(byModel)}`,
        }
      : {}),
    usage: {
      ...wireUsage(e.usage),
      // What the API reported (usage.server_tool_use of every call); durable-agent sends no server web_fetch tool.
      server_tool_use: { web_search_requests: modelUsageTotals(byModel).web_search_requests, web_fetch_requests: 0 },
    },
    modelUsage,
    permission_denials: e.denials,
    terminal_reason: api
      ? 'api_error'
      : refused
        ? 'refusal'
        : e.status === 'completed'
          ? 'completed'
          : e.status === 'max_turns'
            ? 'max_turns'
            : e.status,
    // On a success line only (null: no model error), as the reference.
    ...(success ? { api_error_status: api ? api.status : null } : {}),
    ...(api?.type ? { api_error_type: api.type } : {}),
    ...(api?.requestId ? { request_id: api.requestId } : {}),
    ...(success ? {} : { errors: [errorText(e)] }),
    uuid: stableUuid(e.sessionId, 'result'),
    // Ours: the session's status and why it ended, in durable-agent's words.
    status: e.status,
    end_reason: e.reason,
  };
  return base;
}

/** stream-json, a session a model error ended: the reference's synthetic assistant line carrying the error's text. */
export function apiErrorEvent(result: Json): Json | undefined {
  if (result['terminal_reason'] !== 'api_error') return undefined;
  const sessionId = String(result['session_id']);
  return {
    type: 'assistant',
    message: {
      id: stableUuid(sessionId, 'api error'),
      type: 'message',
      role: 'assistant',
      model: '<synthetic>',
      content: [{ type: 'text', text: result['result'] }],
      stop_reason: 'stop_sequence',
      stop_sequence: '',
      stop_details: null,
      diagnostics: null,
      container: null,
      usage: {
        ...wireUsage(undefined),
        output_tokens_details: null,
        server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
        service_tier: null,
        cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 },
        inference_geo: null,
        iterations: null,
        speed: null,
        fallback_credit: null,
      },
      context_management: null,
    },
    parent_tool_use_id: null,
    session_id: sessionId,
    uuid: stableUuid(sessionId, 'api error line'),
    timestamp: new Date().toISOString(),
    error: 'unknown',
    ...(result['request_id'] ? { request_id: result['request_id'] } : {}),
    is_api_error_message: true,
    api_error_status: result['api_error_status'],
    ...(result['api_error_type'] ? { api_error_type: result['api_error_type'] } : {}),
  };
}

function errorText(e: Ending): string {
  if (e.status === 'max_turns') return `Reached maximum number of turns (${e.maxTurns ?? e.turns})`;
  return e.reason;
}

/**
 * What `text` prints and the exit code: the final text and a newline; a model error's text; for
 * another error `Error: …` without a newline (the reference's words and bytes where it has them).
 */
export function textOutput(result: Json): { text: string; exitCode: number } {
  if (result['is_error'] !== true) return { text: `${String(result['result'] ?? '')}\n`, exitCode: 0 };
  if (typeof result['result'] === 'string') return { text: `${result['result']}\n`, exitCode: 1 };
  // The reference's words for its --max-budget-usd halt.
  if (result['subtype'] === 'error_max_budget_usd') return { text: 'Error: Exceeded USD budget', exitCode: 1 };
  if (result['subtype'] === 'error_max_turns') {
    const n = /\((\d+)\)/.exec(String((result['errors'] as string[] | undefined)?.[0] ?? ''))?.[1];
    return { text: `Error: Reached max turns (${n ?? '?'})`, exitCode: 1 };
  }
  return {
    text: `Error: ${String((result['errors'] as string[] | undefined)?.[0] ?? result['end_reason'])}`,
    exitCode: 1,
  };
}

/**
 * The reference's num_turns: a user-side message each, the prompt, every tool_result (each its own
 * message there) and every follow-up; a message that carries only CLAUDE.md memory does not count.
 */
export function numTurns(messages: readonly Message[]): number {
  let n = 0;
  for (const m of messages) {
    if (m.role !== 'user') continue;
    if (typeof m.content === 'string') {
      if (splitMemoryReminder(m.content).prompt !== '') n++;
      continue;
    }
    const results = m.content.filter((b) => b.type === 'tool_result').length;
    n += results + (m.content.some((b) => b.type === 'text') && results === 0 ? 1 : 0);
  }
  return n;
}

/** The reference's result subtype for a session that did not succeed. */
function errorSubtype(status: string): string {
  if (status === 'max_turns') return 'error_max_turns';
  if (status === 'budget_exceeded') return 'error_max_budget_usd';
  return 'error_during_execution';
}
