// The model's view of a conversation. The full transcript stays in the store, append-only (the
// audit and `transcript` read it); what the model is sent is a pure function of it and a small
// carried `ContextView`: a compaction summary in place of everything before `fromIndex`, and old
// tool results (before `clearedBefore`) replaced by stubs that say where the result is stored.
// Pure and deterministic: bundled into workflows, used by the activities to shape requests.
import { estimateTokens } from './contextWindow';
import type { Message, ToolResultBlockParam, UserContentBlock, UserMessage } from './apiMessages';
import { toolResultText } from './apiMessages';

export interface ContextView {
  /** First message of the full transcript the model still sees (after a compaction). */
  fromIndex: number;
  /** Head of the stored summary message that replaces messages before `fromIndex` (null: none). */
  summaryHead: string | null;
  /** Tool results in messages before this index are sent as stubs. */
  clearedBefore: number;
  /** Tokens known to be in use for the view through the first `messages` messages of the full transcript. */
  baseline: { tokens: number; messages: number };
  /** Compactions so far in the session (the next one is `compact-<compactions + 1>`). */
  compactions: number;
}

export const INITIAL_VIEW: ContextView = {
  fromIndex: 0,
  summaryHead: null,
  clearedBefore: 0,
  baseline: { tokens: 0, messages: 0 },
  compactions: 0,
};

/** A result shorter than this stays: its stub would save nothing. */
export const MIN_CLEARABLE_CHARS = 600;

/** One compaction, as the session, `status`, `transcript` and the audit show it. */
export interface CompactionRecord {
  n: number;
  turn: number;
  trigger: 'auto' | 'reactive' | 'manual';
  tokensBefore: number;
  tokensAfter: number;
  /** Messages of the full transcript the summary replaced (`transcript` marks the boundary there). */
  summarizedThrough: number;
  /** Messages of the full transcript when it ran. */
  transcriptLength: number;
  summaryPreview: string;
  restoredFiles: string[];
  /** Set when a PreCompact hook ran: its outcome. */
  hook?: string;
}

function resultText(block: ToolResultBlockParam): string {
  return toolResultText(block);
}

export function clearedStub(toolUseId: string, toolName: string | undefined, location: string | undefined): string {
  const what = toolName ? `this ${toolName} call` : 'this call';
  const where = location ? ` It is stored at ${location}; read it with the Read tool if you need it again.` : '';
  return `[Old tool result content cleared to save context: the full result of ${what} (tool_use_id ${toolUseId}) is no longer shown.${where}]`;
}

/** tool_use_id → tool name, from the assistant messages. */
function toolNames(full: readonly Message[], from: number): Map<string, string> {
  const names = new Map<string, string>();
  for (let i = from; i < full.length; i++) {
    const m = full[i] as Message;
    if (m.role !== 'assistant') continue;
    for (const b of m.content) if (b.type === 'tool_use') names.set(b.id, b.name);
  }
  return names;
}

function isClearable(block: ToolResultBlockParam): boolean {
  return resultText(block).length >= MIN_CLEARABLE_CHARS;
}

/**
 * What the model is sent: the summary (if any), then the full transcript from `fromIndex`, with
 * tool results before `clearedBefore` replaced by stubs. `locate` names where a result is stored.
 */
export function buildModelView(
  full: readonly Message[],
  summary: readonly Message[],
  view: ContextView,
  locate: (toolUseId: string) => string | undefined = () => undefined,
): Message[] {
  const names = view.clearedBefore > view.fromIndex ? toolNames(full, view.fromIndex) : new Map<string, string>();
  const out: Message[] = [...summary];
  for (let i = Math.min(view.fromIndex, full.length); i < full.length; i++) {
    const m = full[i] as Message;
    if (i >= view.clearedBefore || m.role !== 'user' || typeof m.content === 'string') {
      out.push(m);
      continue;
    }
    const content: UserContentBlock[] = m.content.map((b) =>
      b.type === 'tool_result' && isClearable(b)
        ? { ...b, content: clearedStub(b.tool_use_id, names.get(b.tool_use_id), locate(b.tool_use_id)) }
        : b,
    );
    out.push({ role: 'user', content });
  }
  return out;
}

/**
 * Tokens in use if the view were sent now: the last response's count plus an estimate of the
 * messages added since; without a count (first call, old run), an estimate of everything.
 */
