// One command line, analysed on the tree-sitter-bash parse tree: every simple command it can run
// (at any depth: lists, pipelines, subshells, groups, $(…), `…`, <(…), here-documents, bodies of
// if/while/for/functions), its redirections, and whether the analysis is CERTAIN. Certain means:
// no parse error, only node kinds listed below, no expansion that runs code or whose value matters
// for more than data ($(…), arithmetic, ${x@P}, ${!x}, ${a[i]}, here-documents…), and no character
// that bash and the parser read differently. Allow rules and read-only detection need certainty;
// deny/ask rules look at everything that was found, plus the crude readings of `alternatives`.
import * as os from 'node:os';
import { parseBash, shellParserReady, type BashNode } from './bashParser';
import { decodeAnsiC, doubleQuotedValue, dynamicWord, escapeAll, wordFromForm, type ShellWord } from './shellWords';

export type { ShellWord } from './shellWords';

export interface ShellRedirect {
  /** `>`, `>>`, `<`, `&>`, `&>>`, `>&`, `<&`, `>|`, `<>`, `<<<`, `<<`… */
  op: string;
  fd?: string;
  target?: ShellWord;
  nested: boolean;
}

export interface ShellCommand {
  /** Command name and arguments (assignments in front are in `assignments`). */
  words: ShellWord[];
  assignments: Array<{ name: string; value?: ShellWord }>;
  /** Runs inside a substitution or a here-document, not as a part of the command line itself. */
  nested: boolean;
  background: boolean;
  /** The words as written, joined by one space. */
  text: string;
  /** A declaration/unset command: `export`, `declare`, `local`, `unset`… */
  declaration?: boolean;
  /** Inside `( … )` or `{ …; }`. */
  grouped?: boolean;
}

export interface ShellAnalysis {
  /** The parser was available and produced a tree. */
  parsed: boolean;
  /** Every construct is understood (see the file header); reasons lists what was not. */
  certain: boolean;
  reasons: string[];
  commands: ShellCommand[];
  redirects: ShellRedirect[];
}

/** Named node kinds whose meaning we model fully. Anything else makes the analysis uncertain. */
const STATEMENTS = new Set([
  'program',
  'list',
  'pipeline',
  'subshell',
  'compound_statement',
  'negated_command',
  'redirected_statement',
]);
const PLAIN_PARAM = /^\$(\{([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])\}|[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])$/;
/** Characters that bash treats as part of a word but a parser may read as blanks. */
const CONFUSING_CHARS =
  /[\0-\x08\x0b-\x1f\x7f\x85\xa0\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u3000\ufeff]/u;

export function suspiciousCharacters(command: string): string | undefined {
  const m = CONFUSING_CHARS.exec(command);
  if (m)
    return `the character U+${m[0].codePointAt(0)!.toString(16).padStart(4, '0').toUpperCase()}, which bash and the parser may read differently`;
  // A line continuation inside a word joins the word with the next line in bash.
  if (/(^|[^ \t])\\\n/.test(command)) return 'a line continuation inside a word';
  return undefined;
}

const cache = new Map<string, ShellAnalysis>();
const CACHE_MAX = 500;

