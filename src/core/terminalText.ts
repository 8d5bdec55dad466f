// Agent-controlled text on the operator's terminal. A model chooses tool inputs (Bash commands, file
// paths), its own text, tool results, MCP and task names; printed raw, ESC/CSI/OSC sequences in them
// act on the terminal: OSC 52 writes the operator's clipboard, cursor moves, `\r` or a bidi override
// hide part of an approval line so that the operator approves something else than shown. Every
// human-format print of the CLI passes such text through terminalSafe(): C0 and C1 controls and DEL
// are shown, not obeyed (ESC as ␛, `\r` as \r, C1 as \u009b), and so are the bidi embeddings,
// overrides and isolates. Machine formats (JSON, stream-json) are left as they are: JSON.stringify
// escapes every C0 control itself. Pure: no I/O (core: the worker's log uses it too; the CLI's
// src/cli/terminalText.ts adds the stderr guard).

export interface TerminalSafeOptions {
  /** Keep `\n` (multi-line layout: a transcript, an audit report); else shown as `\n`. Default true. */
  newlines?: boolean;
  /** Keep `\t`; else shown as `\t`. Default true. */
  tabs?: boolean;
}

const NAMED: Record<string, string> = { '\r': '\\r', '\n': '\\n', '\t': '\\t' };

// C0 (U+0000–U+001F), DEL, C1 (U+0080–U+009F), bidi embeddings and overrides (U+202A–U+202E) and
// isolates (U+2066–U+2069).
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function shown(c: string): string {
  const named = NAMED[c];
  if (named) return named;
  const code = c.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code); // control pictures: ␛ for ESC, ␇ for BEL
  if (code === 0x7f) return '\u2421'; // ␡
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `text` with every control and bidi control shown visibly (see the module's comment). */
export function terminalSafe(text: string, opts: TerminalSafeOptions = {}): string {
  const keepNewlines = opts.newlines ?? true;
  const keepTabs = opts.tabs ?? true;
  return text.replace(UNSAFE, (c) => ((c === '\n' && keepNewlines) || (c === '\t' && keepTabs) ? c : shown(c)));
}

/** One line of a human format (an approval line, a list row): newlines and tabs shown too. */
export function terminalLine(text: string): string {
  return terminalSafe(text, { newlines: false, tabs: false });
}
