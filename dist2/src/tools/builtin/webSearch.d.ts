import { z } from 'zod';
import { type SideModelResponse } from '../Tool';
/** The reference's cap on searches per call. */
export declare const WEB_SEARCH_MAX_USES = 8;
declare const inputSchema: z.ZodObject<{
    query: z.ZodString;
    allowed_domains: z.ZodOptional<z.ZodArray<z.ZodString>>;
    blocked_domains: z.ZodOptional<z.ZodArray<z.ZodString>>;
}, z.core.$strict>;
export type WebSearchInput = z.infer<typeof inputSchema>;
export interface WebSearchHits {
    tool_use_id: string;
    content: Array<{
        title: string;
        url: string;
    }>;
}
export interface WebSearchOutput {
    query: string;
    /** The model's text between searches, and each search's hits, in order. */
    results: Array<WebSearchHits | string>;
    durationSeconds: number;
    searchCount: number;
}
/** The response's blocks as the result: text between searches, and each search's hits (or its error). */
export declare function searchResults(query: string, content: SideModelResponse['content'], seconds: number): WebSearchOutput;
export declare const WebSearchTool: import("../Tool").Tool<{
    query: string;
    allowed_domains?: string[] | undefined;
    blocked_domains?: string[] | undefined;
}, WebSearchOutput>;
export {};
