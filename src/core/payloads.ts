// Payloads by reference (invariant 11): what workflow history carries instead of tool inputs,
// tool results and model output. The full data lives in the store; history gets hashes and
// previews small enough that no event nears Temporal's payload limits, whatever the tools
// return. Pure: bundled into workflows and used by activities and the in-process runner alike.
import type {
  AssistantContentBlock,
  AssistantMessage,
  Message,
  ToolResultBlockParam,
  ToolUseBlock,
  UserContentBlock,
} from './apiMessages';
import type { Usage } from './apiMessages';
import { oneLinePreview, toolResultText } from './apiMessages';
import type { ModelUsage, ModelUsageEntry } from './modelUsage';
import type { ContextView } from './contextView';
import type { ToolUseDescription } from './toolCall';
import type { DecisionRecord, ToolCallRecord } from './toolRecords';

/** A tool input whose JSON is at most this long travels inline (once, in the model call's result). */
export const INLINE_INPUT_MAX_CHARS = 2000;
/**
 * Characters of a stored tool result kept in a record's preview, on one line: what the audit shows
 * of a result (`audit/history.ts` preview, 200 characters, whitespace folded) and the turn's
 * compact record (`oneLinePreview`, the same rule) — so one `oneLinePreview` of the result is
 * exactly what both show (issue 33: it was 1,000 characters, of which the audit showed 200).
 */
export const RESULT_PREVIEW_CHARS = 200;
/** Characters of a decision's reason/detail and of an `ask` message kept in history (shown to a human whole). */
export const DECISION_TEXT_CHARS = 1000;
/** Characters of assistant text / thinking kept in the model call's result. */
export const TEXT_PREVIEW_CHARS = 2000;
export const THINKING_PREVIEW_CHARS = 200;

/** In place of a tool input that lives in the store (inside the stored assistant message). */
export interface StoredInput {
  stored: 'tool_use.input';
  /** Length of the input's JSON. */
  chars: number;
  /** The start of the input's JSON. */
  preview: string;
}

/**
 * A tool_result whose block lives in the store: resolved when it enters the transcript. The turn
 * sends `{ ref }` alone (issue 33): the stored block names its tool_use; a ref recorded with its
 * type and tool_use_id is checked against it.
 */
export type ToolResultRef = { type: 'tool_result_ref'; tool_use_id: string; ref: string } | { ref: string };

/** The answer to an assistant message, with stored results by reference. */
export interface ToolResultsByRef {
  role: 'user';
  content: Array<ToolResultBlockParam | ToolResultRef>;
}

/** What an append to the transcript takes: messages, or tool results by reference. */
export type MessageByRef = Message | ToolResultsByRef;

export function isStoredInput(input: unknown): input is StoredInput {
  return typeof input === 'object' && input !== null && (input as { stored?: unknown }).stored === 'tool_use.input';
}

export function isToolResultRef(block: unknown): block is ToolResultRef {
  if (typeof block !== 'object' || block === null) return false;
  const b = block as { type?: unknown; ref?: unknown };
  return b.type === 'tool_result_ref' || (b.type === undefined && typeof b.ref === 'string');
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The input itself when small, else a preview of its JSON. */
export function inputForHistory(input: unknown): unknown {
  if (isStoredInput(input)) return input;
  let json: string;
  try {
    json = JSON.stringify(input) ?? 'undefined';
  } catch {
    json = String(input);
  }
  if (json.length <= INLINE_INPUT_MAX_CHARS) return input;
  return { stored: 'tool_use.input', chars: json.length, preview: clip(json, 300) } satisfies StoredInput;
}

function blockForHistory(b: AssistantContentBlock): AssistantContentBlock {
  switch (b.type) {
    case 'text':
      return { type: 'text', text: clip(b.text, TEXT_PREVIEW_CHARS) };
    case 'tool_use':
      return { type: 'tool_use', id: b.id, name: b.name, input: inputForHistory(b.input) };
    case 'thinking':
      return { type: 'thinking', thinking: clip(b.thinking, THINKING_PREVIEW_CHARS), signature: '' };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: '' };
    default:
      return b;
  }
}

/**
 * The assistant message as workflow history carries it: tool_use ids and names whole (the turn
 * schedules by them), inputs inline only when small, text and thinking as previews. The whole
 * message is in the transcript store; activities read tool inputs from there.
 */
