import type { Message } from './messages';
export declare const MAX_CACHE_BREAKPOINTS = 4;
export declare const EPHEMERAL: {
    readonly type: "ephemeral";
};
export interface CacheableRequest<T> {
    system?: string;
    tools: readonly T[];
    messages: readonly Message[];
}
export type SystemBlock = {
    type: 'text';
    text: string;
    cache_control?: typeof EPHEMERAL;
};
export type ApiBlock = Record<string, unknown> & {
    type: string;
};
export type ApiMessage = {
    role: 'user' | 'assistant';
    content: string | ApiBlock[];
};
export interface ShapedRequest<T> {
    system?: SystemBlock[];
    tools: Array<T & {
        cache_control?: typeof EPHEMERAL;
    }>;
    messages: ApiMessage[];
    /** Where the breakpoints went (for tests and the audit): 'tools', 'system', 'message:<index>'. */
    breakpoints: string[];
}
/** The indexes of the messages that get a breakpoint: the last one, and the previous request's last one. */
export declare function messageBreakpoints(messages: readonly Message[]): number[];
export declare function applyCacheBreakpoints<T extends object>(req: CacheableRequest<T>, enabled?: boolean): ShapedRequest<T>;
