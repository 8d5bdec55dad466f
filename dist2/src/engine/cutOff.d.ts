import type { AssistantMessage, ToolUseBlock } from './messages';
import { type ToolCallRecord } from './records';
/** The tool_use cut off by max_tokens: the message's last block, when it is a tool_use and the stop reason is max_tokens. */
export declare function cutOffToolUse(message: AssistantMessage, stopReason: string | null | undefined): ToolUseBlock | undefined;
export declare function cutOffMessage(block: ToolUseBlock): string;
export declare function cutOffRecord(block: ToolUseBlock, summary?: string): ToolCallRecord;