export function messageForHistory(message: AssistantMessage): AssistantMessage {
  return { role: 'assistant', content: message.content.map(blockForHistory) };
}

export function contentForHistory(content: readonly AssistantContentBlock[]): AssistantContentBlock[] {
  return content.map(blockForHistory);
}

/**
 * A record as a tool activity returns it once its result is stored under `ref`: the result's
 * content as a one-line preview (what the audit and the turn's compact record show), the input
 * shortened like a model message's, no new messages.
 */
export function recordForHistory(record: ToolCallRecord, ref: string): ToolCallRecord {
  const text = toolResultText(record.result);
  const { newMessages: _dropped, ...rest } = record;
  const decision = record.decision
    ? {
        ...record.decision,
        ...(record.decision.reason !== undefined ? { reason: clip(record.decision.reason, DECISION_TEXT_CHARS) } : {}),
        ...(record.decision.detail !== undefined ? { detail: clip(record.decision.detail, DECISION_TEXT_CHARS) } : {}),
      }
    : undefined;
  return {
    ...rest,
    ...(decision ? { decision } : {}),
    input: inputForHistory(record.input),
    result: { ...record.result, content: oneLinePreview(text, RESULT_PREVIEW_CHARS) },
    resultRef: ref,
    resultChars: text.length,
  };
}

/**
 * A tool activity's record as history carries it (issue 33): without what the turn sent it or
 * described it with — the input when it is the input of the block the turn sent (the turn's history
 * holds that already, and the audit reads it there), the block's id and tool name, the summary (the
 * description's, which the turn has and the activity's scheduled event shows as its summary: the
 * audit reads it there) — and a stored result's preview without its type and tool_use_id.
 * `withSentBlock` puts them back.
 */
export function recordWithoutSentBlock(record: ToolCallRecord, sent: ToolUseBlock, mode?: string): ToolCallRecord {
  if (record.toolUseId !== sent.id) return record;
  const sameInput = JSON.stringify(record.input) === JSON.stringify(sent.input);
  const { input: _input, toolUseId: _id, toolName: _name, summary: _summary, attempts, decision, ...rest } = record;
  const path = filePathOf(sent);
  const out = {
    ...rest,
    ...(decision ? { decision: decisionForHistory(decision, mode) } : {}),
    ...(sameInput ? {} : { input: record.input }),
    ...(record.toolName === sent.name ? {} : { toolName: record.toolName }),
    // One attempt, and a file read's path when it is the block's `file_path` and `partial: false`: put back by withSentBlock.
    ...(attempts === 1 || attempts === undefined ? {} : { attempts }),
    contextModifiers: record.contextModifiers.map((m) => {
      if (m.type !== 'fileRead' && m.type !== 'fileWritten') return m;
      const { path: p, ...lean } = m;
      const kept = p === path ? lean : m;
      if (kept.type !== 'fileRead' || kept.partial !== false) return kept;
      const { partial: _whole, ...leaner } = kept;
      return leaner;
    }) as ToolCallRecord['contextModifiers'],
  } as ToolCallRecord;
  if (!record.resultRef || record.result.tool_use_id !== record.toolUseId || record.result.type !== 'tool_result')
    return out;
  const { tool_use_id: _resultId, type: _type, ...result } = record.result;
  return { ...out, result: result as ToolResultBlockParam };
}

/**
 * The record whole again in the turn: the block's id, name and input, the description's summary,
 * the result's type and tool_use_id. A record recorded before (whole) passes through.
 */
export function withSentBlock(
  record: ToolCallRecord,
  sent: ToolUseBlock,
  summary: string,
  mode?: string,
): ToolCallRecord {
  if (record.input !== undefined && record.result.tool_use_id !== undefined && record.toolUseId !== undefined)
    return record;
  const slim: Partial<ToolCallRecord> = record;
  const {
    toolUseId = sent.id,
    toolName = sent.name,
    input = sent.input,
    summary: own = summary,
    decision,
    ...rest
  } = slim;
  const result: Partial<ToolResultBlockParam> = record.result;
  const { type = 'tool_result', tool_use_id = toolUseId, ...content } = result;
  const path = filePathOf(sent);
  return {
    toolUseId,
    toolName,
    input,
    summary: own,
    ...rest,
    ...(decision ? { decision: decisionFromHistory(decision, mode) } : {}),
    attempts: record.attempts ?? 1,
    contextModifiers: (record.contextModifiers ?? []).map((m) => {
      if (m.type !== 'fileRead' && m.type !== 'fileWritten') return m;
      const partial = m.type === 'fileRead' ? { partial: m.partial ?? false } : {};
      return { ...m, path: m.path ?? path, ...partial };
    }),
    result: { type, tool_use_id, ...content },
  } as ToolCallRecord;
}

