// The person's global git configuration as sandboxed commands see it. `~/.gitconfig` and
// `$XDG_CONFIG_HOME/git/config` are read-denied in the sandbox (src/permissions/credentials.ts):
// they hold tokens by convention (`http.extraHeader`, `url.<token>.insteadOf`, credential helpers,
// `sendemail.smtpPass`). git dies on a global file it may not read, so a sandboxed command gets
// GIT_CONFIG_GLOBAL = a copy holding only the sections below (identity, aliases, formatting,
// branch and merge habits), written once per worker process in a directory of its own that no
// sandbox can write (issue 30, J3). Unsandboxed commands and worker-side git are not changed here.
import { lstatSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { formatGitConfig, parseGitConfig } from './gitConfigText';

/** Sections copied: none of them holds a credential by git's or a tool's convention. */
const KEPT_SECTIONS: ReadonlySet<string> = new Set([
  'user',
  'core',
  'init',
  'alias',
  'color',
  'pull',
  'push',
  'merge',
  'diff',
  'commit',
  'tag',
  'log',
  'format',
  'rebase',
  'status',
  'branch',
  'advice',
  'fetch',
  'help',
  'rerere',
  'submodule',
  'column',
  'grep',
]);
/** Keys dropped even in a kept section: a command or file outside git's own (still sandboxed, but not the person's habit). */
const DROPPED_KEYS: ReadonlySet<string> = new Set(['user.signingkey', 'core.askpass', 'core.sshcommand']);

/**
 * `core` keys copied (a list, not the section: `core.gitProxy`, `core.sshCommand` can hold a
 * credential or a command line with one; red team o, O9).
 */
const KEPT_CORE_KEYS: ReadonlySet<string> = new Set([
  'autocrlf',
  'eol',
  'safecrlf',
  'filemode',
  'ignorecase',
  'precomposeunicode',
  'symlinks',
  'editor',
  'pager',
  'quotepath',
  'excludesfile',
  'attributesfile',
  'whitespace',
  'abbrev',
  'compression',
  'bigfilethreshold',
  'commentchar',
  'commentstring',
  'logallrefupdates',
  'trustctime',
  'checkstat',
  'preloadindex',
  'untrackedcache',
  'longpaths',
]);

/** Values shaped like a credential (a token prefix, an Authorization header, `user:pass@` in a URL). */
const SECRET_SHAPE =
  /(?:gh[pousr]_|github_pat_|glpat-|xox[abposr]-|sk-[a-z0-9-]{8,}|AKIA[0-9A-Z]{12}|authorization\s*:|bearer\s+\S|:\/\/[^/@\s:]+:[^/@\s]+@|(?:token|password|passwd|secret|api[_-]?key)\s*[=:]\s*\S)/i;

/**
 * Is this entry copied? A kept section, not a dropped key; in `core` only the listed keys; no shell
 * alias (`!…`: a command line, where people put tokens: `!curl -H 'Authorization: token …'`); no
 * value shaped like a credential (O9).
 */
function kept(e: { section: string; key: string; value?: string }): boolean {
  if (!KEPT_SECTIONS.has(e.section) || DROPPED_KEYS.has(`${e.section}.${e.key}`)) return false;
  if (e.section === 'core' && !KEPT_CORE_KEYS.has(e.key)) return false;
  const v = e.value ?? '';
  if (e.section === 'alias' && v.trimStart().startsWith('!')) return false;
  return !SECRET_SHAPE.test(v);
}

/**
 * The kept part of one git configuration text, read as git reads it (gitConfigText.ts) and written
 * out anew: the entries `kept` keeps. A text git would refuse gives nothing.
 */
export function keptGitConfig(text: string): string {
  const entries = parseGitConfig(text);
  if (!entries) return '';
  return formatGitConfig(entries.filter(kept));
}

let made: { key: string; env: Record<string, string>; excludes: string } | undefined;

/** Bytes of the person's own excludes file copied at most (a bigger one is left out). */
const MAX_EXCLUDES = 256 << 10;

/**
 * The person's global excludes file as git finds it: the last `core.excludesFile` of the kept text
 * (`~/` expanded), else `$XDG_CONFIG_HOME/git/ignore`.
 */
function personExcludesFile(kept: string, home: string, xdg: string): string {
  const set = (parseGitConfig(kept) ?? []).filter((e) => e.section === 'core' && e.key === 'excludesfile').pop()?.value;
  if (!set) return path.join(xdg, 'git', 'ignore');
  return set.startsWith('~/') ? path.join(home, set.slice(2)) : path.resolve(home, set);
}

/** A regular file's text up to MAX_EXCLUDES, links not followed; '' otherwise. */
function smallText(file: string): string {
  try {
    const st = lstatSync(file);
    return st.isFile() && st.size <= MAX_EXCLUDES ? readFileSync(file, 'utf8') : '';
  } catch {
    return '';
  }
}

/**
 * `{ GIT_CONFIG_GLOBAL: <copy> }` for a sandboxed command: the kept part of the XDG file, then of
 * `~/.gitconfig` (git's order), and a `core.excludesFile` beside it that holds the person's own
 * global ignores and the names `placeholderNames` gives: the sandbox's placeholders for absent
 * protected names are empty files while a command runs, and the agent's `git add -A && git commit`
 * committed eighteen of them (`.bashrc`, `.claude`, `.mcp.json`…; found with red team x's X1 fix,
 * which puts back a commit adding a protected path). The copy is made again only when they change.
 */
export function sandboxGitConfigEnv(
  env: Readonly<Record<string, string | undefined>>,
  placeholderNames: readonly string[] = [],
): Record<string, string> {
  const home = env.HOME;
  if (!home) return { GIT_CONFIG_GLOBAL: '/dev/null' };
  const xdg = env.XDG_CONFIG_HOME || path.join(home, '.config');
  const text = [path.join(xdg, 'git', 'config'), path.join(home, '.gitconfig')]
    .map((f) => {
      try {
        return keptGitConfig(readFileSync(f, 'utf8'));
      } catch {
        return '';
      }
    })
    .join('');
  const own = smallText(personExcludesFile(text, home, xdg));
  const ignores = `${own}${own === '' || own.endsWith('\n') ? '' : '\n'}${placeholderNames.map((n) => `${n}\n`).join('')}`;
  const key = `${text}\0${ignores}`;
  if (made?.key === key) return made.env;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'da-gitconfig-'));
  const file = path.join(dir, 'gitconfig');
  const excludes = path.join(dir, 'ignore');
  writeFileSync(excludes, ignores, { mode: 0o444 });
  const config = formatGitConfig([{ section: 'core', key: 'excludesfile', value: excludes }]);
  writeFileSync(file, `${text}${config}`, { mode: 0o444 });
  made = { key, env: { GIT_CONFIG_GLOBAL: file }, excludes };
  return made.env;
}

/** The excludes file beside the copy (sandboxGitConfigEnv), which sandboxed git must be able to read. */
export function sandboxGitExcludesFile(
  env: Readonly<Record<string, string | undefined>>,
  placeholderNames: readonly string[] = [],
): string | undefined {
  sandboxGitConfigEnv(env, placeholderNames);
  return env.HOME ? made?.excludes : undefined;
}
