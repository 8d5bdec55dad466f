// An earlier release of durable-agent, built for real, for the upgrade test
// (test/integration/upgrade): the commit is extracted with `git archive` (no worktree is
// registered) and installed with `npm ci` (which builds it) once into
// ~/.cache/durable-agent/releases/<commit>, then reused. `.ci/run` prepares it before the tests:
//   node dist/test/support/previousRelease.js
// Which release: the newest CHANGELOG.md entry older than package.json's version (a session a
// deploy of this version meets was started by it); its commit is the hash the entry names, or its
// tag (scripts/releases.ts). DURABLE_AGENT_PREVIOUS_RELEASE=<commit> picks another.
// upgradeReleases() adds the release named by package.json's version when it is already tagged
// (the release deployed now, which main's worker replaces next): the upgrade tests run per release.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  packageVersion,
  previousReleaseEntry,
  readChangelog,
  releaseCommit,
  repoRoot as repo,
} from '../../scripts/releases';

/** The previous release's version and commit, or why there is none. */
export function previousReleaseCommit(): { version?: string; commit?: string; why?: string } {
  const override = process.env.DURABLE_AGENT_PREVIOUS_RELEASE;
  if (override) return { commit: override };
  const version = packageVersion();
  const entry = previousReleaseEntry(readChangelog(), version);
  if (!entry) return { why: `CHANGELOG.md has no release older than ${version}` };
  return { version: entry.version, ...releaseCommit(entry) };
}

/**
 * The release a build of this tree replaces — the one deployed now — which `npm run bench`'s cost
 * step and `npm run compare:release` put beside it: DURABLE_AGENT_PREVIOUS_RELEASE (a commit or a
 * tag) if set, else the newest CHANGELOG.md release whose commit is known here and is not HEAD
 * (package.json's version once it is tagged; before, the release before it).
 */
export function deployedRelease(root = repo): { version?: string; commit?: string; why?: string } {
  const override = process.env.DURABLE_AGENT_PREVIOUS_RELEASE;
  const git = (...args: string[]): string | undefined => {
    try {
      return execFileSync('git', ['-C', root, ...args], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim();
    } catch {
      return undefined;
    }
  };
  const entries = readChangelog(root).entries;
  if (override) {
    // A tag or a short hash names its commit; any other name (a cached build's directory) is kept.
    const commit = git('rev-parse', '--verify', '--quiet', `${override}^{commit}`) || override;
    const version = entries.find((e) => releaseCommit(e, root).commit === commit)?.version;
    return version ? { version, commit } : { commit };
  }
  const head = git('rev-parse', 'HEAD');
  for (const e of entries) {
    const { commit } = releaseCommit(e, root);
    if (commit && commit !== head) return { version: e.version, commit };
  }
  return { why: 'CHANGELOG.md names no release with a known commit other than HEAD' };
}

/** The releases whose sessions this worker must finish: the previous one and, once tagged, package.json's version. */
export function upgradeReleases(): Array<{ version: string; commit?: string; why?: string }> {
  const previous = previousReleaseCommit();
  const out: Array<{ version: string; commit?: string; why?: string }> = [
    { version: previous.version ?? 'previous', commit: previous.commit, why: previous.why },
  ];
  const version = packageVersion();
  const current = readChangelog().entries.find((e) => e.version === version);
  if (current) out.push({ version, ...releaseCommit(current) });
  return out;
}

/** The release's built worker script (workerProcess.js), building it first when needed; or why it cannot be had here. */
export function previousRelease(commit = previousReleaseCommit().commit): {
  script?: string;
  why?: string;
  commit?: string;
  /** The release's prebuilt workflow bundle (releaseBundle), for test/support/workerProcs.ts releaseWorkerEnv. */
  bundle?: string;
} {
  if (!commit) return { why: previousReleaseCommit().why };
  const dir = join(
    process.env.DURABLE_AGENT_CACHE_DIR ?? join(homedir(), '.cache', 'durable-agent'),
    'releases',
    commit,
  );
  const script = join(dir, 'dist', 'test', 'support', 'workerProcess.js');
  if (existsSync(script)) return { script, commit, bundle: releaseBundle(dir) };
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
  return existsSync(script)
    ? { script, commit, bundle: releaseBundle(dir) }
    : { why: `the build of ${commit} has no ${script}` };
}

/**
 * The release's workflow bundle, made once by the release's own `bundleAgentWorkflows` (its webpack
 * and SDK, the code its worker bundles when given none) into <release>/workflow-bundle.js; each
 * release worker a test starts loads it (WORKFLOW_BUNDLE_PATH) instead of running webpack: seconds
 * of CPU per worker, ten release workers per suite (issue 32). Written under a temporary name and
 * renamed, so test files that start release workers at once never read half a bundle. Undefined
 * when the release has no such function (its worker then bundles as before). For a plain worker
 * only: a worker of a deployment version or with tracing bundles other modules.
 */
function releaseBundle(dir: string): string | undefined {
  const file = join(dir, 'workflow-bundle.js');
  if (existsSync(file)) return file;
  const entry = ['temporal/worker.js', 'worker.js'].map((f) => join(dir, 'dist', 'src', f)).find(existsSync);
  if (!entry || !readFileSync(entry, 'utf8').includes('bundleAgentWorkflows')) return undefined;
  const tmp = `${file}.${process.pid}.tmp`;
  const code = `const fs = require('fs');
    require(${JSON.stringify(entry)}).bundleAgentWorkflows().then((b) => {
      fs.writeFileSync(${JSON.stringify(tmp)}, b.code);
      fs.renameSync(${JSON.stringify(tmp)}, ${JSON.stringify(file)});
    });`;
  try {
    execFileSync(process.execPath, ['-e', code], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  } catch {
    return undefined;
  }
  return existsSync(file) ? file : undefined;
}

if (require.main === module) {
  for (const { version, commit, why } of upgradeReleases()) {
    const r = commit ? previousRelease(commit) : { why };
    console.log(
      r.script
        ? `[release] ${version} (${r.commit?.slice(0, 7)}): ${r.script}`
        : `[release] ${version} not available: ${r.why}`,
    );
  }
}