/**
 * A permission decision as a tool record in history carries it (issue 33): a decision by the
 * session's permission mode (`mode`, the tool session's; the turn's input has the same) without
 * naming that mode. `decisionFromHistory` (the turn, the audit) puts it back.
 */
export function decisionForHistory(d: DecisionRecord, mode: string | undefined): DecisionRecord {
  if (mode === undefined || d.source !== 'mode' || d.detail !== mode) return d;
  const { detail: _mode, ...rest } = d;
  return rest;
}

/** The decision whole again; one recorded whole (every decision by mode named it before issue 33) passes through. */
export function decisionFromHistory(d: DecisionRecord, mode: string | undefined): DecisionRecord {
  return d.source === 'mode' && d.detail === undefined && mode !== undefined ? { ...d, detail: mode } : d;
}

/** The block's `file_path` input (Read, Write, Edit), if it has one. */
function filePathOf(block: ToolUseBlock): string | undefined {
  const input = block.input as { file_path?: unknown } | null;
  return typeof input === 'object' && input !== null && typeof input.file_path === 'string'
    ? input.file_path
    : undefined;
}

/** The fields of a model call's answer that history may leave out (`modelAnswerForHistory`). */
interface LeanAnswerFields {
  usage?: Usage;
  modelUsage?: ModelUsage;
  fallback?: boolean;
  tombstones?: unknown[];
  view?: ContextView;
  descriptions?: ToolUseDescription[];
  message?: unknown;
}

/** The usage that a one-model `modelUsage` entry was made from, when the API reported every field. */
function usageOfModelUsage(modelUsage: ModelUsage | undefined): Usage | undefined {
  const entries = Object.values(modelUsage ?? {});
  const e = entries[0];
  if (entries.length !== 1 || !e) return undefined;
  return {
    input_tokens: e.inputTokens,
    output_tokens: e.outputTokens,
    cache_creation_input_tokens: e.cacheCreationInputTokens,
    cache_read_input_tokens: e.cacheReadInputTokens,
  };
}

/** What a field left out of history stood for (issue 33): a one-call entry's zeros, null cost and one call. */
const USAGE_ENTRY_DEFAULTS: ModelUsageEntry = {
  inputTokens: 0,
  outputTokens: 0,
  cacheReadInputTokens: 0,
  cacheCreationInputTokens: 0,
  webSearchRequests: 0,
  costUSD: null,
  calls: 1,
};
/** A view's fields at their start values (a session before any compaction or clearing). */
const VIEW_DEFAULTS: Omit<ContextView, 'baseline'> = {
  fromIndex: 0,
  summaryHead: null,
  clearedBefore: 0,
  compactions: 0,
};
/** A description's flags are left out when true (most tools' blocks: known, safe, read-only, idempotent). */
const DESCRIPTION_DEFAULTS = { known: true, concurrencySafe: true, readOnly: true, idempotent: true } as const;

function withoutDefaults<T extends object>(value: T, defaults: object): Partial<T> {
  const out: Record<string, unknown> = {};
  const d = defaults as Record<string, unknown>;
  for (const [k, v] of Object.entries(value)) if (!(k in d) || d[k] !== v) out[k] = v;
  return out as Partial<T>;
}

/** Puts back the fields `withoutDefaults` left out; a value recorded whole passes through. */
function withDefaults<T extends object>(value: Partial<T>, defaults: object): T {
  return Object.keys(defaults).every((k) => k in value) ? (value as T) : ({ ...defaults, ...value } as T);
}

/** A context view as history carries it (issue 33): without the fields still at their start values. */
export function viewForHistory(view: ContextView): ContextView {
  return withoutDefaults(view, VIEW_DEFAULTS) as ContextView;
}

