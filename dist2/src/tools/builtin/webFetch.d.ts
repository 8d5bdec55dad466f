import { z } from 'zod';
import { type ToolUseContext } from '../Tool';
export declare const WEB_FETCH_MAX_URL_CHARS = 2000;
/** How much page text one call reads (from `offset`): the reference's 100,000 characters. */
export declare const WEB_FETCH_READ_CHARS = 100000;
declare const inputSchema: z.ZodObject<{
    url: z.ZodString;
    prompt: z.ZodString;
    offset: z.ZodOptional<z.ZodNumber>;
}, z.core.$strict>;
export type WebFetchInput = z.infer<typeof inputSchema>;
export interface WebFetchOutput {
    bytes: number;
    code: number;
    codeText: string;
    result: string;
    durationMs: number;
    url: string;
}
/**
 * The URL as fetched: http upgraded to https, as the reference — except for a loopback or private
 * address literal that an allow rule names (a local server the user allowed by name rarely has TLS).
 */
export declare function upgradedUrl(url: string, rules?: Rules): string;
type Rules = ToolUseContext['permission']['rules'];
/** Does an allow rule name this exact host? (the only way to a loopback or private address) */
export declare function hostNamedByAllowRule(rules: Rules | undefined, host: string): boolean;
/** Why the session's sandbox network settings forbid the host, if they do. */
export declare function sandboxForbids(ctx: Pick<ToolUseContext, 'permission'>, host: string): string | undefined;
/** The request the small model gets: the page text (one window of it), then the prompt. */
export declare function answerRequest(page: string, prompt: string, offset: number, total: number): string;
export declare const WebFetchTool: import("../Tool").Tool<{
    url: string;
    prompt: string;
    offset?: number | undefined;
}, WebFetchOutput>;
export {};
