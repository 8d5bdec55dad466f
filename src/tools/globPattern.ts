// A small, tested glob -> RegExp converter (no dependency). Semantics (ripgrep/gitignore-like):
//   *      any run of characters except '/' (dotfiles included)
//   ?      one character except '/'
//   [a-z]  a character class; [!x] and [^x] negate; [[:alpha:]]-style POSIX classes
//   **     as a whole path segment: zero or more segments ("a/**/b" matches "a/b", "a/x/y/b");
//          elsewhere it behaves like '*'
//   {a,b}  alternatives, nested allowed (expanded before conversion; see expandBraces)
//   \x     the character x, literally
// Matching is against a POSIX relative path such as "src/toolProtocol/Tool.ts".

import { setFlagsFromString } from 'node:v8';
// A RegExp built from text the agent wrote (a glob: the Glob tool's pattern, a `.gitignore` line, a hook
// configuration's `extends:`) backtracks polynomially on names the agent made: `*a*a*a*a*a*a*a*a*b` over a
// 46-character name held the worker's one thread 27 s, 12 stars minutes (red team w, W10, W11). V8 runs a
// RegExp that passes 50,000 backtracks again on its linear-time engine (same answers, same syntax for what
// globs build) when this flag is on: process-wide, set once by the modules that build such RegExps.
setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');

const MAX_BRACE_EXPANSIONS = 1024;

const POSIX_CLASSES: Record<string, string> = {
  alpha: 'a-zA-Z',
  digit: '0-9',
  alnum: 'a-zA-Z0-9',
  upper: 'A-Z',
  lower: 'a-z',
  space: ' \\t\\r\\n\\v\\f',
  xdigit: '0-9a-fA-F',
  word: 'a-zA-Z0-9_',
  punct: '!-\\/:-@\\[-`{-~',
};

function escapeRegExpChar(c: string): string {
  return /[\\^$.*+?()[\]{}|/-]/.test(c) ? `\\${c}` : c;
}

/** Index of the ']' closing a class opened at `open`, or -1. */
function findClassEnd(p: string, open: number): number {
  let j = open + 1;
  if (p[j] === '!' || p[j] === '^') j++;
  if (p[j] === ']') j++;
  for (; j < p.length; j++) {
    const c = p[j];
    if (c === '\\') {
      j++;
      continue;
    }
    if (c === '[' && p[j + 1] === ':') {
      const end = p.indexOf(':]', j + 2);
      if (end !== -1) {
        j = end + 1;
        continue;
      }
    }
    if (c === ']') return j;
  }
  return -1;
}

/** Index of the '}' matching the '{' at `open` (nesting and escapes respected), or -1. */
function findBraceEnd(p: string, open: number): number {
  let depth = 0;
  for (let j = open; j < p.length; j++) {
    const c = p[j];
    if (c === '\\') {
      j++;
      continue;
    }
    if (c === '[') {
      const end = findClassEnd(p, j);
      if (end !== -1) {
        j = end;
        continue;
      }
    }
    if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) return j;
    }
  }
  return -1;
}

function splitTopLevelCommas(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let j = 0; j < s.length; j++) {
    const c = s[j];
    if (c === '\\') {
      j++;
      continue;
    }
    if (c === '[') {
      const end = findClassEnd(s, j);
      if (end !== -1) {
        j = end;
        continue;
      }
    }
    if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(s.slice(start, j));
      start = j + 1;
    }
  }
  parts.push(s.slice(start));
  return parts;
}

/**
 * Expands `{a,b}` alternatives (nested too): "src/{a,b/{c,d}}.ts" -> ["src/a.ts", "src/b/c.ts",
 * "src/b/d.ts"]. A brace group without a top-level comma, or unclosed, stays literal.
 */
