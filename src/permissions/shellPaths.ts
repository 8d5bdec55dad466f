// Which files a parsed Bash command line touches, for the mode defaults: a read-only command runs
// without asking only when every word that could name a file stays inside the working
// directories; acceptEdits lets mkdir/touch/mv/cp/rm/rmdir run when all their paths are inside.
// Every argument is a candidate path (an option's glued or `=` value too: `-t/x`, `--file=/x`),
// globs are expanded against the file system, braces and `~` expanded, `cd` followed (in every
// order it may run), and each candidate is checked in its logical, real and physical forms.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { PermissionEnv } from './matcher';
import type { HiddenPaths } from './resultFilter';
import { insideWorkingDirs, isInside, pathForms, workingDirForms } from './paths';
import { isProtectedPath, protectedReasonOfForms } from './protectedPaths';
import { closedHomeWrite } from './sessionClosed';
import { isWriteRedirect, unallowableReason } from './shell';
import { analyzeShell, type ShellCommand } from './shellAnalysis';
import { hasUnescaped, unescapeForm, type ShellWord } from './shellWords';

/** Commands whose arguments are never file names. */
const NO_PATH_COMMANDS = new Set([
  'echo',
  'printf',
  'true',
  'false',
  'pwd',
  'whoami',
  'uname',
  'id',
  'basename',
  'dirname',
  'which',
  'type',
]);
const PATTERN_FIRST = new Set(['grep', 'egrep', 'fgrep', 'rg']);
const MAX_GLOB_ENTRIES = 2000;

export type Outside = { reason: string; path?: string };

/** A short-option cluster contains the letter (`-rL`), or a long option is given. */
function hasFlag(tokens: string[], letters: string, longs: string[]): boolean {
  return tokens.some((t) => {
    if (t.startsWith('--')) return longs.some((l) => t === l || t.startsWith(`${l}=`));
    return /^-[A-Za-z0-9]+$/.test(t) && [...letters].some((c) => t.slice(1).includes(c));
  });
}

