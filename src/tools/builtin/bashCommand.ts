// Conservative static analysis of a bash command line, for Bash's declarations:
//  - isReadOnlyCommand: every part of a compound command is a known read-only command with no
//    writing options, and nothing can write or run arbitrary code (no output redirection except
//    to /dev/null or between fds, no command/process substitution, no subshells, no env
//    assignments, no background jobs). Anything the tokenizer does not understand -> false.
//  - lastCommandWords: the command whose exit status becomes the pipeline's (for "exit code 1
//    is not a failure for grep/diff/..." semantics).
//  - standaloneCd: the whole command is `cd DIR`.

export type ShellToken =
  /** `expands`: the word had an unquoted $-expansion or glob character (its value may change). */
  | { kind: 'word'; value: string; expands: boolean }
  | { kind: 'op'; value: string } | { kind: 'redir'; op: string; target: string };

const SEPARATORS = new Set(['&&', '||', ';', '|', '|&', '&']);

/** Tokenizes a command line; null when it uses something we do not analyse. */
export function tokenize(command: string): ShellToken[] | null {
  const tokens: ShellToken[] = [];
  let i = 0;
  const n = command.length;
  let word: string | null = null;
  let expands = false;
  const flush = () => {
    if (word !== null) tokens.push({ kind: 'word', value: word, expands });
    word = null;
    expands = false;
  };
  /** Parses `$...` at i (unquoted or in double quotes); returns the text to keep, or null. */
  const dollar = (): string | null => {
    const rest = command.slice(i + 1);
    const simple = /^([A-Za-z_][A-Za-z0-9_]*|[0-9?#$!*@-])/.exec(rest);
    if (simple) {
      i += 1 + simple[0].length;
      return `$${simple[0]}`;
    }
    const braced = /^\{([A-Za-z_][A-Za-z0-9_]*)\}/.exec(rest);
    if (braced) {
      i += 1 + braced[0].length;
      return `$${braced[0]}`;
    }
    return null; // $( $(( ${x:-…} $'…' and friends
  };

  while (i < n) {
    const c = command[i] as string;
    if (c === ' ' || c === '\t') {
      flush();
      i++;
      continue;
    }
    if (c === '\n') {
      flush();
      tokens.push({ kind: 'op', value: ';' });
      i++;
      continue;
    }
    if (c === '#' && word === null) {
      while (i < n && command[i] !== '\n') i++;
      continue;
    }
    if (c === '\\') {
      if (command[i + 1] === '\n') {
        i += 2;
        continue;
      }
      if (i + 1 >= n) return null;
      word = (word ?? '') + command[i + 1];
      i += 2;
      continue;
    }
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end === -1) return null;
      word = (word ?? '') + command.slice(i + 1, end);
      i = end + 1;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      let s = '';
      for (;;) {
        if (j >= n) return null;
        const d = command[j] as string;
        if (d === '"') break;
        if (d === '`') return null;
        if (d === '\\' && j + 1 < n && '"\\$`\n'.includes(command[j + 1] as string)) {
          s += command[j + 1];
          j += 2;
          continue;
        }
        if (d === '$') {
          i = j;
          const kept = dollar();
          if (kept === null) return null;
          s += kept;
          expands = true;
          j = i;
          continue;
        }
        s += d;
        j++;
      }
      word = (word ?? '') + s;
      i = j + 1;
      continue;
    }
    if (c === '`' || c === '(' || c === ')') return null;
    if (c === '$') {
      const kept = dollar();
      if (kept === null) return null;
      word = (word ?? '') + kept;
      expands = true;
      continue;
    }
    if (c === '<' || c === '>' || (c === '&' && command[i + 1] === '>')) {
      // Redirection, with an optional fd number glued in front ("2>").
      let fd = '';
      if (word !== null && /^[0-9]+$/.test(word) && c !== '&') {
        fd = word;
        word = null;
      }
      flush();
      const m = /^(&>>|&>|>>|>&|>\||>|<<<|<<-|<<|<&|<>|<\(|>\(|<)/.exec(command.slice(i));
      const op = (m as RegExpExecArray)[0];
      if (op === '<(' || op === '>(' || op === '<<' || op === '<<-') return null;
      i += op.length;
      while (command[i] === ' ' || command[i] === '\t') i++;
      // The target: one simple word (quotes allowed, nothing fancy).
      let target = '';
      while (i < n && !' \t\n;&|<>()'.includes(command[i] as string)) {
        const d = command[i] as string;
        if (d === "'" || d === '"') {
          const end = command.indexOf(d, i + 1);
          if (end === -1) return null;
          const inner = command.slice(i + 1, end);
          if (d === '"' && /[$`\\]/.test(inner)) return null;
          target += inner;
          i = end + 1;
        } else if (d === '$' || d === '`' || d === '\\') {
          return null;
        } else {
          target += d;
          i++;
        }
      }
      if (target === '') return null;
      tokens.push({ kind: 'redir', op: fd + op, target });
      continue;
    }
    if (c === '|' || c === '&' || c === ';') {
      flush();
      const two = command.slice(i, i + 2);
      if (two === '&&' || two === '||' || two === '|&' || two === ';;') {
        if (two === ';;') return null;
        tokens.push({ kind: 'op', value: two });
        i += 2;
      } else {
        tokens.push({ kind: 'op', value: c });
        i++;
      }
      continue;
    }
    if (c === '*' || c === '?' || c === '[' || c === '{') expands = true;
    word = (word ?? '') + c;
    i++;
  }
  flush();
  return tokens;
}

interface Segment {
  words: string[];
  /** Some word may change by expansion ($VAR, globs): options could be injected. */
  expands: boolean;
  redirs: Array<{ op: string; target: string }>;
  /** The separator after this segment ('' for the last). */
  sep: string;
}

function segments(tokens: ShellToken[]): Segment[] {
  const out: Segment[] = [];
  let cur: Segment = { words: [], expands: false, redirs: [], sep: '' };
  for (const t of tokens) {
    if (t.kind === 'op' && SEPARATORS.has(t.value)) {
      cur.sep = t.value;
      out.push(cur);
      cur = { words: [], expands: false, redirs: [], sep: '' };
    } else if (t.kind === 'word') {
      cur.words.push(t.value);
      if (t.expands && cur.words.length > 1) cur.expands = true;
    } else if (t.kind === 'redir') {
      cur.redirs.push({ op: t.op, target: t.target });
    }
  }
  out.push(cur);
  // A trailing ';' leaves an empty last segment.
  return out.filter((s, idx) => s.words.length > 0 || s.redirs.length > 0 || idx < out.length - 1);
}

function harmlessRedirection(r: { op: string; target: string }): boolean {
  const op = r.op.replace(/^[0-9]+/, '');
  if (op === '<' || op === '<<<') return true; // reading
  if ((op === '>&' || op === '<&') && /^([0-9]+|-)$/.test(r.target)) return true; // 2>&1, >&2
  if (['>', '>>', '&>', '&>>', '>|'].includes(op) && r.target === '/dev/null') return true;
  return false;
}

// ------------------------------------------------------------------------------------------------
// Read-only commands

const SIMPLE_READ_ONLY = new Set([
  'cat', 'head', 'tail', 'wc', 'pwd', 'stat', 'du', 'df', 'echo', 'printf', 'which', 'type', 'basename', 'dirname',
  'realpath', 'readlink', 'true', 'false', 'test', '[', 'ls', 'grep', 'egrep', 'fgrep', 'diff', 'cmp', 'cut', 'tr',
  'nl', 'tac', 'rev', 'whoami', 'uname', 'id', 'cd', 'md5sum', 'sha1sum', 'sha256sum', 'jq', 'od', 'hexdump', 'strings',
]);

const FIND_WRITING = new Set(['-delete', '-exec', '-execdir', '-ok', '-okdir', '-fprint', '-fprint0', '-fprintf', '-fls']);

const GIT_READ_ONLY = new Set([
  'status', 'log', 'diff', 'show', 'rev-parse', 'ls-files', 'blame', 'describe', 'shortlog', 'grep', 'cat-file',
  'ls-tree', 'merge-base', 'rev-list', 'name-rev', 'show-ref', 'whatchanged', 'diff-tree', 'diff-index', 'diff-files',
  'count-objects', 'ls-remote', 'for-each-ref', 'check-ignore',
]);

const GIT_BRANCH_FLAGS = new Set([
  '-a', '--all', '-r', '--remotes', '-v', '-vv', '--verbose', '-l', '--list', '--show-current', '--merged', '--no-merged',
  '--contains', '--no-contains', '--points-at', '--color', '--no-color', '--column', '--no-column', '-i', '--ignore-case',
]);
const GIT_BRANCH_LISTING_WITH_ARGS = new Set(['-l', '--list', '--merged', '--no-merged', '--contains', '--no-contains', '--points-at']);

function isReadOnlyGit(args: string[]): boolean {
  let k = 0;
  // Global options: only harmless ones.
  while (k < args.length && (args[k] as string).startsWith('-')) {
    const a = args[k] as string;
    if (a === '--no-pager' || a === '-P' || a === '--no-optional-locks') k++;
    else if (a === '-C' && k + 1 < args.length) k += 2;
    else return false; // -c (config: can run programs), --git-dir, --exec-path, …
  }
  const sub = args[k];
  const rest = args.slice(k + 1);
  if (sub === undefined) return false;
  const bad = (a: string) =>
    a === '--output' || a.startsWith('--output=') || a === '--ext-diff' || a === '-O' || a.startsWith('--open-files-in-pager');
  if (rest.some(bad)) return false;
  if (GIT_READ_ONLY.has(sub)) return true;
  const first = rest[0];
  switch (sub) {
    case 'branch': {
      const flags = rest.filter((a) => a.startsWith('-'));
      const positionals = rest.filter((a) => !a.startsWith('-'));
      const flagOk = flags.every((f) => GIT_BRANCH_FLAGS.has(f) || f.startsWith('--sort=') || f.startsWith('--format='));
      return flagOk && (positionals.length === 0 || flags.some((f) => GIT_BRANCH_LISTING_WITH_ARGS.has(f)));
    }
    case 'tag':
      return rest.length === 0 || first === '-l' || first === '--list';
    case 'remote':
      return rest.length === 0 || ((first === '-v' || first === '--verbose') && rest.length === 1) || first === 'get-url' || first === 'show';
    case 'stash':
      return first === 'list' || first === 'show';
    case 'reflog':
      return rest.length === 0 || first === 'show';
    case 'worktree':
      return first === 'list';
    case 'config':
      return first === '--get' || first === '--get-all' || first === '--get-regexp' || first === '--list' || first === '-l';
    default:
      return false;
  }
}

function isReadOnlySimpleCommand(words: string[], expands: boolean): boolean {
  const [cmd, ...args] = words;
  if (cmd === undefined) return false;
  if (cmd.includes('=') || cmd.includes('/') || cmd.includes('$')) return false; // env assignment, a path, a variable
  // These commands have no option that writes or runs programs, whatever their arguments.
  if (SIMPLE_READ_ONLY.has(cmd)) return true;
  // The others are read-only only without some options: an expansion could inject one.
  if (expands) return false;
  switch (cmd) {
    case 'find':
      return !args.some((a) => FIND_WRITING.has(a));
    case 'rg':
      return !args.some((a) => a === '--pre' || a.startsWith('--pre='));
    case 'sort':
      return !args.some((a) => a === '-o' || a.startsWith('-o') || a.startsWith('--output') || a.startsWith('--compress-program'));
    case 'file':
      return !args.some((a) => a === '-C' || a === '--compile');
    case 'tree':
      return !args.some((a) => a.startsWith('-o') || a === '-R' || a.startsWith('--output'));
    case 'git':
      return isReadOnlyGit(args);
    default:
      return false;
  }
}

/** Is the whole command provably read-only? Unsure -> false. */
export function isReadOnlyCommand(command: string): boolean {
  const tokens = tokenize(command);
  if (!tokens || tokens.length === 0) return false;
  const segs = segments(tokens);
  if (segs.length === 0) return false;
  for (const seg of segs) {
    if (seg.sep === '&') return false; // background job
    if (seg.words.length === 0) return false;
    if (!seg.redirs.every(harmlessRedirection)) return false;
    if (!isReadOnlySimpleCommand(seg.words, seg.expands)) return false;
  }
  return true;
}

/** Words of the last simple command (whose exit status is the command's), or null. */
export function lastCommandWords(command: string): string[] | null {
  const tokens = tokenize(command);
  if (!tokens) return null;
  const segs = segments(tokens).filter((s) => s.words.length > 0);
  const last = segs[segs.length - 1];
  return last ? last.words : null;
}

/** Commands for which exit code 1 is an answer, not a failure. */
export function exitCodeOneIsBenign(command: string): boolean {
  const words = lastCommandWords(command);
  if (!words) return false;
  const [cmd] = words;
  if (cmd === undefined) return false;
  if (['grep', 'egrep', 'fgrep', 'rg', 'find', 'diff', 'cmp', 'test', '['].includes(cmd)) return true;
  if (cmd === 'git') {
    const sub = words.slice(1).find((w, idx, arr) => !w.startsWith('-') && arr[idx - 1] !== '-C');
    return sub === 'diff';
  }
  return false;
}

/** The target of a command that is exactly `cd DIR` (or `cd`), else undefined. */
export function standaloneCd(command: string): { target: string | undefined } | undefined {
  const tokens = tokenize(command);
  if (!tokens) return undefined;
  const segs = segments(tokens);
  if (segs.length !== 1) return undefined;
  const seg = segs[0] as Segment;
  if (seg.redirs.length > 0 || seg.words[0] !== 'cd' || seg.words.length > 2) return undefined;
  const target = seg.words[1];
  if (target === '-' || (target !== undefined && target.includes('$'))) return undefined;
  return { target };
}
