// What a scheduler asks about a tool_use before running it (concurrency safety, read-only,
// idempotent, a one-line summary) — the describeToolUses activity and the in-process runner.
import type { ToolUseBlock } from '../../core/apiMessages';
import type { ToolUseDescription } from '../../core/turn';
import type { AnyTool } from '../../toolProtocol/Tool';
import { findToolByName, type ToolPool } from '../../toolProtocol/pool';

export type { ToolUseDescription };

const MAX_SUMMARY_CHARS = 300;

/**
 * What the scheduler needs to know about a tool_use before running it. Unknown tool, input the
 * schema rejects, or a predicate that throws → not concurrency-safe, not idempotent (runs alone,
 * is not blindly retried). Never throws.
 */
export function describeToolUse(block: ToolUseBlock, pool: ToolPool): ToolUseDescription {
  const name = typeof block?.name === 'string' ? block.name : String(block?.name);
  const unsafe = (known: boolean, summary: string): ToolUseDescription => ({
    known,
    concurrencySafe: false,
    readOnly: false,
    idempotent: false,
    summary,
  });
  let tool: AnyTool | undefined;
  try {
    tool = findToolByName(pool, name);
  } catch {
    tool = undefined;
  }
  if (!tool) return unsafe(false, `${name} (unknown tool)`);
  let data: unknown;
  try {
    const parsed = tool.inputSchema.safeParse(block.input);
    if (!parsed.success) return unsafe(true, `${tool.name} (invalid input)`);
    data = parsed.data;
  } catch {
    return unsafe(true, `${tool.name} (invalid input)`);
  }
  const pred = (fn: () => boolean): boolean | undefined => {
    try {
      return fn() === true;
    } catch {
      return undefined;
    }
  };
  let summary: string;
  try {
    const s = tool.summary(data);
    // The summary names the call in the UI and in history: a line, never the whole input.
    summary =
      typeof s === 'string' ? (s.length > MAX_SUMMARY_CHARS ? `${s.slice(0, MAX_SUMMARY_CHARS - 1)}…` : s) : tool.name;
  } catch {
    summary = tool.name;
  }
  const concurrencySafe = pred(() => tool!.isConcurrencySafe(data));
  const readOnly = pred(() => tool!.isReadOnly(data));
  const idempotent = pred(() => tool!.isIdempotent(data));
  if (concurrencySafe === undefined || readOnly === undefined || idempotent === undefined) {
    return { known: true, concurrencySafe: false, readOnly: readOnly ?? false, idempotent: false, summary };
  }
  return { known: true, concurrencySafe, readOnly, idempotent, summary };
}
