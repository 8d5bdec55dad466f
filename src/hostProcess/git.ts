// Worker-side git through the door: a hardened invocation, so that git run outside the sandbox
// executes nothing a repository, the user's git configuration or the agent chose. It reads no
// system or global configuration (the agent may have written ~/.gitconfig's neighbours, and a
// person's filters such as LFS are theirs to run, not the worker's), runs no hook, fsmonitor,
// pager, editor, credential helper, ssh command or transport, and every filter, diff and merge
// driver the repository's configuration names is switched off (a filter runs nothing; a diff or
// merge driver fails, so a diff that needs one is an error rather than the repository's program).
import { existsSync, lstatSync, readFileSync, realpathSync } from 'node:fs';
import * as path from 'node:path';
import { runHostProcess, runHostProcessSync, type HostRunOptions, type HostRunResult } from './door';

/**
 * Settings every worker-side git gets on its command line (`-c`, which wins over every file). Each
 * one names a program git would run or a place it would reach: none of them may come from a file
 * the repository or the agent wrote.
 */
export const GIT_GUARD_CONFIG: readonly string[] = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.untrackedCache=false',
  'core.pager=cat',
  'core.editor=true',
  'sequence.editor=true',
  'core.askPass=',
  'core.sshCommand=false',
  'core.gitProxy=',
  'core.attributesFile=/dev/null',
  'core.alternateRefsCommand=',
  'credential.helper=',
  'diff.external=',
  'log.showSignature=false',
  'merge.verifySignatures=false',
  'gpg.program=false',
  'gpg.openpgp.program=false',
  'gpg.ssh.program=false',
  'gpg.x509.program=false',
  'gpg.ssh.defaultKeyCommand=false',
  'protocol.allow=never',
  ...['file', 'ext', 'ssh', 'git', 'http', 'https', 'fd'].map((p) => `protocol.${p}.allow=never`),
  'gc.auto=0',
  'maintenance.auto=false',
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  'push.gpgSign=false',
  'submodule.recurse=false',
  'fetch.recurseSubmodules=false',
  // A bare repository (HEAD, objects/, refs/ and a config, no `.git`) is never discovered from the
  // directory git runs in (red team, issue 30 round f): a sandboxed command can build one anywhere.
  'safe.bareRepository=explicit',
];

/** The environment variables git gets on top of PATH and the locale. */
export const GIT_GUARD_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_ATTR_NOSYSTEM: '1',
  GIT_TERMINAL_PROMPT: '0',
  GIT_NO_REPLACE_OBJECTS: '1',
  GIT_PROTOCOL_FROM_USER: '0',
  GIT_PAGER: 'cat',
  GIT_EDITOR: 'true',
  GIT_OPTIONAL_LOCKS: '0',
};

/** Variables a caller may name for git (the object directory of a pack it builds, …). */
const CALLER_GIT_ENV = /^GIT_(OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|INDEX_FILE|DIR|WORK_TREE)$/;

/**
 * The options a caller may put before git's command: where the repository is, in the one-word form
 * (`--git-dir=X`), so that the driver list below is read from the same repository git will use.
 * `-C`, `-c`, two-word forms and everything else are refused.
 */
const CALLER_GLOBAL_OPTION = /^--(git-dir|work-tree)=/;

export class HostGitRefused extends Error {}

/** The leading options of a caller's arguments, checked; the rest from git's command on. */
function splitGlobalOptions(args: readonly string[]): { global: string[]; rest: string[] } {
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-')) {
    if (!CALLER_GLOBAL_OPTION.test(args[i]!))
      throw new HostGitRefused(
        `worker-side git: the option ${args[i]} is not one a caller may give before the command`,
      );
    i++;
  }
  const global = args.slice(0, i);
  // A repository's own git directory never has a `commondir` (only a linked worktree's does, under
  // `.git/worktrees`, which the sandbox cannot write): one there would point git at a configuration
  // someone else wrote (red team, issue 30).
  // One naming the git directory itself is the sandbox's placeholder (src/sandbox/placeholders.ts),
  // held while a sandboxed command runs: git reads it as no commondir.
  for (const o of global) {
    const dir = o.startsWith('--git-dir=') ? o.slice('--git-dir='.length) : undefined;
    // The worker's repositories are the session's `.git` and what lies in it (a linked worktree's
    // git directory, the shadow): never a bare repository, which a sandboxed command can build anywhere.
    if (dir !== undefined && !inDotGit(dir))
      throw new HostGitRefused(
        `worker-side git: ${dir} is not a .git directory or inside one (really ${realOr(dir)}); the worker runs git in no bare repository`,
      );
    if (dir && path.basename(dir) === '.git' && existsSync(path.join(dir, 'commondir')) && !namesItself(dir))
      throw new HostGitRefused(
        `worker-side git: ${path.join(dir, 'commondir')} exists; a repository's own git directory has none`,
      );
  }
  return { global, rest: args.slice(i) };
}

function realOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** `dir` is absolute and, as written and really (symlinks resolved), a `.git` directory or inside one. */
function inDotGit(dir: string): boolean {
  if (!path.isAbsolute(dir)) return false;
  return [path.resolve(dir), realOr(dir)].every((d) => d.split(path.sep).includes('.git'));
}

/** Does the git directory's `commondir` name the directory itself (`.`, the placeholder's content)? */
function namesItself(gitDir: string): boolean {
  try {
    const st = lstatSync(path.join(gitDir, 'commondir'));
    if (!st.isFile() || st.size > 64) return false;
    const named = readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim();
    return named !== '' && path.resolve(gitDir, named) === path.resolve(gitDir);
  } catch {
    return false;
  }
}

