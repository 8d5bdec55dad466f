// `npm run bench`'s verdict against the previous release (issue 32: "figures no worse than before,
// same run, previous tag beside it"): one line per table row. The cost rows measure the previous
// release's worker beside ours in the same run (bench/historyCost.ts, rounds in turn), so each of
// their figures gets a verdict against a stated noise margin; the other rows are measured for
// ours only and say so. Pure.
import { timeVerdict, type RowVerdict } from '../test/release/figures';
import { median } from './floor';
import type { CostFigures } from './historyCost';

/** Times (wall, CPU, hand-off): worse past +25 % AND +2 ms. History sizes and actions: past +5 % (they hardly vary). */
export const BENCH_MARGIN = { timeRatio: 0.25, timeSlackMs: 2, sizeRatio: 0.05 };

export interface NoWorseLine {
  measure: string;
  ours: number;
  previous: number;
  unit: string;
  verdict: RowVerdict;
}

/** Actions per call without heartbeats: a release whose worker does not count them is compared on the rest. */
const actionsNoHeartbeats = (x: CostFigures): number =>
  x.perCall.actions - (Number.isFinite(x.actionsPerCall.heartbeats) ? x.actionsPerCall.heartbeats : 0);

/** The cost figures of ours beside the previous release's, each with its verdict (lower is better for all). */
export function costNoWorse(ours: CostFigures, prev: CostFigures): NoWorseLine[] {
  const m = BENCH_MARGIN;
  const size = (measure: string, unit: string, f: (x: CostFigures) => number): NoWorseLine => ({
    measure,
    unit,
    ours: f(ours),
    previous: f(prev),
    verdict: timeVerdict(f(ours), f(prev), m.sizeRatio, 0),
  });
  const time = (measure: string, f: (x: CostFigures) => number): NoWorseLine => ({
    measure,
    unit: 'ms',
    ours: f(ours),
    previous: f(prev),
    verdict: timeVerdict(f(ours), f(prev), m.timeRatio, m.timeSlackMs),
  });
  return [
    size('History per tool call: events', 'events', (x) => x.perCall.events),
    size('History per tool call: bytes', 'bytes', (x) => x.perCall.bytes),
    time('Added wall time per model step over the in-process runner (median of rounds)', (x) => median(x.addedWallMs)),
    time('CPU per model step, worker + server', (x) => x.perStep.workerCpuMs + x.perStep.serverCpuMs),
    time('Turn-boundary hand-off, median', (x) => x.handoffMedian),
    size('Temporal Cloud actions per tool call (heartbeats left out)', 'actions', actionsNoHeartbeats),
  ];
}

/** The lines `npm run bench` prints under its table: the cost figures' verdicts, then the rows measured for ours only. */
export function renderNoWorse(
  label: string,
  lines: readonly NoWorseLine[] | string,
  oursOnly: readonly string[],
): string {
  const m = BENCH_MARGIN;
  const out = [
    `No worse than the previous release ${label}, same run (noise margin: a time is worse past +${m.timeRatio * 100} % and +${m.timeSlackMs} ms, a history size or action count past +${m.sizeRatio * 100} %):`,
  ];
  const f = (x: number, unit: string): string => `${Number.isFinite(x) ? x.toFixed(x < 10 ? 1 : 0) : '-'} ${unit}`;
  if (typeof lines === 'string') out.push(`  cost rows: the previous release's figures are missing (${lines})`);
  else
    for (const l of lines) {
      const ratio = l.previous > 0 && Number.isFinite(l.ours) ? ` (${(l.ours / l.previous).toFixed(2)}×)` : '';
      out.push(
        `  ${l.verdict === 'WORSE' ? 'WORSE   ' : l.verdict === 'n/a' ? 'n/a     ' : 'no worse'}  ${l.measure}: ours ${f(l.ours, l.unit)}, previous ${f(l.previous, l.unit)}${ratio}`,
      );
    }
  for (const r of oursOnly)
    out.push(`  ours only  ${r.slice(0, 90)}: no same-run figure of the previous release (target above)`);
  return out.join('\n');
}