export function tokensInUse(
  full: readonly Message[],
  summary: readonly Message[],
  view: ContextView,
  fixedTokens: number,
): number {
  const b = view.baseline;
  if (b.tokens > 0 && b.messages <= full.length && b.messages >= view.fromIndex)
    return b.tokens + estimateTokens(full.slice(b.messages));
  return fixedTokens + estimateTokens(buildModelView(full, summary, view));
}

export interface ClearingPlan {
  clearedBefore: number;
  /** Estimated tokens the stubs save. */
  freed: number;
  /** Results newly cleared, oldest first (the activity stores each before it is stubbed). */
  toolUseIds: string[];
}

/**
 * Clearing old tool results (the reference's micro-compaction, the API's `clear_tool_uses`): once
 * `tokens` reaches `clearAt`, everything older than the `keep` most recent results becomes a stub —
 * in one step, so the cached prefix breaks once, not every turn — provided that frees at least
 * `minFree` tokens.
 */
export function planClearing(
  full: readonly Message[],
  view: ContextView,
  opts: { tokens: number; clearAt: number; keep: number; minFree: number },
): ClearingPlan | undefined {
  if (opts.tokens < opts.clearAt) return undefined;
  const results: Array<{ index: number; block: ToolResultBlockParam }> = [];
  for (let i = view.fromIndex; i < full.length; i++) {
    const m = full[i] as Message;
    if (m.role !== 'user' || typeof m.content === 'string') continue;
    for (const b of m.content) if (b.type === 'tool_result') results.push({ index: i, block: b });
  }
  if (results.length <= opts.keep) return undefined;
  // Whole messages: the message holding the keep-th most recent result and everything after stays.
  const cut = (results[results.length - Math.max(0, opts.keep) - 1] as { index: number }).index + 1;
  const start = Math.max(view.clearedBefore, view.fromIndex);
  if (cut <= start) return undefined;
  let freed = 0;
  const ids: string[] = [];
  for (const r of results) {
    if (r.index < start || r.index >= cut || !isClearable(r.block)) continue;
    freed +=
      estimateTokens(resultText(r.block)) - estimateTokens(clearedStub(r.block.tool_use_id, 'Read', '/'.repeat(60)));
    ids.push(r.block.tool_use_id);
  }
  if (ids.length === 0 || freed < opts.minFree) return undefined;
  return { clearedBefore: cut, freed, toolUseIds: ids };
}

/**
 * Where the kept recent messages start after a compaction: the oldest assistant message from which
 * the rest fits `budgetTokens` (so tool_use/tool_result pairs stay whole), and never so early that
 * nothing is summarised. `full.length` keeps nothing.
 */
export function chooseKeepFrom(full: readonly Message[], view: ContextView, budgetTokens: number): number {
  const assistants: number[] = [];
  for (let i = view.fromIndex; i < full.length; i++) if ((full[i] as Message).role === 'assistant') assistants.push(i);
  const sent = buildModelView(full, [], view);
  const offset = view.fromIndex;
  let start = full.length;
  let tokens = 0;
  // k >= 1: the view's first round is always summarised, so a compaction always makes progress.
  for (let k = assistants.length - 1; k >= 1; k--) {
    const i = assistants[k] as number;
    const end = k === assistants.length - 1 ? full.length : (assistants[k + 1] as number);
    tokens += estimateTokens(sent.slice(i - offset, end - offset));
    if (tokens > budgetTokens) break;
    start = i;
  }
  return start;
}

/** The files the model read most recently (Read calls, newest first, each once). */
export function recentReadPaths(full: readonly Message[], max: number): string[] {
  const paths: string[] = [];
  for (let i = full.length - 1; i >= 0 && paths.length < max; i--) {
    const m = full[i] as Message;
    if (m.role !== 'assistant') continue;
    for (let j = m.content.length - 1; j >= 0; j--) {
      const b = m.content[j];
      if (b?.type !== 'tool_use' || b.name !== 'Read') continue;
      const p = (b.input as { file_path?: unknown } | null)?.file_path;
      if (typeof p === 'string' && !paths.includes(p)) paths.push(p);
      if (paths.length >= max) break;
    }
  }
  return paths;
}

/** The text of the session's first user message: the task, which survives every compaction. */
export function originalTask(full: readonly Message[]): string {
  const first = full.find((m): m is UserMessage => m.role === 'user');
  if (!first) return '';
  if (typeof first.content === 'string') return first.content;
  return first.content
    .filter((b) => b.type === 'text')
    .map((b) => (b as { text: string }).text)
    .join('\n');
}

