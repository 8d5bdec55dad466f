// The figures a fault suite (test:faults, test:cluster) reports for one build, and the same-run
// comparison of two builds (test/release/compare.ts: ours beside the previous release). Pure,
// except writeSuiteFigures. Issue 32: "figures no worse than before (same run, previous tag beside it)".
import { writeFileSync } from 'node:fs';
import { compareNoisy, type LabelledTime, type NoisyComparison } from './noise';

/** Where a suite writes its figures as JSON when set (test/release/compare.ts sets it). */
export const SUITE_RESULT_ENV = 'DURABLE_AGENT_SUITE_RESULT';

export interface SuiteFigures {
  suite: 'faults' | 'cluster';
  /** Which build's worker ran (a path, or 'ours'). */
  build: string;
  ok: boolean;
  sessionsCompleted: number;
  sessionsStarted: number;
  /** Sessions that did not end completed, plus calls whose effect is missing or that failed (the check's own words). */
  lost: number;
  /** Effects of completed calls found twice. */
  duplicated: number;
  /** Calls reported unknown_outcome (correct behaviour when a kill lands mid-call; depends on where kills land). */
  unknownOutcomes: number;
  /** Per kill (worker or server process, PostgreSQL): ms until every session that went on made its next model request. */
  recoveryMs: number[];
  /** Per kill, its kind (`worker`, `server`, `postgres`, …), in the order of recoveryMs: the pairing of test/release/noise.ts. */
  killLabels?: string[];
  /** Control (paceGaps): a session's ms between two model requests away from any kill, pooled. */
  paceMs?: number[];
  /** Per worker drained by a rolling deploy: ms from SIGTERM to its exit. */
  drainMs: number[];
  wallS: number;
}

/**
 * The model requests each session made, by time: what recovery is read from. The suites note
 * every request their fake Messages API serves.
 */
export class ProgressLog {
  readonly requests = new Map<string, number[]>();
  /** The requests answered with a call that waits on a child session (the Agent tool), by session. */
  readonly delegations = new Map<string, number[]>();
  note(session: string, at = Date.now()): void {
    const list = this.requests.get(session);
    if (list) list.push(at);
    else this.requests.set(session, [at]);
  }
  /** The request of `session` at `at` was answered with a foreground Agent call: its next request waits for the child. */
  delegated(session: string, at: number): void {
    const list = this.delegations.get(session);
    if (list) list.push(at);
    else this.delegations.set(session, [at]);
  }
}

/**
 * For each kill time: the ms until every session that was going — it had made a model request
 * before the kill and made another after it — made its first request after the kill (the slowest
 * session to resume sets the figure). A session that started after the kill (a later scenario, a
 * subagent) or never asked again (it had ended, or was lost, which is counted apart) does not
 * count. Nor does a session whose last request before the kill was answered with a foreground
 * Agent call (`delegations`): its next request waits for the child's whole run — a turn's pace,
 * not recovery — and the child, going at the kill, counts itself. NaN when no session was going.
 * Includes a turn's ordinary pace (tool time), the same for both builds.
 */
export function recoveryAfter(
  kills: readonly number[],
  requests: ReadonlyMap<string, readonly number[]>,
  delegations: ReadonlyMap<string, readonly number[]> = new Map(),
): number[] {
  return recoveryDetail(kills, requests, delegations).map((x) => x.ms);
}

/** recoveryAfter with the session that set each figure (for the suite's log). */
export function recoveryDetail(
  kills: readonly number[],
  requests: ReadonlyMap<string, readonly number[]>,
  delegations: ReadonlyMap<string, readonly number[]> = new Map(),
): Array<{ ms: number; session?: string }> {
  return kills.map((t) => {
    let worst: { ms: number; session?: string } = { ms: NaN };
    for (const [session, times] of requests) {
      let first = Infinity;
      let last = -Infinity;
      for (const x of times) {
        if (x <= t) last = Math.max(last, x);
        else if (x < first) first = x;
      }
      if (last === -Infinity || first === Infinity) continue;
      if (delegations.get(session)?.includes(last)) continue;
      const d = first - t;
      if (!(worst.ms >= d)) worst = { ms: d, session };
    }
    return worst;
  });
}

/** A kill this recent (ms) before a gap's start, or inside it, leaves the gap out of the pace. */
export const PACE_QUIET_MS = 5_000;

