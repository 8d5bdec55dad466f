// .gitignore support for Glob and the JavaScript Grep engine (same rules ripgrep applies with
// `--no-require-git`): .gitignore files in the searched directory, in every directory below it,
// and in every parent directory; blank lines and '#' comments skipped; '!' re-includes; a
// trailing '/' matches directories only; a pattern with a '/' at its start or middle is anchored
// to the .gitignore's directory, otherwise it matches at any depth; last matching rule wins.
import { constants, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { expandBraces, globToRegExpSource } from './globPattern';
import { isErrno, relPosix } from './paths';

/** Version-control directories never searched (as the reference passes `--glob !.git` etc.). */
export const VCS_DIRECTORIES = ['.git', '.svn', '.hg', '.bzr', '.jj', '.sl'] as const;

export interface IgnoreRule {
  regex: RegExp;
  negate: boolean;
  dirOnly: boolean;
}

export interface IgnoreRuleSet {
  /** Absolute directory the rules are relative to. */
  base: string;
  rules: IgnoreRule[];
}

/** Parses one gitignore-style pattern; null for blank lines and comments. */
export function parseIgnorePattern(line: string, options: { braces?: boolean } = {}): IgnoreRule[] | null {
  let s = line.replace(/\r$/, '');
  if (s === '' || s.startsWith('#')) return null;
  // Trailing spaces are ignored unless escaped with a backslash.
  s = s.replace(/(?<!\\)\s+$/, '');
  if (s === '') return null;
  let negate = false;
  if (s.startsWith('!')) {
    negate = true;
    s = s.slice(1);
  } else if (s.startsWith('\\!') || s.startsWith('\\#')) {
    s = s.slice(1);
  }
  let dirOnly = false;
  if (s.endsWith('/') && !s.endsWith('\\/')) {
    dirOnly = true;
    s = s.replace(/\/+$/, '');
  }
  if (s === '') return null;
  const alternatives = options.braces ? expandBraces(s) : [s];
  return alternatives.map((alt) => {
    let p = alt;
    const anchored = p.slice(0, -1).includes('/') || p.startsWith('/');
    if (p.startsWith('/')) p = p.slice(1);
    if (!anchored && !p.startsWith('**/')) p = `**/${p}`;
    return { regex: new RegExp(`^(?:${globToRegExpSource(p)})$`), negate, dirOnly };
  });
}

export function parseIgnoreFile(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const line of text.split('\n')) {
    const parsed = parseIgnorePattern(line);
    if (parsed) rules.push(...parsed);
  }
  return rules;
}

/**
 * Decision for `abs` given rule sets ordered outermost first: true = ignored,
 * false = explicitly re-included, undefined = no rule matched.
 */
export function matchIgnore(sets: readonly IgnoreRuleSet[], abs: string, isDir: boolean): boolean | undefined {
  let decision: boolean | undefined;
  for (const set of sets) {
    const rel = relPosix(set.base, abs);
    if (rel === '' || rel.startsWith('../') || rel === '..') continue;
    for (const rule of set.rules) {
      if (rule.dirOnly && !isDir) continue;
      if (rule.regex.test(rel)) decision = !rule.negate;
    }
  }
  return decision;
}

/**
 * Reads `<dir>/.gitignore` (null when absent or unreadable). `readFrom` reaches the same directory
 * through a bound descriptor (walk.ts); the file itself is not followed when it is a symlink there.
 */
export async function loadIgnoreFile(dir: string, readFrom?: string): Promise<IgnoreRuleSet | null> {
  try {
    const text =
      readFrom === undefined
        ? await fs.readFile(path.join(dir, '.gitignore'), 'utf8')
        : await fs.readFile(path.join(readFrom, '.gitignore'), {
            encoding: 'utf8',
            flag: constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
          });
    const rules = parseIgnoreFile(text);
    return rules.length > 0 ? { base: dir, rules } : null;
  } catch (err) {
    if (['ENOENT', 'ENOTDIR', 'EACCES', 'EISDIR', 'ELOOP', 'EAGAIN'].some((c) => isErrno(err, c))) return null;
    throw err;
  }
}

/** .gitignore rule sets of every strict ancestor of `dir`, outermost first. */
export async function loadParentIgnores(dir: string): Promise<IgnoreRuleSet[]> {
  const ancestors: string[] = [];
  let cur = path.dirname(dir);
  let prev = dir;
  while (cur !== prev) {
    ancestors.unshift(cur);
    prev = cur;
    cur = path.dirname(cur);
  }
  const sets = await Promise.all(ancestors.map((a) => loadIgnoreFile(a)));
  return sets.filter((s): s is IgnoreRuleSet => s !== null);
}
