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
import type { ModelUsage } from './modelUsage';
import type { ToolCallRecord } from './toolRecords';

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

/** A tool_result whose block lives in the store: resolved when it enters the transcript. */
export interface ToolResultRef {
  type: 'tool_result_ref';
  tool_use_id: string;
  ref: string;
}

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
  return typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'tool_result_ref';
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
export function recordWithoutSentBlock(record: ToolCallRecord, sent: ToolUseBlock): ToolCallRecord {
  if (record.toolUseId !== sent.id) return record;
  const sameInput = JSON.stringify(record.input) === JSON.stringify(sent.input);
  const { input: _input, toolUseId: _id, toolName: _name, summary: _summary, ...rest } = record;
  const out = {
    ...rest,
    ...(sameInput ? {} : { input: record.input }),
    ...(record.toolName === sent.name ? {} : { toolName: record.toolName }),
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
export function withSentBlock(record: ToolCallRecord, sent: ToolUseBlock, summary: string): ToolCallRecord {
  if (record.input !== undefined && record.result.tool_use_id !== undefined && record.toolUseId !== undefined)
    return record;
  const slim: Partial<ToolCallRecord> = record;
  const { toolUseId = sent.id, toolName = sent.name, input = sent.input, summary: own = summary, ...rest } = slim;
  const result: Partial<ToolResultBlockParam> = record.result;
  const { type = 'tool_result', tool_use_id = toolUseId, ...content } = result;
  return {
    toolUseId,
    toolName,
    input,
    summary: own,
    ...rest,
    result: { type, tool_use_id, ...content },
  } as ToolCallRecord;
}

/** The fields of a model call's answer that history may leave out (`modelAnswerForHistory`). */
interface LeanAnswerFields {
  usage?: Usage;
  modelUsage?: ModelUsage;
  fallback?: boolean;
  tombstones?: unknown[];
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

/**
 * A model call's answer as history carries it (issue 33): without `usage` when it is exactly its
 * `modelUsage` entry's tokens (one request, every field reported), without `fallback: false` and
 * `tombstones: []`. `modelAnswerFromHistory` (the turn, the audit) puts them back.
 */
export function modelAnswerForHistory<T extends LeanAnswerFields>(answer: T): T {
  const { usage, fallback, tombstones, ...rest } = answer;
  const derived = usageOfModelUsage(answer.modelUsage);
  return {
    ...rest,
    ...(derived && JSON.stringify(derived) === JSON.stringify(usage) ? {} : { usage }),
    ...(fallback === false ? {} : { fallback }),
    ...(Array.isArray(tombstones) && tombstones.length === 0 ? {} : { tombstones }),
  } as T;
}

/** The answer whole again; one recorded whole passes through. */
export function modelAnswerFromHistory<T extends LeanAnswerFields>(answer: T): T {
  if (answer.usage !== undefined && answer.fallback !== undefined && answer.tombstones !== undefined) return answer;
  return {
    ...answer,
    usage: answer.usage ?? usageOfModelUsage(answer.modelUsage),
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
    content: records.map((r) =>
      r.resultRef ? { type: 'tool_result_ref', tool_use_id: r.toolUseId, ref: r.resultRef } : r.result,
    ),
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
      if (block.tool_use_id !== b.tool_use_id)
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
