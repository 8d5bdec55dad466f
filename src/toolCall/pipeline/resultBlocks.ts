// Pure constructors for the tool_result blocks the pipeline (and the workflow) produce.
import type { ToolResultBlockParam } from '../../core/apiMessages';

export const INTERRUPT_MESSAGE = 'Interrupted by user';
export const INTERRUPTED_TOOL_MESSAGE = `${INTERRUPT_MESSAGE}: the tool use was interrupted and did not complete.`;
export const REJECT_MESSAGE =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file).";

export function errorToolResult(toolUseId: string, text: string): ToolResultBlockParam {
  return { type: 'tool_result', tool_use_id: toolUseId, content: text, is_error: true };
}

/** For a tool use that was interrupted before or while it ran. */
export function interruptedToolResult(toolUseId: string, detail?: string): ToolResultBlockParam {
  return errorToolResult(toolUseId, detail ? `${INTERRUPTED_TOOL_MESSAGE} ${detail}` : INTERRUPTED_TOOL_MESSAGE);
}

/** For a tool use a human (or an approval timeout) rejected. */
export function rejectionToolResult(toolUseId: string, reason?: string): ToolResultBlockParam {
  const r = reason?.trim();
  return errorToolResult(toolUseId, r ? `${REJECT_MESSAGE} Reason: ${r}` : REJECT_MESSAGE);
}

export function noSuchToolResult(
  toolUseId: string,
  name: string,
  available: readonly string[] = [],
): ToolResultBlockParam {
  // The reference's text in its <tool_use_error> tags; the list of the session's tools is ours.
  const list = available.length ? `. Available tools: ${available.join(', ')}.` : '';
  return errorToolResult(toolUseId, `<tool_use_error>Error: No such tool available: ${name}${list}</tool_use_error>`);
}

/** `31842` → `31.1KB`, `900` → `900 bytes`, `2097152` → `2MB`. */
export function formatSize(n: number): string {
  if (n < 1024) return `${n} bytes`;
  const kb = n / 1024;
  if (kb < 1024) return `${kb.toFixed(1).replace(/\.0$/, '')}KB`;
  return `${(kb / 1024).toFixed(1).replace(/\.0$/, '')}MB`;
}

export const PREVIEW_CHARS = 2000;

/** The head of a large result shown in its <persisted-output> message: first ~2000 chars, cut at a line break when one is in the second half. */
export function persistedOutputPreview(text: string, max = PREVIEW_CHARS): { preview: string; hasMore: boolean } {
  if (text.length <= max) return { preview: text, hasMore: false };
  const head = text.slice(0, max);
  const nl = head.lastIndexOf('\n');
  return { preview: nl > max / 2 ? head.slice(0, nl) : head, hasMore: true };
}

export function persistedOutputMessage(location: string, text: string): string {
  const { preview, hasMore } = persistedOutputPreview(text);
  return (
    '<persisted-output>\n' +
    `Output too large (${formatSize(text.length)}). Full output saved to: ${location}\n\n` +
    `Preview (first ${formatSize(PREVIEW_CHARS)}):\n` +
    preview +
    (hasMore ? '\n...\n' : '\n') +
    '</persisted-output>'
  );
}

/** Appends text to a tool_result's content (string or text blocks), returning a new block. */
export function appendToToolResult(block: ToolResultBlockParam, text: string): ToolResultBlockParam {
  if (typeof block.content === 'string') {
    return { ...block, content: block.content ? `${block.content}\n\n${text}` : text };
  }
  return { ...block, content: [...block.content, { type: 'text', text }] };
}

export const MAX_ERROR_CHARS = 10_000;

/** Any thrown value as one message, cut at MAX_ERROR_CHARS. */
export function errMessage(e: unknown): string {
  let m: string;
  if (e instanceof Error) m = e.message || e.name;
  else if (typeof e === 'string') m = e;
  else {
    try {
      m = JSON.stringify(e) ?? String(e);
    } catch {
      m = String(e);
    }
  }
  return m.length > MAX_ERROR_CHARS ? `${m.slice(0, MAX_ERROR_CHARS)}… [truncated]` : m;
}

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** A tool_result block a tool's mapping may return: string content, or text, base64 image and tool_reference blocks. */
export function isValidBlock(b: unknown): b is ToolResultBlockParam {
  if (!b || typeof b !== 'object') return false;
  const c = (b as ToolResultBlockParam).content;
  if (typeof c === 'string') return true;
  return (
    Array.isArray(c) &&
    c.every(
      (x) =>
        !!x &&
        typeof x === 'object' &&
        ((x.type === 'text' && typeof x.text === 'string') ||
          (x.type === 'tool_reference' && typeof x.tool_name === 'string' && x.tool_name !== '') ||
          (x.type === 'image' &&
            x.source?.type === 'base64' &&
            IMAGE_TYPES.has(x.source.media_type) &&
            typeof x.source.data === 'string')),
    )
  );
}