/**
 * The control for recovery: every gap between two consecutive model requests of one session that
 * neither contains a kill nor starts within PACE_QUIET_MS after one, and that does not wait on a
 * child (delegations) — the turn's ordinary pace (tools, approvals, workflow and activity tasks)
 * under the same load. Recovery minus pace is what the kills cost.
 */
export function paceGaps(
  kills: readonly number[],
  requests: ReadonlyMap<string, readonly number[]>,
  delegations: ReadonlyMap<string, readonly number[]> = new Map(),
): number[] {
  const out: number[] = [];
  for (const [session, times] of requests) {
    const s = [...times].sort((a, b) => a - b);
    const delegated = delegations.get(session) ?? [];
    for (let i = 1; i < s.length; i++) {
      const a = s[i - 1] as number;
      const b = s[i] as number;
      if (delegated.includes(a)) continue;
      if (kills.some((k) => k > a - PACE_QUIET_MS && k <= b)) continue;
      out.push(b - a);
    }
  }
  return out;
}

export function writeSuiteFigures(figures: SuiteFigures, file = process.env[SUITE_RESULT_ENV]): void {
  if (file) writeFileSync(file, JSON.stringify(figures, null, 1));
}

// --- The comparison ---

export function medianOf(xs: readonly number[]): number {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

export function maxOf(xs: readonly number[]): number {
  const s = xs.filter((x) => Number.isFinite(x));
  return s.length === 0 ? NaN : Math.max(...s);
}

/** How much worse a time may be before it counts as worse: both the ratio and the absolute slack must be passed. */
export interface NoiseMargin {
  /** Relative, for medians and wall time (0.25 = 25 % slower). */
  ratio: number;
  /** Relative, for maxima (one slow kill moves them). */
  maxRatio: number;
  /** Absolute ms a time may grow whatever the ratio (small figures swing by a turn's pace). */
  slackMs: number;
}

export const DEFAULT_MARGIN: NoiseMargin = { ratio: 0.25, maxRatio: 0.5, slackMs: 1_000 };

export type RowVerdict = 'no worse' | 'WORSE' | 'within noise' | 'info' | 'n/a';

export interface CompareRow {
  suite: string;
  measure: string;
  ours: string;
  previous: string;
  /** ours / previous, for the figures where a ratio means something. */
  ratio: string;
  verdict: RowVerdict;
}

type Kind = 'pass' | 'count-more-is-better' | 'count-less-is-better' | 'info' | 'median' | 'max' | 'wall';

const fmtMs = (x: number): string => (Number.isFinite(x) ? `${Math.round(x)} ms` : '—');

/** A time (ms) is worse when it passes both the ratio and the absolute slack; a missing figure is n/a. */
export function timeVerdict(ours: number, prev: number, ratio: number, slackMs: number): RowVerdict {
  if (!Number.isFinite(ours) || !Number.isFinite(prev)) return 'n/a';
  return ours > prev * (1 + ratio) && ours - prev > slackMs ? 'WORSE' : 'no worse';
}

function row(suite: string, measure: string, kind: Kind, o: number, p: number, m: NoiseMargin): CompareRow {
  const r = Number.isFinite(o) && Number.isFinite(p) && p > 0 ? `${(o / p).toFixed(2)}×` : '—';
  switch (kind) {
    case 'pass':
      return {
        suite,
        measure,
        ours: o ? 'PASS' : 'FAIL',
        previous: p ? 'PASS' : 'FAIL',
        ratio: '—',
        verdict: o >= p ? 'no worse' : 'WORSE',
      };
    case 'count-more-is-better':
    case 'count-less-is-better': {
      const worse = kind === 'count-more-is-better' ? o < p : o > p;
      return {
        suite,
        measure,
        ours: String(o),
        previous: String(p),
        ratio: '—',
        verdict: worse ? 'WORSE' : 'no worse',
      };
    }
    case 'info':
      return { suite, measure, ours: String(o), previous: String(p), ratio: '—', verdict: 'info' };
    case 'wall':
      return {
        suite,
        measure,
        ours: `${o.toFixed(0)} s`,
        previous: `${p.toFixed(0)} s`,
        ratio: r,
        verdict: timeVerdict(o * 1000, p * 1000, m.ratio, m.slackMs),
      };
    default:
      return {
        suite,
        measure,
        ours: fmtMs(o),
        previous: fmtMs(p),
        ratio: r,
        verdict: timeVerdict(o, p, kind === 'max' ? m.maxRatio : m.ratio, m.slackMs),
      };
  }
}

/** Several runs of one build as one: counts summed, times pooled, the wall time's median. */
export function combineRuns(runs: readonly SuiteFigures[]): SuiteFigures {
  const first = runs[0];
  if (!first) throw new Error('combineRuns: no runs');
  const sum = (f: (x: SuiteFigures) => number): number => runs.reduce((n, x) => n + f(x), 0);
  return {
    suite: first.suite,
    build: first.build,
    ok: runs.every((x) => x.ok),
    sessionsCompleted: sum((x) => x.sessionsCompleted),
    sessionsStarted: sum((x) => x.sessionsStarted),
    lost: sum((x) => x.lost),
    duplicated: sum((x) => x.duplicated),
    unknownOutcomes: sum((x) => x.unknownOutcomes),
    recoveryMs: runs.flatMap((x) => x.recoveryMs),
    paceMs: runs.flatMap((x) => x.paceMs ?? []),
    drainMs: runs.flatMap((x) => x.drainMs),
    wallS: medianOf(runs.map((x) => x.wallS)),
  };
}

const labelled = (x: SuiteFigures): LabelledTime[] =>
  x.recoveryMs.map((ms, i) => ({ label: x.killLabels?.[i] ?? `kill ${i}`, ms }));
const hasLabels = (x: SuiteFigures): boolean => x.killLabels?.length === x.recoveryMs.length;

/**
 * The median recovery of several runs per build (test/release/noise.ts): each side's median with
 * its interquartile range, the median of the paired ratios with its interval, and `within noise`
 * when that interval straddles the limit.
 */
export function recoveryRow(
  suite: string,
  ours: readonly SuiteFigures[],
  prev: readonly SuiteFigures[],
  m: NoiseMargin,
): CompareRow {
  const pair = [...ours, ...prev].every(hasLabels);
  const c = compareNoisy(ours.map(labelled), prev.map(labelled), m.ratio, m.slackMs, pair);
  return noisyRow(suite, `recovery after a kill, median (${ours.length}+${prev.length} runs)`, c);
}

/** A row of a noisy comparison: each side's median and IQR, the ratio with its interval, the verdict. */
function noisyRow(suite: string, measure: string, c: NoisyComparison): CompareRow {
  const side = (med: number, iqr: [number, number]): string => `${fmtMs(med)} (IQR ${fmtMs(iqr[0])}–${fmtMs(iqr[1])})`;
  const f = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : '—');
  const how = c.paired ? `median of ${c.interval.n} paired ratios` : 'ratio of medians, unpaired';
  return {
    suite,
    measure,
    ours: side(c.oursMedian, c.oursIqr),
    previous: side(c.prevMedian, c.prevIqr),
    ratio: `${f(c.ratio)}× [${f(c.interval.lo)}–${f(c.interval.hi)}, ${Math.round(c.interval.level * 100)} %; ${how}]`,
    verdict: c.verdict,
  };
}

