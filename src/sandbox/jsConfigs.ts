// A hook framework's JavaScript configuration read as data, never run (red team v, V5: lint-staged.config.js,
// `.lintstagedrc.cjs`, husky 4's `husky.config.js` / `.huskyrc.js` were protected but not read, and the
// scripts their command strings named were the agent's to rewrite). Every string literal is a hook line
// (over-approximate: a literal that is no command names no file, or costs an approval), literals joined by
// `+` are one, object keys (lint-staged's globs, husky's hook names) are none; and the local modules the
// configuration loads (`require('./x')`, `import … from '../y.mjs'`) run when it is loaded, so they are
// files the hook runs, read the same way. Commands a function builds at run time are not read (docs/security.md).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { unescapeDouble } from './configText';

/** Where a `// …` or `/* … *\/` comment that starts at `i` ends (the index of its last character). */
function commentEnd(js: string, i: number): number {
  if (js[i + 1] === '/') {
    const nl = js.indexOf('\n', i);
    return nl < 0 ? js.length : nl;
  }
  const end = js.indexOf('*/', i + 2);
  return end < 0 ? js.length : end + 1;
}

/** The end of a template literal's `${…}` whose `{` is at `i` (braces counted, roughly). */
function substitutionEnd(js: string, i: number): number {
  let depth = 1;
  for (let j = i + 1; j < js.length; j++) {
    if (js[j] === '{') depth++;
    else if (js[j] === '}' && --depth === 0) return j;
  }
  return js.length;
}

interface Literal {
  value: string;
  start: number;
  end: number;
}

/** The string literals of a JavaScript text, in order: `'…'`, `"…"` (to the line's end at most), `` `…` `` (a `${…}` a space). */
function literals(js: string): Literal[] {
  const out: Literal[] = [];
  for (let i = 0; i < js.length; i++) {
    const c = js[i]!;
    if (c === '/' && (js[i + 1] === '/' || js[i + 1] === '*')) {
      i = commentEnd(js, i);
      continue;
    }
    if (c !== '"' && c !== "'" && c !== '`') continue;
    let value = '';
    let j = i + 1;
    for (; j < js.length && js[j] !== c; j++) {
      if (js[j] === '\\') value += js.slice(j, ++j + 1);
      else if (c === '`' && js[j] === '$' && js[j + 1] === '{') {
        j = substitutionEnd(js, j + 1);
        value += ' ';
      } else if (c !== '`' && js[j] === '\n') break;
      else value += js[j];
    }
    out.push({ value: unescapeDouble(value), start: i, end: j });
    i = j;
  }
  return out;
}

/**
 * Every string literal of a JavaScript (or TypeScript) configuration that is not an object key
 * (`'*.js':`, `'pre-commit':`), literals joined by `+` as one (`'sh ' + 'scripts/x.sh'`).
 */
export function jsStrings(js: string): string[] {
  const lits = literals(js);
  const out: string[] = [];
  for (let k = 0; k < lits.length; k++) {
    let { value, end } = lits[k]!;
    while (
      k + 1 < lits.length &&
      lits[k + 1]!.start - end < 256 &&
      /^\s*\+\s*$/.test(js.slice(end + 1, lits[k + 1]!.start))
    ) {
      value += lits[++k]!.value;
      end = lits[k]!.end;
    }
    // The characters around it, looked at in place (a slice of the text per literal was quadratic).
    let a = lits[k]!.start - 1;
    while (a >= 0 && /\s/.test(js[a]!)) a--;
    let b = end + 1;
    while (b < js.length && /\s/.test(js[b]!)) b++;
    const key = js[b] === ':' && (js[a] === '{' || js[a] === ',');
    if (!key) out.push(value);
  }
  return out;
}

/** The module names a JavaScript text loads: `require('…')`, `import(…)`, `import … from '…'`, `import '…'`, `export … from '…'`. */
function moduleNames(js: string): string[] {
  const out: string[] = [];
  const q = `(['"\`])([^'"\`\\n]+)\\1`;
  for (const re of [
    new RegExp(`\\brequire\\s*\\(\\s*${q}`, 'g'),
    new RegExp(`\\bimport\\s*\\(\\s*${q}`, 'g'),
    // At most 1,000 characters between `import` and `from`: an unbounded lazy span was quadratic on a text of `import`s.
    new RegExp(`\\b(?:import|export)\\b[^;'"\`]{0,1000}?\\bfrom\\s*${q}`, 'g'),
    new RegExp(`\\bimport\\s*${q}`, 'g'),
  ])
    for (const m of js.matchAll(re)) out.push(m[2]!);
  return out;
}

const EXTENSIONS = ['.js', '.cjs', '.mjs', '.ts', '.cts', '.mts', '.json', '.node', '.jsx', '.tsx'];

/**
 * The files node (or a TypeScript loader) may load for the relative and absolute module names of a
 * JavaScript text in `dir` (package names are the person's installed code): the name, the name with
 * each extension, and a directory's `package.json` and `index.*`. `existing`: files there now; `absent`:
 * names that a file made there would take (in a directory that exists), to undo when a command makes one.
 */
export function jsModuleFiles(js: string, dir: string): { existing: string[]; absent: string[] } {
  const out = { existing: [] as string[], absent: [] as string[] };
  for (const name of new Set(moduleNames(js))) {
    if (!/^\.{1,2}(\/|$)|^\//.test(name)) continue;
    const p = path.resolve(dir, name.replace(/^file:\/\//, ''));
    const st = fs.statSync(p, { throwIfNoEntry: false });
    const candidates = [p, ...EXTENSIONS.map((x) => p + x)];
    if (st?.isDirectory())
      candidates.push(path.join(p, 'package.json'), ...EXTENSIONS.map((x) => path.join(p, `index${x}`)));
    // A package.json loaded as data runs nothing; its keys that do are watched one by one (manifestBins.ts).
    for (const f of candidates.filter((c) => path.basename(c) !== 'package.json')) {
      const s = fs.statSync(f, { throwIfNoEntry: false });
      if (s?.isFile()) out.existing.push(f);
      else if (!s && fs.existsSync(path.dirname(f))) out.absent.push(f);
    }
  }
  return out;
}
