// Tests never touch the user's data directory (~/.durable-agent: the store, user settings, the
// control-file manifests, a dev server's database). scripts/run-tests.mjs gives every run a temp
// DURABLE_AGENT_HOME; a test file run some other way (`node --test dist/test/…`) gets one here,
// from the first support module it imports (the CLI helper, the Temporal harness), for itself and
// for every process it starts. A test that sets its own DURABLE_AGENT_HOME keeps it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

if (!process.env.DURABLE_AGENT_HOME) {
  const home = mkdtempSync(join(tmpdir(), 'da-test-home-'));
  process.env.DURABLE_AGENT_HOME = home;
  process.on('exit', () => rmSync(home, { recursive: true, force: true }));
}

/** The data directory this test process uses (never the user's own). */
export const testDataHome = (): string => process.env.DURABLE_AGENT_HOME as string;
