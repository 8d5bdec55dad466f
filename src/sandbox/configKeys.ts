// Readers of the two config formats the Python linters share with ordinary project settings
// (lintKeys.ts): TOML (pyproject.toml) and INI as Python's configparser reads it (setup.cfg,
// tox.ini). Each yields every key with its path and its value's text, nothing evaluated; what
// cannot be read is an error (the caller takes it as a change it cannot judge). Over-approximate
// where the tools differ: a key found that a tool would not read costs a put-back, not a hole.

/** One key: its path (the TOML table and key parts, or the INI section and option) and its value as written. */
export interface ConfigKey {
  path: string[];
  value: string;
}

class Toml {
  i = 0;
  constructor(readonly s: string) {}
  fail(what: string): never {
    throw new Error(`TOML: ${what} at ${this.i}`);
  }
  ws(): void {
    while (this.s[this.i] === ' ' || this.s[this.i] === '\t') this.i++;
  }
  /** Blanks, comments and newlines (between statements, in arrays and inline tables). */
  blanks(): void {
    for (;;) {
      this.ws();
      const c = this.s[this.i];
      if (c === '#') while (this.i < this.s.length && this.s[this.i] !== '\n') this.i++;
      else if (c === '\n' || c === '\r') this.i++;
      else return;
    }
  }
  /** The end of a statement: blanks, a comment, then a newline or the end. */
  endOfLine(): void {
    this.ws();
    if (this.s[this.i] === '#') while (this.i < this.s.length && this.s[this.i] !== '\n') this.i++;
    if (this.s[this.i] === '\r') this.i++;
    if (this.i < this.s.length && this.s[this.i] !== '\n') this.fail('junk after a statement');
  }
  /** A one-line basic (`"…"`, decoded) or literal (`'…'`) string. */
  shortString(): string {
    const q = this.s[this.i++]!;
    let out = '';
    for (;;) {
      const c = this.s[this.i++];
      if (c === undefined || c === '\n') this.fail('unterminated string');
      if (c === q) return out;
      if (c === '\\' && q === '"') out += this.escape();
      else out += c;
    }
  }
  escape(): string {
    const c = this.s[this.i++];
    const simple: Record<string, string> = {
      b: '\b',
      t: '\t',
      n: '\n',
      f: '\f',
      r: '\r',
      e: '\x1b',
      '"': '"',
      '\\': '\\',
    };
    if (c !== undefined && simple[c] !== undefined) return simple[c];
    const len = c === 'u' ? 4 : c === 'U' ? 8 : c === 'x' ? 2 : 0;
    const hex = this.s.slice(this.i, this.i + len);
    if (len === 0 || !/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== len) this.fail('bad escape');
    this.i += len;
    return String.fromCodePoint(parseInt(hex, 16));
  }
  /** A multi-line string (`"""…"""` or `'''…'''`): skipped. */
  longString(): void {
    const q = this.s[this.i]!;
    const end = q.repeat(3);
    this.i += 3;
    for (;;) {
      if (this.i >= this.s.length) this.fail('unterminated string');
      if (q === '"' && this.s[this.i] === '\\') this.i += 2;
      else if (this.s.startsWith(end, this.i)) {
        this.i += 3;
        for (let k = 0; k < 2 && this.s[this.i] === q; k++) this.i++;
        return;
      } else this.i++;
    }
  }
  key(): string[] {
    const parts: string[] = [];
    for (;;) {
      this.ws();
      const c = this.s[this.i];
      if (c === '"' || c === "'") parts.push(this.shortString());
      else {
        const m = /^[A-Za-z0-9_-]+/.exec(this.s.slice(this.i, this.i + 1024));
        if (!m) this.fail('bad key');
        parts.push(m[0]);
        this.i += m[0].length;
      }
      this.ws();
      if (this.s[this.i] !== '.') return parts;
      this.i++;
    }
  }
  /** A value at `path`: an inline table's keys each on their own, anything else as its text. */
  value(path: string[], out: ConfigKey[]): void {
    const start = this.i;
    const c = this.s[this.i];
    if (c === '{') {
      this.i++;
      this.blanks();
      if (this.s[this.i] === '}') {
        this.i++;
        out.push({ path, value: '{}' });
        return;
      }
      for (;;) {
        const k = this.key();
        if (this.s[this.i++] !== '=') this.fail('expected =');
        this.ws();
        this.value([...path, ...k], out);
        this.blanks();
        const d = this.s[this.i++];
        if (d === '}') return;
        if (d !== ',') this.fail('expected , or }');
        this.blanks();
      }
    }
    if (c === '[') {
      this.i++;
      for (;;) {
        this.blanks();
        if (this.s[this.i] === ']') break;
        this.value(path, []); // an array's items: one value, its text (below)
        this.blanks();
        if (this.s[this.i] === ',') this.i++;
        else if (this.s[this.i] !== ']') this.fail('expected , or ]');
      }
      this.i++;
    } else if (this.s.startsWith('"""', this.i) || this.s.startsWith("'''", this.i)) this.longString();
    else if (c === '"' || c === "'") this.shortString();
    else {
      // A number, a boolean, a date (a time may follow it after one space).
      const m = /^(\d{4}-\d{2}-\d{2}[ ]\d{2}:[^\s,\]}#]*|[^\s,\]}#]+)/.exec(this.s.slice(this.i, this.i + 256));
      if (!m) this.fail('bad value');
      this.i += m[0].length;
    }
    out.push({ path, value: this.s.slice(start, this.i).trim() });
  }
  document(): ConfigKey[] {
    const out: ConfigKey[] = [];
    let table: string[] = [];
    for (;;) {
      this.blanks();
      if (this.i >= this.s.length) return out;
      if (this.s[this.i] === '[') {
        const array = this.s[this.i + 1] === '[';
        this.i += array ? 2 : 1;
        table = this.key();
        if (!this.s.startsWith(array ? ']]' : ']', this.i)) this.fail('bad table header');
        this.i += array ? 2 : 1;
        out.push({ path: table, value: array ? '[[]]' : '[]' });
      } else {
        const k = this.key();
        if (this.s[this.i++] !== '=') this.fail('expected =');
        this.ws();
        this.value([...table, ...k], out);
      }
      this.endOfLine();
    }
  }
}

