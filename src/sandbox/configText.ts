// A hook framework's configuration read as data, in every format the framework reads (red team v, V4-V6:
// lefthook's TOML and JSON, pre-commit's quoted keys and JSON-as-YAML, YAML block scalars, flow
// collections and aliases were not read, and the scripts they named were the agent's to rewrite). No
// YAML or TOML parser is a dependency: each reader is rough and over-approximate on purpose — reading
// more of a configuration as hook lines costs an approval at most, reading less leaves a script the
// person's next commit runs writable — and `configWords` is the backstop under all of them: every
// path-like word of the whole text, whatever syntax holds it.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const DOUBLE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '0': '',
  e: '',
  a: '',
  b: '',
  f: '',
  v: '',
};

/** A double-quoted YAML, TOML or JSON string's escapes decoded: `\x2f`, `\u002f`, `\U0000002f`, `\/`, an escaped line break. */
export function unescapeDouble(s: string): string {
  return s.replace(
    /\\(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|(\r?\n[ \t]*)|([\s\S]))/g,
    (_all, x?: string, u?: string, U?: string, br?: string, c?: string) => {
      const hex = x ?? u ?? U;
      if (hex !== undefined) {
        const n = parseInt(hex, 16);
        return n <= 0x10ffff ? String.fromCodePoint(n) : '';
      }
      if (br !== undefined) return '';
      return DOUBLE_ESCAPES[c!] ?? c!;
    },
  );
}

