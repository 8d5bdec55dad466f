import Anthropic from '@anthropic-ai/sdk';
import { type FakeAnthropicOptions, type FakeAnthropicServer } from '../../src/testing/fakeAnthropic';
export * from '../../src/testing/fakeAnthropic';
/** A real SDK client pointed at the fake server; no retries unless asked. */
export declare function fakeClient(server: FakeAnthropicServer, opts?: {
    maxRetries?: number;
    apiKey?: string;
    timeout?: number;
}): Anthropic;
/** Start a server, run `fn`, always close it. */
export declare function withFakeAnthropic<T>(opts: FakeAnthropicOptions, fn: (server: FakeAnthropicServer) => Promise<T>): Promise<T>;
/** The text of `test/fixtures/sse/<name>` (a recorded-format SSE body). */
export declare function readSseFixture(name: string): string;