/**
 * Settings (as GIT_CONFIG_KEY/VALUE pairs: a subsection may hold `=`, which `-c` would split) that
 * switch off every filter, diff and merge driver, every `protocol.<x>.allow` and refuse a
 * `core.worktree`, read from the configuration git would read with these options and variables
 * (includes followed). Read again for every run: a cache keyed by the files it came from misses an
 * include that appears later (red team, issue 30). The configuration can still change between this
 * read and git's own (a command running in the background): the repository's config files are
 * protected from the sandbox, and worker-side git runs only in the session's own repository, so
 * this list is the second wall, not the first.
 */
export function gitConfigOverrides(
  cwd: string,
  global: readonly string[],
  env: Readonly<Record<string, string>>,
): Array<[string, string]> {
  const r = runHostProcessSync({
    purpose: 'git',
    command: 'git',
    args: [...global, 'config', '--list', '--name-only', '-z'],
    cwd,
    env: { ...GIT_GUARD_ENV, ...env },
    projectDirs: repositoryDirs(global),
  });
  const out = new Map<string, string>();
  for (const name of r.stdout.split('\0')) {
    const lower = name.toLowerCase();
    // A conditional include is read by git as its condition holds in each process: `onbranch:`,
    // `gitdir:` hold differently in the child git that `worktree add` starts for the new worktree
    // (its HEAD is the new branch, its git directory `.git/worktrees/<x>`) than in this list, so a
    // filter it names would run there unswitched (red team, issue 30). The door follows no
    // conditional include: refused, like core.worktree.
    if (lower.startsWith('includeif.'))
      throw new HostGitRefused(
        `worker-side git: the repository's configuration has a conditional include (${name}, in ${cwd}); the worker follows none (what it names may differ between git's processes)`,
      );
    if (lower === 'core.worktree')
      throw new HostGitRefused(
        `worker-side git: the repository's configuration sets core.worktree (in ${cwd}); the worker does not check files out elsewhere`,
      );
    const m = /^(filter|diff|merge|protocol)\.(.+)\.([^.]+)$/s.exec(name);
    if (!m) continue;
    const [, section, sub] = m;
    const s = section!.toLowerCase();
    // An empty filter command is no filter (git skips it); an empty diff or merge command is an
    // error, so those become `false`: git then fails loudly instead of running the repository's.
    if (s === 'filter') {
      for (const k of ['clean', 'smudge', 'process']) out.set(`filter.${sub}.${k}`, '');
      out.set(`filter.${sub}.required`, 'false');
    } else if (s === 'diff') {
      out.set(`diff.${sub}.textconv`, 'false');
      out.set(`diff.${sub}.command`, 'false');
    } else if (s === 'merge') out.set(`merge.${sub}.driver`, 'false');
    else out.set(`protocol.${sub}.allow`, 'never');
  }
  return [...out];
}

export interface HostGitOptions extends HostRunOptions {
  /** Variables for this run: only git's own location variables (GIT_OBJECT_DIRECTORY, …). */
  env?: Readonly<Record<string, string>>;
}

/**
 * The directories of the repository the global options name (`--work-tree`, the directory holding
 * the `.git` of `--git-dir`, a linked worktree's `.git/worktrees/<x>` too): git is looked up on no
 * PATH entry inside them (`<project>/bin`), whatever directory it runs in.
 */
export function repositoryDirs(global: readonly string[]): string[] {
  const out: string[] = [];
  for (const o of global) {
    if (o.startsWith('--work-tree=')) out.push(o.slice('--work-tree='.length));
    if (!o.startsWith('--git-dir=')) continue;
    const parts = o.slice('--git-dir='.length).split(path.sep);
    const at = parts.lastIndexOf('.git');
    if (at > 0) out.push(parts.slice(0, at).join(path.sep) || path.sep);
  }
  return out.filter((d) => path.isAbsolute(d));
}

/** Runs worker-side git in `cwd` (absolute, fixed by the caller) through the door. */
export function runHostGit(cwd: string, args: readonly string[], opts: HostGitOptions = {}): Promise<HostRunResult> {
  const named: Record<string, string> = {};
  let overrides: Array<[string, string]>;
  let split: { global: string[]; rest: string[] };
  try {
    for (const [k, v] of Object.entries(opts.env ?? {})) {
      if (!CALLER_GIT_ENV.test(k)) throw new HostGitRefused(`worker-side git: ${k} is not a variable a caller may set`);
      named[k] = v;
    }
    split = splitGlobalOptions(args);
    overrides = gitConfigOverrides(cwd, split.global, named);
  } catch (err) {
    return Promise.reject(err as Error);
  }
  const count: Record<string, string> = { GIT_CONFIG_COUNT: String(overrides.length) };
  overrides.forEach(([k, v], i) => {
    count[`GIT_CONFIG_KEY_${i}`] = k;
    count[`GIT_CONFIG_VALUE_${i}`] = v;
  });
  return runHostProcess(
    {
      purpose: 'git',
      command: 'git',
      args: [...split.global, ...GIT_GUARD_CONFIG.flatMap((o) => ['-c', o]), ...split.rest],
      cwd,
      env: { ...GIT_GUARD_ENV, ...named, ...count },
      projectDirs: repositoryDirs(split.global),
    },
    { timeoutMs: 120_000, ...opts },
  );
}

/** Runs worker-side git; resolves with stdout, rejects with git's message. */
export async function hostGit(cwd: string, args: readonly string[], opts: HostGitOptions = {}): Promise<string> {
  const r = await runHostGit(cwd, args, opts);
  if (r.spawnError) throw new Error(`git could not start: ${r.spawnError}`);
  if (r.code !== 0) throw new Error((r.stderr || `git ${args[0] ?? ''} exited with ${r.code ?? r.signal}`).trim());
  return r.stdout;
}
