// A small, conservative shell-command splitter for Bash permission rules. It is not a shell: it
// knows quotes, escapes, separators, redirections, substitutions and comments well enough to
// decide (a) which simple commands a command line runs and (b) when it cannot tell — in which
// case an allow rule never matches, while deny/ask rules still match anything they can see.

export interface ShellWord {
  /** As written, quotes included. */
  raw: string;
  /** With quotes and escapes removed (substitutions kept as written). */
  value: string;
  quoted: boolean;
  /** Contains `$VAR`, `${...}` or a substitution: its runtime value is unknown. */
  expansion: boolean;
}

export interface ShellRedirect {
  op: string;
  fd?: string;
  target?: ShellWord;
}

export interface ShellPart {
  /** The simple command after stripping env assignments, wrappers and leading keywords. */
  words: ShellWord[];
  /** Names of the stripped `VAR=value` assignments (leading, or via `env`). */
  envNames: string[];
  /** Wrappers that were stripped, e.g. ['timeout', 'nice']. */
  wrappers: string[];
  redirects: ShellRedirect[];
  /** Contains `$(...)`, backticks, `<(...)` or `>(...)`: runs commands we cannot see at this level. */
  substitution: boolean;
  heredoc: boolean;
  raw: string;
  value: string;
}

export interface ParsedShell {
  ok: boolean;
  error?: string;
  parts: ShellPart[];
  /** Simple commands found inside substitutions, at any depth. */
  nested: ShellPart[];
}

interface WordBuilder extends ShellWord {}

interface PartBuilder {
  words: ShellWord[];
  redirects: ShellRedirect[];
  substitution: boolean;
  heredoc: boolean;
}

