// The JavaScript Grep engine, used where ripgrep is not installed: the same walk (.gitignore,
// VCS directories, globs, types) and the same structured hits as ripgrep. Bound to what the
// permission decision checked (src/files/safeFs.ts): the root is opened and judged once, the
// walk never follows a directory swapped for a symlink, and each file is read through a
// descriptor whose real path must lie under the root's.
import * as path from 'node:path';
import { isAccessRefused, openDirBound, openFileBound, type RealPathCheck } from '../files/safeFs';
import { parseIgnorePattern, type IgnoreRule } from './gitignore';
import { globToRegExp } from './globPattern';
import { throwIfAborted } from './paths';
import { walkFiles, type WalkEntry } from './walk';
import { matchLinesSliced, matchSpansSliced, PatternTimeoutError, SLICE_LIMIT_MS } from './grepSlices';
import { GrepPatternError, OPEN_ACCESS, type GrepEngineResult, type GrepFileHit, type GrepQuery } from './grepTypes';

// ---------------------------------------------------------------------------------------------
// JavaScript fallback

const JS_MAX_FILE_BYTES = 100 * 1024 * 1024;
const JS_CONCURRENCY = 8;
/** After this many files each ran the pattern past SLICE_LIMIT_MS, the rest are not searched (issue 30). */
const JS_MAX_PATTERN_TIMEOUTS = 3;
const SEARCH_STOPPED = new Error('the search stopped: the pattern ran too long on too many files');

/**
 * Compiles a ripgrep (Rust regex) pattern as a JavaScript RegExp. Translates the differences
 * that commonly matter: `(?P<name>` groups, leading inline flags like `(?i)`, `\A` and `\z`.
 */
export function compileJsRegex(pattern: string, opts: { caseInsensitive: boolean; multiline: boolean }): RegExp {
  let src = pattern;
  let flags = 'g';
  if (opts.caseInsensitive) flags += 'i';
  if (opts.multiline) flags += 'ms';
  const lead = /^\(\?([imsxU]+)\)/.exec(src);
  if (lead) {
    src = src.slice(lead[0].length);
    for (const f of lead[1] as string) {
      if (f === 'i' && !flags.includes('i')) flags += 'i';
      if (f === 's' && !flags.includes('s')) flags += 's';
      if (f === 'm' && !flags.includes('m')) flags += 'm';
    }
  }
  src = src
    .replace(/\(\?P</g, '(?<')
    .replace(/\\A/g, '^')
    .replace(/\\z/g, '$(?![\\s\\S])');
  try {
    return new RegExp(src, `${flags}u`);
  } catch {
    try {
      return new RegExp(src, flags);
    } catch (err) {
      const message = (err as Error).message;
      throw new GrepPatternError(
        message.startsWith('Invalid regular expression') ? message : `Invalid regular expression: ${message}`,
      );
    }
  }
}

interface OverrideRule {
  rule: IgnoreRule;
  whitelist: boolean;
}

function compileOverrides(globs: string[]): OverrideRule[] {
  const out: OverrideRule[] = [];
  for (const g of globs) {
    const whitelist = !g.startsWith('!');
    const rules = parseIgnorePattern(whitelist ? g : g.slice(1), { braces: true });
    for (const rule of rules ?? []) out.push({ rule, whitelist });
  }
  return out;
}

/** ripgrep's --glob semantics: last matching glob wins and beats .gitignore; with any
 * whitelist glob, a file matching none is skipped; directories matching none fall through. */
function overrideDecision(rules: OverrideRule[], entry: WalkEntry): 'include' | 'exclude' | undefined {
  let decision: 'include' | 'exclude' | undefined;
  for (const { rule, whitelist } of rules) {
    if (rule.dirOnly && !entry.isDir) continue;
    if (rule.regex.test(entry.rel)) decision = whitelist ? 'include' : 'exclude';
  }
  if (decision === undefined && !entry.isDir && rules.some((r) => r.whitelist)) return 'exclude';
  return decision;
}

async function listCandidateFiles(q: GrepQuery, rootReal: string): Promise<string[]> {
  if (q.targetIsFile) return [q.target]; // an explicit file is always searched, like rg
  const overrides = compileOverrides(q.globs);
  const typeRes = (q.typeGlobs ?? []).map((g) => globToRegExp(g, { braces: true }));
  const forced = new Set<string>();
  const files = await walkFiles({
    root: q.target,
    signal: q.signal,
    // The same directory that was judged a moment ago, or nothing.
    rootCheck: (real) => (real === rootReal ? undefined : `the search root changed while it was searched (${real})`),
    override: (entry) => {
      const d = overrideDecision(overrides, entry);
      if (d === 'include' && !entry.isDir) forced.add(entry.abs);
      return d;
    },
  });
  if (typeRes.length === 0) return files;
  // A file selected by a glob is not filtered by type (ripgrep checks types only when no glob matched).
  return files.filter((f) => forced.has(f) || typeRes.some((re) => re.test(path.basename(f))));
}

async function searchText(text: string, re: RegExp, q: GrepQuery): Promise<GrepFileHit | null> {
  let lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines = lines.slice(0, -1);
  const matched = new Set<number>(); // 0-based line indexes
  const parts = new Map<number, string[]>(); // onlyMatching: line index → matched texts
  const addPart = (i: number, s: string): void => {
    if (s === '') return;
    const list = parts.get(i);
    if (list) list.push(s);
    else parts.set(i, [s]);
  };
  let count = 0;
  const wantAll = q.mode !== 'files_with_matches';

  if (q.multiline) {
    const spans = await matchSpansSliced(re, text, wantAll ? Infinity : 1, q.signal);
    if (spans.length === 0) return null;
    count = spans.length;
    if (q.mode === 'content') {
      const starts: number[] = [0];
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
      const lineOf = (offset: number): number => {
        let lo = 0;
        let hi = starts.length - 1;
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          if ((starts[mid] as number) <= offset) lo = mid;
          else hi = mid - 1;
        }
        return lo;
      };
      for (const [s, e] of spans) {
        const first = lineOf(s);
        const last = lineOf(e > s ? e - 1 : s);
        for (let i = first; i <= Math.min(last, lines.length - 1); i++) matched.add(i);
        if (q.onlyMatching) addPart(first, text.slice(s, e));
      }
    }
  } else {
    for (const [i, spans] of await matchLinesSliced(re, lines, !wantAll, q.signal)) {
      if (q.onlyMatching && q.mode === 'content')
        for (const [s, e] of spans) addPart(i, (lines[i] as string).slice(s, e));
      count += spans.length;
      matched.add(i);
    }
    if (count === 0) return null;
  }

  const hit: GrepFileHit = { path: '', count: q.mode === 'count' ? count : 0, lines: [] };
  if (q.mode === 'content') {
    const shown = new Set<number>(matched);
    for (const i of matched) {
      for (let j = Math.max(0, i - q.before); j <= Math.min(lines.length - 1, i + q.after); j++) shown.add(j);
    }
    hit.lines = [...shown]
      .sort((a, b) => a - b)
      .map((i) => ({
        n: i + 1,
        text: lines[i] as string,
        match: matched.has(i),
        ...(q.onlyMatching ? { parts: parts.get(i) ?? [] } : {}),
      }));
  }
  return hit;
}

