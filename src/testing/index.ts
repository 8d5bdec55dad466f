// `durable-agent/testing`: utilities for tests, benchmarks and the offline demo — never used by a
// real worker. The fake Anthropic Messages API (real SSE, scripted responses) lives here.
export * from './fakeAnthropic';
