// Test conveniences over the fake Anthropic Messages API in src/testing/fakeAnthropic (which holds the server itself).

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import {
  startFakeAnthropic,
  type FakeAnthropicOptions,
  type FakeAnthropicServer,
} from '../../src/testing/fakeAnthropic';

export * from '../../src/testing/fakeAnthropic';

/** A real SDK client pointed at the fake server; no retries unless asked. */
export function fakeClient(
  server: FakeAnthropicServer,
  opts: { maxRetries?: number; apiKey?: string; timeout?: number } = {},
): Anthropic {
  return new Anthropic({
    apiKey: opts.apiKey ?? 'test-key',
    baseURL: server.baseURL,
    maxRetries: opts.maxRetries ?? 0,
    ...(opts.timeout === undefined ? {} : { timeout: opts.timeout }),
  });
}

/** Start a server, run `fn`, always close it. */
export async function withFakeAnthropic<T>(
  opts: FakeAnthropicOptions,
  fn: (server: FakeAnthropicServer) => Promise<T>,
): Promise<T> {
  const server = await startFakeAnthropic(opts);
  try {
    return await fn(server);
  } finally {
    await server.close();
  }
}

// Fixtures are not copied by tsc, so find them from the source tree whether we run from test/ or dist/test/.
function fixturesDir(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'test', 'fixtures', 'sse');
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`test/fixtures/sse not found above ${__dirname}`);
  }
}

/** The text of `test/fixtures/sse/<name>` (a recorded-format SSE body). */
export function readSseFixture(name: string): string {
  return readFileSync(path.join(fixturesDir(), name), 'utf8');
}
