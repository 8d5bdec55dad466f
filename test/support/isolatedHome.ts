// Tests never touch the user's data directory (~/.durable-agent: the store, user settings, the
// control-file manifests, a dev server's database). scripts/run-tests.mjs gives every run a temp
// DURABLE_AGENT_HOME; a test file run some other way (`node --test dist/test/…`) gets one here,
// from the first support module it imports (the CLI helper, the Temporal harness), for itself and
// for every process it starts. A test that sets its own DURABLE_AGENT_HOME keeps it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// As scripts/run-tests.mjs: the CLI processes a test starts have model credentials, as a user's
// would (`run`, `worker` and `dev` refuse to start without them); a test of the missing key unsets it.
if (!process.env.ANTHROPIC_API_KEY && !process.env.ANTHROPIC_AUTH_TOKEN) process.env.ANTHROPIC_API_KEY = 'test-key';
if (!process.env.DURABLE_AGENT_HOME) {
  const home = mkdtempSync(join(tmpdir(), 'da-test-home-'));
  process.env.DURABLE_AGENT_HOME = home;
  process.on('exit', () => rmSync(home, { recursive: true, force: true }));
}

/** The data directory this test process uses (never the user's own). */
export const testDataHome = (): string => process.env.DURABLE_AGENT_HOME as string;
