// unit: check-then-open races (issue 18, finding 3). For each file tool, a worker thread swaps a
// project file (or a directory on the way to it) with a symlink to a bait outside the project in
// a tight loop while the tool runs through runToolPipeline thousands of times; the oracle is the
// real file system (test/support/races.ts): the bait never in a result, nothing outside changed
// or created. Zero wins. `node dist/bench/races.js` runs 100,000 attempts per scenario.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { isRipgrepAvailable } from '../../src/tools/builtin/grepEngine';
import { RACE_SCENARIOS, createRaceFixture, runRace } from '../support/races';

// Per scenario; Grep spawns rg per call, so its four scenarios share 2,000 attempts.
const ATTEMPTS: Record<string, number> = { Read: 2000, Write: 2000, Edit: 2000, Glob: 2000, Grep: 500 };

for (const scenario of RACE_SCENARIOS) {
  const tool = scenario.split(' ')[0] as string;
  const skip = scenario.includes('(rg)') && !isRipgrepAvailable() ? 'ripgrep is not installed' : false;
  test(`unit: ${scenario}: a symlink swapped in after the check never wins`, { skip }, async (t) => {
    const fx = createRaceFixture();
    try {
      const counts = await runRace(fx, scenario, ATTEMPTS[tool] ?? 2000);
      t.diagnostic(JSON.stringify({ ...counts, failures: undefined }));
      assert.ok(counts.flips > 0, 'the swapper ran during the calls');
      assert.equal(counts.wins, 0, `the attacker won ${counts.wins} of ${counts.attempts}: ${counts.example}`);
      assert.equal(counts.controlOk, true, 'with the swapper stopped, the same call works on the project file');
    } finally {
      fs.rmSync(fx.root, { recursive: true, force: true });
    }
  });
}
