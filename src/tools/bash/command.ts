// Bash's declarations, from the tree-sitter-bash analysis (src/permissions/shellAnalysis.ts):
//  - isReadOnlyCommand: the analysis is certain and every simple command is a read-only command
//    of the table below (with its conditions); no redirection writes, nothing in the background,
//    no assignment other than locale/terminal variables. Unsure -> false.
//  - lastCommandWords / exitCodeOneIsBenign: the command whose exit status is the command's.
//  - standaloneCd: the whole command is `cd DIR`.
import { isWriteRedirect, stripAllowWrappers } from '../../permissions/shell';
import { analyzeShell, type ShellAnalysis, type ShellCommand } from '../../permissions/shellAnalysis';

/** Commands with no option that writes a file or runs a program, whatever their arguments. */
export const SIMPLE_READ_ONLY = new Set([
  'cat',
  'head',
  'tail',
  'wc',
  'pwd',
  'stat',
  'du',
  'df',
  'echo',
  'printf',
  'which',
  'type',
  'basename',
  'dirname',
  'realpath',
  'readlink',
  'true',
  'false',
  'test',
  '[',
  'ls',
  'grep',
  'egrep',
  'fgrep',
  'diff',
  'cmp',
  'cut',
  'tr',
  'nl',
  'tac',
  'rev',
  'whoami',
  'uname',
  'id',
  'cd',
  'md5sum',
  'sha1sum',
  'sha256sum',
  'jq',
  'od',
  'hexdump',
  'strings',
]);
/** Read-only only under conditions on their options (checked on static words only). */
export const CONDITIONAL_READ_ONLY = new Set(['find', 'rg', 'sort', 'file', 'tree', 'git']);

const SAFE_ASSIGNMENT = /^(LC_[A-Z]+|LANG|LANGUAGE|TZ|NO_COLOR|COLUMNS|LINES|TERM|GREP_COLORS?)$/;
const FIND_WRITING = new Set([
  '-delete',
  '-exec',
  '-execdir',
  '-ok',
  '-okdir',
  '-fprint',
  '-fprint0',
  '-fprintf',
  '-fls',
]);

const GIT_READ_ONLY = new Set([
  'status',
  'log',
  'diff',
  'show',
  'rev-parse',
  'ls-files',
  'blame',
  'describe',
  'shortlog',
  'grep',
  'cat-file',
  'ls-tree',
  'merge-base',
  'rev-list',
  'name-rev',
  'show-ref',
  'whatchanged',
  'diff-tree',
  'diff-index',
  'diff-files',
  'count-objects',
  'for-each-ref',
  'check-ignore',
]);
const GIT_GLOBAL_FLAGS = new Set([
  '--no-pager',
  '-P',
  '--no-optional-locks',
  '--no-replace-objects',
  '--literal-pathspecs',
]);
/** Long options that write files or run programs; git accepts unambiguous abbreviations of them. */
const GIT_DANGEROUS_LONG = [
  '--output',
  '--output-directory',
  '--ext-diff',
  '--open-files-in-pager',
  '--upload-pack',
  '--receive-pack',
  '--exec',
  '--config',
  '--edit',
];
const GIT_BRANCH_FLAGS = new Set([
  '-a',
  '--all',
  '-r',
  '--remotes',
  '-v',
  '-vv',
  '--verbose',
  '-l',
  '--list',
  '--show-current',
  '--merged',
  '--no-merged',
  '--contains',
  '--no-contains',
  '--points-at',
  '--color',
  '--no-color',
  '--column',
  '--no-column',
  '-i',
  '--ignore-case',
]);
const GIT_BRANCH_LISTING_WITH_ARGS = new Set([
  '-l',
  '--list',
  '--merged',
  '--no-merged',
  '--contains',
  '--no-contains',
  '--points-at',
]);
const GIT_CONFIG_READ = new Set(['--get', '--get-all', '--get-regexp', '--get-urlmatch', '--list', '-l']);
const GIT_CONFIG_WRITE = new Set([
  '--add',
  '--replace-all',
  '--unset',
  '--unset-all',
  '--rename-section',
  '--remove-section',
  '-e',
  '--edit',
  'set',
  'unset',
  'rename-section',
  'remove-section',
  'edit',
]);

/** `--outp` is `--output` to a program that accepts abbreviations: is the option a prefix of one of `names`? */
function abbreviates(token: string, names: string[]): boolean {
  if (!token.startsWith('--') || token.length < 3) return false;
  const name = token.split('=')[0]!;
  return names.some((n) => n.startsWith(name));
}

/** Does a short-option cluster (`-uo`, `-o/x`) use one of `flags`, before an option taking an argument? */
function clusterHas(token: string, flags: string, takesArg: string): boolean {
  if (!/^-[^-]/.test(token)) return false;
  for (const c of token.slice(1)) {
    if (flags.includes(c)) return true;
    if (takesArg.includes(c)) return false;
  }
  return false;
}