/** Does this command follow symbolic links while walking directories (so it can leave them)? */
export function followsLinksRecursively(tokens: string[]): boolean {
  const [name, ...args] = tokens;
  switch (name) {
    case 'grep':
    case 'egrep':
    case 'fgrep':
      return hasFlag(args, 'R', ['--dereference-recursive']);
    case 'rg':
      return hasFlag(args, 'L', ['--follow']);
    case 'find':
      return args.some((a) => a === '-L' || a === '-follow');
    case 'du':
      return hasFlag(args, 'L', ['--dereference']);
    case 'tree':
      return args.includes('-l');
    case 'ls':
      return hasFlag(args, 'L', ['--dereference']) && hasFlag(args, 'R', ['--recursive']);
    case 'diff':
      return hasFlag(args, 'r', ['--recursive']);
    case 'cp':
      return hasFlag(args, 'LH', ['--dereference']);
    default:
      return false;
  }
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Does the command read whole directory trees (so a denied file inside one could be shown)? */
export function searchesDirectories(tokens: string[]): boolean {
  const [name, ...args] = tokens;
  switch (name) {
    case 'grep':
    case 'egrep':
    case 'fgrep':
      return hasFlag(args, 'rRd', ['--recursive', '--dereference-recursive', '--directories']);
    case 'rg':
    case 'find':
    case 'du':
    case 'tree':
      return true;
    case 'git': {
      // Subcommands that print file contents (from the work tree or history), not only names.
      let k = 0;
      while (k < args.length && args[k]!.startsWith('-')) k += args[k] === '-C' ? 2 : 1;
      return [
        'show',
        'diff',
        'log',
        'grep',
        'cat-file',
        'blame',
        'whatchanged',
        'diff-tree',
        'diff-index',
        'diff-files',
        'stash',
        'archive',
      ].includes(args[k] ?? '');
    }
    case 'ls':
      return hasFlag(args, 'R', ['--recursive']);
    case 'diff':
      return hasFlag(args, 'r', ['--recursive']);
    default:
      return false;
  }
}

/** find predicates whose argument is a pattern or a value, not a file. */
const FIND_VALUE_PREDICATES = new Set([
  '-name',
  '-iname',
  '-path',
  '-ipath',
  '-wholename',
  '-iwholename',
  '-regex',
  '-iregex',
  '-lname',
  '-ilname',
  '-type',
  '-xtype',
  '-perm',
  '-user',
  '-group',
  '-size',
  '-mtime',
  '-mmin',
  '-atime',
  '-amin',
  '-ctime',
  '-cmin',
  '-maxdepth',
  '-mindepth',
  '-uid',
  '-gid',
  '-links',
  '-inum',
  '-printf',
]);

/** Words of a command that may name files (option values included); `positional` counts the operands. */
function candidateWords(cmd: ShellCommand): (ShellWord[] & { positional?: number }) | undefined {
  const name = cmd.words[0]?.values?.[0];
  if (name === undefined) return undefined;
  if (NO_PATH_COMMANDS.has(name)) return [];
  const out: ShellWord[] & { positional?: number } = [];
  out.positional = 0;
  const rest = cmd.words.slice(1);
  let skipValue = false;
  const tokens = rest.flatMap((w) => w.values ?? []);
  // Options that take the names of files to read from a file: those names are not known here.
  if (tokens.some((t) => t.startsWith('--files0-from') || t.startsWith('--files-from') || t.startsWith('--fromfile')))
    return undefined;
  if (/sum$/.test(name) && hasFlag(tokens, 'c', ['--check'])) return undefined;
  let skipPattern = PATTERN_FIRST.has(name) && !hasFlag(tokens, 'ef', ['--regexp', '--file']);
  let afterDashes = false;
  for (const w of rest) {
    if (w.values === undefined) return undefined;
    if (skipValue) {
      skipValue = false;
      continue;
    }
    if (w.glob) {
      out.push(w);
      out.positional++;
      continue;
    }
    if (name === 'find' && FIND_VALUE_PREDICATES.has(w.values[0] ?? '')) {
      skipValue = true;
      continue;
    }
    for (const v of w.values) {
      if (!afterDashes && v === '--') {
        afterDashes = true;
        continue;
      }
      if (!afterDashes && v.startsWith('-') && v !== '-') {
        const values: string[] = [];
        if (v.startsWith('--')) {
          if (v.includes('=')) values.push(v.slice(v.indexOf('=') + 1));
        } else {
          if (v.length > 2) values.push(v.slice(2));
          for (let k = 2; k < v.length; k++) if ('/~.'.includes(v[k]!)) values.push(v.slice(k));
        }
        for (const x of values)
          out.push({ raw: x, values: [x.startsWith('~') ? os.homedir() + x.slice(1) : x], glob: false });
        continue;
      }
      if (skipPattern) {
        skipPattern = false;
        continue;
      }
      out.push({ raw: v, values: [v], glob: false });
      out.positional++;
    }
  }
  return out;
}

function globSegmentRegex(seg: string): RegExp {
  let re = '';
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i]!;
    if (c === '\\' && i + 1 < seg.length) {
      re += seg[i + 1]!.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      i++;
    } else if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const close = seg.indexOf(']', i + 2);
      if (close < 0) re += '\\[';
      else {
        let cls = seg.slice(i + 1, close);
        if (cls.startsWith('!')) cls = `^${cls.slice(1)}`;
        re += `[${cls.replace(/\\(?!.)/g, '\\\\')}]`;
        i = close;
      }
    } else re += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 's');
}