/** An anchor (`&e`) or tag (`!!str`) written before a YAML value. */
const PROPERTIES = /^(?:(?:&[^\s,[\]{}]+|![^\s]*)\s+)+/;
/** A block scalar's header (`|`, `>-`, `|2+`, with a comment after it). */
const BLOCK = /^[|>](?:[-+]?\d*|\d+[-+])\s*(?:#.*)?$/;

/**
 * A value with a YAML or TOML comment (`#` after a space, or at its start) cut off. A search of two
 * characters, never `\s+#`: every regular expression here reads what a command may have written, and one
 * that backtracks over a long run of spaces took quadratic time (15 s for 100,000 spaces).
 */
function uncommented(v: string): string {
  const at = v.search(/(^|\s)#/);
  return at < 0 ? v : v.slice(0, at);
}

/** A YAML scalar as written (quotes taken off, escapes decoded, an anchor or tag before it dropped), roughly. */
export function scalar(v: string): string {
  const s = `${uncommented(v).trim()} `.replace(PROPERTIES, '').trim();
  if (/^"([\s\S]*)"$/.test(s)) return unescapeDouble(s.slice(1, -1));
  if (/^'([\s\S]*)'$/.test(s)) return s.slice(1, -1).replace(/''/g, "'");
  return s;
}

/** A flow collection's items (`[a, "b c"]`, `{k: v}`), split outside quotes, each a scalar (a flow map's keys dropped). */
export function flowItems(v: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | undefined;
  for (let i = 0; i < v.length; i++) {
    const c = v[i]!;
    if (quote) {
      cur += c;
      if (c === '\\' && quote === '"') cur += v[++i] ?? '';
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") {
      quote = c;
      cur += c;
    } else if ('[]{},'.includes(c)) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out
    .map((item) => item.replace(/^\s*(?:"[^"]*"\s*|'[^']*'\s*|[^\s"':][^:]*):(?:\s|$)/, ''))
    .map(scalar)
    .filter((s) => s !== '');
}

/**
 * The lines one reader's call joins to values that go on over several lines, at most, over the whole text
 * (each value: 200): a text of 30,000 `run = [` lines would otherwise be read 200 lines per line.
 */
interface Budget {
  lines: number;
}
const newBudget = (): Budget => ({ lines: 8192 });

/** Brackets a flow collection opens and has not closed (quotes skipped, roughly). */
function openBrackets(v: string): number {
  return [...v.replace(/"(?:[^"\\]|\\.)*"|'[^']*'/g, '')].reduce(
    (n, c) => n + ('[{'.includes(c) ? 1 : ']}'.includes(c) ? -1 : 0),
    0,
  );
}

/** A flow collection that goes on over the next lines (`args: [` … `]`), whole; at most 200 lines (counted line by line). */
function wholeFlow(lines: readonly string[], i: number, v: string, budget: Budget): string {
  let all = v;
  let open = openBrackets(v);
  for (let j = i + 1; open > 0 && j < lines.length && j <= i + 200 && budget.lines-- > 0; j++) {
    all += ` ${lines[j]!}`;
    open += openBrackets(lines[j]!);
  }
  return all;
}

/** A YAML text's anchors on one line (`x: &e scripts/x.sh`): name → its value, for the aliases (`*e`) naming them. */
function yamlAnchors(yaml: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of yaml.matchAll(/&([^\s,[\]{}]+)[ \t]+([^\n]+)/g)) {
    const v = m[2]!.trim();
    out.set(m[1]!, v.startsWith('[') || v.startsWith('{') ? flowItems(v).join(' ') : scalar(v));
  }
  return out;
}

const keyPattern = (key: string) => `(?:${key}|"${key}"|'${key}')`;

/**
 * The values of `key` in a YAML text (JSON is YAML), roughly, over-approximate: block (`key: value`,
 * `"key": value`, `key: |` or `key: >-` with its indented lines, a block list's items) and flow
 * (`{key: value, …}`, `{"key": "value"}`) style; a flow list (`[a, b]`, over several lines too) or a
 * block list's items become one line of words; an alias (`*e`) its anchor's value.
 */
export function yamlValues(yaml: string, key: string): string[] {
  const budget = newBudget();
  const out: string[] = [];
  const anchors = yamlAnchors(yaml);
  const alias = (s: string) => (/^\*\S+$/.test(s) ? (anchors.get(s.slice(1)) ?? s) : s);
  const lines = yaml.replace(/\r/g, '').split('\n');
  const at = new RegExp(`^(\\s*(?:-\\s+)*)${keyPattern(key)}\\s*:\\s*(.*)$`);
  for (let i = 0; i < lines.length; i++) {
    const m = at.exec(lines[i]!);
    if (!m) continue;
    const indent = m[1]!.length;
    const v = `${uncommented(m[2]!).trim()} `.replace(PROPERTIES, '').trim();
    if (v === '' || BLOCK.test(v)) {
      const more: string[] = [];
      for (let j = i + 1; j < lines.length; j++) {
        const l = lines[j]!;
        const at = l.length - l.trimStart().length;
        if (l.trim() !== '' && (at < indent || (at === indent && !/^\s*-\s/.test(l)))) break;
        more.push(l.trim().replace(/^-\s+/, ''));
      }
      const item = (l: string) => (/^[[{]/.test(l) ? flowItems(l).map(alias).join(' ') : alias(scalar(l)));
      out.push(more.map(item).join(v === '' ? ' ' : '\n'));
    } else if (v.startsWith('[') || v.startsWith('{'))
      out.push(
        flowItems(wholeFlow(lines, i, v, budget))
          .map(alias)
          .join(' '),
      );
    else out.push(alias(scalar(m[2]!)));
  }
  const flow = new RegExp(
    `[{,]\\s*${keyPattern(key)}\\s*:\\s*("(?:[^"\\\\]|\\\\.)*"|'[^']*'|\\[[^\\]]*\\]|[^,}\\n]+)`,
    'g',
  );
  for (const m of yaml.matchAll(flow)) {
    const v = m[1]!.trim();
    out.push(v.startsWith('[') ? flowItems(v).map(alias).join(' ') : alias(scalar(v)));
  }
  return out;
}

/** A YAML map's values and list items, each a line (lint-staged's `"*.js": eslint --fix`), block scalars and flow lists too. */
export function yamlLines(yaml: string): string[] {
  const budget = newBudget();
  const out: string[] = [];
  const lines = yaml.replace(/\r/g, '').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)(?:-\s+|(?:"(?:[^"\\]|\\.)*"\s*|'[^']*'\s*|[^\s"'#][^:]*):(?:\s+|$))(.*)$/.exec(lines[i]!);
    const v = m ? `${uncommented(m[2]!).trim()} `.replace(PROPERTIES, '').trim() : undefined;
    if (v === undefined) continue;
    if (v.startsWith('[') || v.startsWith('{')) out.push(...flowItems(wholeFlow(lines, i, v, budget)));
    else if (v === '' || BLOCK.test(v)) {
      // A block scalar (or a value on the next lines): its more-indented lines, joined.
      const more: string[] = [];
      for (let j = i + 1; j < lines.length; j++) {
        const l = lines[j]!;
        if (l.trim() !== '' && l.length - l.trimStart().length <= m![1]!.length) break;
        more.push(l.trim());
      }
      if (v !== '' || !more.some((l) => /^-\s|:(\s|$)/.test(l))) out.push(more.join(v.startsWith('|') ? '\n' : ' '));
    } else out.push(scalar(m![2]!));
  }
  return out.filter((s) => s !== '');
}

/** A JSON text with JSONC's comments and trailing commas taken out (strings left as they are). */
function stripJsonComments(s: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += s[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '/' && s[i + 1] === '/') {
      while (i < s.length && s[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && s[i + 1] === '*') {
      const end = s.indexOf('*/', i + 2);
      i = end < 0 ? s.length : end + 1;
      out += ' ';
    } else if (c === ',' && /^\s*[}\]]/.test(s.slice(i + 1, i + 200).replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '')))
      continue;
    else out += c;
  }
  return out;
}

/** A JSON or JSONC text's value (a byte-order mark, comments and trailing commas allowed), or undefined. */
export function jsonc(json: string): unknown {
  const t = json.replace(/^\uFEFF/, '');
  for (const candidate of [t, stripJsonComments(t)])
    try {
      return JSON.parse(candidate) as unknown;
    } catch {
      // the next reading, or none
    }
  return undefined;
}

/** Every string value of a JSON (or JSONC) text (lint-staged's commands), or none. */
export function jsonStrings(json: string): string[] {
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(jsonc(json));
  return out;
}

/** The values of `key` at any depth of a JSON (or JSONC) text: a string, or a list's strings as one line of words. */
export function jsonValues(json: string, key: string): string[] {
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        if (k === key && typeof x === 'string') out.push(x);
        else if (k === key && Array.isArray(x)) out.push(x.filter((s) => typeof s === 'string').join(' '));
        walk(x);
      }
  };
  walk(jsonc(json));
  return out;
}

