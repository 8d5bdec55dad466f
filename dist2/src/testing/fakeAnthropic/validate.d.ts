import type { MessagesRequest, RequestMessage } from './types';
export type Validation = {
    ok: true;
    request: MessagesRequest;
} | {
    ok: false;
    message: string;
};
/** Shape checks on a parsed `POST /v1/messages` body (field errors worded like the API's). */
export declare function validateMessagesRequest(body: unknown, opts: {
    toolPairing: boolean;
    systemMessages?: boolean;
}): Validation;
/**
 * Protocol completeness as the API enforces it: every tool_use in an assistant message is answered
 * by exactly one tool_result with its id in the very next (user) message, no tool_result answers a
 * tool_use that was not in the previous message, and tool_use ids are unique.
 * Returns the API's error message, or undefined when the conversation is well-formed.
 */
export declare function checkToolPairing(messages: readonly RequestMessage[]): string | undefined;
/**
 * Deferred tools as the API checks them: `defer_loading` is a boolean; a `tool_reference` block (only
 * inside a tool_result's content) names a tool of this request's `tools` with a non-empty name.
 */
export declare function checkDeferredTools(request: MessagesRequest): string | undefined;
