#!/usr/bin/env node
// Test runner behind `npm test`: runs dist/test/**/*.test.js with node's own runner. Unless
// --unit, starts ONE Temporal dev server for the whole run and passes its address to the tests
// (TEMPORAL_TEST_ADDRESS, TEMPORAL_TEST_UI_ADDRESS). Extra arguments are substrings that select
// test files. Exits with the test process's code; the server is stopped in every case.
//
// Each test file's wall and CPU time is recorded (scripts/test-timing.cjs); the run ends with its
// own wall time, how busy the machine's cores were, the slowest files and the files that cost the
// most CPU (their own and their children's). --timings=FILE keeps every file's line (JSON lines).
// DURABLE_AGENT_TEST_CONCURRENCY: test files run at once (default 3, 2 when other processes keep
// half of the cores busy; 3 under CI=true). The longest files start first, and the few that mostly
// wait (minute timers, back-off, timeouts) run beside the others (scripts/test-plan.mjs: test/file-times.json, the last
// run's dist/test-file-times.json; --save-times writes this run's figures into the committed file).
//
//   node scripts/run-tests.mjs [--unit] [--headless] [--timings=FILE] [--save-times] [filter...]
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { planLanes, readTimes, runLanes, writeTimes } from './test-plan.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const unitOnly = args.includes('--unit');
const headless = args.includes('--headless');
const filters = args.filter((a) => !a.startsWith('--'));
const timingsArg = args.find((a) => a.startsWith('--timings='))?.slice('--timings='.length);
const saveTimes = args.includes('--save-times');
const runStart = Date.now();
// The whole machine's CPU over the run (/proc/stat; every process, not only ours): how busy the
// cores were says whether more files at once could fill idle time or only add contention.
const runTicks = cpuTicks();

function findTests(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.test.js'))
    .map((e) => path.join(e.parentPath ?? e.path, e.name))
    .sort();
}

