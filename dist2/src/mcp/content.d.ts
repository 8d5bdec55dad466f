import type { McpContent } from './manager';
import type { ToolResultImageContent } from '../engine/messages';
/** What an MCP call returns to the pipeline (and to PostToolUse hooks as tool_response). */
export interface McpToolOutput {
    /** The configured name of the server that answered (the reference names it in resource texts). */
    server?: string;
    content: McpContent[];
    isError?: boolean;
    structuredContent?: unknown;
}
type Block = {
    type: 'text';
    text: string;
} | ToolResultImageContent;
/** The largest image passed to the model (base64 characters; the Messages API takes up to 5 MB). */
export declare const MCP_IMAGE_MAX_CHARS: number;
/**
 * One content item as the reference gives it to the model (its words): text as is; an image as an
 * image block (see imageBlock); an embedded text resource as `[Resource from <server> at <uri>]
 * <text>`, an image resource as that prefix and the image; a resource link as `[Resource link:
 * <name>] <uri> (<description>)`; unknown types nothing. Audio and other binary data: the
 * reference saves them to a file on its machine; here a one-line notice with type and size.
 */
export declare function mcpContentBlocks(c: McpContent, server: string): Block[];
/**
 * What the model gets, and what PostToolUse hooks get as `tool_response`, in the reference's form:
 * with `structuredContent`, its JSON (after any non-text items); otherwise the items' blocks.
 */
export declare function mcpReferenceContent(data: McpToolOutput, server: string): string | Block[];
export {};
