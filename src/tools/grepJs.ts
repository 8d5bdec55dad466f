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
import { GrepPatternError, OPEN_ACCESS, type GrepEngineResult, type GrepFileHit, type GrepQuery } from './grepTypes';

// ---------------------------------------------------------------------------------------------
// JavaScript fallback

const JS_MAX_FILE_BYTES = 100 * 1024 * 1024;
const JS_CONCURRENCY = 8;

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

/** Match spans, skipping an empty match right where the previous match ended (as Rust's regex does). */
function matchSpans(re: RegExp, s: string, max = Infinity): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  re.lastIndex = 0;
  let prevEnd = -1;
  while (spans.length < max) {
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
      if (start === prevEnd) {
        if (start >= s.length) break;
        continue;
      }
    }
    spans.push([start, end]);
    prevEnd = end;
    if (start >= s.length) break;
  }
  return spans;
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

function searchText(text: string, re: RegExp, q: GrepQuery): GrepFileHit | null {
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
    const spans = matchSpans(re, text, wantAll ? Infinity : 1);
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
    for (let i = 0; i < lines.length; i++) {
      const spans = matchSpans(re, lines[i] as string, wantAll ? Infinity : 1);
      const n = spans.length;
      if (n === 0) continue;
      if (q.onlyMatching && q.mode === 'content')
        for (const [s, e] of spans) addPart(i, (lines[i] as string).slice(s, e));
      count += n;
      matched.add(i);
      if (!wantAll) break;
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
  const worker = async (): Promise<void> => {
    // Each worker needs its own RegExp: lastIndex is state.
    const myRe = new RegExp(re.source, re.flags);
    while (next < files.length) {
      throwIfAborted(q.signal);
      const file = files[next++] as string;
      let buf: Buffer;
      try {
        const { fh, stat } = await openFileBound(file, check);
        try {
          if (stat.size > JS_MAX_FILE_BYTES) {
            warnings.push(`${file}: skipped (larger than ${JS_MAX_FILE_BYTES} bytes)`);
            continue;
          }
          buf = await fh.readFile();
        } finally {
          await fh.close();
        }
      } catch (err) {
        if (isAccessRefused(err)) changed++;
        continue; // unreadable: skipped, as rg --no-messages does
      }
      if (buf.includes(0)) continue; // binary (ripgrep stops searching a file at a NUL byte)
      let text = buf.toString('utf8');
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      const hit = searchText(text, myRe, q);
      if (hit) {
        hit.path = file;
        hits.push(hit);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(JS_CONCURRENCY, files.length) }, worker));
  if (changed > 0) warnings.push(`${changed} file${changed === 1 ? '' : 's'} not searched: changed while searched`);
  return { engine: 'javascript', hits, warnings };
}