/** The control: each side's median gap between a session's requests away from kills, unpaired. */
function paceRows(suite: string, ours: SuiteFigures, prev: SuiteFigures, m: NoiseMargin): CompareRow[] {
  const o = ours.paceMs ?? [];
  const p = prev.paceMs ?? [];
  if (o.length === 0 || p.length === 0) return [];
  const c = compareNoisy([o.map((ms) => ({ label: '', ms }))], [p.map((ms) => ({ label: '', ms }))], m.ratio, 0, false);
  return [
    noisyRow(
      suite,
      `control: a session's gap between model requests away from kills, median (${o.length} / ${p.length} gaps)`,
      c,
    ),
  ];
}

/**
 * One suite's rows: ours beside the previous release's, each with its verdict. Several runs per
 * build (compare:release --runs): counts are summed (one lost effect in any run is worse), the
 * recovery and drain medians are compared with their intervals (noisyRow), maxima are pooled, the
 * wall time is each side's median run.
 */
export function compareSuite(
  oursRuns: SuiteFigures | readonly SuiteFigures[],
  prevRuns: SuiteFigures | readonly SuiteFigures[],
  m: NoiseMargin = DEFAULT_MARGIN,
): CompareRow[] {
  const oRuns: readonly SuiteFigures[] = Array.isArray(oursRuns) ? oursRuns : [oursRuns as SuiteFigures];
  const pRuns: readonly SuiteFigures[] = Array.isArray(prevRuns) ? prevRuns : [prevRuns as SuiteFigures];
  const ours = combineRuns(oRuns);
  const prev = combineRuns(pRuns);
  const s = ours.suite;
  const rows: CompareRow[] = [
    row(s, 'result (every invariant held)', 'pass', Number(ours.ok), Number(prev.ok), m),
    {
      ...row(s, 'sessions completed', 'count-more-is-better', ours.sessionsCompleted, prev.sessionsCompleted, m),
      ours: `${ours.sessionsCompleted}/${ours.sessionsStarted}`,
      previous: `${prev.sessionsCompleted}/${prev.sessionsStarted}`,
    },
    row(
      s,
      'lost (sessions not completed + calls whose effect is missing or that failed)',
      'count-less-is-better',
      ours.lost,
      prev.lost,
      m,
    ),
    row(s, 'duplicated effects', 'count-less-is-better', ours.duplicated, prev.duplicated, m),
    row(s, 'unknown outcomes reported (where kills land)', 'info', ours.unknownOutcomes, prev.unknownOutcomes, m),
    row(s, `kills timed (recovery)`, 'info', ours.recoveryMs.length, prev.recoveryMs.length, m),
    recoveryRow(s, oRuns, pRuns, m),
    ...paceRows(s, ours, prev, m),
    row(s, 'recovery after a kill, max', 'max', maxOf(ours.recoveryMs), maxOf(prev.recoveryMs), m),
  ];
  if (ours.drainMs.length + prev.drainMs.length > 0) {
    // Paired like recovery: the k-th worker of run i's rolling deploy in each build.
    const drains = (x: SuiteFigures): LabelledTime[] => x.drainMs.map((ms, i) => ({ label: `drain ${i}`, ms }));
    rows.push(
      noisyRow(
        s,
        `drain on SIGTERM (rolling deploy), median (${oRuns.length}+${pRuns.length} runs)`,
        compareNoisy(oRuns.map(drains), pRuns.map(drains), m.ratio, m.slackMs),
      ),
    );
    rows.push(row(s, 'drain on SIGTERM (rolling deploy), max', 'max', maxOf(ours.drainMs), maxOf(prev.drainMs), m));
  }
  rows.push(row(s, oRuns.length > 1 ? 'wall time (median run)' : 'wall time', 'wall', ours.wallS, prev.wallS, m));
  return rows;
}