function isReadOnlyGit(args: string[]): boolean {
  let k = 0;
  while (k < args.length && args[k]!.startsWith('-')) {
    const a = args[k]!;
    if (GIT_GLOBAL_FLAGS.has(a)) k++;
    else if (a === '-C' && k + 1 < args.length) k += 2;
    else return false; // -c (config runs programs), --git-dir, --work-tree, --exec-path, -p (pager)…
  }
  const sub = args[k];
  const rest = args.slice(k + 1);
  if (sub === undefined) return false;
  const dangerous = (a: string) =>
    abbreviates(a, GIT_DANGEROUS_LONG) || (sub === 'grep' && clusterHas(a, 'O', 'ABCefm'));
  if (rest.some(dangerous)) return false;
  if (GIT_READ_ONLY.has(sub)) return true;
  const first = rest[0];
  switch (sub) {
    case 'branch': {
      const flags = rest.filter((a) => a.startsWith('-'));
      const positionals = rest.filter((a) => !a.startsWith('-'));
      const flagOk = flags.every(
        (f) => GIT_BRANCH_FLAGS.has(f) || f.startsWith('--sort=') || f.startsWith('--format='),
      );
      return flagOk && (positionals.length === 0 || flags.some((f) => GIT_BRANCH_LISTING_WITH_ARGS.has(f)));
    }
    case 'tag':
      return (
        (rest.length === 0 || first === '-l' || first === '--list') &&
        rest
          .slice(1)
          .every(
            (a) =>
              !a.startsWith('-') || /^(-n\d*|--sort=.*|--format=.*|-i|--ignore-case|--column|--no-column)$/.test(a),
          )
      );
    case 'remote':
      return (
        rest.length === 0 ||
        ((first === '-v' || first === '--verbose') && rest.length === 1) ||
        (first === 'get-url' && rest.length <= 3)
      );
    case 'stash':
      return (first === 'list' || first === 'show') && !rest.slice(1).some((a) => a.startsWith('--'));
    case 'reflog':
      return rest.length === 0 || first === 'show';
    case 'worktree':
      return first === 'list';
    case 'config':
      return (
        (rest.some((a) => GIT_CONFIG_READ.has(a)) || first === 'get' || first === 'list') &&
        !rest.some((a) => GIT_CONFIG_WRITE.has(a))
      );
    default:
      return false;
  }
}

function isReadOnlyConditional(cmd: string, args: string[]): boolean {
  switch (cmd) {
    case 'find':
      return !args.some((a) => FIND_WRITING.has(a));
    case 'rg':
      return !args.some((a) => a.startsWith('--pre') || a.startsWith('--hostname-bin'));
    case 'sort':
      return !args.some(
        (a) =>
          clusterHas(a, 'oT', 'ktS') ||
          abbreviates(a, ['--output', '--compress-program', '--temporary-directory', '--files0-from']),
      );
    case 'file':
      return !args.some((a) => clusterHas(a, 'Cf', 'mFeP') || abbreviates(a, ['--compile', '--files-from']));
    case 'tree':
      return !args.some((a) => a.startsWith('-o') || a === '-R' || a.startsWith('--o') || a.startsWith('--fromfile'));
    case 'git':
      return isReadOnlyGit(args);
    default:
      return false;
  }
}

/** Is one simple command read-only (its words already known to be static, unless `SIMPLE`)? */
function isReadOnlySimple(c: ShellCommand): boolean {
  if (c.words.length === 0 || c.background || c.nested || c.declaration || c.grouped) return false;
  if (!c.assignments.every((a) => SAFE_ASSIGNMENT.test(a.name) && a.value?.values !== undefined && !a.value.glob))
    return false;
  const name = c.words[0]!;
  if (name.values?.length !== 1 || name.glob) return false;
  if (c.words.every((w) => w.values !== undefined && !w.glob)) {
    const tokens = stripAllowWrappers(c.words.flatMap((w) => w.values!));
    if (!tokens || tokens.length === 0) return false;
    const [cmd, ...args] = tokens as [string, ...string[]];
    if (cmd.includes('/') || cmd.includes('=')) return false;
    if (SIMPLE_READ_ONLY.has(cmd)) return true;
    return CONDITIONAL_READ_ONLY.has(cmd) && isReadOnlyConditional(cmd, args);
  }
  // Some argument depends on run time ($VAR, a glob): only commands with no dangerous option qualify.
  return SIMPLE_READ_ONLY.has(name.values[0]!);
}

/** Is the whole command provably read-only? Unsure -> false. */
export function isReadOnlyCommand(command: string): boolean {
  const a = analyzeShell(command);
  if (!a.certain || a.commands.length === 0) return false;
  if (a.redirects.some(isWriteRedirect)) return false;
  return a.commands.every(isReadOnlySimple);
}

function lastCommand(a: ShellAnalysis): ShellCommand | undefined {
  const top = a.commands.filter((c) => !c.nested && c.words.length > 0);
  return top[top.length - 1];
}

/** Words of the last simple command (whose exit status is the command's), or null. */
export function lastCommandWords(command: string): string[] | null {
  const a = analyzeShell(command);
  if (!a.parsed) return null;
  const last = lastCommand(a);
  return last ? last.words.map((w) => w.values?.join(' ') ?? w.raw) : null;
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
  const a = analyzeShell(command);
  if (!a.certain || a.redirects.length > 0 || a.commands.length !== 1) return undefined;
  const c = a.commands[0]!;
  if (c.assignments.length > 0 || c.background || c.words.length > 2) return undefined;
  if (c.words[0]?.values?.length !== 1 || c.words[0].values[0] !== 'cd' || c.words[0].glob) return undefined;
  const t = c.words[1];
  if (t === undefined) return { target: undefined };
  if (t.values?.length !== 1 || t.glob || t.values[0] === '-') return undefined;
  return { target: t.values[0] };
}
