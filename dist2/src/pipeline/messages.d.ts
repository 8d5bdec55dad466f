import type { ToolResultBlockParam } from '../engine/messages';
export declare const INTERRUPT_MESSAGE = "Interrupted by user";
export declare const INTERRUPTED_TOOL_MESSAGE = "Interrupted by user: the tool use was interrupted and did not complete.";
export declare const REJECT_MESSAGE = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file).";
export declare function errorToolResult(toolUseId: string, text: string): ToolResultBlockParam;
/** For a tool use that was interrupted before or while it ran. */
export declare function interruptedToolResult(toolUseId: string, detail?: string): ToolResultBlockParam;
/** For a tool use a human (or an approval timeout) rejected. */
export declare function rejectionToolResult(toolUseId: string, reason?: string): ToolResultBlockParam;
export declare function noSuchToolResult(toolUseId: string, name: string, available?: readonly string[]): ToolResultBlockParam;
/** `31842` → `31.1KB`, `900` → `900 bytes`, `2097152` → `2MB`. */
export declare function formatSize(n: number): string;
export declare const PREVIEW_CHARS = 2000;
/** The head of a large result shown in its <persisted-output> message: first ~2000 chars, cut at a line break when one is in the second half. */
export declare function persistedOutputPreview(text: string, max?: number): {
    preview: string;
    hasMore: boolean;
};
export declare function persistedOutputMessage(location: string, text: string): string;
/** Appends text to a tool_result's content (string or text blocks), returning a new block. */
export declare function appendToToolResult(block: ToolResultBlockParam, text: string): ToolResultBlockParam;
export declare const MAX_ERROR_CHARS = 10000;
/** Any thrown value as one message, cut at MAX_ERROR_CHARS. */
export declare function errMessage(e: unknown): string;
/** A tool_result block a tool's mapping may return: string content, or text, base64 image and tool_reference blocks. */
export declare function isValidBlock(b: unknown): b is ToolResultBlockParam;
