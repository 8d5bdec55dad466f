// unit: issue 32's same-run comparison of the fault suites (test/release/figures.ts, compare.ts):
// recovery read from the model requests after each kill, the verdict per row against the noise
// margin (a time must pass both the ratio and the absolute slack; counts may not be worse at all),
// a build that produced no figures, and the command line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  compareSuite,
  DEFAULT_MARGIN,
  maxOf,
  medianOf,
  missingRows,
  overallVerdict,
  ProgressLog,
  paceGaps,
  recoveryAfter,
  renderCompare,
  timeVerdict,
  type SuiteFigures,
} from '../release/figures';
import { parseCompareArgs, previousFirst } from '../release/compare';
import { compareNoisy, medianInterval, pairedRatios, quantile } from '../release/noise';

const base: SuiteFigures = {
  suite: 'faults',
  build: 'x',
  ok: true,
  sessionsCompleted: 13,
  sessionsStarted: 13,
  lost: 0,
  duplicated: 0,
  unknownOutcomes: 3,
  recoveryMs: [2_000, 3_000, 4_000],
  drainMs: [],
  wallS: 200,
};

test('recovery: per kill, until the slowest session that was going asked again', () => {
  const log = new ProgressLog();
  for (const [s, t] of [
    ['a', 100],
    ['a', 1_500],
    ['b', 900],
    ['b', 4_000],
    ['c', 200], // ended before the kill: never asks again, does not count
    ['d', 60_000], // started after the kill (a later scenario, a subagent): does not count
  ] as const)
    log.note(s, t);
  assert.deepEqual(recoveryAfter([1_000], log.requests), [3_000]);
  // A kill after every request: nobody asked again.
  assert.ok(Number.isNaN(recoveryAfter([5_000], log.requests)[0]));
  // Requests are not assumed sorted.
  log.note('a', 1_200);
  assert.deepEqual(recoveryAfter([1_000, 1_300], log.requests), [3_000, 2_700]);
});

test('recovery: a session waiting on its subagent does not set the figure; the child does', () => {
  const log = new ProgressLog();
  log.note('p', 100);
  log.delegated('p', 100); // answered with an Agent call: its next request waits for the child
  log.note('p', 9_000);
  log.note('px4', 500);
  log.note('px4', 2_500);
  assert.deepEqual(recoveryAfter([1_000], log.requests, log.delegations), [1_500]);
  // Without the delegation noted, the parent's wait for its child set it.
  assert.deepEqual(recoveryAfter([1_000], log.requests), [8_000]);
  // After the parent's next (non-delegated) request, it counts again.
  log.note('p', 9_500);
  assert.deepEqual(recoveryAfter([9_200], log.requests, log.delegations), [300]);
});

test("pace: gaps between a session's requests, away from kills and delegations", () => {
  const log = new ProgressLog();
  for (const t of [0, 1_000, 3_000, 20_000, 21_500]) log.note('a', t);
  log.delegated('a', 3_000); // 3 000 → 20 000 waits on a child
  // Kill at 2 000: the gap 1 000 → 3 000 contains it; 0 → 1 000 is before it; 20 000 → 21 500 is well after.
  assert.deepEqual(paceGaps([2_000], log.requests, log.delegations), [1_000, 1_500]);
  // A kill 4 s before a gap's start leaves it out too.
  assert.deepEqual(paceGaps([16_500], log.requests, log.delegations), [1_000, 2_000]);
  // The pace row appears when both sides have gaps: forty alike a side are no worse, six are too few to tell.
  const forty = { ...base, paceMs: Array.from({ length: 40 }, (_, i) => 1_000 + 10 * i) };
  assert.equal(compareSuite(forty, forty).find((r) => r.measure.startsWith('control'))?.verdict, 'no worse');
  const six = { ...base, paceMs: [1_000, 1_200, 1_400, 1_300, 1_100, 1_250] };
  assert.equal(compareSuite(six, six).find((r) => r.measure.startsWith('control'))?.verdict, 'within noise');
  assert.ok(!compareSuite(base, base).some((r) => r.measure.startsWith('control')));
});