/** The paths a glob pattern (escaped form) can name, from `cwd`; undefined when too many. */
export function expandGlobPaths(pattern: string, cwd: string): string[] | undefined {
  const segs = pattern.split(/(?<!\\)\//);
  let dirs = [pattern.startsWith('/') ? '/' : cwd];
  let budget = MAX_GLOB_ENTRIES;
  const out = new Set<string>([path.resolve(cwd, unescapeForm(pattern))]);
  for (let k = 0; k < segs.length; k++) {
    const seg = segs[k]!;
    if (seg === '') continue;
    if (!hasUnescaped(seg, '*?[')) {
      dirs = dirs.map((d) => path.join(d, unescapeForm(seg)));
      continue;
    }
    const re = globSegmentRegex(seg);
    const dotOk = seg.startsWith('.') || seg.startsWith('\\.');
    const next: string[] = [];
    for (const d of dirs) {
      let entries: string[];
      try {
        entries = fs.readdirSync(d);
      } catch {
        continue;
      }
      if (dotOk) entries.push('.', '..');
      for (const e of entries) {
        if (e.startsWith('.') && !dotOk) continue;
        if (!re.test(e)) continue;
        if (--budget < 0) return undefined;
        next.push(path.join(d, e));
      }
    }
    dirs = next;
  }
  for (const d of dirs) out.add(d);
  return [...out];
}

/** Every concrete path a candidate word can name, or undefined when unknown. */
function wordPaths(w: ShellWord, cwd: string): string[] | undefined {
  if (w.values === undefined) return undefined;
  if (!w.glob) return w.values;
  const out: string[] = [];
  for (const p of w.patterns ?? []) {
    const got = expandGlobPaths(p, cwd);
    if (!got) return undefined;
    out.push(...got);
  }
  return out;
}

function checkPath(
  p: string,
  cwd: string,
  dirs: readonly string[],
  hidden?: HiddenPaths,
  recursive = false,
): Outside | undefined {
  const forms = pathForms(p, cwd);
  if (hidden && forms.some(hidden))
    return { reason: `${forms[0]} is covered by a Read deny/ask rule.`, path: forms[0]! };
  if (hidden && recursive && forms.some((f) => isDirectory(f) && hidden.under(f))) {
    return { reason: `${forms[0]} holds files covered by a Read deny/ask rule.`, path: forms[0]! };
  }
  if (insideWorkingDirs(forms, dirs)) return undefined;
  const shown = forms.find((f) => !insideWorkingDirs([f], dirs)) ?? forms[forms.length - 1]!;
  return { reason: `${shown} is outside the working directories.`, path: shown };
}

/** Directories a `cd` may lead to (CDPATH included), or undefined when unknown. */
function cdTargets(cmd: ShellCommand, cwds: string[], home: string): string[] | undefined {
  const args = cmd.words.slice(1);
  const positional = args.filter((w) => !(w.values?.[0] ?? 'x').startsWith('-') || w.values?.[0] === '-');
  if (args.some((w) => w.values === undefined || w.glob) || positional.length > 1) return undefined;
  const target = positional[0]?.values?.[0] ?? home;
  if (target === '-' || cmd.words[0]!.values![0] !== 'cd') return undefined;
  const bases = [...cwds];
  const cdpath = process.env.CDPATH;
  if (cdpath && !path.isAbsolute(target) && !/^\.\.?(\/|$)/.test(target))
    bases.push(...cdpath.split(':').filter((x) => x));
  return bases.map((b) => path.resolve(b, target));
}

/**
 * For a read-only shell command: undefined when every file it can name stays inside the
 * working directories, else a reason (also when the command cannot be analysed with certainty).
 */
export function shellReadOutside(command: string, env: PermissionEnv, hidden?: HiddenPaths): Outside | undefined {
  const home = env.home ?? os.homedir();
  const a = analyzeShell(command, home);
  if (!a.certain) return { reason: `the command could not be analysed with certainty (${a.reasons[0] ?? 'unknown'}).` };
  const dirs = env.workingDirectories;
  let cwds = [env.cwd];
  for (const r of a.redirects) {
    if (isWriteRedirect(r)) return { reason: 'the command writes to a file through a redirection.' };
    if (r.op === '<' || r.op === '<>') {
      for (const c of cwds) {
        const ps = r.target ? wordPaths(r.target, c) : undefined;
        if (!ps) return { reason: 'a redirection names a file not known in advance.' };
        for (const p of ps) {
          const o = checkPath(p, c, dirs, hidden);
          if (o) return o;
        }
      }
    }
  }
  for (const cmd of a.commands) {
    const name = cmd.words[0]?.values?.[0];
    if (name === 'cd' || name === 'pushd' || name === 'popd') {
      const targets = cdTargets(cmd, cwds, home);
      if (!targets) return { reason: `${cmd.text}: the new directory is not known in advance.` };
      for (const t of targets) {
        if (!insideWorkingDirs(pathForms(t, env.cwd), dirs))
          return { reason: `cd ${t}: outside the working directories.`, path: t };
      }
      cwds = [...new Set([...cwds, ...targets])];
      continue;
    }
    const tokens = cmd.words.flatMap((w) => w.values ?? []);
    if (followsLinksRecursively(tokens))
      return { reason: `${name} follows symbolic links while recursing, which can leave the working directories.` };
    const words = candidateWords(cmd);
    if (!words) return { reason: 'the command uses shell expansions whose value is not known in advance.' };
    const recursive = searchesDirectories(tokens);
    // A recursive search with no path searches the current directory.
    // (git's operands are revisions and pathspecs inside the repository: it always reads the tree.)
    if (recursive && hidden && (!words.positional || name === 'git')) {
      for (const c of cwds)
        if (hidden.under(c)) return { reason: `${c} holds files covered by a Read deny/ask rule.`, path: c };
    }
    // `git -C DIR` resolves its other paths from DIR too.
    let bases = cwds;
    if (name === 'git') {
      const dirs2: string[] = [];
      tokens.forEach((t, k) => {
        if (t === '-C' && tokens[k + 1] !== undefined)
          for (const c of cwds) dirs2.push(path.resolve(c, tokens[k + 1]!));
      });
      bases = [...cwds, ...dirs2];
    }
    for (const w of words) {
      for (const c of bases) {
        const ps = wordPaths(w, c);
        if (!ps) return { reason: `${w.raw}: the files it names are not known in advance.` };
        for (const p of ps) {
          const o = checkPath(p, c, dirs, hidden, recursive);
          if (o) return o;
        }
      }
    }
  }
  return undefined;
}

const FS_COMMANDS = new Set(['mkdir', 'touch', 'mv', 'cp', 'rm', 'rmdir']);
/** How deep below an operand directory protected entries are looked for (`rm -r dir` with `dir/.claude`). */
const HOLDS_PROTECTED_DEPTH = 4;
const HOLDS_PROTECTED_BUDGET = 5000;

/**
 * Does an existing directory hold a protected entry (a `.git`, `.claude`, `.mcp.json`… below it),
 * or can that not be known within the budget? Moving, copying or removing it would touch one.
 */
function holdsProtected(dir: string, dirs: readonly string[], extra: readonly string[]): boolean {
  let budget = HOLDS_PROTECTED_BUDGET;
  const walk = (d: string, depth: number): boolean => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return false;
    }
    for (const e of entries) {
      if (--budget < 0) return true;
      const p = path.join(d, e.name);
      if (isProtectedPath(p, dirs, { extra })) return true;
      if (e.isDirectory() && depth < HOLDS_PROTECTED_DEPTH && e.name !== 'node_modules' && walk(p, depth + 1))
        return true;
    }
    return false;
  };
  return isDirectory(dir) && walk(dir, 1);
}

