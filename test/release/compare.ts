// `npm run compare:release [-- --against 0.2.0|<commit>] [--size reduced|full] [--only faults,cluster] [--runs 2] [--margin 0.25]`:
// issue 32's "figures no worse than before (same run, previous tag beside it)" for the fault
// suites. In one run, on one machine, back to back, it runs test:faults and test:cluster twice
// each: once with the previous release's workers and once with ours — both times THIS build's
// runner (the same sessions, faults, pacing and checks), which starts the other build's
// dist/test/support/workerProcess.js with that build's own workflow bundle
// (DURABLE_AGENT_SUITE_BUILD, test/support/suiteBuild.ts). With --runs N each suite runs N times
// per build, interleaved (A B B A A B …: the first of each pair alternates, and suite by suite) so
// that a drift of the machine's load does not favour one side; the median recovery is then
// compared with an interval (test/release/noise.ts) and may say "within noise". Then one table: pass/fail, sessions, lost and duplicated effects, unknown
// outcomes, recovery after each kill (median/max), drain time, wall time, ours / previous, and a
// verdict per row against a stated noise margin (test/release/figures.ts). Exits 1 when a row is
// WORSE. The previous release is built once into ~/.cache/durable-agent/releases/<commit>
// (test/support/previousRelease.ts). Each suite's output goes to a log file (its path is printed).
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { readChangelog, releaseCommit, repoRoot } from '../../scripts/releases';
import { previousRelease } from '../support/previousRelease';
import { SUITE_BUILD_ENV } from '../support/suiteBuild';
import {
  compareSuite,
  DEFAULT_MARGIN,
  marginText,
  missingRows,
  overallVerdict,
  renderCompare,
  SUITE_RESULT_ENV,
  type CompareRow,
  type NoiseMargin,
  type SuiteFigures,
} from './figures';

const SUITES = ['faults', 'cluster'] as const;
type Suite = (typeof SUITES)[number];

export interface CompareArgs {
  against?: string;
  size: 'reduced' | 'full';
  only: Suite[];
  /** Runs per build and suite (interleaved). */
  runs: number;
  margin: NoiseMargin;
}

export function parseCompareArgs(argv: readonly string[]): CompareArgs {
  const out: CompareArgs = { size: 'reduced', only: [...SUITES], runs: 2, margin: { ...DEFAULT_MARGIN } };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const value = (): string => {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
      if (!v) throw new Error(`${a.split('=')[0]} needs a value`);
      return v;
    };
    const name = a.split('=')[0];
    if (name === '--against') out.against = value();
    else if (name === '--size') {
      const v = value();
      if (v !== 'reduced' && v !== 'full') throw new Error(`--size must be reduced or full, not "${v}"`);
      out.size = v;
    } else if (name === '--only') {
      const names = value().split(',');
      const bad = names.filter((n) => !(SUITES as readonly string[]).includes(n));
      if (bad.length > 0) throw new Error(`--only: unknown suite ${bad.join(', ')} (suites: ${SUITES.join(', ')})`);
      out.only = names as Suite[];
    } else if (name === '--runs') {
      const v = Number(value());
      if (!Number.isInteger(v) || v < 1 || v > 20)
        throw new Error('--runs is a whole number of runs per build, 1 to 20');
      out.runs = v;
    } else if (name === '--margin') {
      const v = Number(value());
      if (!(v >= 0 && v < 10)) throw new Error('--margin is a ratio such as 0.25 (25 %)');
      out.margin.ratio = v;
      out.margin.maxRatio = Math.max(out.margin.maxRatio, v);
    } else
      throw new Error(
        `unknown argument ${a} (usage: --against VERSION|COMMIT --size reduced|full --only faults,cluster --runs 2 --margin 0.25)`,
      );
  }
  return out;
}

/**
 * The release to compare with: `--against` (a CHANGELOG version or a commit), else the newest
 * CHANGELOG release whose commit is not HEAD — the release deployed now, which this build replaces.
 */