/** The view whole again; one recorded whole passes through. */
export function viewFromHistory(view: ContextView): ContextView {
  return withDefaults(view, VIEW_DEFAULTS);
}

/** A tool_use block's description as history carries it (issue 33): its flags left out when true. */
export function descriptionForHistory(d: ToolUseDescription): ToolUseDescription {
  return withoutDefaults(d, DESCRIPTION_DEFAULTS) as ToolUseDescription;
}

/** The description whole again; one recorded whole passes through. */
export function descriptionFromHistory(d: ToolUseDescription): ToolUseDescription {
  return withDefaults(d, DESCRIPTION_DEFAULTS);
}

function modelUsageForHistory(m: ModelUsage): ModelUsage {
  return Object.fromEntries(
    Object.entries(m).map(([k, e]) => [k, withoutDefaults(e, USAGE_ENTRY_DEFAULTS)]),
  ) as ModelUsage;
}

function modelUsageFromHistory(m: ModelUsage): ModelUsage {
  return Object.fromEntries(Object.entries(m).map(([k, e]) => [k, withDefaults(e, USAGE_ENTRY_DEFAULTS)]));
}

/**
 * A model call's answer as history carries it (issue 33): without `usage` when it is exactly its
 * `modelUsage` entry's tokens (one request, every field reported), without `fallback: false` and
 * `tombstones: []`, its `modelUsage` entries, view and descriptions without the fields at their
 * usual values. `modelAnswerFromHistory` (the turn, the audit) puts them back.
 */
export function modelAnswerForHistory<T extends LeanAnswerFields>(answer: T): T {
  const { usage, fallback, tombstones, modelUsage, view, descriptions, ...kept } = answer;
  // Read by nobody from history: the request's cache breakpoints, and the node the answer follows
  // (its node's parent in the store).
  const {
    cacheBreakpoints: _cb,
    sentHead: _sent,
    ...rest
  } = kept as T & { cacheBreakpoints?: unknown; sentHead?: unknown };
  const derived = usageOfModelUsage(modelUsage);
  const ids = toolUseIdsOf(answer);
  // Descriptions of every tool_use block, in block order (none handed over while streaming): by position.
  const positional = descriptions?.length === ids.length && descriptions.every((d, i) => d.toolUseId === ids[i]);
  return {
    ...rest,
    ...(modelUsage ? { modelUsage: modelUsageForHistory(modelUsage) } : {}),
    ...(view ? { view: viewForHistory(view) } : {}),
    ...(descriptions
      ? {
          descriptions: descriptions.map((d) => {
            const { toolUseId, ...lean } = descriptionForHistory(d);
            return positional ? lean : { ...lean, toolUseId };
          }),
        }
      : {}),
    ...(derived && JSON.stringify(derived) === JSON.stringify(usage) ? {} : { usage }),
    ...(fallback === false ? {} : { fallback }),
    ...(Array.isArray(tombstones) && tombstones.length === 0 ? {} : { tombstones }),
  } as T;
}

/** The tool_use ids of an answer's message, in block order. */
function toolUseIdsOf(answer: { message?: unknown }): string[] {
  const content = (answer.message as { content?: unknown } | undefined)?.content;
  return Array.isArray(content)
    ? content.flatMap((b: { type?: unknown; id?: unknown }) =>
        b.type === 'tool_use' && typeof b.id === 'string' ? [b.id] : [],
      )
    : [];
}

/** The answer whole again; one recorded whole passes through. */
export function modelAnswerFromHistory<T extends LeanAnswerFields>(answer: T): T {
  const whole = (value: object, defaults: object): boolean => Object.keys(defaults).every((k) => k in value);
  if (
    answer.usage !== undefined &&
    answer.fallback !== undefined &&
    answer.tombstones !== undefined &&
    (!answer.view || whole(answer.view, VIEW_DEFAULTS)) &&
    Object.values(answer.modelUsage ?? {}).every((e) => whole(e, USAGE_ENTRY_DEFAULTS)) &&
    (answer.descriptions ?? []).every((d) => d.toolUseId !== undefined && whole(d, DESCRIPTION_DEFAULTS))
  )
    return answer;
  const modelUsage = answer.modelUsage ? modelUsageFromHistory(answer.modelUsage) : undefined;
  return {
    ...answer,
    ...(modelUsage ? { modelUsage } : {}),
    ...(answer.view ? { view: viewFromHistory(answer.view) } : {}),
    ...(answer.descriptions
      ? {
          descriptions: answer.descriptions.map((d, i) =>
            descriptionFromHistory(d.toolUseId === undefined ? { ...d, toolUseId: toolUseIdsOf(answer)[i] } : d),
          ),
        }
      : {}),
    usage: answer.usage ?? usageOfModelUsage(modelUsage),
    fallback: answer.fallback ?? false,
    tombstones: answer.tombstones ?? [],
  };
}

