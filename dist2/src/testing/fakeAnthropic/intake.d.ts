import type http from 'node:http';
import type { FakeAnthropicOptions } from './server';
import type { MessagesRequest, RecordedRequest, UnexpectedKind } from './types';
/** Why the server itself answers a request with an error (and notes it as unexpected). */
export interface Refusal {
    kind: UnexpectedKind;
    status: number;
    type: string;
    message: string;
}
/** Reads the whole request and records it (index: its arrival order); `valid` stays false until it passes the checks. */
export declare function recordRequest(req: http.IncomingMessage, index: () => number): Promise<RecordedRequest>;
/** The Messages request in a recorded request, or why the real API would refuse it (route, key, JSON, shape). */
export declare function checkRequest(record: RecordedRequest, opts: FakeAnthropicOptions): {
    request: MessagesRequest;
} | {
    refusal: Refusal;
};
