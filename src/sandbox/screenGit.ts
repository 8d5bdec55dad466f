// The screens' own git (refRange.ts, renamedHooks.ts, movedRefs.ts): on a repository a sandboxed command
// could write, through the door, answering from the objects alone.
import { runHostProcessSync } from '../hostProcess/door';
import { GIT_GUARD_ENV } from '../hostProcess/git';

/**
 * git on a repository the command could write: its hooks off, no lazy fetch, and nothing that stands
 * in for the commits themselves — no replace refs, no grafts file, no commit-graph (its changed-path
 * Bloom filters, which `commit-graph verify` does not check, tell a path-limited `rev-list` that a
 * commit changes nothing: red team v, V18). The answers come from the objects alone.
 */
export function screenGit(
  gitDir: string,
  args: readonly string[],
  input?: string,
  maxBuffer = 256 << 20,
  timeoutMs = 10_000,
  env: Readonly<Record<string, string>> = {},
) {
  return runHostProcessSync(
    {
      purpose: 'git',
      command: 'git',
      args: [
        `--git-dir=${gitDir}`,
        '-c',
        'core.hooksPath=/dev/null',
        '-c',
        'core.commitGraph=false',
        '-c',
        'commitGraph.readChangedPaths=false',
        ...args,
      ],
      cwd: '/',
      env: {
        ...GIT_GUARD_ENV,
        HOME: '/nonexistent',
        GIT_NO_LAZY_FETCH: '1',
        GIT_NO_REPLACE_OBJECTS: '1',
        GIT_GRAFT_FILE: '/nonexistent',
        ...env,
      },
    },
    { timeoutMs, maxBuffer, ...(input === undefined ? {} : { input }) },
  );
}
