#!/usr/bin/env node
// Test runner behind `npm test`: runs dist/test/**/*.test.js with node's own runner. Unless
// --unit, starts ONE Temporal dev server for the whole run and passes its address to the tests
// (TEMPORAL_TEST_ADDRESS, TEMPORAL_TEST_UI_ADDRESS). Extra arguments are substrings that select
// test files. Exits with the test process's code; the server is stopped in every case.
//
//   node scripts/run-tests.mjs [--unit] [--headless] [filter...]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const unitOnly = args.includes('--unit');
const headless = args.includes('--headless');
const filters = args.filter((a) => !a.startsWith('--'));

function findTests(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.test.js'))
    .map((e) => path.join(e.parentPath ?? e.path, e.name))
    .sort();
}

const testRoot = path.join(root, 'dist', 'test', unitOnly ? 'unit' : '');
const files = findTests(testRoot).filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)));
if (files.length === 0) {
  console.error(
    `No test files under ${path.relative(root, testRoot) || '.'}${filters.length ? ` matching ${filters.join(', ')}` : ''}. Did \`npm run build\` run?`,
  );
  process.exit(1);
}
const integrationDir = path.join(root, 'dist', 'test', 'integration') + path.sep;
const needsServer = !unitOnly && files.some((f) => f.startsWith(integrationDir));

let server;
let child;
let stopping = false;
async function cleanup() {
  const s = server;
  server = undefined;
  if (s) await s.stop().catch((err) => console.error(`[run-tests] stopping the dev server: ${err.message}`));
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    console.error(`[run-tests] ${signal}: stopping tests and the dev server`);
    child?.kill(signal);
    await cleanup();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

const env = { ...process.env };
// Tests never touch the user's data directory (~/.durable-agent: store, settings, control-file
// manifests): every run gets a temp one, removed at the end (a test may still set its own).
let testHome;
if (!env.DURABLE_AGENT_HOME) {
  testHome = mkdtempSync(path.join(tmpdir(), 'da-test-home-'));
  env.DURABLE_AGENT_HOME = testHome;
}
// `run`, `worker` and `dev` refuse to start without model credentials (issue 31 item 7): the CLI
// processes tests start have a key, as a user's would (their workers talk to the fake API); a test
// of the missing key unsets it (test/integration/credentials.test.ts).
if (!env.ANTHROPIC_API_KEY && !env.ANTHROPIC_AUTH_TOKEN) env.ANTHROPIC_API_KEY = 'test-key';
process.on('exit', () => {
  if (testHome) rmSync(testHome, { recursive: true, force: true });
});
// Tests that need a missing system package skip (test/support/systemPackages.ts) and append a line
// here; the run ends with one line that names them and what to install.
const skippedDir = mkdtempSync(path.join(tmpdir(), 'da-skipped-'));
env.DURABLE_AGENT_SKIPPED_FILE = path.join(skippedDir, 'skipped.txt');
function reportSkipped() {
  let lines = [];
  try {
    lines = [...new Set(readFileSync(env.DURABLE_AGENT_SKIPPED_FILE, 'utf8').split('\n').filter(Boolean))];
  } catch {
    // nothing was skipped
  }
  rmSync(skippedDir, { recursive: true, force: true });
  if (lines.length > 0)
    console.log(`[run-tests] SKIPPED for missing system packages (CI=true fails instead): ${lines.join('; ')}`);
}
try {
  if (needsServer) {
    const { resolveTemporalCli } = require(path.join(root, 'dist/src/temporal/service/cli.js'));
    const { startDevServer } = require(path.join(root, 'dist/src/temporal/service/devServer.js'));
    const t0 = Date.now();
    const cli = await resolveTemporalCli();
    const resolveMs = Date.now() - t0;
    server = await startDevServer({ cli, ui: !headless });
    const binary =
      cli.kind === 'path'
        ? `${cli.path} (from ${cli.source}, resolved in ${resolveMs} ms)`
        : 'downloaded by the Temporal SDK';
    console.log(
      `[run-tests] Temporal dev server at ${server.address} (UI ${server.uiAddress ?? 'off'}, in-memory), started in ${server.startupMs} ms`,
    );
    console.log(`[run-tests] binary: ${binary}`);
    env.TEMPORAL_TEST_ADDRESS = server.address;
    env.TEMPORAL_TEST_NAMESPACE = server.namespace;
    if (server.uiAddress) env.TEMPORAL_TEST_UI_ADDRESS = server.uiAddress;
    else delete env.TEMPORAL_TEST_UI_ADDRESS;
    if (cli.kind === 'path') env.TEMPORAL_CLI_PATH = cli.path;
  } else {
    console.log(`[run-tests] no integration tests selected: no Temporal dev server`);
  }
  console.log(`[run-tests] ${files.length} test file(s)`);

  // tap when not a terminal, so CI's last lines are node's own `# pass N` / `# fail N`.
  const reporter = process.stdout.isTTY ? 'spec' : 'tap';
  const [major, minor] = process.versions.node.split('.').map(Number);
  const atLeast = (M, m) => major > M || (major === M && minor >= m);
  const nodeArgs = ['--enable-source-maps', '--test', `--test-reporter=${reporter}`];
  if (atLeast(20, 10)) nodeArgs.push('--test-concurrency=2');
  // A file that forgets to close a connection would otherwise keep the run alive forever.
  if (atLeast(20, 14)) nodeArgs.push('--test-force-exit');
  // A test that hangs (a session waiting for an approval nobody gives…) fails after 5 minutes
  // instead of holding CI until its deadline.
  if (atLeast(20, 11)) nodeArgs.push(`--test-timeout=${process.env.DURABLE_AGENT_TEST_TIMEOUT_MS ?? 300000}`);
  const code = await new Promise((resolve) => {
    child = spawn(process.execPath, [...nodeArgs, ...files], { cwd: root, env, stdio: 'inherit' });
    child.on('error', (err) => {
      console.error(`[run-tests] could not start node --test: ${err.message}`);
      resolve(1);
    });
    child.on('exit', (c, sig) => resolve(c ?? (sig ? 1 : 0)));
  });
  if (stopping) await new Promise(() => {}); // the signal handler stops the server and exits
  await cleanup();
  reportSkipped();
  process.exit(code);
} catch (err) {
  console.error(`[run-tests] ${err instanceof Error ? err.message : String(err)}`);
  await cleanup();
  process.exit(1);
}
