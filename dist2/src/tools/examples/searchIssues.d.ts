import { z } from 'zod';
import { type Tool } from '../Tool';
export interface SearchIssuesOptions {
    /** API root; the tool calls GET {baseUrl}/issues/search. Never shown to the model. */
    baseUrl: string;
    /** Bearer token. Never shown to the model, never put in results or errors. */
    token: string;
    /** Injected fetch (tests, proxies); defaults to the global fetch. */
    fetch?: typeof fetch;
    /** Tool name (default "SearchIssues"). */
    name?: string;
}
export declare const SEARCH_ISSUES_MAX_BODY_CHARS = 300;
declare const inputSchema: z.ZodObject<{
    query: z.ZodString;
    state: z.ZodOptional<z.ZodEnum<{
        open: "open";
        closed: "closed";
        all: "all";
    }>>;
    limit: z.ZodOptional<z.ZodNumber>;
}, z.core.$strict>;
export type SearchIssuesInput = z.infer<typeof inputSchema>;
export interface IssueSummary {
    number: number;
    title: string;
    state: string;
    url: string;
    /** The start of the description, cut at SEARCH_ISSUES_MAX_BODY_CHARS. */
    excerpt?: string;
}
export interface SearchIssuesOutput {
    query: string;
    state: 'open' | 'closed' | 'all';
    issues: IssueSummary[];
    /** The API says more issues match than were returned. */
    hasMore: boolean;
}
export declare function createSearchIssuesTool(options: SearchIssuesOptions): Tool<SearchIssuesInput, SearchIssuesOutput>;
export {};
