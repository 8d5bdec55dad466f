// Bringing a command's refs in: the refs the worktree owns move in the repository when every object
// of their new commits came in and none of those commits changes a protected path; nothing else.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { gitlinksChangeControl, rawListing } from '../../sandbox/gitlinkCommits';
import { hookPathspecs, hooksUnread } from '../../sandbox/hookPathspecs';
import { rangeChangesManifestKeys } from '../../sandbox/manifestCommits';
import { isProtectedRepositoryPath } from '../../sandbox/protect';
import { readRegular, shadowLooseRefs, writeAtomic } from './files';
import { repositoryRefs, runGit } from './git';
import { HEX, STATE, type State, type WorktreeGit, type WorktreeSync } from './layout';
import { importObjects, objectsPresent } from './objects';

// --- bringing a command's work in ------------------------------------------------------------------------

export async function syncLocked(w: WorktreeGit, shadow: string, state: State): Promise<WorktreeSync> {
  const result: WorktreeSync = { applied: [], refused: [] };
  const refusedBefore = state.refused?.length ?? 0;
  try {
    const problem = await importObjects(w, shadow, state);
    if (problem) result.objectsError = problem;
  } catch (err) {
    result.objectsError = err instanceof Error ? err.message : String(err);
    result.importFailed = true;
  }
  let stateChanged = (state.refused?.length ?? 0) !== refusedBefore;
  const wanted = await shadowLooseRefs(shadow);
  const packed = await packedRefsOf(shadow);
  const { refs } = await repositoryRefs(w.commonDir);
  const exists = await objectsPresent(w.commonDir, [...new Set(wanted.values())]);
  for (const [ref, to] of wanted) {
    const now = refs.get(ref);
    if (now === to) continue;
    const owned = state.own.includes(ref);
    // A new branch is the worktree's own from then on; a tag, or any ref that existed, is not.
    const created = now === undefined && !packed.has(ref) && ref.startsWith('refs/heads/');
    if (!owned && !created) {
      result.refused.push({ ref, to, why: ref.startsWith('refs/tags/') ? 'a tag' : 'not this worktree’s branch' });
      continue;
    }
    const type = exists.get(to);
    if (type !== 'commit') {
      result.refused.push({ ref, to, why: 'its commit was not brought into the repository' });
      continue;
    }
    // Every object its new commits need must be in the repository (some may have been refused).
    if (!(await complete(w.commonDir, to, [...refs.values()]))) {
      result.refused.push({ ref, to, why: 'some of its objects were not brought into the repository' });
      continue;
    }
    // What the sandbox kept it from writing on disk, it may not put in a commit either.
    const touched = await protectedChanges(w.commonDir, to, [...refs.values()]);
    if (touched.length > 0) {
      result.refused.push({
        ref,
        to,
        why: `its new commits change protected paths (${touched.slice(0, 5).join(', ')}${touched.length > 5 ? ', …' : ''}), which commands in a worktree may not change`,
      });
      continue;
    }
    const r = await runGit([
      `--git-dir=${w.commonDir}`,
      'update-ref',
      '-m',
      'durable-agent: from worktree',
      ref,
      to,
      now ?? '',
    ]);
    if (r.code !== 0) {
      result.refused.push({ ref, to, why: r.stderr.trim() || 'git update-ref failed' });
      continue;
    }
    result.applied.push({ ref, to });
    if (!owned) {
      state.own.push(ref);
      stateChanged = true;
    }
  }
  if (stateChanged) await writeAtomic(path.join(shadow, STATE), JSON.stringify(state));
  await detachedHead(w, shadow, state, result, wanted);
  return result;
}

/**
 * The worktree's HEAD after a command: at a ref the repository did not take, detached at the commit it
 * named for the command; detached at a commit whose new commits change a protected path (or the
 * repository's hooks: plumbing's `update-ref --no-deref HEAD`, or a refused ref's commit), back on the
 * worktree's own branch — the person's `git checkout HEAD -- .` there wrote the agent's
 * `.githooks/post-checkout` and git ran it (issue 30, known limit L-e).
 */
async function detachedHead(
  w: WorktreeGit,
  shadow: string,
  state: State,
  result: WorktreeSync,
  wanted: ReadonlyMap<string, string>,
): Promise<void> {
  const { refs } = await repositoryRefs(w.commonDir);
  // HEAD naming a ref the repository did not take would show the worktree's files as changes: detach it there.
  const head = (await readRegular(path.join(w.gitDir, 'HEAD'), 1024))?.trim();
  const named = head?.match(/^ref: (\S+)$/)?.[1];
  if (named && !state.own.includes(named)) {
    // Pointed at a ref the worktree does not own (main, another branch): at the commit it named for the command.
    const at = wanted.get(named) ?? (await packedValueOf(shadow, named)) ?? refs.get(named);
    const type = at ? (await objectsPresent(w.commonDir, [at])).get(at) : undefined;
    if (at && type === 'commit') {
      await writeAtomic(path.join(w.gitDir, 'HEAD'), `${at}\n`);
      result.detachedHead = at;
    }
  }
  const now = (await readRegular(path.join(w.gitDir, 'HEAD'), 1024))?.trim();
  const own = state.own[0];
  if (!now || !HEX.test(now) || !own) return;
  const touched = await protectedChanges(w.commonDir, now, [...refs.values()]);
  if (touched.length === 0) return;
  await writeAtomic(path.join(w.gitDir, 'HEAD'), `ref: ${own}\n`);
  delete result.detachedHead;
  result.refused.push({
    ref: 'HEAD',
    to: now,
    why: `its commits change protected paths (${touched.slice(0, 5).join(', ')}); HEAD is back on ${own}`,
  });
}