const LEADING_KEYWORDS = new Set(['!', 'if', 'then', 'else', 'elif', 'while', 'until', 'do', '{']);
const CLOSING_KEYWORDS = new Set(['fi', 'done', 'esac', '}']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
const MAX_DEPTH = 8;

export function parseShell(command: string, depth = 0): ParsedShell {
  const parts: ShellPart[] = [];
  const nested: ShellPart[] = [];
  let ok = true;
  let error: string | undefined;
  let cur: PartBuilder = { words: [], redirects: [], substitution: false, heredoc: false };
  let word: WordBuilder | null = null;
  let pending: ShellRedirect | null = null;
  const s = command;
  let i = 0;

  const fail = (msg: string) => {
    if (ok) {
      ok = false;
      error = msg;
    }
  };
  const startWord = (): WordBuilder => {
    if (!word) word = { raw: '', value: '', quoted: false, expansion: false };
    return word;
  };
  const endWord = () => {
    if (!word) return;
    if (pending) {
      pending.target = word;
      cur.redirects.push(pending);
      pending = null;
    } else {
      cur.words.push(word);
    }
    word = null;
  };
  const endPart = () => {
    endWord();
    if (pending) {
      fail(`redirection ${pending.op} without a target`);
      cur.redirects.push(pending);
      pending = null;
    }
    const p = finishPart(cur);
    if (p) parts.push(p);
    cur = { words: [], redirects: [], substitution: false, heredoc: false };
  };
  const substitute = (inner: string) => {
    cur.substitution = true;
    if (depth >= MAX_DEPTH) {
      fail('substitutions nested too deeply');
      return;
    }
    const sub = parseShell(inner, depth + 1);
    if (!sub.ok) fail(sub.error ?? 'bad substitution');
    nested.push(...sub.parts, ...sub.nested);
  };

  while (i < s.length) {
    const c = s[i]!;
    const next = s[i + 1];
    if (c === '\\') {
      if (next === '\n') {
        i += 2;
        continue;
      }
      const w = startWord();
      w.raw += c + (next ?? '');
      w.value += next ?? '';
      w.quoted = true;
      i += 2;
      continue;
    }
    if (c === "'") {
      const j = s.indexOf("'", i + 1);
      if (j < 0) {
        fail('unterminated single quote');
        const w = startWord();
        w.raw += s.slice(i);
        w.value += s.slice(i + 1);
        i = s.length;
        break;
      }
      const w = startWord();
      w.raw += s.slice(i, j + 1);
      w.value += s.slice(i + 1, j);
      w.quoted = true;
      i = j + 1;
      continue;
    }
    if (c === '"') {
      const w = startWord();
      w.quoted = true;
      let k = i + 1;
      let closed = false;
      while (k < s.length) {
        const d = s[k]!;
        if (d === '\\') {
          const e = s[k + 1];
          if (e === '\n') {
            k += 2;
            continue;
          }
          if (e !== undefined && '\\"$`'.includes(e)) w.value += e;
          else w.value += d + (e ?? '');
          k += 2;
          continue;
        }
        if (d === '"') {
          closed = true;
          break;
        }
        if (d === '$' && s[k + 1] === '(') {
          const close = findClosingParen(s, k + 2);
          if (close < 0) {
            fail('unterminated $(');
            k = s.length;
            break;
          }
          substitute(s.slice(k + 2, close));
          w.value += s.slice(k, close + 1);
          w.expansion = true;
          k = close + 1;
          continue;
        }
        if (d === '`') {
          const close = findBacktick(s, k + 1);
          if (close < 0) {
            fail('unterminated backtick');
            k = s.length;
            break;
          }
          substitute(s.slice(k + 1, close));
          w.value += s.slice(k, close + 1);
          w.expansion = true;
          k = close + 1;
          continue;
        }
        if (d === '$' && s[k + 1] !== undefined && /[A-Za-z0-9_{?@*#$!-]/.test(s[k + 1]!)) w.expansion = true;
        w.value += d;
        k++;
      }
      if (!closed) fail('unterminated double quote');
      w.raw += s.slice(i, Math.min(k + 1, s.length));
      i = k + 1;
      continue;
    }
    if (c === '`') {
      const close = findBacktick(s, i + 1);
      const w = startWord();
      w.expansion = true;
      if (close < 0) {
        fail('unterminated backtick');
        w.raw += s.slice(i);
        w.value += s.slice(i);
        i = s.length;
        break;
      }
      substitute(s.slice(i + 1, close));
      w.raw += s.slice(i, close + 1);
      w.value += s.slice(i, close + 1);
      i = close + 1;
      continue;
    }
    if (c === '$') {
      const w = startWord();
      if (next === '(') {
        const close = findClosingParen(s, i + 2);
        w.expansion = true;
        if (close < 0) {
          fail('unterminated $(');
          w.raw += s.slice(i);
          w.value += s.slice(i);
          i = s.length;
          break;
        }
        substitute(s.slice(i + 2, close));
        w.raw += s.slice(i, close + 1);
        w.value += s.slice(i, close + 1);
        i = close + 1;
        continue;
      }
      if (next === '{') {
        const close = s.indexOf('}', i + 2);
        w.expansion = true;
        const end = close < 0 ? s.length : close + 1;
        if (close < 0) fail('unterminated ${');
        if (/\$\(|`/.test(s.slice(i, end))) substitute(s.slice(i + 2, end - 1));
        w.raw += s.slice(i, end);
        w.value += s.slice(i, end);
        i = end;
        continue;
      }
      if (next === "'" || next === '"') {
        // $'...' / $"..." : ANSI-C / locale quoting; treat the value as unknown.
        w.expansion = true;
        w.raw += c;
        w.value += c;
        i++;
        continue;
      }
      if (next !== undefined && /[A-Za-z0-9_?@*#$!-]/.test(next)) w.expansion = true;
      w.raw += c;
      w.value += c;
      i++;
      continue;
    }
    if ((c === '<' || c === '>') && next === '(') {
      const close = findClosingParen(s, i + 2);
      const w = startWord();
      w.expansion = true;
      if (close < 0) {
        fail('unterminated process substitution');
        w.raw += s.slice(i);
        w.value += s.slice(i);
        i = s.length;
        break;
      }
      substitute(s.slice(i + 2, close));
      w.raw += s.slice(i, close + 1);
      w.value += s.slice(i, close + 1);
      i = close + 1;
      continue;
    }
    if (c === '#' && !word) {
      while (i < s.length && s[i] !== '\n') i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      endWord();
      i++;
      continue;
    }
    if (c === '\n') {
      if (cur.heredoc) {
        // Heredoc bodies are data, but we cannot be sure where they end: treat the lines as
        // commands (deny/ask rules see them) and the whole command as unmatchable for allow.
        fail('heredoc');
      }
      endPart();
      i++;
      continue;
    }
    if (c === ';') {
      endPart();
      i += next === ';' ? 2 : 1;
      continue;
    }
    if (c === '&') {
      if (next === '&') {
        endPart();
        i += 2;
        continue;
      }
      if (next === '>') {
        endWord();
        const op = s[i + 2] === '>' ? '&>>' : '&>';
        pending = { op };
        i += op.length;
        continue;
      }
      endPart();
      i++;
      continue;
    }
    if (c === '|') {
      endPart();
      i += next === '|' || next === '&' ? 2 : 1;
      continue;
    }
    if (c === '(' || c === ')') {
      endPart();
      i++;
      continue;
    }
    if (c === '<' || c === '>') {
      let fd: string | undefined;
      const wb = word as WordBuilder | null;
      if (wb && !wb.quoted && /^\d+$/.test(wb.raw)) {
        fd = wb.raw;
        word = null;
      } else {
        endWord();
      }
      if (pending as ShellRedirect | null) fail('redirection without a target');
      let op: string;
      if (c === '<') {
        if (s.startsWith('<<<', i)) op = '<<<';
        else if (s.startsWith('<<-', i)) op = '<<-';
        else if (s.startsWith('<<', i)) op = '<<';
        else if (s.startsWith('<&', i)) op = '<&';
        else if (s.startsWith('<>', i)) op = '<>';
        else op = '<';
      } else {
        if (s.startsWith('>>', i)) op = '>>';
        else if (s.startsWith('>&', i)) op = '>&';
        else if (s.startsWith('>|', i)) op = '>|';
        else op = '>';
      }
      if (op === '<<' || op === '<<-') cur.heredoc = true;
      pending = fd === undefined ? { op } : { op, fd };
      i += op.length;
      continue;
    }
    const w = startWord();
    w.raw += c;
    w.value += c;
    i++;
  }
  endPart();
  return ok ? { ok, parts, nested } : { ok, error, parts, nested };
}

function findClosingParen(s: string, start: number): number {
  let depth = 1;
  let k = start;
  while (k < s.length) {
    const d = s[k]!;
    if (d === '\\') {
      k += 2;
      continue;
    }
    if (d === "'") {
      const j = s.indexOf("'", k + 1);
      if (j < 0) return -1;
      k = j + 1;
      continue;
    }
    if (d === '"') {
      let j = k + 1;
      while (j < s.length && s[j] !== '"') j += s[j] === '\\' ? 2 : 1;
      if (j >= s.length) return -1;
      k = j + 1;
      continue;
    }
    if (d === '(') depth++;
    else if (d === ')') {
      depth--;
      if (depth === 0) return k;
    }
    k++;
  }
  return -1;
}

function findBacktick(s: string, start: number): number {
  let k = start;
  while (k < s.length) {
    if (s[k] === '\\') {
      k += 2;
      continue;
    }
    if (s[k] === '`') return k;
    k++;
  }
  return -1;
}

function isPlain(w: ShellWord | undefined, ...values: string[]): boolean {
  return !!w && !w.quoted && !w.expansion && values.includes(w.value);
}

function finishPart(p: PartBuilder): ShellPart | null {
  let words = [...p.words];
  const envNames: string[] = [];
  const wrappers: string[] = [];
  let strippedKeyword = false;
  for (let guard = 0; guard < 64; guard++) {
    const before = words.length;
    while (words[0] && !words[0].quoted && LEADING_KEYWORDS.has(words[0].value)) {
      words.shift();
      strippedKeyword = true;
    }
    while (words[0] && ASSIGNMENT.test(words[0].raw)) {
      envNames.push(words[0].raw.slice(0, words[0].raw.indexOf('=')).replace(/\+$/, ''));
      words.shift();
    }
    const n = wrapperLength(words);
    if (n > 0 && words.length > n) {
      wrappers.push(words[0]!.value);
      if (words[0]!.value === 'env') {
        for (const w of words.slice(1, n)) envNames.push(w.raw.slice(0, w.raw.indexOf('=')).replace(/\+$/, ''));
      }
      words = words.slice(n);
    }
    if (words.length === before) break;
  }
  if (words.length === 1 && !words[0]!.quoted && CLOSING_KEYWORDS.has(words[0]!.value) && p.redirects.length === 0) {
    return null;
  }
  if (words.length === 0 && p.redirects.length === 0 && envNames.length === 0 && !p.substitution) {
    if (strippedKeyword || p.words.length === 0) return null;
  }
  return {
    words,
    envNames,
    wrappers,
    redirects: p.redirects,
    substitution: p.substitution || words.some((w) => /\$\(|`|[<>]\(/.test(w.raw)),
    heredoc: p.heredoc,
    raw: words.map((w) => w.raw).join(' '),
    value: words.map((w) => w.value).join(' '),
  };
}

/** How many leading words form a wrapper (`timeout 5`, `nice -n 10`, `nohup`, `time -p`, `env A=1`); 0 if none. */
function wrapperLength(words: ShellWord[]): number {
  const w0 = words[0];
  if (!w0 || w0.quoted || w0.expansion) return 0;
  const at = (k: number) => words[k];
  switch (w0.value) {
    case 'nohup':
      return 1;
    case 'time': {
      return isPlain(at(1), '-p') ? 2 : 1;
    }
    case 'nice': {
      let k = 1;
      const w = at(1);
      if (isPlain(w, '-n', '--adjustment')) k = 3;
      else if (w && !w.quoted && /^(-n?-?\d+|--adjustment=-?\d+)$/.test(w.value)) k = 2;
      return k;
    }
    case 'timeout': {
      let k = 1;
      for (;;) {
        const w = at(k);
        if (!w || w.quoted) return 0;
        if (['-s', '--signal', '-k', '--kill-after'].includes(w.value)) k += 2;
        else if (/^(--signal=|--kill-after=|-s\w|-k[\d.])/.test(w.value) || ['--preserve-status', '--foreground', '-v', '--verbose'].includes(w.value)) k += 1;
        else break;
      }
      const d = at(k);
      if (d && !d.quoted && /^\d+(\.\d+)?[smhd]?$/.test(d.value)) return k + 1;
      return 0;
    }
    case 'env': {
      let k = 1;
      while (at(k) && ASSIGNMENT.test(at(k)!.raw)) k++;
      // `env` with options (-i, -u, -S...) is left alone: we do not model it.
      return at(k) && at(k)!.value.startsWith('-') ? 0 : k;
    }
    default:
      return 0;
  }
}

/** Environment variables whose assignment changes what a command runs: a rule never allows them. */
export function isDangerousEnvName(name: string): boolean {
  const n = name.toUpperCase();
  return (
    [
      'PATH', 'IFS', 'ENV', 'BASH_ENV', 'SHELLOPTS', 'BASHOPTS', 'PS4', 'PROMPT_COMMAND', 'HOME', 'CDPATH',
      'NODE_OPTIONS', 'NODE_PATH', 'PYTHONPATH', 'PYTHONSTARTUP', 'PYTHONHOME', 'PERL5OPT', 'PERL5LIB',
      'PERLLIB', 'RUBYOPT', 'RUBYLIB', 'EDITOR', 'VISUAL', 'PAGER', 'BROWSER', 'SHELL', 'TMPDIR', 'JAVA_TOOL_OPTIONS',
      '_JAVA_OPTIONS', 'CLASSPATH', 'GOFLAGS', 'CARGO_HOME', 'RUSTC_WRAPPER', 'MAKEFLAGS', 'ZDOTDIR',
    ].includes(n) ||
    /^(LD_|DYLD_|GIT_|BASH_FUNC_|NPM_CONFIG_|YARN_|PNPM_|DOCKER_|SSH_)/.test(n)
  );
}

function normalizeSpaces(s: string): string {
  return s.trim().replace(/\s+/g, ' ');
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Matches one simple command's text against a Bash rule spec:
 * `prefix:*` → the command is `prefix` or starts with `prefix ` (a word boundary: `ls:*` does not
 * match `lsof`); a spec with `*` → glob over the whole text (`*` matches anything, spaces
 * included; a trailing ` *` also matches the bare command; `\*` is a literal star); otherwise
 * exact, whitespace-normalised.
 */
export function matchCommandPattern(spec: string, text: string): boolean {
  const t = normalizeSpaces(text);
  const p = normalizeSpaces(spec);
  if (p.endsWith(':*')) {
    const prefix = p.slice(0, -2).trimEnd();
    return t === prefix || t.startsWith(`${prefix} `);
  }
  if (/(^|[^\\])\*/.test(p)) {
    let re = '';
    for (let k = 0; k < p.length; k++) {
      const ch = p[k]!;
      if (ch === '\\' && p[k + 1] === '*') {
        re += '\\*';
        k++;
      } else if (ch === '*') re += '.*';
      else re += escapeRegex(ch);
    }
    if (new RegExp(`^${re}$`, 's').test(t)) return true;
    if (p.endsWith(' *') && !p.endsWith('\\ *')) return matchCommandPattern(p.slice(0, -2), t);
    return false;
  }
  return t === p.replace(/\\\*/g, '*');
}

function partMatches(spec: string, part: ShellPart): boolean {
  return matchCommandPattern(spec, part.raw) || matchCommandPattern(spec, part.value);
}

/** A redirection that writes a file (not `2>&1`, not `/dev/null`). */
export function isWriteRedirect(r: ShellRedirect): boolean {
  if (r.op === '<' || r.op === '<<' || r.op === '<<-' || r.op === '<<<' || r.op === '<&') return false;
  const target = r.target?.value ?? '';
  if ((r.op === '>&' || r.op === '<&') && /^(\d+|-)$/.test(target)) return false;
  if (target === '/dev/null' && !r.target?.expansion) return false;
  return true;
}

/** Why an allow rule can never match this part, or undefined. */
export function unallowableReason(part: ShellPart): string | undefined {
  if (part.words.length === 0) return 'no command';
  if (part.substitution) return 'command substitution';
  if (part.heredoc) return 'heredoc';
  if (part.envNames.some(isDangerousEnvName)) return 'dangerous environment assignment';
  if (part.redirects.some(isWriteRedirect)) return 'output redirection to a file';
  return undefined;
}

/**
 * Does a Bash rule spec match a command line, for a rule of the given behavior?
 * - allow: every simple command must match, and none may contain a substitution, a heredoc, a
 *   dangerous env assignment or a write redirection; a command we cannot parse never matches.
 *   (An exact, wildcard-free spec equal to the whole command line also matches.)
 * - deny/ask: any simple command (including those inside substitutions) matching is enough; the
 *   whole command line is tried too, and so are crude `;&|`-splits of a command we cannot parse.
 */
export function matchShellRule(spec: string, command: string, behavior: 'allow' | 'ask' | 'deny'): boolean {
  const parsed = parseShell(command);
  const whole = normalizeSpaces(command);
  const specN = normalizeSpaces(spec);
  const wildcard = specN.endsWith(':*') || /(^|[^\\])\*/.test(specN);
  if (behavior === 'allow') {
    if (!wildcard && whole === specN) return true;
    if (!parsed.ok || parsed.parts.length === 0 || parsed.nested.length > 0) return false;
    return parsed.parts.every((p) => unallowableReason(p) === undefined && partMatches(spec, p));
  }
  if (matchCommandPattern(spec, whole)) return true;
  if ([...parsed.parts, ...parsed.nested].some((p) => partMatches(spec, p))) return true;
  if (!parsed.ok) {
    return command
      .split(/&&|\|\||[;&|\n()`]|\$\(/)
      .map((x) => x.replace(/^\s*(\w+=\S*\s+)*/, ''))
      .some((x) => x.trim() !== '' && matchCommandPattern(spec, x));
  }
  return false;
}