/** An `ask` as history carries it: the message is shown to a human, a few lines at most. */
export function askMessageForHistory(message: string): string {
  return clip(message, DECISION_TEXT_CHARS);
}

/** The tool_result blocks for the transcript: by reference when stored, inline when made by the turn. */
export function toolResultsByRef(records: readonly ToolCallRecord[]): ToolResultsByRef {
  return {
    role: 'user',
    content: records.map((r) => (r.resultRef ? { ref: r.resultRef } : r.result)),
  };
}

/** Resolves the references of `messages` with `load` (the store); plain messages pass through. */
export async function resolveMessages(
  messages: readonly MessageByRef[],
  load: (ref: string) => Promise<ToolResultBlockParam>,
): Promise<Message[]> {
  const out: Message[] = [];
  for (const m of messages) {
    if (m.role !== 'user' || typeof m.content === 'string' || !m.content.some(isToolResultRef)) {
      out.push(m as Message);
      continue;
    }
    const content: UserContentBlock[] = [];
    for (const b of m.content) {
      if (!isToolResultRef(b)) {
        content.push(b);
        continue;
      }
      const block = await load(b.ref);
      if ('tool_use_id' in b && block.tool_use_id !== b.tool_use_id)
        throw new Error(`stored tool result ${b.ref} answers ${block.tool_use_id}, not ${b.tool_use_id}`);
      content.push(block);
    }
    out.push({ role: 'user', content });
  }
  return out;
}

/** Finds a tool_use block by id in a stored message list (the model call's node). */
export function findToolUse(messages: readonly Message[], id: string): ToolUseBlock | undefined {
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    for (const b of m.content) if (b.type === 'tool_use' && b.id === id) return b;
  }
  return undefined;
}

/** What a turn's result holds of its tool calls (the compact records and the batches that ran them). */
interface CallsOfResult {
  records: Array<{ toolUseId: string; status: string }>;
  batches: Array<{ toolUseIds: string[] }>;
  /** The records of calls that ended `ok` with nothing else to say are left out: a batch's id without one is such a call. */
  plainOk?: true;
}

const isPlainOk = (r: object): boolean =>
  Object.keys(r).length === 2 && (r as { status?: unknown }).status === 'ok' && 'toolUseId' in r;

/**
 * A turn's result as history carries it twice — the child's completion and the session's (issue
 * 33): without the records that say only "`ok`" of a call its batches list.
 * `turnResultFromHistory` (the session, the audit) puts them back, in batch order.
 */
export function turnResultForHistory<T extends CallsOfResult>(result: T): T {
  const batched = new Set(result.batches.flatMap((b) => b.toolUseIds));
  const records = result.records.filter((r) => !(isPlainOk(r) && batched.has(r.toolUseId)));
  return records.length === result.records.length ? result : { ...result, records, plainOk: true };
}

/** The result whole again (its records in batch order, then those of calls no batch lists); one recorded whole passes through. */
export function turnResultFromHistory<T extends CallsOfResult>(result: T): T {
  if (!result.plainOk) return result;
  const { plainOk: _lean, ...rest } = result;
  const byId = new Map(result.records.map((r) => [r.toolUseId, r] as const));
  const batched = result.batches.flatMap((b) => b.toolUseIds);
  const listed = new Set(batched);
  return {
    ...rest,
    records: [
      ...batched.map((id) => byId.get(id) ?? { toolUseId: id, status: 'ok' }),
      ...result.records.filter((r) => !listed.has(r.toolUseId)),
    ],
  } as T;
}