/**
 * acceptEdits: is the command only mkdir/touch/mv/cp/rm/rmdir on paths inside the working
 * directories (not a working directory itself for rm/rmdir/mv, no protected path and no directory
 * holding one: protectedPaths.ts)? sed is left
 * out on purpose: its script can write anywhere (`w /path`).
 */
export function fsCommandsInside(command: string, env: PermissionEnv, controlFiles: readonly string[] = []): boolean {
  const a = analyzeShell(command, env.home ?? os.homedir());
  if (!a.certain || a.commands.length === 0 || a.redirects.length > 0) return false;
  const roots = workingDirForms(env.workingDirectories);
  const extra = [...new Set([...controlFiles, ...controlFiles.map((f) => pathForms(f, env.cwd)).flat()])];
  return a.commands.every((cmd) => {
    if (unallowableReason(cmd) !== undefined || cmd.assignments.length > 0 || cmd.background) return false;
    const name = cmd.words[0]!.values![0]!;
    if (cmd.words[0]!.values!.length !== 1 || !FS_COMMANDS.has(name)) return false;
    if (followsLinksRecursively(cmd.words.flatMap((w) => w.values!))) return false;
    const words = candidateWords(cmd);
    if (!words || words.length === 0) return false;
    return words.every((w) => {
      const ps = wordPaths(w, env.cwd);
      if (!ps || ps.length === 0) return false;
      return ps.every((p) => {
        if (/(^|\/)\.\.(\/|$)/.test(p)) return false;
        const forms = pathForms(p, env.cwd);
        if (!insideWorkingDirs(forms, env.workingDirectories)) return false;
        // Settings, hooks, `.git`, shell start-up files… (protectedPaths.ts), and what holds one.
        if (protectedReasonOfForms(forms, roots, { extra }) !== undefined) return false;
        // A dot-entry of a working directory that is HOME, existing or not (red team o, O11).
        if (closedHomeWrite(forms, { home: env.home, workingDirectories: env.workingDirectories })) return false;
        if (forms.some((f) => holdsProtected(f, roots, extra))) return false;
        if (name === 'rm' || name === 'rmdir' || name === 'mv') {
          if (forms.some((f) => roots.some((r) => isInside(r, f)))) return false;
        }
        return true;
      });
    });
  });
}
