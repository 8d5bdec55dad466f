// The two Grep engines: ripgrep (when installed) and a JavaScript fallback. Both return the same
// structured hits; grep.ts sorts and formats them, so the model sees one output format.
import { spawn, spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { VCS_DIRECTORIES, parseIgnorePattern, type IgnoreRule } from './gitignore';
import { globToRegExp } from './globPattern';
import { throwIfAborted } from './paths';
import { walkFiles, type WalkEntry } from './walk';

export type GrepMode = 'content' | 'files_with_matches' | 'count';
export type GrepEngineName = 'ripgrep' | 'javascript';

export interface GrepQuery {
  pattern: string;
  /** Absolute file or directory. */
  target: string;
  targetIsFile: boolean;
  mode: GrepMode;
  /** rg --glob patterns (already split). */
  globs: string[];
  /** Basename globs of the selected file type, if any. */
  typeGlobs?: readonly string[];
  caseInsensitive: boolean;
  multiline: boolean;
  before: number;
  after: number;
  signal: AbortSignal;
}

export interface GrepLine {
  n: number;
  text: string;
  match: boolean;
}

export interface GrepFileHit {
  /** Absolute path. */
  path: string;
  /** Matches in the file (count mode only; 0 otherwise). */
  count: number;
  /** Matching and context lines, ascending (content mode only). */
  lines: GrepLine[];
}

export interface GrepEngineResult {
  engine: GrepEngineName;
  hits: GrepFileHit[];
  warnings: string[];
}

/** A regex error, carrying the engine's own message. */
export class GrepPatternError extends Error {}

/**
 * File types (rg --type), with ripgrep's own definitions so both engines agree. Globs match the
 * file's base name.
 */
export const GREP_FILE_TYPES: Readonly<Record<string, readonly string[]>> = {
  c: ['*.[chH]', '*.[chH].in', '*.cats'],
  clojure: ['*.clj', '*.cljc', '*.cljs', '*.cljx'],
  config: ['*.cfg', '*.conf', '*.config', '*.ini'],
  cpp: ['*.[ChH]', '*.[ChH].in', '*.[ch]pp', '*.[ch]pp.in', '*.[ch]xx', '*.[ch]xx.in', '*.cc', '*.cc.in', '*.hh', '*.hh.in', '*.inl'],
  cs: ['*.cs'],
  csharp: ['*.cs'],
  css: ['*.css', '*.scss'],
  csv: ['*.csv'],
  dart: ['*.dart'],
  docker: ['*Dockerfile*'],
  elixir: ['*.eex', '*.ex', '*.exs'],
  erlang: ['*.erl', '*.hrl'],
  go: ['*.go'],
  gradle: ['*.gradle'],
  haskell: ['*.c2hs', '*.cpphs', '*.hs', '*.hsc', '*.lhs'],
  html: ['*.ejs', '*.htm', '*.html'],
  java: ['*.java', '*.jsp', '*.jspx', '*.properties'],
  js: ['*.js', '*.jsx', '*.vue'],
  json: ['*.json', 'composer.lock'],
  jsonl: ['*.jsonl'],
  kotlin: ['*.kt', '*.kts'],
  less: ['*.less'],
  lua: ['*.lua'],
  make: ['*.mak', '*.mk', '[Gg][Nn][Uu]makefile', '[Gg][Nn][Uu]makefile.am', '[Gg][Nn][Uu]makefile.in', '[Mm]akefile', '[Mm]akefile.am', '[Mm]akefile.in'],
  markdown: ['*.markdown', '*.md', '*.mdown', '*.mkdn'],
  md: ['*.markdown', '*.md', '*.mdown', '*.mkdn'],
  perl: ['*.PL', '*.perl', '*.pl', '*.plh', '*.plx', '*.pm', '*.t'],
  php: ['*.php', '*.php3', '*.php4', '*.php5', '*.phtml'],
  protobuf: ['*.proto'],
  py: ['*.py'],
  r: ['*.R', '*.Rmd', '*.Rnw', '*.r'],
  ruby: ['*.gemspec', '*.rb', '*.rbw', '.irbrc', 'Gemfile', 'Rakefile', 'config.ru'],
  rust: ['*.rs'],
  sass: ['*.sass', '*.scss'],
  scala: ['*.sbt', '*.scala'],
  sh: ['*.bash', '*.bashrc', '*.csh', '*.cshrc', '*.ksh', '*.kshrc', '*.sh', '*.tcsh', '*.zsh', '.bash_login', '.bash_logout', '.bash_profile', '.bashrc', '.cshrc', '.kshrc', '.login', '.logout', '.profile', '.tcshrc', '.zlogin', '.zlogout', '.zprofile', '.zshenv', '.zshrc'],
  sql: ['*.psql', '*.sql'],
  swift: ['*.swift'],
  tf: ['*.tf'],
  toml: ['*.toml', 'Cargo.lock'],
  ts: ['*.ts', '*.tsx'],
  txt: ['*.txt'],
  xml: ['*.dtd', '*.rng', '*.sch', '*.xhtml', '*.xjb', '*.xml', '*.xml.dist', '*.xsd', '*.xsl', '*.xslt'],
  yaml: ['*.yaml', '*.yml'],
  zig: ['*.zig'],
};

// ---------------------------------------------------------------------------------------------
// Engine choice

let rgAvailable: boolean | undefined;

export function ripgrepCommand(): string {
  return process.env.DURABLE_AGENT_RG_PATH || 'rg';
}

export function isRipgrepAvailable(): boolean {
  if (rgAvailable === undefined) {
    const r = spawnSync(ripgrepCommand(), ['--version'], { stdio: 'ignore', timeout: 5000 });
    rgAvailable = r.status === 0;
  }
  return rgAvailable;
}

/** `DURABLE_AGENT_GREP_ENGINE=js` forces the fallback, `=rg` requires ripgrep; default: rg if installed. */
export function chooseEngine(): GrepEngineName {
  const forced = (process.env.DURABLE_AGENT_GREP_ENGINE ?? '').toLowerCase();
  if (forced === 'js' || forced === 'javascript') return 'javascript';
  if (forced === 'rg' || forced === 'ripgrep') {
    if (!isRipgrepAvailable()) throw new Error('DURABLE_AGENT_GREP_ENGINE=rg but ripgrep (rg) is not installed');
    return 'ripgrep';
  }
  return isRipgrepAvailable() ? 'ripgrep' : 'javascript';
}

export async function runGrep(query: GrepQuery, engine: GrepEngineName = chooseEngine()): Promise<GrepEngineResult> {
  return engine === 'ripgrep' ? runRipgrep(query) : runJavaScript(query);
}

/** Splits the Grep `glob` input like the reference: on whitespace, and on commas outside braces. */
export function splitGlobs(glob: string | undefined): string[] {
  if (!glob) return [];
  const out: string[] = [];
  for (const raw of glob.split(/\s+/)) {
    if (raw === '') continue;
    if (raw.includes('{') && raw.includes('}')) out.push(raw);
    else out.push(...raw.split(',').filter((s) => s !== ''));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// ripgrep

const RG_MAX_STDOUT_BYTES = 64 * 1024 * 1024;

function rgArgs(q: GrepQuery): string[] {
  const args = [
    '--no-config',
    // Respect .gitignore even outside a git repository, and nothing else (no global gitignore,
    // no .git/info/exclude, no .ignore/.rgignore): exactly what the JavaScript engine does.
    '--no-require-git',
    '--no-ignore-global',
    '--no-ignore-exclude',
    '--no-ignore-dot',
    '--hidden',
    '--no-messages',
    '--color',
    'never',
    q.caseInsensitive ? '--ignore-case' : '--case-sensitive',
  ];
  if (q.multiline) args.push('--multiline', '--multiline-dotall');
  if (q.typeGlobs && q.typeGlobs.length > 0) {
    for (const g of q.typeGlobs) args.push('--type-add', `agentsel:${g}`);
    args.push('--type', 'agentsel');
  }
  for (const g of q.globs) args.push('--glob', g);
  for (const d of VCS_DIRECTORIES) args.push('--glob', `!${d}`);
  if (q.mode === 'files_with_matches') args.push('--files-with-matches', '--null');
  else if (q.mode === 'count') args.push('--count-matches', '--with-filename', '--null');
  else {
    args.push('--json');
    if (q.before > 0) args.push('--before-context', String(q.before));
    if (q.after > 0) args.push('--after-context', String(q.after));
  }
  args.push('--regexp', q.pattern, '--', q.target);
  return args;
}

function decodeRgText(v: { text?: string; bytes?: string } | undefined): string {
  if (!v) return '';
  if (typeof v.text === 'string') return v.text;
  return Buffer.from(v.bytes ?? '', 'base64').toString('utf8');
}

function stripTerminator(s: string): string {
  return s.endsWith('\n') ? s.slice(0, -1) : s;
}

async function runRipgrep(q: GrepQuery): Promise<GrepEngineResult> {
  throwIfAborted(q.signal);
  // Override globs are relative to rg's working directory: run it in the searched directory.
  const cwd = q.targetIsFile ? path.dirname(q.target) : q.target;
  const child = spawn(ripgrepCommand(), rgArgs(q), { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  let outBytes = 0;
  let err = '';
  let tooBig = false;
  const onAbort = () => child.kill('SIGKILL');
  q.signal.addEventListener('abort', onAbort, { once: true });
  child.stdout.on('data', (b: Buffer) => {
    outBytes += b.length;
    if (outBytes > RG_MAX_STDOUT_BYTES) {
      tooBig = true;
      child.kill('SIGKILL');
      return;
    }
    out.push(b);
  });
  child.stderr.on('data', (b: Buffer) => {
    if (err.length < 64 * 1024) err += b.toString('utf8');
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (c) => resolve(c));
  }).finally(() => q.signal.removeEventListener('abort', onAbort));
  throwIfAborted(q.signal);
  if (tooBig) {
    throw new Error(`The search produced more than ${RG_MAX_STDOUT_BYTES / 1024 / 1024} MB of output; narrow it with path, glob, type or a more specific pattern.`);
  }
  const stdout = Buffer.concat(out).toString('utf8');
  const warnings: string[] = [];
  if (code === 2) {
    if (stdout === '') {
      const msg = err.trim() || 'ripgrep failed';
      if (/regex parse error|error parsing|literal .* is not allowed|unclosed|unrecognized/i.test(msg)) {
        throw new GrepPatternError(`Invalid regular expression: ${msg}`);
      }
      throw new Error(`ripgrep failed: ${msg}`);
    }
    if (err.trim()) warnings.push(err.trim());
  } else if (code !== 0 && code !== 1) {
    throw new Error(`ripgrep exited with code ${code}: ${err.trim()}`);
  }

  const hits: GrepFileHit[] = [];
  if (q.mode === 'files_with_matches') {
    for (const p of stdout.split('\0')) if (p !== '') hits.push({ path: path.resolve(cwd, p), count: 0, lines: [] });
  } else if (q.mode === 'count') {
    for (const line of stdout.split('\n')) {
      const nul = line.lastIndexOf('\0');
      if (nul === -1) continue;
      hits.push({ path: path.resolve(cwd, line.slice(0, nul)), count: Number(line.slice(nul + 1)), lines: [] });
    }
  } else {
    const byPath = new Map<string, Map<number, GrepLine>>();
    for (const line of stdout.split('\n')) {
      if (line === '') continue;
      const msg = JSON.parse(line) as {
        type: string;
        data: { path?: { text?: string; bytes?: string }; lines?: { text?: string; bytes?: string }; line_number?: number };
      };
      if (msg.type !== 'match' && msg.type !== 'context') continue;
      const p = path.resolve(cwd, decodeRgText(msg.data.path));
      let lines = byPath.get(p);
      if (!lines) byPath.set(p, (lines = new Map()));
      const first = msg.data.line_number ?? 0;
      stripTerminator(decodeRgText(msg.data.lines))
        .split('\n')
        .forEach((text, i) => {
          const n = first + i;
          const prev = lines.get(n);
          lines.set(n, { n, text, match: msg.type === 'match' || (prev?.match ?? false) });
        });
    }
    for (const [p, lines] of byPath) {
      hits.push({ path: p, count: 0, lines: [...lines.values()].sort((a, b) => a.n - b.n) });
    }
  }
  return { engine: 'ripgrep', hits, warnings };
}

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
  src = src.replace(/\(\?P</g, '(?<').replace(/\\A/g, '^').replace(/\\z/g, '$(?![\\s\\S])');
  try {
    return new RegExp(src, `${flags}u`);
  } catch {
    try {
      return new RegExp(src, flags);
    } catch (err) {
      const message = (err as Error).message;
      throw new GrepPatternError(message.startsWith('Invalid regular expression') ? message : `Invalid regular expression: ${message}`);
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
      const pair = re.unicode && c >= 0xd800 && c <= 0xdbff && start + 1 < s.length && (s.charCodeAt(start + 1) & 0xfc00) === 0xdc00;
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

async function listCandidateFiles(q: GrepQuery): Promise<string[]> {
  if (q.targetIsFile) return [q.target]; // an explicit file is always searched, like rg
  const overrides = compileOverrides(q.globs);
  const typeRes = (q.typeGlobs ?? []).map((g) => globToRegExp(g, { braces: true }));
  const forced = new Set<string>();
  const files = await walkFiles({
    root: q.target,
    signal: q.signal,
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
      }
    }
  } else {
    for (let i = 0; i < lines.length; i++) {
      const n = matchSpans(re, lines[i] as string, wantAll ? Infinity : 1).length;
      if (n === 0) continue;
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
      .map((i) => ({ n: i + 1, text: lines[i] as string, match: matched.has(i) }));
  }
  return hit;
}

async function runJavaScript(q: GrepQuery): Promise<GrepEngineResult> {
  const re = compileJsRegex(q.pattern, { caseInsensitive: q.caseInsensitive, multiline: q.multiline });
  const files = await listCandidateFiles(q);
  const hits: GrepFileHit[] = [];
  const warnings: string[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    // Each worker needs its own RegExp: lastIndex is state.
    const myRe = new RegExp(re.source, re.flags);
    while (next < files.length) {
      throwIfAborted(q.signal);
      const file = files[next++] as string;
      let buf: Buffer;
      try {
        const st = await fs.stat(file);
        if (st.size > JS_MAX_FILE_BYTES) {
          warnings.push(`${file}: skipped (larger than ${JS_MAX_FILE_BYTES} bytes)`);
          continue;
        }
        buf = await fs.readFile(file);
      } catch {
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
  return { engine: 'javascript', hits, warnings };
}


