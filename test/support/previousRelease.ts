// An earlier release of durable-agent, built for real, for the upgrade test
// (test/integration/upgrade): the commit is extracted with `git archive` (no worktree is
// registered) and installed with `npm ci` (which builds it) once into
// ~/.cache/durable-agent/releases/<commit>, then reused. `.ci/run` prepares it before the tests:
//   node dist/test/support/previousRelease.js
// Default commit: main at the start of issue 21's work; DURABLE_AGENT_PREVIOUS_RELEASE=<commit> picks another.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export const PREVIOUS_RELEASE =
  process.env.DURABLE_AGENT_PREVIOUS_RELEASE ?? '02a3ad26b6be74e5ff9b2f6d99872f4157e6389a';

const repo = (() => {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'src'))) return dir;
    if (dirname(dir) === dir) throw new Error('repo root not found');
  }
})();

/** The release's built worker script (workerProcess.js), building it first when needed; or why it cannot be had here. */
export function previousRelease(commit = PREVIOUS_RELEASE): { script?: string; why?: string } {
  const dir = join(
    process.env.DURABLE_AGENT_CACHE_DIR ?? join(homedir(), '.cache', 'durable-agent'),
    'releases',
    commit,
  );
  const script = join(dir, 'dist', 'test', 'support', 'workerProcess.js');
  if (existsSync(script)) return { script };
  try {
    execFileSync('git', ['-C', repo, 'cat-file', '-e', `${commit}^{commit}`], { stdio: 'ignore' });
  } catch {
    return { why: `commit ${commit} is not in this clone (a shallow clone?)` };
  }
  const t0 = Date.now();
  execFileSync('rm', ['-rf', dir]);
  execFileSync('mkdir', ['-p', dir]);
  execFileSync('sh', ['-c', `git -C '${repo}' archive ${commit} | tar -x -C '${dir}'`]);
  // `npm ci` builds too (prepare); the script is written last, so a half-done build is redone.
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  console.log(`[previous release] built ${commit.slice(0, 7)} in ${Math.round((Date.now() - t0) / 1000)} s`);
  return existsSync(script) ? { script } : { why: `the build of ${commit} has no ${script}` };
}

if (require.main === module) {
  const r = previousRelease();
  console.log(r.script ? `[previous release] ${r.script}` : `[previous release] not available: ${r.why}`);
}
