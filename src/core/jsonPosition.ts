// Where a JSON text goes wrong, as a line and column, for config file error messages: Node's
// JSON.parse gives a position for some errors only ("Unexpected token ']', …" has none).
// A small recursive-descent scan of RFC 8259 JSON that stops at the first offending character.

class Stop {
  constructor(readonly at: number) {}
}

/** The offset of the first character that makes `text` invalid JSON, or undefined when it is valid. */
export function jsonErrorOffset(text: string): number | undefined {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const fail = (): never => {
    throw new Stop(i);
  };
  const expect = (s: string): void => {
    for (const ch of s) {
      if (text[i] !== ch) fail();
      i++;
    }
  };
  const string = (): void => {
    expect('"');
    for (;;) {
      const ch = text[i];
      if (ch === undefined || ch < ' ') fail();
      if (ch === '"') return void i++;
      if (ch === '\\') {
        i++;
        const e = text[i];
        if (e === 'u') {
          i++;
          for (let k = 0; k < 4; k++, i++) if (!/[0-9a-fA-F]/.test(text[i] ?? '')) fail();
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) fail();
      }
      i++;
    }
  };
  const number = (): void => {
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m || m[0] === '' || m[0] === '-') fail();
    i += (m as RegExpExecArray)[0].length;
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        string();
        ws();
        expect(':');
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        expect('}');
        return;
      }
    }
    if (ch === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        expect(']');
        return;
      }
    }
    if (ch === '"') return string();
    if (ch === 't') return expect('true');
    if (ch === 'f') return expect('false');
    if (ch === 'n') return expect('null');
    return number();
  };
  try {
    value();
    ws();
    if (i < text.length) fail();
    return undefined;
  } catch (err) {
    if (err instanceof Stop) return Math.min(err.at, text.length);
    throw err;
  }
}

/** 1-based line and column of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}

/**
 * "<file> is not valid JSON at line L column C: <what JSON.parse said>" for a user's config file
 * (settings, .mcp.json, .claude.json). `body` is the text that was parsed.
 */
export function invalidJsonMessage(path: string, body: string, err: unknown): string {
  const msg = (err instanceof Error ? err.message : String(err)).replace(/\s*\n\s*/g, ' ');
  const offset = jsonErrorOffset(body);
  let where = '';
  if (offset !== undefined) {
    const { line, column } = lineColumn(body, offset);
    where =
      offset >= body.length
        ? ` at line ${line} column ${column} (it ends too early)`
        : ` at line ${line} column ${column}`;
  }
  return `${path} is not valid JSON${where}: ${msg} (comments and trailing commas are not allowed)`;
}

/** A config file's JSON: a UTF-8 byte-order mark is skipped; throws `invalid(message)` on malformed JSON. */
export function parseConfigJson(path: string, text: string, invalid: (message: string) => Error): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(body);
  } catch (err) {
    throw invalid(invalidJsonMessage(path, body, err));
  }
}
