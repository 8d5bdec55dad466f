// git's configuration syntax, read as git reads it (git's config.c: sections, subsections, values
// with quotes, escapes and backslash-newline continuations; comments end at the line's end and
// never continue). Used where a copy of the person's git configuration must hold only some of it
// (sandboxGitConfig.ts) and where the files it includes must be found (the credential paths): a
// line-by-line reading gets both wrong on a value ending in an escaped backslash (issue 30, L4).
// Pure: text in, entries out.

/** One `key = value` of a configuration text; `value` is undefined for a bare `key` (boolean true). */
export interface GitConfigEntry {
  section: string; // lower case
  subsection?: string; // case kept (`[remote "Origin"]`); the old `[section.sub]` form is lower case, as git has it
  key: string; // lower case
  value?: string;
}

const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v';
const isKeyChar = (c: string | undefined) => c !== undefined && /[A-Za-z0-9-]/.test(c);

/**
 * The entries of a configuration text in order, or undefined when git would refuse the text
 * (an unterminated quote, a bad escape, a malformed header or key): a caller copies nothing then.
 */
export function parseGitConfig(text: string): GitConfigEntry[] | undefined {
  const s = text.replace(/\r\n/g, '\n');
  const out: GitConfigEntry[] = [];
  let i = 0;
  let section: string | undefined;
  let subsection: string | undefined;
  const skipComment = () => {
    while (i < s.length && s[i] !== '\n') i++;
  };
  while (i < s.length) {
    const c = s[i]!;
    if (c === '\n' || isSpace(c)) {
      i++;
      continue;
    }
    if (c === '#' || c === ';') {
      skipComment();
      continue;
    }
    if (c === '[') {
      const header = parseHeader(s, i + 1);
      if (!header) return undefined;
      ({ section, subsection } = header);
      i = header.end;
      continue;
    }
    if (!/[A-Za-z]/.test(c) || section === undefined) return undefined;
    let j = i;
    while (isKeyChar(s[j])) j++;
    const key = s.slice(i, j).toLowerCase();
    while (isSpace(s[j])) j++;
    if (s[j] === undefined || s[j] === '\n' || s[j] === '#' || s[j] === ';') {
      out.push({ section, ...(subsection !== undefined ? { subsection } : {}), key });
      i = j;
      if (s[i] === '#' || s[i] === ';') skipComment();
      continue;
    }
    if (s[j] !== '=') return undefined;
    const value = parseValue(s, j + 1);
    if (!value) return undefined;
    out.push({ section, ...(subsection !== undefined ? { subsection } : {}), key, value: value.value });
    i = value.end;
  }
  return out;
}

function parseHeader(s: string, start: number): { section: string; subsection?: string; end: number } | undefined {
  let i = start;
  while (/[A-Za-z0-9.-]/.test(s[i] ?? '')) i++;
  const name = s.slice(start, i);
  if (name === '') return undefined;
  if (s[i] === ']') {
    // `[section]` or the old `[section.sub]` (git lower-cases both parts).
    const dot = name.indexOf('.');
    const lower = name.toLowerCase();
    return dot < 0
      ? { section: lower, end: i + 1 }
      : { section: lower.slice(0, dot), subsection: lower.slice(dot + 1), end: i + 1 };
  }
  if (!isSpace(s[i]) || name.includes('.')) return undefined;
  while (isSpace(s[i])) i++;
  if (s[i] !== '"') return undefined;
  i++;
  let sub = '';
  for (;;) {
    const c = s[i];
    if (c === undefined || c === '\n') return undefined;
    if (c === '"') break;
    if (c === '\\') {
      const d = s[i + 1];
      if (d === undefined || d === '\n') return undefined;
      sub += d;
      i += 2;
      continue;
    }
    sub += c;
    i++;
  }
  if (s[i + 1] !== ']') return undefined;
  return { section: name.toLowerCase(), subsection: sub, end: i + 2 };
}

const ESCAPES: Readonly<Record<string, string>> = { t: '\t', b: '\b', n: '\n', '\\': '\\', '"': '"' };

function parseValue(s: string, start: number): { value: string; end: number } | undefined {
  let i = start;
  let value = '';
  let pendingSpace = 0;
  let quoted = false;
  let comment = false;
  for (;;) {
    const c = s[i];
    if (c === undefined || c === '\n') {
      if (quoted) return undefined;
      return { value, end: i };
    }
    i++;
    if (comment) continue;
    if (isSpace(c) && !quoted) {
      if (value !== '') pendingSpace++;
      continue;
    }
    if (!quoted && (c === '#' || c === ';')) {
      comment = true;
      continue;
    }
    value += ' '.repeat(pendingSpace);
    pendingSpace = 0;
    if (c === '\\') {
      const d = s[i];
      i++;
      if (d === '\n') continue; // a continuation: the value goes on on the next line
      const e = d === undefined ? undefined : ESCAPES[d];
      if (e === undefined) return undefined;
      value += e;
      continue;
    }
    if (c === '"') {
      quoted = !quoted;
      continue;
    }
    value += c;
  }
}

/** A configuration text that git reads back as exactly these entries (every value quoted and escaped). */
export function formatGitConfig(entries: readonly GitConfigEntry[]): string {
  const lines: string[] = [];
  let last: string | undefined;
  for (const e of entries) {
    const header =
      e.subsection === undefined
        ? `[${e.section}]`
        : `[${e.section} "${e.subsection.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]`;
    if (header !== last) lines.push(header);
    last = header;
    if (e.value === undefined) lines.push(`\t${e.key}`);
    else lines.push(`\t${e.key} = "${e.value.replace(/[\\"\n\t\b]/g, (ch) => ESCAPED[ch]!)}"`);
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

const ESCAPED: Readonly<Record<string, string>> = { '\\': '\\\\', '"': '\\"', '\n': '\\n', '\t': '\\t', '\b': '\\b' };
