// Worker-side git through the door: a hardened invocation, so that git run outside the sandbox
// executes nothing a repository, the user's git configuration or the agent chose. It reads no
// system or global configuration (the agent may have written ~/.gitconfig's neighbours, and a
// person's filters such as LFS are theirs to run, not the worker's), runs no hook, fsmonitor,
// pager, editor, credential helper, ssh command or transport, and every filter, diff and merge
// driver the repository's configuration names is switched off (a filter runs nothing; a diff or
// merge driver fails, so a diff that needs one is an error rather than the repository's program).
import { statSync } from 'node:fs';
import * as path from 'node:path';
import { runHostProcess, runHostProcessSync, type HostRunOptions, type HostRunResult } from './door';

/** `-c` settings every worker-side git gets (command-line settings win over every file). */
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
  'protocol.allow=never',
  'gc.auto=0',
  'maintenance.auto=false',
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  'submodule.recurse=false',
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

interface DriverCache {
  origins: { file: string; key: string }[];
  overrides: string[];
}
const driverCache = new Map<string, DriverCache>();

const stamp = (file: string): string => {
  try {
    const s = statSync(file);
    return `${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch {
    return 'absent';
  }
};

/**
 * `-c` settings that switch off every filter, diff and merge driver the configuration git would read
 * in `cwd` names (with the includes it follows). Cached per directory while the files it came from
 * are unchanged.
 */
export function gitDriverOverrides(cwd: string, gitDirArg: readonly string[] = []): string[] {
  const key = JSON.stringify([cwd, gitDirArg]);
  const hit = driverCache.get(key);
  if (hit && hit.origins.every((o) => stamp(o.file) === o.key)) return hit.overrides;
  const r = runHostProcessSync({
    purpose: 'git',
    command: 'git',
    args: [...gitDirArg, 'config', '--list', '--show-origin', '--name-only', '-z'],
    cwd,
    env: GIT_GUARD_ENV,
  });
  const overrides = new Set<string>();
  const origins: { file: string; key: string }[] = [];
  // -z: "<origin>\0<name>\0" per entry; git exits 1 outside a repository with no other config.
  const parts = r.stdout.split('\0');
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const origin = parts[i]!;
    const name = parts[i + 1]!;
    if (origin.startsWith('file:')) {
      const file = path.resolve(cwd, origin.slice('file:'.length));
      if (!origins.some((o) => o.file === file)) origins.push({ file, key: stamp(file) });
    }
    const m = /^(filter|diff|merge)\.(.+)\.([^.]+)$/.exec(name);
    if (!m) continue;
    const [, section, sub] = m;
    if (section === 'filter')
      for (const k of ['clean', 'smudge', 'process'])
        overrides.add(`filter.${sub}.${k}=`).add(`filter.${sub}.required=false`);
    // An empty filter command is no filter (git skips it); an empty diff or merge command is an
    // error, so those become `false`: git then fails loudly instead of running the repository's.
    if (section === 'diff') overrides.add(`diff.${sub}.textconv=false`).add(`diff.${sub}.command=false`);
    if (section === 'merge') overrides.add(`merge.${sub}.driver=false`);
  }
  const result = [...overrides];
  if (r.code === 0 || r.code === 1) driverCache.set(key, { origins, overrides: result });
  return result;
}

export interface HostGitOptions extends HostRunOptions {
  /** Variables for this run: only git's own location variables (GIT_OBJECT_DIRECTORY, …). */
  env?: Readonly<Record<string, string>>;
}

/** The arguments before git's command: the guard, then the drivers switched off. */
function guardArgs(cwd: string, args: readonly string[]): string[] {
  const gitDirArg = args.filter((a) => a.startsWith('--git-dir='));
  const overrides = [...GIT_GUARD_CONFIG, ...gitDriverOverrides(cwd, gitDirArg)];
  return overrides.flatMap((o) => ['-c', o]);
}

/** Runs worker-side git in `cwd` (absolute, fixed by the caller) through the door. */
export function runHostGit(cwd: string, args: readonly string[], opts: HostGitOptions = {}): Promise<HostRunResult> {
  const named: Record<string, string> = {};
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (!CALLER_GIT_ENV.test(k))
      return Promise.reject(new Error(`worker-side git: ${k} is not a variable a caller may set`));
    named[k] = v;
  }
  return runHostProcess(
    {
      purpose: 'git',
      command: 'git',
      args: [...guardArgs(cwd, args), ...args],
      cwd,
      env: { ...GIT_GUARD_ENV, ...named },
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