function baseline(against: string | undefined): { label: string; commit: string } {
  const head = execFileSync('git', ['-C', repoRoot, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  const entries = readChangelog().entries;
  if (against && /^[0-9a-f]{7,40}$/.test(against)) {
    const commit = execFileSync('git', ['-C', repoRoot, 'rev-parse', `${against}^{commit}`], {
      encoding: 'utf8',
    }).trim();
    return { label: commit.slice(0, 7), commit };
  }
  for (const e of entries) {
    if (against && e.version !== against) continue;
    const { commit, why } = releaseCommit(e);
    if (!commit) {
      if (against) throw new Error(`release ${against}: ${why}`);
      continue;
    }
    if (commit === head && !against) continue;
    return { label: `${e.version} (${commit.slice(0, 7)})`, commit };
  }
  throw new Error(against ? `CHANGELOG.md has no release ${against}` : 'CHANGELOG.md names no earlier release');
}

const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');

/** Which build goes first in pair `run` of the suite at `index`: it alternates by pair and by suite. */
export function previousFirst(index: number, run: number): boolean {
  return (index + run) % 2 === 0;
}

const order = (index: number, runs: number): string =>
  Array.from({ length: runs }, (_, r) => (previousFirst(index, r) ? 'P O' : 'O P')).join(' ');

/** Runs one suite for one build; resolves with its figures, or why there are none. */
async function runSuite(
  suite: Suite,
  build: { dir?: string; name: string },
  size: string,
  logDir: string,
  run: number,
): Promise<SuiteFigures | string> {
  const result = join(logDir, `${suite}-${build.name}-${run}.json`);
  const logFile = join(logDir, `${suite}-${build.name}-${run}.log`);
  const out = createWriteStream(logFile);
  const t0 = Date.now();
  const script = join(repoRoot, 'dist', 'test', suite, 'run.js');
  const env: NodeJS.ProcessEnv = { ...process.env, [SUITE_RESULT_ENV]: result };
  delete env[SUITE_BUILD_ENV];
  if (build.dir) env[SUITE_BUILD_ENV] = build.dir;
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, ['--enable-source-maps', script, '--size', size], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.once('exit', (c) => resolve(c));
  });
  out.end();
  const s = ((Date.now() - t0) / 1000).toFixed(0);
  console.log(
    `[compare] test:${suite} run ${run + 1} with ${build.name}'s workers: exit ${code} in ${s} s, load average ${load()} (log ${logFile})`,
  );
  if (!existsSync(result)) {
    const tail = readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n');
    console.log(tail);
    return `exit ${code}, no figures`;
  }
  return JSON.parse(readFileSync(result, 'utf8')) as SuiteFigures;
}

async function main(): Promise<number> {
  const args = parseCompareArgs(process.argv.slice(2));
  const base = baseline(args.against);
  const prev = previousRelease(base.commit);
  if (!prev.script) throw new Error(`the previous release ${base.label} is not available: ${prev.why}`);
  // .../releases/<commit>/dist/test/support/workerProcess.js → the build's root.
  const prevDir = dirname(dirname(dirname(dirname(prev.script))));
  const startLoad = load();
  const t0 = Date.now();
  const logDir = mkdtempSync(join(tmpdir(), 'da-compare-'));
  console.log(
    `[compare] ours (${repoRoot}) beside ${base.label} (${prevDir}); size ${args.size}; load average ${startLoad}`,
  );
  const ours = { name: 'ours' };
  const previous = { name: 'previous', dir: prevDir };
  const rows: CompareRow[] = [];
  for (const [i, suite] of args.only.entries()) {
    const got = { ours: [] as SuiteFigures[], previous: [] as SuiteFigures[] };
    let missing: CompareRow[] | undefined;
    for (let run = 0; run < args.runs && !missing; run++) {
      for (const b of previousFirst(i, run) ? [previous, ours] : [ours, previous]) {
        const f = await runSuite(suite, b, args.size, logDir, run);
        if (typeof f === 'string') {
          missing = missingRows(suite, b.name === 'ours' ? 'ours' : 'previous', f);
          break;
        }
        got[b.name === 'ours' ? 'ours' : 'previous'].push(f);
      }
    }
    rows.push(...(missing ?? compareSuite(got.ours, got.previous, args.margin)));
    for (const [name, runs] of Object.entries(got))
      for (const [r, f] of runs.entries())
        console.log(
          `[compare] ${suite} ${name} run ${r + 1}: recovery per kill ${f.recoveryMs.map((x, k) => `${f.killLabels?.[k] ?? k} ${Math.round(x)}`).join(', ')} ms`,
        );
  }
  const verdict = overallVerdict(rows);
  const noisy = rows.filter((r) => r.verdict === 'within noise').map((r) => `${r.suite} ${r.measure}`);
  console.log(
    [
      '',
      `Command: \`npm run compare:release -- --size ${args.size} --only ${args.only.join(',')} --runs ${args.runs}\` (${((Date.now() - t0) / 1000).toFixed(0)} s; ` +
        `runs in turn: ${args.only.map((s, i) => `${s} ${order(i, args.runs)}`).join(', ')}).`,
      `Load average at the start ${startLoad}, at the end ${load()}. Logs: ${logDir}.`,
      `Noise margin: ${marginText(args.margin)}.`,
      '',
      renderCompare(rows, `Previous: ${base.label}`),
      '',
      `compare:release: ${verdict} than ${base.label}` +
        (noisy.length > 0 ? ` (within noise, the runs could not tell: ${noisy.join('; ')})` : ''),
    ].join('\n'),
  );
  return verdict === 'WORSE' ? 1 : 0;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`compare:release: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      process.exit(2);
    },
  );
}