/** Every key of a TOML document (a leading BOM dropped); throws on what it cannot read. */
export function tomlKeys(text: string): ConfigKey[] {
  return new Toml(text.replace(/^\uFEFF/, '')).document();
}

/**
 * Every option of an INI file as Python's configparser reads it (`[section]` headers, `key = value`
 * or `key: value`, an indented line continuing the value before it, `#`/`;` comment lines), with
 * `inline` comments (` ;`, ` #` after a value: pylint's parser) stripped or not (mypy's, flake8's).
 * Option names lowercased, as optionxform does.
 */
export function iniKeys(text: string, inline: boolean): ConfigKey[] {
  const out: ConfigKey[] = [];
  let section: string | undefined;
  let current: ConfigKey | undefined;
  let indentLevel = 0;
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/)) {
    let line = raw;
    if (/^\s*[#;]/.test(line)) line = '';
    else if (inline) line = line.replace(/\s[#;].*$/, '');
    const value = line.trim();
    if (value === '') continue; // empty lines stay in a value; the indentation rule decides the rest
    const indent = line.search(/\S/);
    if (current && indent > indentLevel) {
      current.value += `\n${value}`;
      continue;
    }
    indentLevel = indent;
    const close = value.lastIndexOf(']');
    if (value.startsWith('[') && close > 1) {
      section = value.slice(1, close);
      current = undefined;
      continue;
    }
    const m = /^(.*?)\s*[=:]\s*(.*)$/.exec(value);
    if (section === undefined || !m) throw new Error(`INI: cannot read ${JSON.stringify(value.slice(0, 40))}`);
    current = { path: [section, m[1]!.toLowerCase()], value: m[2]! };
    out.push(current);
  }
  return out;
}
