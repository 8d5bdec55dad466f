// integration: no pretending (issue 31 item 7). Without model credentials `run`/`-p`, `worker` and
// `dev` stop at once with one line naming ANTHROPIC_API_KEY and the other ways the SDK takes, exit
// 1, and start nothing (no workflow on the server); the scripted demo model answers only `demo` and
// who asks for it (--demo-model). A -p session that fails prints its error, in every format.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { errorResponse } from '../../src/testing/fakeAnthropic';
import { isWorkflowNotFound } from '../../src/temporal/service/errors';
import { closeTestEnv, getTestEnv, uniqueWorkflowId } from '../support/temporal';
import { withAgent } from '../support/agent';
import { cli } from '../support/cli';

after(closeTestEnv);

/** An environment with no credentials of any kind the SDK reads (its profile directory is empty). */
function noCredentials(extra: Record<string, string> = {}): Record<string, string | undefined> {
  return {
    ANTHROPIC_API_KEY: undefined,
    ANTHROPIC_AUTH_TOKEN: undefined,
    ANTHROPIC_PROFILE: undefined,
    ANTHROPIC_FEDERATION_RULE_ID: undefined,
    ANTHROPIC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'da-anthropic-config-')),
    DURABLE_AGENT_WORKER_HAS_CREDENTIALS: undefined,
    ...extra,
  };
}

function assertOneLine(stderr: string): void {
  const lines = stderr.trim().split('\n');
  assert.equal(lines.length, 1, stderr);
  assert.match(lines[0] as string, /^durable-agent: no Anthropic API credentials: set ANTHROPIC_API_KEY /);
  assert.match(lines[0] as string, /ANTHROPIC_AUTH_TOKEN/);
  assert.match(lines[0] as string, /ANTHROPIC_BASE_URL alone is not enough/);
  assert.match(lines[0] as string, /durable-agent demo/);
}

test('credentials: -p without any starts no session: one line naming ANTHROPIC_API_KEY, exit 1', async () => {
  const env = await getTestEnv();
  const workDir = mkdtempSync(join(tmpdir(), 'da-nokey-'));
  for (const format of ['text', 'json']) {
    const id = uniqueWorkflowId('nokey');
    const r = await cli(
      ['-p', 'say hi', '--output-format', format, '--cwd', workDir, '--id', id],
      noCredentials({
        TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
        // A compatible endpoint is not a credential.
        ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/',
      }),
    );
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(r.stdout, '');
    assertOneLine(r.stderr);
    await assert.rejects(env.client.workflow.getHandle(id).describe(), (err) => isWorkflowNotFound(err));
  }
  // `run` (not -p) the same; ANTHROPIC_AUTH_TOKEN alone is a credential (it gets as far as the server).
  const plain = await cli(['run', '--cwd', workDir, 'say hi'], noCredentials({ TEMPORAL_ADDRESS: '127.0.0.1:9' }));
  assert.equal(plain.code, 1);
  assertOneLine(plain.stderr);
  const token = await cli(
    ['run', '--cwd', workDir, 'say hi'],
    noCredentials({ TEMPORAL_ADDRESS: '127.0.0.1:9', ANTHROPIC_AUTH_TOKEN: 'tok' }),
  );
  assert.equal(token.code, 1);
  assert.doesNotMatch(token.stderr, /no Anthropic API credentials/);
  assert.match(token.stderr, /Temporal|127\.0\.0\.1:9|connect/i, token.stderr);
});

test('credentials: `worker` and `dev` without any refuse to start, in one line, exit 1 (unless --demo-model)', async () => {
  const home = mkdtempSync(join(tmpdir(), 'da-nokey-home-'));
  const worker = await cli(['worker'], noCredentials({ TEMPORAL_ADDRESS: '127.0.0.1:9' }));
  assert.equal(worker.code, 1, worker.stdout + worker.stderr);
  assert.equal(worker.stdout, '');
  assertOneLine(worker.stderr);
  const dev = await cli(
    ['dev', '--db', join(home, 'temporal.db'), '--port', '1', '--ui-port', '2'],
    noCredentials({ DURABLE_AGENT_HOME: home }),
  );
  assert.equal(dev.code, 1, dev.stdout + dev.stderr);
  assert.equal(dev.stdout, '', 'no server was started');
  assertOneLine(dev.stderr);
  const up = await cli(['up', '--db', join(home, 'temporal.db')], noCredentials({ DURABLE_AGENT_HOME: home }));
  assert.equal(up.code, 1, up.stdout + up.stderr);
  assertOneLine(up.stderr);
  // Told to use the demo model, the worker starts (and gets as far as the server, which is not there).
  const demo = await cli(['worker', '--demo-model'], noCredentials({ TEMPORAL_ADDRESS: '127.0.0.1:9' }));
  assert.equal(demo.code, 1);
  assert.doesNotMatch(demo.stderr, /no Anthropic API credentials/);
});

test('credentials: a -p session the API refuses prints its error (text: the result line; json: the error result)', async () => {
  await withAgent({}, async ({ fake, taskQueue, storeDir, workDir }) => {
    const env = {
      TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
      DURABLE_AGENT_TASK_QUEUE: taskQueue,
      DURABLE_AGENT_STORE_DIR: storeDir,
    };
    const invalidKey = () => errorResponse(401, { type: 'authentication_error', message: 'invalid x-api-key' });
    fake.enqueue(invalidKey());
    const text = await cli(['-p', 'say hi', '--cwd', workDir, '--model', 'claude-test'], env, 90_000);
    assert.equal(text.code, 1, text.stderr);
    assert.equal(text.stdout, 'API Error: 401 invalid x-api-key\n');
    fake.enqueue(invalidKey());
    const json = await cli(
      ['-p', 'say hi', '--output-format', 'json', '--cwd', workDir, '--model', 'claude-test'],
      env,
      90_000,
    );
    assert.equal(json.code, 1, json.stderr);
    const result = JSON.parse(json.stdout) as Record<string, unknown>;
    assert.equal(result['is_error'], true);
    assert.equal(result['api_error_status'], 401);
    assert.match(String(result['end_reason']), /authentication_error: the API did not accept the credentials/);
  });
});

test('credentials: a -p session whose worker has no credentials (a library worker) prints why, exit 1', async () => {
  // The SDK's own error before any request: no status, no stream.
  const noAuth = (baseURL: string) => () => new Anthropic({ apiKey: null, authToken: null, baseURL, maxRetries: 0 });
  process.env.ANTHROPIC_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'da-anthropic-config-'));
  let url = '';
  await withAgent({ worker: { anthropic: () => noAuth(url)() } }, async ({ fake, taskQueue, storeDir, workDir }) => {
    url = fake.baseURL;
    const env = {
      TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
      DURABLE_AGENT_TASK_QUEUE: taskQueue,
      DURABLE_AGENT_STORE_DIR: storeDir,
    };
    const text = await cli(['-p', 'say hi', '--cwd', workDir, '--model', 'claude-test'], env, 90_000);
    assert.equal(text.code, 1, text.stdout + text.stderr);
    assert.match(
      text.stdout,
      /^Error: .*Could not resolve authentication method.* the worker has no usable Anthropic API credentials/,
    );
    assert.equal(fake.messageRequests().length, 0);
  });
});
