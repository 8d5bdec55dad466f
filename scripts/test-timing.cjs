// Preloaded by scripts/run-tests.mjs (`node --require` on the runner, which node's test runner
// passes on to every test file's process, and to no process a test starts): when the process is a
// test file, appends one JSON line to DURABLE_AGENT_TIMINGS_FILE at exit — the file, its wall time
// from process start, and its own CPU time (not its children's).
const { appendFileSync } = require('node:fs');
const { performance } = require('node:perf_hooks');

const out = process.env.DURABLE_AGENT_TIMINGS_FILE;
const file = process.argv[1];
// NODE_TEST_CONTEXT: set by node's runner in the processes it starts for files (not in itself).
if (out && process.env.NODE_TEST_CONTEXT && file && file.endsWith('.test.js')) {
  process.on('exit', (code) => {
    const cpu = process.cpuUsage();
    const line = {
      file,
      wallMs: Math.round(performance.now()),
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      code,
    };
    try {
      appendFileSync(out, `${JSON.stringify(line)}\n`);
    } catch {
      // timings are a report, never a reason to fail a test file
    }
  });
}