test('noise: the sign-test interval of a median, the paired ratios, the verdict', () => {
  assert.equal(quantile([1, 2, 3, 4], 0.5), 2.5);
  // n = 6: [min, max] at 96.9 %; n = 12: the 3rd and 10th values at 96.1 %.
  const six = medianInterval([6, 1, 5, 2, 4, 3]);
  assert.deepEqual([six.lo, six.hi], [1, 6]);
  assert.ok(Math.abs(six.level - (1 - 2 / 64)) < 1e-9);
  const twelve = medianInterval(Array.from({ length: 12 }, (_, i) => i + 1));
  assert.deepEqual([twelve.lo, twelve.hi], [3, 10]);
  assert.ok(twelve.level >= 0.9);
  // Pairs by kind and occurrence within run i, whatever the order of the kills.
  assert.deepEqual(
    pairedRatios(
      [
        [
          { label: 'a', ms: 20 },
          { label: 'b', ms: 30 },
          { label: 'a', ms: 40 },
        ],
      ],
      [
        [
          { label: 'b', ms: 10 },
          { label: 'a', ms: 10 },
          { label: 'a', ms: 20 },
        ],
      ],
    ),
    [2, 3, 2],
  );
  assert.equal(pairedRatios([[{ label: 'a', ms: 1 }]], []), undefined);
  const run = (xs: number[]) => xs.map((ms, i) => ({ label: String(i), ms }));
  const prev = [run([10_000, 8_000, 20_000, 12_000, 9_000, 7_000])];
  // 1.26× on the median, but pairs from 0.9× to 1.6×: the interval straddles 1.25×.
  const noisy = compareNoisy([run([12_600, 7_200, 32_000, 15_000, 10_000, 9_000])], prev, 0.25, 1_000);
  assert.equal(noisy.verdict, 'within noise');
  assert.ok(noisy.interval.lo < 1.25 && noisy.interval.hi > 1.25);
  // Every pair at most 1.2×: no worse; every pair 1.5×+ and seconds slower: WORSE.
  assert.equal(
    compareNoisy([run([11_000, 9_000, 24_000, 12_000, 10_000, 7_000])], prev, 0.25, 1_000).verdict,
    'no worse',
  );
  assert.equal(
    compareNoisy([run([15_000, 13_000, 30_000, 19_000, 14_000, 11_000])], prev, 0.25, 1_000).verdict,
    'WORSE',
  );
  // 2× but only 500 ms: within the absolute slack, no worse.
  assert.equal(compareNoisy([run([1_000])], [run([500])], 0.25, 1_000).verdict, 'no worse');
});

test('median and max skip missing figures', () => {
  assert.equal(medianOf([3, 1, NaN, 2]), 2);
  assert.equal(medianOf([4, 1, 2, 3]), 2.5);
  assert.ok(Number.isNaN(medianOf([])));
  assert.equal(maxOf([1, NaN, 5]), 5);
  assert.ok(Number.isNaN(maxOf([NaN])));
});

test('a time is WORSE only past both the ratio and the absolute slack', () => {
  // 50 % slower but only 500 ms: noise.
  assert.equal(timeVerdict(1_500, 1_000, 0.25, 1_000), 'no worse');
  // 2 s slower but only 10 %: noise.
  assert.equal(timeVerdict(22_000, 20_000, 0.25, 1_000), 'no worse');
  assert.equal(timeVerdict(30_000, 20_000, 0.25, 1_000), 'WORSE');
  assert.equal(timeVerdict(NaN, 20_000, 0.25, 1_000), 'n/a');
  // Faster is never worse.
  assert.equal(timeVerdict(1_000, 20_000, 0, 0), 'no worse');
});

test('equal figures are no worse on every row; unknown outcomes are info', () => {
  const rows = compareSuite(base, { ...base, build: 'prev' });
  assert.equal(overallVerdict(rows), 'NO WORSE');
  assert.ok(rows.every((r) => r.verdict !== 'WORSE'));
  assert.equal(rows.find((r) => r.measure.startsWith('unknown'))?.verdict, 'info');
  assert.equal(rows.find((r) => r.measure === 'sessions completed')?.ours, '13/13');
  // No drain rows without drains.
  assert.ok(!rows.some((r) => r.measure.startsWith('drain')));
});

test('each count that got worse is flagged, whatever the margin', () => {
  const worse = (o: Partial<SuiteFigures>): string[] =>
    compareSuite({ ...base, ...o }, base, { ratio: 9, maxRatio: 9, slackMs: 1e9 })
      .filter((r) => r.verdict === 'WORSE')
      .map((r) => r.measure);
  assert.deepEqual(worse({ ok: false }), ['result (every invariant held)']);
  assert.deepEqual(worse({ sessionsCompleted: 12 }), ['sessions completed']);
  assert.deepEqual(worse({ lost: 1 }), [
    'lost (sessions not completed + calls whose effect is missing or that failed)',
  ]);
  assert.deepEqual(worse({ duplicated: 1 }), ['duplicated effects']);
  assert.deepEqual(worse({ unknownOutcomes: 30 }), []);
  // Better counts are fine.
  assert.deepEqual(
    compareSuite(base, { ...base, ok: false, lost: 2 }).filter((r) => r.verdict === 'WORSE'),
    [],
  );
});

