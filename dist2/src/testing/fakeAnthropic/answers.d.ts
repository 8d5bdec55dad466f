import type http from 'node:http';
import { type PromptCacheSim } from './promptCache';
import type { ErrorSpec, MessageSpec, MessagesRequest, RawSseSpec, RecordedRequest, RecordedResponse } from './types';
import type { FakeAnthropicOptions } from './server';
export type HttpError = {
    status: number;
    type: string;
    message: string;
};
/** The client went away or the server is closing: stop writing. */
export declare class RequestAborted extends Error {
}
export declare const sleep: (ms: number, signal: AbortSignal) => Promise<void>;
export declare class ResponseWriter {
    private readonly opts;
    private readonly promptCache;
    private toolUseCounter;
    private messageCounter;
    constructor(opts: FakeAnthropicOptions, promptCache: PromptCacheSim | undefined);
    private baseHeaders;
    private rateLimitHeaders;
    sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string>): void;
    sendError(res: http.ServerResponse, record: RecordedRequest, requestId: string, error: HttpError, source: RecordedResponse['source'], extraHeaders?: Record<string, string>): void;
    destroy(res: http.ServerResponse): void;
    /** Write SSE frames with pacing and faults; resolves when done or the client went away. */
    writeStream(res: http.ServerResponse, frames: readonly string[], behaviour: {
        delayMs?: number | undefined;
        dropAfterEvents?: number | undefined;
        pausesAfter?: readonly number[];
    }, errorFrame: {
        afterEvents: number;
        frame: string;
    } | undefined, signal: AbortSignal): Promise<void>;
    answerMessage(res: http.ServerResponse, record: RecordedRequest, request: MessagesRequest, spec: MessageSpec, requestId: string, signal: AbortSignal): Promise<void>;
    answerRawSse(res: http.ServerResponse, record: RecordedRequest, spec: RawSseSpec, requestId: string, signal: AbortSignal): Promise<void>;
    answerError(res: http.ServerResponse, record: RecordedRequest, spec: ErrorSpec, requestId: string, signal: AbortSignal): Promise<void>;
}
