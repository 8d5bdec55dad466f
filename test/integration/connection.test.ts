// Integration: connecting to an address where no Temporal listens fails fast with one clear line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  connectClient,
  connectWorker,
  loadConnectionConfig,
  TemporalUnavailableError,
} from '../../src/temporal/service/connection';

for (const [name, connect] of [
  ['connectClient', connectClient],
  ['connectWorker', connectWorker],
] as const) {
  test(`integration: ${name} to an unreachable address throws TemporalUnavailableError`, async () => {
    const config = loadConnectionConfig({ address: '127.0.0.1:1', connectTimeoutMs: 3_000 }, {});
    const started = Date.now();
    await assert.rejects(connect(config), (err: unknown) => {
      assert.ok(err instanceof TemporalUnavailableError, `got ${String(err)}`);
      assert.equal(err.address, '127.0.0.1:1');
      assert.ok(!err.message.includes('\n'), `message is not one line: ${err.message}`);
      assert.match(err.message, /127\.0\.0\.1:1/);
      assert.match(err.message, /temporal server start-dev|TEMPORAL_ADDRESS/);
      return true;
    });
    // Not a speed check: it gave up at its 3 s connect timeout rather than retrying on (far below 20 s).
    assert.ok(Date.now() - started < 20_000, 'did not give up at the connect timeout');
  });
}

test(
  'integration: connectClient reaches the test server',
  { skip: !process.env.TEMPORAL_TEST_ADDRESS && 'no TEMPORAL_TEST_ADDRESS' },
  async () => {
    const { connection, client } = await connectClient(
      loadConnectionConfig({ address: process.env.TEMPORAL_TEST_ADDRESS! }, {}),
    );
    try {
      const info = await client.workflowService.getSystemInfo({});
      assert.ok(info.capabilities);
    } finally {
      await connection.close();
    }
  },
);