/** A ref's value in the shadow's packed-refs (the worker's copy of the repository's refs). */
async function packedValueOf(shadow: string, ref: string): Promise<string | undefined> {
  const text = await fs.readFile(path.join(shadow, 'packed-refs'), 'utf8').catch(() => '');
  for (const l of text.split('\n')) {
    const [hash, name] = l.split(' ');
    if (name === ref && hash && HEX.test(hash)) return hash;
  }
  return undefined;
}

/**
 * The protected paths (src/permissions/protectedPaths.ts: `.claude/`, `.git*`, `.mcp.json`, shell
 * start-up files…) that the commits reachable from `tip` and from none of the repository's refs
 * change. A merge counts only for what differs from every parent (a merge of main's own changes is not the worktree's).
 * So are the main checkout's hooks directory (`core.hooksPath`) and the files its hooks run, as the
 * main checkout's ref screen has them (sandbox/hookPathspecs.ts; red team q, Q7: a commit adding
 * `.githooks/post-merge` came in, and the person's `git merge` of the agent's branch ran it).
 */
async function protectedChanges(commonDir: string, tip: string, known: readonly string[]): Promise<string[]> {
  const r = await runGit(
    [
      `--git-dir=${commonDir}`,
      'log',
      '-z',
      '--format=',
      '--raw',
      '--no-abbrev',
      '--ignore-submodules=none',
      '--no-renames',
      '--cc',
      '--stdin',
    ],
    { input: [tip, ...known.map((h) => `^${h}`)].join('\n') + '\n' },
  );
  if (r.code !== 0) return [`(the commits could not be read: ${r.stderr.trim()})`];
  // -z: names as they are (a quoted name would hide its first component from the check); raw, for
  // the gitlinks (followed into the submodule's objects: gitlinkCommits.ts; red team y, Y4).
  const listing = rawListing(r.stdout);
  const paths = [...new Set(listing.paths)];
  // And what the repository's hooks run (issue 30, known limit L-e): `core.hooksPath = .githooks`
  // (husky's `.husky`) and the files its hooks name, read from the main checkout's configuration as
  // movedRefs.ts reads it for the main checkout's refs (P1). A commit of the worktree's own branch
  // that adds `.githooks/post-merge` ran it at the person's `git merge` of that branch.
  const hooks = path.basename(commonDir) === '.git' ? hookPathspecs(commonDir) : [];
  // Not readable (red team v, V11): no commit that changes a file comes in unscreened.
  if (hooksUnread(hooks) && paths.length > 0) return ['(the repository’s hook configuration could not be read)'];
  const hooked = (p: string) => hooks.some((h) => p === h || p.startsWith(`${h}/`));
  const out = paths.filter((p) => isProtectedRepositoryPath(p) || hooked(p));
  if (gitlinksChangeControl(commonDir, listing.gitlinks))
    out.push('a gitlink (to a submodule commit that changes a protected path there, or could not be screened)');
  // A package.json key the person's hooks or tools run, changed by one of the commits (red team w, W9).
  const manifests = path.basename(commonDir) === '.git' && paths.some((p) => /(^|\/)package\.json$/i.test(p));
  if (manifests && rangeChangesManifestKeys(commonDir, tip, new Set(known)))
    out.push('package.json (a key the person’s hooks or tools run)');
  return out;
}

/** Are all the objects of the commits reachable from `tip` and from no repository ref in the repository? */
async function complete(commonDir: string, tip: string, known: readonly string[]): Promise<boolean> {
  const r = await runGit([`--git-dir=${commonDir}`, 'rev-list', '--objects', '--quiet', '--stdin'], {
    input: [tip, ...known.map((h) => `^${h}`)].join('\n') + '\n',
  });
  return r.code === 0;
}

/** The refs the worker packed into the shadow (the repository's, when the command started). */
async function packedRefsOf(shadow: string): Promise<Set<string>> {
  const text = await fs.readFile(path.join(shadow, 'packed-refs'), 'utf8').catch(() => '');
  return new Set(
    text
      .split('\n')
      .filter((l) => l && !l.startsWith('#') && !l.startsWith('^'))
      .map((l) => l.split(' ')[1]!)
      .filter(Boolean),
  );
}
/** What the model is told after a command whose git work the repository did not (all) take. */
export function worktreeSyncNote(s: WorktreeSync): string | undefined {
  const lines: string[] = [];
  if (s.objectsError) lines.push(`Objects were not brought into the repository: ${s.objectsError}`);
  for (const r of s.refused) lines.push(`${r.ref} -> ${r.to.slice(0, 12)}: not applied to the repository (${r.why}).`);
  if (s.detachedHead)
    lines.push(`HEAD is now detached at ${s.detachedHead.slice(0, 12)} (the commit the command made).`);
  if (lines.length === 0) return undefined;
  return `<worktree_git>\nThis worktree's commands may move only its own branch (and refs they create) in the repository:\n${lines.join('\n')}\n</worktree_git>`;
}