/** One key of a JSON object text, or undefined. */
export function jsonKey(json: string, key: string): unknown {
  const o = jsonc(json);
  return o && typeof o === 'object' && !Array.isArray(o) && Object.hasOwn(o, key)
    ? (o as Record<string, unknown>)[key]
    : undefined;
}

/** A TOML value as words (quotes, brackets and commas out, a basic string's escapes decoded). */
const tomlText = (v: string): string =>
  unescapeDouble(v.replace(/"""|'''/g, ' '))
    .replace(/[[\],{}]/g, ' ')
    .replace(/["']/g, '')
    .trim();

/** A TOML value that goes on over the next lines (a `"""` string, an array), whole; at most 200 lines. */
function wholeToml(lines: readonly string[], i: number, v: string, budget: Budget): string {
  let all = v;
  const d = /^\s*("""|''')/.exec(v)?.[1];
  // Counted line by line (a check of the whole on each line was quadratic in what a command may write).
  let open = d !== undefined ? (v.split(d).length < 3 ? 1 : 0) : openBrackets(v);
  for (let j = i + 1; open > 0 && j < lines.length && j <= i + 200 && budget.lines-- > 0; j++) {
    all += `\n${lines[j]!}`;
    open = d !== undefined ? (lines[j]!.includes(d) ? 0 : 1) : open + openBrackets(lines[j]!);
  }
  return all;
}

/**
 * The values of `key = …` in a TOML text, roughly (prek.toml's `entry`, `args`, lefthook.toml's `run`; a
 * list's items one line of words): a quoted or dotted key (`commands.x.run = …`), an inline table's
 * (`x = { run = "…" }`), a multi-line string or array.
 */
export function tomlValues(toml: string, key: string): string[] {
  const budget = newBudget();
  const out: string[] = [];
  const lines = toml.replace(/\r/g, '').split('\n');
  const at = new RegExp(`^\\s*(?:[\\w"'.-]+\\.)?${keyPattern(key)}\\s*=\\s*(.*)$`);
  for (let i = 0; i < lines.length; i++) {
    const m = at.exec(lines[i]!);
    if (m) out.push(tomlText(wholeToml(lines, i, m[1]!, budget)));
  }
  const inline = new RegExp(
    `[{,]\\s*${keyPattern(key)}\\s*=\\s*("(?:[^"\\\\]|\\\\.)*"|'[^']*'|\\[[^\\]]*\\]|[^,}\\n]+)`,
    'g',
  );
  for (const m of toml.matchAll(inline)) out.push(tomlText(m[1]!));
  return out;
}

/** Every value of a TOML text (`… = value`, an inline table's too), each a line. */
export function tomlStrings(toml: string): string[] {
  const budget = newBudget();
  const out: string[] = [];
  const lines = toml.replace(/\r/g, '').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^\s*[^=#[\s][^=]*?=\s*(.*)$/.exec(lines[i]!);
    if (m) out.push(tomlText(wholeToml(lines, i, m[1]!, budget)));
  }
  for (const m of toml.matchAll(/[{,]\s*[^=,{}\n]+?=\s*("(?:[^"\\]|\\.)*"|'[^']*'|[^,}\n]+)/g))
    out.push(tomlText(m[1]!));
  return out.filter((s) => s !== '');
}

/** Path-like words of one configuration looked up at most (a 256 KB file of words costs no more). */
const MAX_CONFIG_WORDS = 2000;

/** Script extensions a word with no `/` is a file by (commandFiles.ts reads them so too). */
const SCRIPT_WORD = /\.(sh|bash|zsh|py|js|mjs|cjs|ts|mts|cts|rb|pl|php|lua|ps1|fish)$/i;

/**
 * The backstop under every reader (red team v, V4-V7): every word of a configuration's text, whatever
 * syntax holds it (a key, a block scalar, a JavaScript expression, an escape decoded), that names a
 * file from `cwd` — an existing regular file, or an absent one with a script extension in an existing
 * directory — as one line of words (`true <word> …`) to read as a hook line. Words that are patterns
 * (`*`, `?`, `[`, `{`, `^`, `$`, `|`, `\`) and options are data, not files (a glob read as a path
 * would deny what it matches); existing directories are left to the readers (`exclude: tests/fixtures/`
 * named no script, and denying it would refuse the person's own work there).
 */
export function configWords(body: string, cwd: string): string {
  const candidates = new Set<string>();
  for (const t of [body, unescapeDouble(body)])
    for (const raw of t.split(/[\s"'`,;:=()[\]{}<>&]+/)) {
      const w = raw.replace(/^[.]+$/, '');
      if (w === '' || w.startsWith('-') || /[*?[\]{}^$|\\\0]/.test(w) || /^@[^/]+\/[^/]+$/.test(w)) continue;
      if (w.includes('/') || SCRIPT_WORD.test(w)) candidates.add(w);
    }
  const words: string[] = [];
  for (const w of [...candidates].slice(0, MAX_CONFIG_WORDS)) {
    const abs = path.resolve(cwd, w.replace(/^~(?=\/)/, os.homedir()));
    try {
      const st = fs.lstatSync(abs, { throwIfNoEntry: false });
      if (st?.isFile() || st?.isSymbolicLink() || (!st && SCRIPT_WORD.test(w) && fs.existsSync(path.dirname(abs))))
        words.push(w);
    } catch {
      // a name no file can have (too long, a component that is a file): names none
    }
  }
  return words.length === 0 ? 'true' : `true ${words.map((w) => `'${w.replace(/'/g, "'\\''")}'`).join(' ')}`;
}
