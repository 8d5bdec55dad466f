// integration: the README's first command, as a newcomer runs it — `durable-agent demo` on the
// embedded default with no API key: a finished session, the UI address, the audit trail.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../src/temporal/service/devServer';
import { cli } from '../support/cli';

test(
  'integration: `durable-agent demo --exit` shows a finished demo session, its UI address and the audit trail',
  { timeout: 180_000 },
  async () => {
    const home = mkdtempSync(join(tmpdir(), 'da-demo-'));
    const env: Record<string, string | undefined> = {
      DURABLE_AGENT_HOME: home,
      DURABLE_AGENT_STORE_DIR: join(home, 'store'),
      ANTHROPIC_API_KEY: undefined,
      DURABLE_AGENT_TASK_QUEUE: undefined,
      TEMPORAL_ADDRESS: undefined,
    };
    const port = await freePort();
    const uiPort = await freePort();
    const r = await cli(
      ['demo', '--exit', '--db', join(home, 'temporal.db'), '--port', String(port), '--ui-port', String(uiPort)],
      env,
      150_000,
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /scripted demo model .*not Claude/);
    assert.match(r.stdout, new RegExp(`ui: +http://127\\.0\\.0\\.1:${uiPort}`));
    assert.match(r.stdout, /approval needed: Edit src\/stats\.js/);
    assert.match(r.stdout, /session completed/);
    assert.match(r.stdout, /audit trail/);
    // The parallel batch of turn 1, the human approval and the passing test run are in the ledger.
    assert.match(r.stdout, /batch 0 ∥/);
    assert.match(r.stdout, /human: demo \(auto-approve\)/);
    assert.match(r.stdout, /all tests passed/);
    assert.match(r.stdout, new RegExp(`UI: http://127\\.0\\.0\\.1:${uiPort}/namespaces/default/workflows/session-`));
  },
);
