import type { MessagesRequest, RequestContentBlock, RequestMessage } from './types';
export declare function lastMessage(request: MessagesRequest): RequestMessage | undefined;
/** The tool_result blocks of the last message (empty unless it answers tool calls). */
export declare function lastToolResults(request: MessagesRequest): RequestContentBlock[];
/** The plain text of the last user message (text blocks joined), or '' when there is none. */
export declare function lastUserText(request: MessagesRequest): string;