/**
 * A candidate file's text: a string, `'refused'` (it changed while searched), or undefined (unreadable,
 * binary, or too large: skipped as rg --no-messages does; too large with a warning).
 */
async function readText(
  file: string,
  check: RealPathCheck,
  warnings: string[],
): Promise<string | 'refused' | undefined> {
  let buf: Buffer;
  try {
    const { fh, stat } = await openFileBound(file, check);
    try {
      if (stat.size > JS_MAX_FILE_BYTES) {
        warnings.push(`${file}: skipped (larger than ${JS_MAX_FILE_BYTES} bytes)`);
        return undefined;
      }
      buf = await fh.readFile();
    } finally {
      await fh.close();
    }
  } catch (err) {
    return isAccessRefused(err) ? 'refused' : undefined;
  }
  if (buf.includes(0)) return undefined; // binary (ripgrep stops searching a file at a NUL byte)
  const text = buf.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export async function runJavaScript(q: GrepQuery): Promise<GrepEngineResult> {
  const re = compileJsRegex(q.pattern, { caseInsensitive: q.caseInsensitive, multiline: q.multiline });
  const access = q.access ?? OPEN_ACCESS;
  let check: RealPathCheck;
  let rootReal = q.target;
  if (q.targetIsFile) {
    check = access.root;
  } else {
    const root = await openDirBound(q.target, access.root);
    rootReal = root.real;
    await root.close();
    check = access.under(rootReal);
  }
  const files = await listCandidateFiles(q, rootReal);
  const hits: GrepFileHit[] = [];
  const warnings: string[] = [];
  let next = 0;
  let changed = 0;
  let timedOut = 0;
  let left = 0; // files not searched once the search stopped
  // Stops the slices of files already being searched, too, once JS_MAX_PATTERN_TIMEOUTS files timed out.
  const stop = new AbortController();
  const sq: GrepQuery = { ...q, signal: q.signal ? AbortSignal.any([q.signal, stop.signal]) : stop.signal };
  const worker = async (): Promise<void> => {
    // Each worker needs its own RegExp: lastIndex is state.
    const myRe = new RegExp(re.source, re.flags);
    while (next < files.length) {
      throwIfAborted(q.signal);
      const file = files[next++] as string;
      const text = await readText(file, check, warnings);
      if (text === 'refused') changed++;
      if (typeof text !== 'string' || text === 'refused') continue;
      if (timedOut >= JS_MAX_PATTERN_TIMEOUTS) {
        left++;
        continue;
      }
      try {
        const hit = await searchText(text, myRe, sq);
        if (hit) {
          hit.path = file;
          hits.push(hit);
        }
      } catch (err) {
        if (err === SEARCH_STOPPED) left++;
        else if (!(err instanceof PatternTimeoutError)) throw err;
        else {
          warnings.push(`${file}: not searched: ${err.message}`);
          if (++timedOut === JS_MAX_PATTERN_TIMEOUTS) stop.abort(SEARCH_STOPPED);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(JS_CONCURRENCY, files.length) }, worker));
  if (changed > 0) warnings.push(`${changed} file${changed === 1 ? '' : 's'} not searched: changed while searched`);
  // First, so that the tool result's cut of its warnings keeps it.
  if (left > 0)
    warnings.unshift(
      `${left} file${left === 1 ? '' : 's'} not searched: the search stopped after ${timedOut} files each ran the pattern over ${SLICE_LIMIT_MS / 1000} s`,
    );
  return { engine: 'javascript', hits, warnings };
}
