// The JavaScript Grep engine's matching, bounded in time (issue 30). The pattern is the agent's, and a
// RegExp that backtracks catastrophically (`(a+)+$` over a line of `a`s and a `!`) held the worker's one
// thread for as long as it liked: 5 s for 26 `a`s, 15 s for 30, doubling with each `a`. V8's linear-time
// fallback past 50,000 backtracks (turned on in globPattern.ts) does not help here: it refuses RegExps
// with the `u` or `i` flag, and Grep's carry `u`. So every match is found inside a slice: one synchronous
// call under `vm`'s `timeout` (V8 terminates the RegExp mid-backtrack), which hands the thread back to
// the event loop after SLICE_YIELD_MS of work and fails with PatternTimeoutError when one step (a
// single RegExp exec) runs past SLICE_LIMIT_MS.
import * as vm from 'node:vm';
import { throwIfAborted } from './paths';

/** The longest one step (one RegExp exec) may hold the thread. */
export const SLICE_LIMIT_MS = 1000;
/** After this much work a slice gives the thread back to the event loop. */
const SLICE_YIELD_MS = 100;

/** A RegExp step ran past SLICE_LIMIT_MS: the file is not searched. */
export class PatternTimeoutError extends Error {
  constructor() {
    super(`the pattern ran over ${SLICE_LIMIT_MS / 1000} s on one line (does it backtrack catastrophically?)`);
    this.name = 'PatternTimeoutError';
  }
}

const sliceScript = new vm.Script('step()', { filename: 'grep-slice' });
const sliceContext = vm.createContext({ step: (): boolean => true }) as { step: () => boolean };

// One slice per turn of the event loop, whatever the number of files and calls: slices wait in one
// queue, and each runs in its own check phase. (A slice that ran as soon as its file was read would
// run in the poll phase beside every other file read then: six files at 1 s each held the thread 5.6 s.)
const turns: Array<() => void> = [];
let pumping = false;

function pump(): void {
  const run = turns.shift();
  if (!run) {
    pumping = false;
    return;
  }
  run();
  setImmediate(pump);
}

/** Resolves in a turn of the event loop of its own. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    turns.push(resolve);
    if (!pumping) {
      pumping = true;
      setImmediate(pump);
    }
  });
}

/**
 * Runs `work` in slices until it returns true. `work` is called with `due`, true once the slice has
 * used its share of the thread: it should then keep its place and return false (not done yet).
 */
export async function runInSlices(work: (due: () => boolean) => boolean, signal?: AbortSignal): Promise<void> {
  for (;;) {
    await nextTurn();
    throwIfAborted(signal);
    const stop = Date.now() + SLICE_YIELD_MS;
    sliceContext.step = () => work(() => Date.now() >= stop);
    let done: unknown;
    try {
      done = sliceScript.runInContext(sliceContext, { timeout: SLICE_LIMIT_MS });
    } catch (err) {
      if ((err as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new PatternTimeoutError();
      throw err;
    } finally {
      sliceContext.step = () => true;
    }
    if (done === true) return;
  }
}

/** Where a resumable search of one text for a RegExp's matches stands. */
export interface SpanScan {
  readonly re: RegExp;
  readonly s: string;
  readonly max: number;
  /** Match spans found so far: [start, end). */
  readonly spans: Array<[number, number]>;
  prevEnd: number;
  lastIndex: number;
  done: boolean;
}

export function startScan(re: RegExp, s: string, max = Infinity): SpanScan {
  return { re, s, max, spans: [], prevEnd: -1, lastIndex: 0, done: false };
}

/**
 * Finds the scan's next matches until it is done or `due()`. An empty match right where the previous
 * match ended is skipped (as Rust's regex does).
 */
export function advanceScan(scan: SpanScan, due: () => boolean): void {
  const { re, s, spans } = scan;
  re.lastIndex = scan.lastIndex;
  while (!scan.done) {
    if (spans.length >= scan.max) break;
    const m = re.exec(s);
    if (!m) break;
    const start = m.index;
    const end = start + m[0].length;
    if (end === start) {
      // Step over a whole code point: in unicode mode a lastIndex inside a surrogate pair backs up
      // to the pair's start, and the same empty match would come back forever (e.g. '' on '🌍').
      const c = s.charCodeAt(start);
      const pair =
        re.unicode &&
        c >= 0xd800 &&
        c <= 0xdbff &&
        start + 1 < s.length &&
        (s.charCodeAt(start + 1) & 0xfc00) === 0xdc00;
      re.lastIndex = start + (pair ? 2 : 1);
      if (start === scan.prevEnd) {
        if (start >= s.length) break;
        continue;
      }
    }
    spans.push([start, end]);
    scan.prevEnd = end;
    if (start >= s.length) break;
    if (due()) {
      scan.lastIndex = re.lastIndex;
      return;
    }
  }
  scan.done = true;
}

/** All match spans of `re` in `s` (at most `max`), found in slices. */
export async function matchSpansSliced(
  re: RegExp,
  s: string,
  max: number,
  signal?: AbortSignal,
): Promise<Array<[number, number]>> {
  const scan = startScan(re, s, max);
  await runInSlices((due) => {
    advanceScan(scan, due);
    return scan.done;
  }, signal);
  return scan.spans;
}

/** Each line's match spans (line index → spans), found in slices; with `firstOnly`, up to the first matching line. */
export async function matchLinesSliced(
  re: RegExp,
  lines: readonly string[],
  firstOnly: boolean,
  signal?: AbortSignal,
): Promise<Map<number, Array<[number, number]>>> {
  const found = new Map<number, Array<[number, number]>>();
  let i = 0;
  let scan: SpanScan | undefined;
  await runInSlices((due) => {
    while (i < lines.length) {
      scan ??= startScan(re, lines[i] as string, firstOnly ? 1 : Infinity);
      advanceScan(scan, due);
      if (!scan.done) return false;
      if (scan.spans.length > 0) {
        found.set(i, scan.spans);
        if (firstOnly) return true;
      }
      scan = undefined;
      i++;
      if (due()) return i >= lines.length;
    }
    return true;
  }, signal);
  return found;
}