export function analyzeShell(command: string, home: string = os.homedir()): ShellAnalysis {
  const key = `${home}\0${command}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const a = analyzeUncached(command, home);
  if (!a.parsed) return a;
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(key, a);
  return a;
}

function analyzeUncached(command: string, home: string): ShellAnalysis {
  const out: ShellAnalysis = { parsed: false, certain: false, reasons: [], commands: [], redirects: [] };
  const root = parseBash(command);
  if (!root) {
    out.reasons.push(shellParserReady() ? 'the command is too large to analyse' : 'the shell parser is not available');
    return out;
  }
  out.parsed = true;
  const reason = (r: string) => {
    if (!out.reasons.includes(r)) out.reasons.push(r);
  };
  const suspicious = suspiciousCharacters(command);
  if (suspicious) reason(suspicious);

  const word = (n: BashNode, nested: boolean): ShellWord => {
    const form = wordForm(n, nested);
    return form === undefined ? dynamicWord(n.text, 'expansion') : wordFromForm(n.text, form, home);
  };
  /** The escaped form of a word node, or undefined when its value is only known at run time. */
  const wordForm = (n: BashNode, nested: boolean): string | undefined => {
    if (n.bad) reason('the command does not parse');
    switch (n.type) {
      case 'word':
      case 'number':
      case 'brace_expression':
        // tree-sitter-bash glues `cmd<newline>\\next` into one word; bash runs two commands.
        if (/(^|[^\\])(\\\\)*[\s]/.test(n.text)) reason('a word that spans blanks or lines');
        return n.text;
      case 'raw_string':
        return escapeAll(n.text.slice(1, -1));
      case 'ansi_c_string':
        return escapeAll(decodeAnsiC(n.text.slice(2, -1)));
      case 'string': {
        let dynamic = false;
        for (const c of n.children) {
          if (c.named && c.type !== 'string_content') {
            wordForm(c, nested);
            dynamic = true;
          }
        }
        return dynamic ? undefined : escapeAll(doubleQuotedValue(n.text.slice(1, -1)));
      }
      case 'concatenation': {
        let s = '';
        let dynamic = false;
        for (const c of n.children) {
          const f = c.named ? wordForm(c, nested) : c.text;
          if (f === undefined) dynamic = true;
          else s += f;
        }
        return dynamic ? undefined : s;
      }
      case 'simple_expansion':
      case 'expansion':
        if (!PLAIN_PARAM.test(n.text)) reason(`the parameter expansion ${n.text.slice(0, 40)}`);
        for (const c of n.children) if (c.named) visit(c, nested, true);
        return undefined;
      case 'command_substitution':
      case 'process_substitution':
        reason('a command or process substitution');
        for (const c of n.children) visit(c, true);
        return undefined;
      case 'arithmetic_expansion':
        reason('an arithmetic expansion');
        for (const c of n.children) visit(c, true, true);
        return undefined;
      default:
        reason(`the construct ${n.type}`);
        for (const c of n.children) visit(c, true, true);
        return undefined;
    }
  };

  const redirect = (n: BashNode, nested: boolean) => {
    if (n.bad) reason('the command does not parse');
    const r: ShellRedirect = { op: '', nested };
    let targets = 0;
    for (const c of n.children) {
      if (c.type === 'file_descriptor') r.fd = c.text;
      else if (!c.named) r.op = c.text;
      else {
        targets++;
        r.target = word(c, nested);
      }
    }
    if (n.type === 'herestring_redirect') r.op = '<<<';
    if (targets !== 1 && !(targets === 0 && /-$/.test(r.op))) reason('a redirection the parser reads ambiguously');
    out.redirects.push(r);
  };

  let group = 0;
  const push = (cmd: ShellCommand) => {
    if (group > 0) cmd.grouped = true;
    out.commands.push(cmd);
  };
  /** `[ … ]` is the command `[`: its words are the leaves of the parsed test expression. */
  const testWords = (n: BashNode, into: ShellWord[], nested: boolean) => {
    for (const c of n.children) {
      if (!c.named || c.type === 'test_operator')
        into.push({ raw: c.text, values: [c.text], patterns: [escapeAll(c.text)], glob: false });
      else if (['unary_expression', 'binary_expression', 'parenthesized_expression'].includes(c.type))
        testWords(c, into, nested);
      else into.push(word(c, nested));
    }
  };
  const simpleCommand = (n: BashNode, nested: boolean) => {
    const cmd: ShellCommand = { words: [], assignments: [], nested, background: false, text: '' };
    for (const c of n.children) {
      if (c.type === 'variable_assignment') assignment(c, cmd, nested);
      else if (c.type === 'command_name') for (const w of c.children) cmd.words.push(word(w, nested));
      else if (c.type === 'file_redirect' || c.type === 'herestring_redirect') redirect(c, nested);
      else if (c.named) cmd.words.push(word(c, nested));
      else if (c.bad) reason('the command does not parse');
    }
    cmd.text = cmd.words.map((w) => w.raw).join(' ');
    push(cmd);
  };

  const assignment = (n: BashNode, cmd: ShellCommand, nested: boolean) => {
    const nameNode = n.children[0];
    if (!nameNode || nameNode.type !== 'variable_name') {
      reason('an array assignment');
      for (const c of n.children) visit(c, nested, true);
      cmd.assignments.push({ name: nameNode?.text ?? '' });
      return;
    }
    const valueNode = n.children.find((c, k) => k > 0 && c.named);
    if (n.text.startsWith(`${nameNode.text}+=`)) reason('an appending assignment');
    if (valueNode && valueNode.type === 'array') {
      reason('an array assignment');
      for (const c of valueNode.children) visit(c, nested, true);
      cmd.assignments.push({ name: nameNode.text });
      return;
    }
    cmd.assignments.push(valueNode ? { name: nameNode.text, value: word(valueNode, nested) } : { name: nameNode.text });
  };

  /** `inWord`: walking a node found inside a word (its commands are nested). */
  function visit(n: BashNode, nested: boolean, inWord = false): void {
    if (n.bad) reason('the command does not parse');
    if (!n.named) return;
    if (STATEMENTS.has(n.type)) {
      const grouping = n.type === 'subshell' || n.type === 'compound_statement';
      if (grouping) group++;
      try {
        statementChildren(n, nested);
      } finally {
        if (grouping) group--;
      }
      return;
    }
    switch (n.type) {
      case 'command':
        simpleCommand(n, nested);
        return;
      case 'test_command': {
        if (n.children[0]?.type !== '[') {
          reason('a [[ … ]] test (its operands are evaluated arithmetically)');
          for (const c of n.children) visit(c, nested, true);
          return;
        }
        const cmd: ShellCommand = { words: [], assignments: [], nested, background: false, text: '' };
        testWords(n, cmd.words, nested);
        cmd.text = cmd.words.map((w) => w.raw).join(' ');
        push(cmd);
        return;
      }
      default:
        visitOther(n, nested, inWord);
    }
  }

  function statementChildren(n: BashNode, nested: boolean): void {
    let lastStart = out.commands.length;
    for (const c of n.children) {
      if (!c.named && c.type === '&') {
        for (let k = lastStart; k < out.commands.length; k++) out.commands[k]!.background = true;
      }
      if (!c.named) {
        if (c.bad) reason('the command does not parse');
        continue;
      }
      lastStart = out.commands.length;
      visit(c, nested);
    }
  }

  function visitOther(n: BashNode, nested: boolean, inWord: boolean): void {
    switch (n.type) {
      case 'comment':
        return;
      case 'file_redirect':
      case 'herestring_redirect':
        redirect(n, nested);
        return;
      case 'variable_assignment':
      case 'variable_assignments': {
        const cmd: ShellCommand = { words: [], assignments: [], nested, background: false, text: '' };
        for (const c of n.type === 'variable_assignment'
          ? [n]
          : n.children.filter((x) => x.type === 'variable_assignment')) {
          assignment(c, cmd, nested);
        }
        push(cmd);
        return;
      }
      case 'declaration_command':
      case 'unset_command': {
        reason(`the ${n.children[0]?.text ?? 'declaration'} command`);
        const cmd: ShellCommand = {
          words: [],
          assignments: [],
          nested,
          background: false,
          text: '',
          declaration: true,
        };
        for (const c of n.children) {
          if (!c.named) cmd.words.push({ raw: c.text, values: [c.text], patterns: [escapeAll(c.text)], glob: false });
          else if (c.type === 'variable_assignment') assignment(c, cmd, nested);
          else cmd.words.push(word(c, nested));
        }
        cmd.text = cmd.words.map((w) => w.raw).join(' ');
        push(cmd);
        return;
      }
      case 'heredoc_redirect':
        reason('a here-document');
        for (const c of n.children) visit(c, true, true);
        return;
      default:
        if (
          inWord &&
          [
            'variable_name',
            'special_variable_name',
            'string_content',
            'heredoc_start',
            'heredoc_end',
            'heredoc_content',
            'word',
            'number',
          ].includes(n.type)
        ) {
          return;
        }
        if (!inWord) reason(`the construct ${n.type}`);
        if (
          [
            'string',
            'concatenation',
            'expansion',
            'simple_expansion',
            'command_substitution',
            'process_substitution',
            'arithmetic_expansion',
          ].includes(n.type)
        ) {
          wordForm(n, nested);
          return;
        }
        for (const c of n.children) visit(c, nested, inWord);
    }
  }

  visit(root, false);
  out.certain = out.reasons.length === 0;
  return out;
}