test('slower recovery, drain and wall time are flagged past the margin, with the ratio shown', () => {
  const prev: SuiteFigures = { ...base, suite: 'cluster', drainMs: [1_000, 1_200] };
  const ours: SuiteFigures = {
    ...prev,
    recoveryMs: [5_000, 6_000, 20_000],
    drainMs: [5_000, 6_000],
    wallS: 300,
  };
  const rows = compareSuite(ours, prev, DEFAULT_MARGIN);
  const by = (m: string) => rows.find((r) => r.measure.startsWith(m));
  // Three unpaired kills a side: the interval of the ratio of medians (1.25–10×) touches the limit.
  assert.equal(by('recovery after a kill, median')?.verdict, 'within noise');
  assert.match(by('recovery after a kill, median')?.ratio ?? '', /^2\.00× \[1\.25–10\.00, /);
  assert.equal(by('recovery after a kill, max')?.verdict, 'WORSE');
  // Two drains a side: their paired interval [min, max] of 4.17–5× is all above the limit.
  assert.equal(by('drain on SIGTERM (rolling deploy), median')?.verdict, 'WORSE');
  // One drain 2× slower, one 0.9×: the two runs cannot tell.
  const mixed = compareSuite({ ...prev, drainMs: [2_500, 1_100] }, prev, DEFAULT_MARGIN);
  assert.equal(
    mixed.find((r) => r.measure.startsWith('drain on SIGTERM (rolling deploy), median'))?.verdict,
    'within noise',
  );
  assert.equal(by('wall time')?.verdict, 'WORSE');
  assert.equal(by('wall time')?.ours, '300 s');
  assert.equal(overallVerdict(rows), 'WORSE');
  // Labelled kills, two runs a side, every pair 2× slower: the paired interval is all above the limit.
  const labels = ['history-1', 'matching', 'frontend', 'postgres', 'history-2', 'worker service'];
  const prevL: SuiteFigures = {
    ...prev,
    recoveryMs: [20_000, 9_000, 8_000, 24_000, 11_000, 6_000],
    killLabels: labels,
  };
  const oursL: SuiteFigures = { ...prevL, recoveryMs: prevL.recoveryMs.map((x) => 2 * x) };
  const worse = compareSuite([oursL, oursL], [prevL, prevL], DEFAULT_MARGIN);
  assert.equal(worse.find((r) => r.measure.startsWith('recovery after a kill, median'))?.verdict, 'WORSE');
  assert.match(
    worse.find((r) => r.measure.startsWith('recovery after a kill, median'))?.ratio ?? '',
    /median of 12 paired ratios/,
  );
  // The same figures the other way round: all no worse.
  assert.equal(overallVerdict(compareSuite(prev, ours, DEFAULT_MARGIN)), 'NO WORSE');
  assert.match(
    renderCompare(rows, 'Previous: 0.2.0'),
    /\| cluster \| wall time \| 300 s \| 200 s \| 1\.50× \| WORSE \|/,
  );
});

test('a build without figures: WORSE when it is ours, n/a when it is the previous one', () => {
  assert.equal(overallVerdict(missingRows('faults', 'ours', 'exit 2')), 'WORSE');
  assert.equal(overallVerdict(missingRows('faults', 'previous', 'exit 2')), 'NO WORSE');
});

test('the command line', () => {
  assert.deepEqual(parseCompareArgs([]).only, ['faults', 'cluster']);
  const a = parseCompareArgs(['--against', '0.1.0', '--size=full', '--only', 'cluster', '--margin', '0.4']);
  assert.equal(a.against, '0.1.0');
  assert.equal(a.size, 'full');
  assert.deepEqual(a.only, ['cluster']);
  assert.equal(a.margin.ratio, 0.4);
  assert.throws(() => parseCompareArgs(['--size', 'huge']), /reduced or full/);
  assert.throws(() => parseCompareArgs(['--only', 'bench']), /unknown suite bench/);
  assert.throws(() => parseCompareArgs(['--margin', 'x']), /ratio/);
  assert.throws(() => parseCompareArgs(['--nope']), /unknown argument/);
  assert.equal(parseCompareArgs([]).runs, 2);
  assert.equal(parseCompareArgs(['--runs', '3']).runs, 3);
  assert.throws(() => parseCompareArgs(['--runs', '0']), /whole number of runs/);
  // Pairs alternate which build goes first, and so do suites.
  assert.deepEqual(
    [0, 1, 2, 3].map((r) => previousFirst(0, r)),
    [true, false, true, false],
  );
  assert.equal(previousFirst(1, 0), false);
});