/** A suite that did not produce figures (it crashed): every row of it is WORSE for ours, n/a for the previous build. */
export function missingRows(suite: string, which: 'ours' | 'previous', why: string): CompareRow[] {
  return [
    {
      suite,
      measure: `figures (${why.slice(0, 160)})`,
      ours: which === 'ours' ? 'none' : '—',
      previous: which === 'previous' ? 'none' : '—',
      ratio: '—',
      verdict: which === 'ours' ? 'WORSE' : 'n/a',
    },
  ];
}

export function renderCompare(rows: readonly CompareRow[], prevLabel: string): string {
  const head = ['Suite', 'Measure', 'Ours', prevLabel, 'Ours / previous', 'Verdict'];
  const lines = [
    head,
    head.map(() => '---'),
    ...rows.map((r) => [r.suite, r.measure, r.ours, r.previous, r.ratio, r.verdict]),
  ];
  return lines.map((c) => `| ${c.join(' | ')} |`).join('\n');
}

/** WORSE when a row is; NO WORSE when none is, though a row `within noise` is said (the runs could not tell). */
export function overallVerdict(rows: readonly CompareRow[]): 'NO WORSE' | 'WORSE' {
  return rows.some((r) => r.verdict === 'WORSE') ? 'WORSE' : 'NO WORSE';
}

export function marginText(m: NoiseMargin): string {
  return `a time is WORSE when ours is more than ${Math.round(m.ratio * 100)} % (maxima: ${Math.round(m.maxRatio * 100)} %) above the previous build's AND more than ${m.slackMs} ms above it; the median recovery and drain compare the interval of their paired ratios (test/release/noise.ts) with ${(1 + m.ratio).toFixed(2)}×: WORSE when the whole interval is above, within noise when it straddles; counts (pass, sessions, lost, duplicated) must not be worse at all`;
}
