// git for the worktree's shadow: through the door, on the repository's own git directory.
import { runHostGit } from '../../hostProcess/git';

// --- git -------------------------------------------------------------------------------------------

interface GitRun {
  stdout: string;
  stderr: string;
  code: number;
}

/** git through the door (src/hostProcess/git.ts): hardened, no secret of the worker, no repository of its own. */
export async function runGit(
  args: readonly string[],
  opts: { env?: Record<string, string>; input?: string; stdinFd?: number; stdoutFd?: number; cwd?: string } = {},
): Promise<GitRun> {
  const r = await runHostGit(opts.cwd ?? '/', args, {
    ...(opts.env ? { env: opts.env } : {}),
    ...(opts.input !== undefined ? { input: opts.input } : {}),
    ...(opts.stdinFd !== undefined ? { stdinFd: opts.stdinFd } : {}),
    ...(opts.stdoutFd !== undefined ? { stdoutFd: opts.stdoutFd } : {}),
  });
  if (r.spawnError) throw new Error(`git could not start: ${r.spawnError}`);
  return { stdout: r.stdout, stderr: r.stderr, code: r.code ?? 1 };
}

export async function git(args: readonly string[], opts: Parameters<typeof runGit>[1] = {}): Promise<string> {
  const r = await runGit(args, opts);
  if (r.code !== 0) throw new Error(`git ${args.join(' ')}: ${(r.stderr || `exit ${r.code}`).trim()}`);
  return r.stdout;
}

/** The repository's refs: name → hash (symbolic refs apart, with their targets). */
export async function repositoryRefs(
  commonDir: string,
): Promise<{ refs: Map<string, string>; symrefs: Map<string, string> }> {
  const out = await git([`--git-dir=${commonDir}`, 'for-each-ref', '--format=%(objectname) %(refname) %(symref)']);
  const refs = new Map<string, string>();
  const symrefs = new Map<string, string>();
  for (const line of out.split('\n')) {
    const [hash, name, target] = line.split(' ');
    if (!hash || !name) continue;
    if (target) symrefs.set(name, target);
    else refs.set(name, hash);
  }
  return { refs, symrefs };
}
/** The last line of git's complaint. */
export function gitReason(stderr: string): string {
  const lines = stderr.trim().split('\n').filter(Boolean);
  return lines.find((l) => l.startsWith('error:'))?.replace(/^error: /, '') ?? lines.at(-1) ?? 'refused';
}