export function expandBraces(pattern: string): string[] {
  const out: string[] = [];
  const visit = (p: string, from: number): void => {
    for (let i = from; i < p.length; i++) {
      const c = p[i];
      if (c === '\\') {
        i++;
        continue;
      }
      if (c === '[') {
        const end = findClassEnd(p, i);
        if (end !== -1) {
          i = end;
          continue;
        }
      }
      if (c !== '{') continue;
      const close = findBraceEnd(p, i);
      if (close === -1) continue;
      const parts = splitTopLevelCommas(p.slice(i + 1, close));
      if (parts.length < 2) continue; // literal group: look inside it for nested ones
      const pre = p.slice(0, i);
      const post = p.slice(close + 1);
      for (const part of parts) {
        if (out.length >= MAX_BRACE_EXPANSIONS) return;
        // `pre` has been scanned already: resume after it.
        visit(pre + part + post, pre.length);
      }
      return;
    }
    if (out.length < MAX_BRACE_EXPANSIONS && !out.includes(p)) out.push(p);
  };
  visit(pattern, 0);
  return out;
}

/** Regex source (unanchored) for one brace-free glob. */
export function globToRegExpSource(p: string): string {
  let re = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i] as string;
    if (c === '\\') {
      if (i + 1 < p.length) {
        re += escapeRegExpChar(p[i + 1] as string);
        i++;
      } else {
        re += '\\\\';
      }
      continue;
    }
    if (c === '*') {
      let j = i;
      while (p[j] === '*') j++;
      const starts = i === 0 || p[i - 1] === '/';
      const ends = j === p.length || p[j] === '/';
      if (j - i >= 2 && starts && ends) {
        if (j === p.length) {
          re += '.*';
        } else {
          // "**/": zero or more whole segments; the '/' is consumed too.
          re += '(?:[^/]*/)*';
          j++;
        }
        i = j - 1;
      } else {
        re += '[^/]*';
        i = j - 1;
      }
      continue;
    }
    if (c === '?') {
      re += '[^/]';
      continue;
    }
    if (c === '[') {
      const end = findClassEnd(p, i);
      if (end === -1) {
        re += '\\[';
        continue;
      }
      let j = i + 1;
      let negate = false;
      if (p[j] === '!' || p[j] === '^') {
        negate = true;
        j++;
      }
      let body = '';
      for (; j < end; j++) {
        const d = p[j] as string;
        if (d === '\\') {
          body += `\\${p[j + 1] ?? '\\'}`;
          j++;
        } else if (d === '[' && p[j + 1] === ':') {
          const close = p.indexOf(':]', j + 2);
          const name = close === -1 ? '' : p.slice(j + 2, close);
          const cls = POSIX_CLASSES[name];
          if (cls !== undefined && close < end) {
            body += cls;
            j = close + 1;
          } else {
            body += '\\[';
          }
        } else if (d === ']' || d === '^' || d === '[') {
          body += `\\${d}`;
        } else {
          body += d;
        }
      }
      // A class never matches the path separator.
      re += negate ? `[^/${body}]` : `(?!/)[${body}]`;
      i = end;
      continue;
    }
    re += escapeRegExpChar(c);
  }
  return re;
}

export interface GlobRegExpOptions {
  /** Expand {a,b} alternatives (default true; gitignore patterns do not use them). */
  braces?: boolean;
  nocase?: boolean;
}

/** Anchored RegExp matching whole POSIX relative paths. */
export function globToRegExp(pattern: string, options: GlobRegExpOptions = {}): RegExp {
  const alternatives = options.braces === false ? [pattern] : expandBraces(pattern);
  const source = alternatives.map(globToRegExpSource).join('|');
  return new RegExp(`^(?:${source})$`, options.nocase ? 'i' : '');
}

/** True when the glob segment has any special character. */
export function hasGlobMagic(segment: string): boolean {
  return /[*?[{\\]/.test(segment);
}

/**
 * Splits a brace-free glob into its literal leading directory and the rest:
 * "src/toolProtocol/**\/*.ts" -> { base: "src/toolProtocol", rest: "**\/*.ts" }.
 */
export function splitStaticPrefix(pattern: string): { base: string; rest: string } {
  const segments = pattern.split('/');
  const base: string[] = [];
  while (segments.length > 1 && !hasGlobMagic(segments[0] as string)) base.push(segments.shift() as string);
  return { base: base.join('/'), rest: segments.join('/') };
}
