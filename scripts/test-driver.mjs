#!/usr/bin/env node
// Started by scripts/run-tests.mjs in place of `node --test FILES`: node's own test runner (the
// `run()` of node:test, each file in its own process, the same reporters and exit code), but the
// files start in the order given — `node --test` sorts them by path, so slow files late in the
// alphabet (the unit `races` and `red-issue30-*` files) started near the end of the run.
// The plan is the JSON file named by DURABLE_AGENT_TEST_PLAN: { files, concurrency, timeoutMs,
// reporter, countsFile }; the run's counts (node's summary: tests, pass, fail…) go to countsFile.
// The test files' processes get this process's node options (--require scripts/test-timing.cjs,
// and --enable-source-maps under DURABLE_AGENT_TEST_SOURCE_MAPS=1), as they got `node --test`'s.
import { readFileSync, writeFileSync } from 'node:fs';
import { run } from 'node:test';
import { spec, tap } from 'node:test/reporters';

const planFile = process.env.DURABLE_AGENT_TEST_PLAN;
const plan = planFile ? JSON.parse(readFileSync(planFile, 'utf8')) : undefined;
if (!plan || !Array.isArray(plan.files) || plan.files.length === 0) {
  console.error(
    '[test-driver] DURABLE_AGENT_TEST_PLAN must name a plan with the files to run (scripts/run-tests.mjs writes it)',
  );
  process.exit(1);
}
delete process.env.DURABLE_AGENT_TEST_PLAN; // not passed on to the test files

const stream = run({
  files: plan.files,
  concurrency: plan.concurrency,
  timeout: plan.timeoutMs,
  forceExit: true, // a file that forgets to close a connection would keep the run alive forever
});
// As `node --test` does: any failure that is not a todo fails the run. Each failed test (not a
// suite failing for its subtests) is also listed for scripts/run-tests.mjs, which names them all in
// the run's last lines: a CI log keeps only its tail, and a failure thousands of lines up was lost.
const failures = [];
stream.on('test:fail', (data) => {
  if (data.todo !== undefined && data.todo !== false) return;
  process.exitCode = 1;
  const error = data.details?.error;
  if (error?.failureType === 'subtestsFailed') return;
  const cause = error?.cause ?? error;
  const message = String(cause?.message ?? cause ?? '')
    .split('\n')
    .filter(Boolean)
    .slice(0, 4)
    .join(' / ');
  failures.push({ file: data.file, name: data.name, type: error?.failureType, message: message.slice(0, 600) });
});
// node's closing summary ("tests 13", "pass 13"…: diagnostics of the root), for scripts/test-plan.mjs.
const counts = {};
stream.on('test:diagnostic', (data) => {
  const m = data.nesting === 0 ? /^([a-z_]+) (\d+(?:\.\d+)?)$/.exec(data.message) : null;
  if (m) counts[m[1]] = Number(m[2]);
});
process.on('exit', () => {
  if (plan.countsFile) writeFileSync(plan.countsFile, JSON.stringify({ ...counts, failures }));
});
stream.compose(plan.reporter === 'spec' ? new spec() : tap).pipe(process.stdout);
