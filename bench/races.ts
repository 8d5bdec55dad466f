// Check-then-open races at scale (issue 18): every scenario of test/support/races.ts, 100,000
// attempts each by default, counts printed as a table (and as JSON with --json).
//   node dist/bench/races.js [--attempts N] [--json] [--failures] [scenario substring…]
import * as fs from 'node:fs';
import { RACE_SCENARIOS, createRaceFixture, runRace, type RaceCounts } from '../test/support/races';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const at = args.indexOf('--attempts');
  const attempts = at === -1 ? 100_000 : Number(args[at + 1]);
  if (!Number.isInteger(attempts) || attempts < 1) throw new Error('--attempts takes a positive integer');
  const json = args.includes('--json');
  const filters = args.filter((a, i) => !a.startsWith('--') && i !== at + 1);
  const scenarios = RACE_SCENARIOS.filter((s) => filters.length === 0 || filters.some((f) => s.includes(f)));
  const rows: RaceCounts[] = [];
  for (const s of scenarios) {
    const fx = createRaceFixture();
    const started = Date.now();
    try {
      const c = await runRace(fx, s, attempts);
      rows.push(c);
      if (!json)
        console.log(
          `${s.padEnd(16)} attempts ${String(c.attempts).padStart(7)}  ok ${String(c.ok).padStart(7)}  errors ${String(c.errors).padStart(7)}  wins ${String(c.wins).padStart(5)}  swaps ${String(c.flips).padStart(9)}  ${((Date.now() - started) / 1000).toFixed(0)} s${c.example ? `  e.g. ${JSON.stringify(c.example.slice(0, 120))}` : ''}`,
        );
    } finally {
      fs.rmSync(fx.root, { recursive: true, force: true });
    }
  }
  if (json) console.log(JSON.stringify(rows, null, 2));
  else if (args.includes('--failures')) for (const r of rows) console.log(r.scenario, r.failures);
  const wins = rows.reduce((n, r) => n + r.wins, 0);
  if (!json) console.log(`total wins: ${wins}`);
  process.exitCode = wins === 0 ? 0 : 1;
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(2);
});
