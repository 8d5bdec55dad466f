// integration: a reduced smoke of the load run (`npm run bench:load -- --smoke`): 4 concurrent
// sessions × 4 turns of real tools on two worker processes; the run prints its table and counts no
// failure. The full size (50 sessions × 20 turns, BENCHMARKS.md) is not run in CI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';

test(
  'integration: bench:load --smoke on two workers completes every session and prints its table',
  { timeout: 300_000 },
  async () => {
    const script = join(__dirname, '../../bench/load.js');
    const child = spawn(process.execPath, [script, '--smoke', '--workers', '2'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.equal(code, 0, `exit ${code}\n${out}\n${err.slice(-3000)}`);
    assert.match(out, /^\| 2 \| 4 \/ 4 \| 0 \| \d+ \|/m, out);
    assert.match(out, /^failures: 0$/m);
    assert.match(out, /per turn: workflow tasks/);
  },
);