/** Budgets for what survives a compaction, scaled to the window (the reference's for 200k). */
export function survivalBudgets(effectiveWindow: number): {
  keepMessages: number;
  filesTotal: number;
  perFile: number;
  maxFiles: number;
  task: number;
} {
  const filesTotal = Math.min(50_000, Math.floor(effectiveWindow * 0.1));
  return {
    keepMessages: Math.min(20_000, Math.floor(effectiveWindow * 0.1)),
    filesTotal,
    perFile: Math.min(5_000, Math.floor(filesTotal / 5)),
    maxFiles: 5,
    task: Math.min(5_000, Math.floor(effectiveWindow * 0.05)),
  };
}

export function compactionPrompt(customInstructions?: string): string {
  const parts = [
    'Stop working on the task for a moment: the conversation is about to be compacted. Do NOT call any tools; answer with text only.',
    'Write a summary of the conversation so far that lets you continue the work without it. First think in <analysis> tags, then give the summary in <summary> tags with these sections:',
    '1. Primary request and intent (every explicit request of the user).',
    '2. Key technical concepts.',
    '3. Files and code: what was read, changed or created, and why it matters (short snippets where needed).',
    '4. Errors and how they were fixed.',
    '5. Problem solving done and under way.',
    '6. All user messages that are not tool results.',
    '7. Pending tasks.',
    '8. Current work: exactly what was being done just before this request.',
    '9. Next step, in line with the most recent request (quote it).',
  ];
  if (customInstructions && customInstructions.trim())
    parts.push(`Additional instructions:\n${customInstructions.trim()}`);
  return parts.join('\n');
}

/** The summary text without its <analysis> draft. */
export function formatSummary(raw: string): string {
  let text = raw.replace(/<analysis>[\s\S]*?<\/analysis>/i, '');
  const m = /<summary>([\s\S]*?)<\/summary>/i.exec(text);
  if (m) text = text.replace(m[0], `Summary:\n${(m[1] ?? '').trim()}`);
  return text.replace(/\n{3,}/g, '\n\n').trim();
}

function clip(text: string, maxTokens: number): string {
  const max = maxTokens * 4;
  return text.length > max ? `${text.slice(0, max)}\n[… truncated]` : text;
}

/** The message that opens the model's view after a compaction. */
export function summaryMessage(input: {
  task: string;
  summary: string;
  files: Array<{ path: string; content: string }>;
  keptRecent: boolean;
  taskBudget: number;
  perFileBudget: number;
}): UserMessage {
  const parts = [
    'This session is being continued from an earlier conversation that outgrew the context window. The full transcript is kept in the session store.',
    `The original task:\n${clip(input.task, input.taskBudget)}`,
    formatSummary(input.summary),
  ];
  for (const f of input.files)
    parts.push(`Recently read file ${f.path} (current content):\n${clip(f.content, input.perFileBudget)}`);
  if (input.keptRecent) parts.push('The most recent messages follow verbatim.');
  parts.push('Continue the work from where it left off, without asking the user further questions.');
  return { role: 'user', content: parts.join('\n\n') };
}

/**
 * When even the summarizing request is too long: drop the oldest rounds (a fifth at a time), so
 * the rest can be summarised. Starts with a user note; pairs stay whole. Undefined: nothing to drop.
 */
export function dropOldestRounds(messages: readonly Message[], fraction = 0.2): Message[] | undefined {
  const assistants = messages.flatMap((m, i) => (m.role === 'assistant' ? [i] : []));
  if (assistants.length < 2) return undefined;
  const drop = Math.min(assistants.length - 1, Math.max(1, Math.floor(assistants.length * fraction)));
  const from = assistants[drop] as number;
  return [{ role: 'user', content: '[earlier conversation truncated for compaction]' }, ...messages.slice(from)];
}

/** The summarizing request's messages: the view plus the instructions (merged into a trailing user message). */
export function withCompactionRequest(view: readonly Message[], prompt: string): Message[] {
  const last = view[view.length - 1];
  if (last?.role !== 'user') return [...view, { role: 'user', content: prompt }];
  const content: UserContentBlock[] =
    typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : [...last.content];
  return [...view.slice(0, -1), { role: 'user', content: [...content, { type: 'text', text: prompt }] }];
}
