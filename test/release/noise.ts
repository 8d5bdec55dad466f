// How compare:release tells "slower" from "the machine was busier" (issue 32): the times of
// several interleaved runs per build, compared with intervals rather than one median each. Pure.
//
// Recovery after a kill depends mostly on WHICH fault it was (a PostgreSQL crash takes 20 s, a
// frontend restart 7 s) and on where the sessions were in their turns. So the kills of ours and of
// the previous build are paired: the k-th kill of a kind in run i of ours with the k-th kill of
// that kind in run i of the previous build (the suites kill in a fixed order; runs i of both
// builds are adjacent in time). Each pair gives a ratio ours / previous; the estimate is the median
// ratio, and its interval the distribution-free sign-test interval of that median (order
// statistics of the ratios; no assumption about their distribution). Without labels on both sides
// (or when the kills do not pair up), each side's median gets its own sign-test interval and the
// ratio interval is their quotient, wider and cruder.
//
// Verdict against the limit 1 + margin: `no worse` when the whole interval is at or below it (or
// its top end is within the absolute slack of the previous median), `WORSE` when the whole interval
// is above it and past the slack, `within noise` when it straddles the limit — the runs cannot
// tell; more runs narrow the interval.

/** The confidence the intervals aim at (the sign-test interval's actual level is at least this, when n allows). */
export const CONFIDENCE = 0.9;

export function sortedFinite(xs: readonly number[]): number[] {
  return xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
}

/** Linear-interpolated quantile of the finite values (NaN when none). */
export function quantile(xs: readonly number[], q: number): number {
  const s = sortedFinite(xs);
  if (s.length === 0) return NaN;
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return (s[lo] as number) + ((s[hi] as number) - (s[lo] as number)) * (pos - lo);
}

function binomialCdfHalf(n: number, k: number): number {
  // P(B <= k), B ~ Binomial(n, 1/2).
  let c = 1;
  let sum = 0;
  for (let i = 0; i <= k; i++) {
    sum += c;
    c = (c * (n - i)) / (i + 1);
  }
  return sum / 2 ** n;
}

export interface Interval {
  lo: number;
  hi: number;
  /** The interval's actual confidence (≥ CONFIDENCE when n allows; lower for n < 5). */
  level: number;
  n: number;
}

/**
 * The sign-test interval of the median: [x_(k), x_(n-k+1)] with the largest k whose two-sided
 * level 1 − 2·P(B ≤ k−1) is still ≥ `confidence`; with too few values, [min, max] (its level is
 * said, below the aim).
 */
export function medianInterval(xs: readonly number[], confidence = CONFIDENCE): Interval {
  const s = sortedFinite(xs);
  const n = s.length;
  if (n === 0) return { lo: NaN, hi: NaN, level: 0, n };
  let k = 1;
  while (k + 1 <= Math.floor(n / 2) && 1 - 2 * binomialCdfHalf(n, k) >= confidence) k++;
  const level = 1 - 2 * binomialCdfHalf(n, k - 1);
  return { lo: s[k - 1] as number, hi: s[n - k] as number, level, n };
}

/** One timed kill: its kind (e.g. `postgres`) and its figure. */
export interface LabelledTime {
  label: string;
  ms: number;
}

/**
 * The paired ratios ours / previous: run i of each build, the k-th kill of each kind. Undefined
 * when the runs cannot be paired (no labels, a different number of runs).
 */
export function pairedRatios(
  ours: readonly (readonly LabelledTime[])[],
  prev: readonly (readonly LabelledTime[])[],
): number[] | undefined {
  if (ours.length !== prev.length || ours.length === 0) return undefined;
  const out: number[] = [];
  for (let i = 0; i < ours.length; i++) {
    const key = (xs: readonly LabelledTime[]): Map<string, number> => {
      const seen = new Map<string, number>();
      const m = new Map<string, number>();
      for (const x of xs) {
        const k = seen.get(x.label) ?? 0;
        seen.set(x.label, k + 1);
        m.set(`${x.label}#${k}`, x.ms);
      }
      return m;
    };
    const o = key(ours[i] as LabelledTime[]);
    const p = key(prev[i] as LabelledTime[]);
    if (o.size === 0 || p.size === 0) return undefined;
    for (const [k, v] of o) {
      const w = p.get(k);
      if (w !== undefined && Number.isFinite(v) && Number.isFinite(w) && w > 0) out.push(v / w);
    }
  }
  return out.length > 0 ? out : undefined;
}

export type NoiseVerdict = 'no worse' | 'WORSE' | 'within noise' | 'n/a';

export interface NoisyComparison {
  oursMedian: number;
  prevMedian: number;
  /** Interquartile range of each side's times. */
  oursIqr: [number, number];
  prevIqr: [number, number];
  /** ours / previous: the estimate and its interval. */
  ratio: number;
  interval: Interval;
  paired: boolean;
  verdict: NoiseVerdict;
}

/** Ours beside the previous build for one kind of time (recovery after a kill), several runs each. */
export function compareNoisy(
  ours: readonly (readonly LabelledTime[])[],
  prev: readonly (readonly LabelledTime[])[],
  ratioLimit: number,
  slackMs: number,
  pair = true,
): NoisyComparison {
  const o = ours.flat().map((x) => x.ms);
  const p = prev.flat().map((x) => x.ms);
  const oursMedian = quantile(o, 0.5);
  const prevMedian = quantile(p, 0.5);
  const pairs = pair ? pairedRatios(ours, prev) : undefined;
  let ratio: number;
  let interval: Interval;
  if (pairs) {
    interval = medianInterval(pairs);
    ratio = quantile(pairs, 0.5);
  } else {
    const io = medianInterval(o);
    const ip = medianInterval(p);
    interval = { lo: io.lo / ip.hi, hi: io.hi / ip.lo, level: io.level * ip.level, n: Math.min(io.n, ip.n) };
    ratio = oursMedian / prevMedian;
  }
  const limit = 1 + ratioLimit;
  // What the interval's ends mean in ms on the previous build's median (the absolute slack).
  const extraMs = (r: number): number => (r - 1) * prevMedian;
  let verdict: NoiseVerdict;
  if (!Number.isFinite(interval.lo) || !Number.isFinite(interval.hi) || !Number.isFinite(prevMedian)) verdict = 'n/a';
  else if (interval.hi <= limit || extraMs(interval.hi) <= slackMs) verdict = 'no worse';
  else if (interval.lo > limit && extraMs(interval.lo) > slackMs) verdict = 'WORSE';
  else verdict = 'within noise';
  return {
    oursMedian,
    prevMedian,
    oursIqr: [quantile(o, 0.25), quantile(o, 0.75)],
    prevIqr: [quantile(p, 0.25), quantile(p, 0.75)],
    ratio,
    interval,
    paired: pairs !== undefined,
    verdict,
  };
}
