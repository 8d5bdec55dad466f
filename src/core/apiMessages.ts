// Wire-level message shapes shared by every room. Pure data: safe inside the workflow sandbox.
// They mirror the Anthropic Messages API blocks we send and receive, kept minimal on purpose.

export interface TextBlock {
  type: 'text';
  text: string;
}

export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

/** Encrypted thinking: must be sent back unchanged with the rest of the assistant turn. */
export interface RedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

export type AssistantContentBlock = TextBlock | ToolUseBlock | ThinkingBlock | RedactedThinkingBlock;

export interface ToolResultTextContent {
  type: 'text';
  text: string;
}

/** An image in a tool result (MCP tools return them), as the Messages API takes it. */
export interface ToolResultImageContent {
  type: 'image';
  source: { type: 'base64'; media_type: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp'; data: string };
}

/**
 * A tool a ToolSearch result loads (deferred tools): the API expands it into the tool's definition,
 * which must be in the request's `tools` (docs/tools.md "Deferred tools and ToolSearch").
 */
export interface ToolReferenceContent {
  type: 'tool_reference';
  tool_name: string;
}

export interface ToolResultBlockParam {
  type: 'tool_result';
  tool_use_id: string;
  content: string | Array<ToolResultTextContent | ToolResultImageContent | ToolReferenceContent>;
  is_error?: boolean;
}

export type UserContentBlock = TextBlock | ToolResultBlockParam;

export interface UserMessage {
  role: 'user';
  content: string | UserContentBlock[];
}

export interface AssistantMessage {
  role: 'assistant';
  content: AssistantContentBlock[];
}

export type Message = UserMessage | AssistantMessage;

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

export type StopReason =
  | 'end_turn'
  | 'max_tokens'
  | 'stop_sequence'
  | 'tool_use'
  | 'pause_turn'
  | 'refusal'
  | 'model_context_window_exceeded'
  | string;

/** What the API says of a refusal (`stop_details` beside `stop_reason: "refusal"`); both fields may be null. */
export interface StopDetails {
  category: string | null;
  explanation: string | null;
}

/** Text of a tool_result's content, whatever its shape (images have none). */
export function toolResultText(block: ToolResultBlockParam): string {
  if (typeof block.content === 'string') return block.content;
  return block.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

/** A model message's text blocks, one per line: what a turn reports as its text (both schedulers). */
export function assistantText(message: Pick<AssistantMessage, 'content'> | undefined): string {
  if (!message) return '';
  return message.content
    .filter((b) => b.type === 'text')
    .map((b) => (b as { text: string }).text)
    .join('\n');
}

export function toolUseBlocksOf(message: AssistantMessage): ToolUseBlock[] {
  return message.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
}

/** A short one-line preview for history, queries and summaries: whitespace flattened, cut with an ellipsis. */
export function oneLinePreview(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
