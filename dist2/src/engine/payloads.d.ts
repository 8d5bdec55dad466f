import type { AssistantContentBlock, AssistantMessage, Message, ToolResultBlockParam, ToolUseBlock } from './messages';
import type { ToolCallRecord } from './records';
/** A tool input whose JSON is at most this long travels inline (once, in the model call's result). */
export declare const INLINE_INPUT_MAX_CHARS = 2000;
/** Characters of a stored tool result kept in a record's preview. */
export declare const RESULT_PREVIEW_CHARS = 1000;
/** Characters of assistant text / thinking kept in the model call's result. */
export declare const TEXT_PREVIEW_CHARS = 2000;
export declare const THINKING_PREVIEW_CHARS = 200;
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
export declare function isStoredInput(input: unknown): input is StoredInput;
export declare function isToolResultRef(block: unknown): block is ToolResultRef;
/** The input itself when small, else a preview of its JSON. */
export declare function inputForHistory(input: unknown): unknown;
/**
 * The assistant message as workflow history carries it: tool_use ids and names whole (the turn
 * schedules by them), inputs inline only when small, text and thinking as previews. The whole
 * message is in the transcript store; activities read tool inputs from there.
 */
export declare function messageForHistory(message: AssistantMessage): AssistantMessage;
export declare function contentForHistory(content: readonly AssistantContentBlock[]): AssistantContentBlock[];
/**
 * A record as a tool activity returns it once its result is stored under `ref`: the result's
 * content shortened to a preview, the input shortened like a model message's, no new messages.
 */
export declare function recordForHistory(record: ToolCallRecord, ref: string): ToolCallRecord;
/** An `ask` as history carries it: the message is shown to a human, a few lines at most. */
export declare function askMessageForHistory(message: string): string;
/** The tool_result blocks for the transcript: by reference when stored, inline when made by the turn. */
export declare function toolResultsByRef(records: readonly ToolCallRecord[]): ToolResultsByRef;
/** Resolves the references of `messages` with `load` (the store); plain messages pass through. */
export declare function resolveMessages(messages: readonly MessageByRef[], load: (ref: string) => Promise<ToolResultBlockParam>): Promise<Message[]>;
/** Finds a tool_use block by id in a stored message list (the model call's node). */
export declare function findToolUse(messages: readonly Message[], id: string): ToolUseBlock | undefined;
