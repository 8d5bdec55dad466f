// Preloaded by scripts/run-tests.mjs (`node --require` on the runner, which node's test runner
// passes on to every test file's process, and to no process a test starts): when the process is a
// test file, appends one JSON line to DURABLE_AGENT_TIMINGS_FILE at exit — the file, its wall time
// from process start, its own CPU time, and (Linux) the CPU time of the processes it started and
// reaped (workers, CLI runs, git, bash: /proc/self/stat cutime + cstime; a process still running at
// exit, or one whose own parent never reaped it, is not counted).
const { appendFileSync, readFileSync } = require('node:fs');
const { performance } = require('node:perf_hooks');

const out = process.env.DURABLE_AGENT_TIMINGS_FILE;
const file = process.argv[1];

/** CPU ms of the reaped children (Linux; undefined elsewhere). USER_HZ is 100 on Linux. */
function childrenCpuMs() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state): cutime and cstime are fields 16 and 17.
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return undefined;
  }
}

// NODE_TEST_CONTEXT: set by node's runner in the processes it starts for files (not in itself).
if (out && process.env.NODE_TEST_CONTEXT && file && file.endsWith('.test.js')) {
  process.on('exit', (code) => {
    const cpu = process.cpuUsage();
    const line = {
      file,
      wallMs: Math.round(performance.now()),
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      childCpuMs: childrenCpuMs(),
      code,
    };
    try {
      appendFileSync(out, `${JSON.stringify(line)}\n`);
    } catch {
      // timings are a report, never a reason to fail a test file
    }
  });
}