const testRoot = path.join(root, 'dist', 'test', unitOnly ? 'unit' : '');
// Each file's wall seconds, keyed by its path under dist/test ("integration/wakeups.test.js"):
// the order and lanes of the run (scripts/test-plan.mjs).
const distTestDir = path.join(root, 'dist', 'test');
const committedTimesFile = path.join(root, 'test', 'file-times.json');
const lastTimesFile = path.join(root, 'dist', 'test-file-times.json');
const fileKey = (f) => path.relative(distTestDir, f).split(path.sep).join('/');
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
let serverCpuMs; // the dev server's own CPU time, read just before it is stopped (Linux)
const children = [];
let stopping = false;
/** A running process's own CPU time in ms (Linux /proc/PID/stat utime + stime; USER_HZ 100), or undefined. */
function processCpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return undefined;
  }
}
async function cleanup() {
  const s = server;
  server = undefined;
  if (s?.pid) serverCpuMs = processCpuMs(s.pid);
  if (s) await s.stop().catch((err) => console.error(`[run-tests] stopping the dev server: ${err.message}`));
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    console.error(`[run-tests] ${signal}: stopping tests and the dev server`);
    for (const c of children) c.kill(signal);
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
// The tests' temp directory (os.tmpdir() in every test process and what they start): a fresh one
// per run, removed at the end. A shared /tmp fills with what earlier runs left (sessions killed on
// purpose leave their temp directories), and every worker start sweeps the session temp root there
// (src/sandbox/sessionTemp.ts): thousands of entries cost each test a second of CPU. Sticky and
// world-writable like /tmp (the PostgreSQL tests run initdb as the `postgres` user).
// DURABLE_AGENT_TEST_SHARED_TMP=1 keeps the machine's temp directory.
let runTmp;
if (process.env.DURABLE_AGENT_TEST_SHARED_TMP !== '1') {
  runTmp = mkdtempSync(path.join(tmpdir(), 'da-test-tmp-'));
  chmodSync(runTmp, 0o1777);
  env.TMPDIR = runTmp;
  process.on('exit', () => rmSync(runTmp, { recursive: true, force: true }));
}
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
// The run's own files (the timings, the shared workflow bundle), removed at exit.
const runDir = mkdtempSync(path.join(tmpdir(), 'da-test-run-'));
process.on('exit', () => rmSync(runDir, { recursive: true, force: true }));
// Per-file wall and CPU times (scripts/test-timing.cjs, loaded into each test file's process).
env.DURABLE_AGENT_TIMINGS_FILE = timingsArg ? path.resolve(timingsArg) : path.join(runDir, 'timings.jsonl');
writeFileSync(env.DURABLE_AGENT_TIMINGS_FILE, '');
/** This run's wall seconds per file into dist/test-file-times.json (and test/file-times.json with --save-times). */
function saveFileTimes(rows) {
  const measured = Object.fromEntries(rows.map((r) => [fileKey(r.file), Math.round(r.wallMs / 100) / 10]));
  if (Object.keys(measured).length === 0) return;
  const targets = [
    [lastTimesFile, 'Wall seconds of each test file in the last run that ran it (scripts/run-tests.mjs).'],
  ];
  if (saveTimes)
    targets.push([
      committedTimesFile,
      `Wall seconds of each test file (under dist/test) in a full run (${new Date().toISOString().slice(0, 10)}, --save-times): scripts/run-tests.mjs starts the longest first, and runs the \`waiting\` files (minute timers, back-off, timeouts: little CPU) in a lane beside the others. A file not listed counts as 20 s (integration) or 3 s (unit).`,
    ]);
  for (const [file, about] of targets) {
    try {
      writeTimes(file, measured, about);
    } catch (err) {
      console.error(`[run-tests] could not write ${path.relative(root, file)}: ${err.message}`);
    }
  }
  if (saveTimes)
    console.log(
      `[run-tests] wrote ${Object.keys(measured).length} file time(s) into ${path.relative(root, committedTimesFile)}`,
    );
}
function reportTimings() {
  let rows = [];
  try {
    rows = readFileSync(env.DURABLE_AGENT_TIMINGS_FILE, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  } catch {
    // no file ran
  }
  saveFileTimes(rows);
  const s = (ms) => `${Math.round(ms / 1000)} s`;
  const sum = (k) => rows.reduce((a, r) => a + (r[k] ?? 0), 0);
  const serverCpu = serverCpuMs === undefined ? '' : `, the dev server ${s(serverCpuMs)}`;
  const endTicks = cpuTicks();
  const busy =
    runTicks && endTicks && endTicks.total > runTicks.total
      ? `; the machine's ${cores} cores ${Math.round(((endTicks.busy - runTicks.busy) / (endTicks.total - runTicks.total)) * 100)} % busy (every process on it)`
      : '';
  console.log(
    `[run-tests] wall time ${s(Date.now() - runStart)} for ${files.length} file(s) at concurrency ${concurrency}; test processes: ${s(sum('wallMs'))} wall, ${s(sum('cpuMs'))} CPU in total (the processes they started: ${s(sum('childCpuMs'))} more${serverCpu})${busy}`,
  );
  const slowest = rows.sort((a, b) => b.wallMs - a.wallMs).slice(0, 10);
  if (slowest.length > 1)
    console.log(
      `[run-tests] slowest: ${slowest.map((r) => `${path.relative(path.join(root, 'dist', 'test'), r.file)} ${s(r.wallMs)}`).join(', ')}`,
    );
  // On a machine whose cores are busy only CPU cuts shorten the run: the files that cost the most
  // CPU, their own plus what they started (workers, CLI runs, sandboxed commands), own/started.
  const cpuOf = (r) => (r.cpuMs ?? 0) + (r.childCpuMs ?? 0);
  const costliest = [...rows].sort((a, b) => cpuOf(b) - cpuOf(a)).slice(0, 15);
  if (costliest.length > 1)
    console.log(
      `[run-tests] most CPU (own/started): ${costliest.map((r) => `${fileKey(r.file)} ${s(cpuOf(r))} (${s(r.cpuMs ?? 0)}/${s(r.childCpuMs ?? 0)})`).join(', ')}`,
    );
}
// Test files at once. Integration files mostly wait (timers, retries, processes they start): on a
// 2-core machine two files use about one core, so three at once when the machine is otherwise idle;
// two on a busy one, where a third only adds CPU contention and slow tests run into their
// timeouts. "Busy" is what the machine's CPUs do while the runner has started nothing yet: other
// processes keeping at least half of the cores busy over CPU_SAMPLE_MS (Linux /proc/stat). Not the
// load average: it decays over minutes, so right after `npm ci`, lint and the build (CI runs them
// just before) it read as busy on an idle machine, and CI always ran two at once. Where /proc/stat
// is missing, the 1-minute load average against the cores. DURABLE_AGENT_TEST_CONCURRENCY overrides.
const CPU_SAMPLE_MS = 2_000;
const cores = availableParallelism();
/** The machine's busy and total CPU ticks since boot (the first line of /proc/stat), or undefined. */
function cpuTicks() {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1, 9).map(Number);
    const total = f.reduce((a, b) => a + b, 0);
    return { busy: total - f[3] - f[4], total }; // idle and iowait are not busy
  } catch {
    return undefined;
  }
}
async function machineLoad() {
  const t0 = cpuTicks();
  if (!t0) {
    const load = loadavg()[0];
    return { busy: load >= cores, why: `load average ${load.toFixed(1)} on ${cores} cores` };
  }
  await new Promise((r) => setTimeout(r, CPU_SAMPLE_MS));
  const t1 = cpuTicks();
  const busyCores = t1.total > t0.total ? ((t1.busy - t0.busy) / (t1.total - t0.total)) * cores : 0;
  return {
    busy: busyCores >= cores / 2,
    why: `other processes kept ${busyCores.toFixed(1)} of ${cores} cores busy over ${CPU_SAMPLE_MS / 1000} s`,
  };
}
// CI=true: a CI machine runs the suite and nothing else, so three without sampling (a sample taken
// while the build's last processes or a package's post-install exit could read as busy).
const ci = process.env.CI === 'true';
const load = process.env.DURABLE_AGENT_TEST_CONCURRENCY || ci ? undefined : await machineLoad();
const concurrency = Number(process.env.DURABLE_AGENT_TEST_CONCURRENCY ?? (load?.busy ? 2 : 3));
const concurrencyWhy = process.env.DURABLE_AGENT_TEST_CONCURRENCY
  ? 'DURABLE_AGENT_TEST_CONCURRENCY'
  : ci
    ? 'CI=true: nothing else runs'
    : `${load.why}${load.busy ? ': busy' : ''}`;
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error(
    `[run-tests] DURABLE_AGENT_TEST_CONCURRENCY must be a positive whole number, got ${process.env.DURABLE_AGENT_TEST_CONCURRENCY}`,
  );
  process.exit(1);
}
// The waiting lane only beside three or more at once: at two (a busy machine, or
// DURABLE_AGENT_TEST_CONCURRENCY=1 or 2) a third process is what that setting avoids.
const lanes = planLanes(files, {
  keyOf: fileKey,
  committed: readTimes(committedTimesFile),
  last: readTimes(lastTimesFile),
  lane: concurrency >= 3,
});
// The agent workflows bundled once for the run (webpack: seconds of CPU per test file otherwise);
// test/support/temporal.ts getWorkflowBundle() reads it for that workflows path.
async function shareWorkflowBundle() {
  const { bundleWorkflowCode, DefaultLogger } = require('@temporalio/worker');
  const workflowsPath = require.resolve(path.join(root, 'dist', 'src', 'temporal', 'workflows'));
  const t0 = Date.now();
  // The production bundle: with the worker's own preload modules (src/temporal/worker.ts workflowPreloads).
  const { workflowPreloads } = require(path.join(root, 'dist', 'src', 'temporal', 'worker'));
  const preloadModules = workflowPreloads(env);
  const { code } = await bundleWorkflowCode({ workflowsPath, preloadModules, logger: new DefaultLogger('WARN') });
  const file = path.join(runDir, 'workflow-bundle.js');
  writeFileSync(file, code);
  env.DURABLE_AGENT_TEST_WORKFLOWS_PATH = workflowsPath;
  env.DURABLE_AGENT_TEST_WORKFLOW_BUNDLE = file;
  console.log(`[run-tests] agent workflows bundled once for the run in ${Date.now() - t0} ms`);
}
/** Each failed test in one line, last: a CI log keeps its tail (.ci/run repeats these lines). */
function reportFailures(failures, base) {
  if (failures.length === 0) return;
  console.log(`[run-tests] FAILED ${failures.length} test(s):`);
  for (const f of failures) {
    const file = f.file ? path.relative(base, f.file) : '?';
    console.log(`[run-tests] FAILED ${file} › ${f.name}${f.type ? ` (${f.type})` : ''}: ${f.message}`);
  }
}
try {
  if (needsServer) {
    const bundled = shareWorkflowBundle();
    bundled.catch(() => undefined); // awaited below, after the server started
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
    await bundled;
  } else {
    console.log(`[run-tests] no integration tests selected: no Temporal dev server`);
  }
  console.log(
    `[run-tests] ${files.length} test file(s), ${concurrency} at once (${concurrencyWhy}), the longest first${lanes.waiting.length ? `; beside them the ${lanes.waiting.length} that mostly wait (${lanes.waiting.map(fileKey).join(', ')})` : ''}`,
  );

  // tap when not a terminal, so CI's last lines are node's own `# pass N` / `# fail N`.
  const reporter = process.stdout.isTTY ? 'spec' : 'tap';
  const { code, failures } = await runLanes({
    root,
    runDir,
    env,
    lanes: {
      main: { files: lanes.main, concurrency },
      // One at a time: a few seconds of CPU each beside the others (scripts/test-plan.mjs).
      waiting: { files: lanes.waiting, concurrency: 1 },
    },
    reporter,
    // A test that hangs (a session waiting for an approval nobody gives…) fails after 5 minutes
    // instead of holding CI until its deadline.
    timeoutMs: Number(process.env.DURABLE_AGENT_TEST_TIMEOUT_MS ?? 300000),
    track: (c) => children.push(c),
  });
  if (stopping) await new Promise(() => {}); // the signal handler stops the server and exits
  await cleanup();
  reportTimings();
  reportSkipped();
  reportFailures(failures, root);
  process.exit(code);
} catch (err) {
  console.error(`[run-tests] ${err instanceof Error ? err.message : String(err)}`);
  await cleanup();
  process.exit(1);
}
