// The order and lanes of a test run (scripts/run-tests.mjs), and the processes that run them.
//
// Order: the longest files first, by each file's wall seconds in the last run that ran it
// (dist/test-file-times.json, written at the end of every run) or, in a clean clone, in
// test/file-times.json (committed; `--save-times` writes a run's figures into it). node's runner
// starts files in the order given (scripts/test-driver.mjs), so no slow file starts near the end.
//
// Lanes: test/file-times.json `waiting` names the files that spend their time waiting — on minute
// timers (a wake-up, cron firings, a schedule's next minute), a retry back-off or rate limit (a
// model outage, the model queue), an activity's timeout after a SIGKILL (notifications), a
// stream's pauses — with a fraction of their wall time in CPU (at most ≈ 30 %, the processes they
// start included). They run in a lane of their own beside the others, one at a time (together
// they take less than the others' share, and one adds little CPU beside them: all five minute-timer
// files at once made CLI runs time out on a loaded machine), so that a minute of waiting does not
// hold one of the few slots the rest of the suite shares. Each lane is one scripts/test-driver.mjs
// process (node's runner); the main lane prints as it goes, the waiting lane's report follows it,
// then the counts of both together.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The `files` (wall seconds by path under dist/test) and `waiting` list of a times file; empty when absent. */
export function readTimes(file) {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8'));
    return {
      files: parsed && typeof parsed.files === 'object' ? parsed.files : {},
      waiting: Array.isArray(parsed?.waiting) ? parsed.waiting : [],
      about: typeof parsed?.about === 'string' ? parsed.about : undefined,
    };
  } catch {
    return { files: {}, waiting: [] };
  }
}

/**
 * Merges measured wall seconds into a times file (keeping its other entries and its `waiting`
 * list; `about` replaces its description).
 */
export function writeTimes(file, measured, about) {
  const old = readTimes(file);
  const times = { ...old.files, ...measured };
  const files = Object.fromEntries(Object.entries(times).sort(([a], [b]) => (a < b ? -1 : 1)));
  const out = { about: about ?? old.about, ...(old.waiting.length ? { waiting: old.waiting } : {}), files };
  writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
}

/**
 * The run's lanes: `main` (longest first) and `waiting` (the files named waiting, when the run
 * has other files too and `lane` allows it; otherwise they run in the main lane).
 */
export function planLanes(files, { keyOf, committed, last, lane = true }) {
  const known = { ...committed.files, ...last.files };
  // A file no run has timed yet: an integration file takes about 20 s, a unit file about 3 s.
  const seconds = (f) => known[keyOf(f)] ?? (keyOf(f).startsWith('integration/') ? 20 : 3);
  const ordered = [...files].sort((a, b) => seconds(b) - seconds(a) || (a < b ? -1 : 1));
  const isWaiting = (f) => committed.waiting.includes(keyOf(f));
  const waiting = ordered.filter(isWaiting);
  const main = ordered.filter((f) => !isWaiting(f));
  return main.length > 0 && waiting.length > 0 && lane ? { main, waiting } : { main: ordered, waiting: [] };
}

const COUNTS = ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo'];

/**
 * Runs the lanes, each in a scripts/test-driver.mjs process; resolves to the exit code (non-zero
 * when any lane failed) and the tests that failed ({ file, name, type, message }). `track` receives each process (the caller's signal handler stops them).
 */
export async function runLanes({ root, runDir, env, lanes, reporter, timeoutMs, track }) {
  // No --enable-source-maps unless DURABLE_AGENT_TEST_SOURCE_MAPS=1: node then reads and parses the
  // source map of every module a test file loads (the SDK's ship their sources in theirs), ≈ 0.2 s of
  // CPU per integration file and 0.05 s per unit file, ~30 s a run (issue 32). Without it a stack
  // frame names the compiled dist/…js line, a few lines from the .ts one; failures read the same.
  const sourceMaps = process.env.DURABLE_AGENT_TEST_SOURCE_MAPS === '1' ? ['--enable-source-maps'] : [];
  const nodeArgs = [...sourceMaps, '--require', path.join(root, 'scripts', 'test-timing.cjs')];
  const start = (name, files, concurrency, out) => {
    const planFile = path.join(runDir, `plan-${name}.json`);
    const countsFile = path.join(runDir, `counts-${name}.json`);
    writeFileSync(planFile, JSON.stringify({ files, concurrency, reporter, timeoutMs, countsFile }));
    const child = spawn(process.execPath, [...nodeArgs, path.join(root, 'scripts', 'test-driver.mjs')], {
      cwd: root,
      env: { ...env, DURABLE_AGENT_TEST_PLAN: planFile },
      stdio: ['ignore', out ? 'pipe' : 'inherit', 'inherit'],
    });
    track(child);
    const chunks = [];
    child.stdout?.on('data', (d) => chunks.push(d));
    const code = new Promise((resolve) => {
      child.on('error', (err) => {
        console.error(`[run-tests] could not start node's test runner: ${err.message}`);
        resolve(1);
      });
      child.on('exit', (c, sig) => resolve(c ?? (sig ? 1 : 0)));
    });
    return { code, output: () => Buffer.concat(chunks), countsFile };
  };
  const main = start('main', lanes.main.files, lanes.main.concurrency, false);
  const waiting = lanes.waiting.files.length
    ? start('waiting', lanes.waiting.files, lanes.waiting.concurrency, true)
    : undefined;
  const mainCode = await main.code;
  const read = (file) => {
    try {
      return JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      return {};
    }
  };
  const a = read(main.countsFile);
  if (!waiting) return { code: mainCode, failures: a.failures ?? [] };
  const waitingCode = await waiting.code;
  console.log(`[run-tests] the waiting lane (${lanes.waiting.files.length} file(s), run beside the others):`);
  process.stdout.write(waiting.output());
  const b = read(waiting.countsFile);
  console.log('[run-tests] both lanes together:');
  // node's own summary lines, so that a log's last lines still carry the run's totals.
  for (const k of COUNTS) console.log(`# ${k} ${(a[k] ?? 0) + (b[k] ?? 0)}`);
  return { code: mainCode || waitingCode, failures: [...(a.failures ?? []), ...(b.failures ?? [])] };
}
