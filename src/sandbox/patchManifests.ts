// W9's rule for a stopped `git am` (session 29, issue 30). sequencerPatches.ts reads the patches a stopped am
// has still to apply for hook PATHS; what a hook's `npm run -s lint` runs is a KEY, `scripts.lint`, which a
// sandboxed command may not change in the work tree (manifestBins.ts) nor in a commit a ref leads to
// (manifestCommits.ts). A patch waiting in `.git/rebase-apply/0002` that changes it was the person's at
// `git am --skip` (or `--continue`): am applied and committed it, and their next commit ran the agent's
// script. So the waiting patches that name a package.json are applied as am would apply them — in order, on
// HEAD, with the am's own options — to a scratch index whose new objects go to a scratch directory, and each
// package.json the result changes is judged by the rule the file tools apply to an edit
// (manifestBins.ts `manifestEditRefusal`). A patch that does not apply there (but the stopped one, which
// the person's `--skip` skips), more such patches than MAX_PATCHES, or git past BUDGET_MS: counts as one.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { screenGit } from './screenGit';
import { hookedFor, manifestEditRefusal } from './manifestBins';
import { readRegularFile } from './anchored';
import { commonDirOf, hookManifestKeys, workTreeOf } from './repoConfigTargets';

/** Waiting patches that name a package.json applied at most; more count as changing a key. */
const MAX_PATCHES = 16;
/** The whole judgement's git, at most (each run holds the worker's thread). */
const BUDGET_MS = 1_500;
const MAX_PATCH = 16 << 20;
const MANIFESTS = ':(glob)**/package.json';

/** Does a patch's header name (any leading components stripped) name a package.json? */
export const namesManifest = (names: readonly string[]) =>
  names.some((n) => n.split('/').pop()?.normalize('NFC').toLowerCase() === 'package.json');

/** git on the am's repository with a scratch index and object directory (the repository's objects read beside it). */
function scratchGit(gitDir: string, scratch: string, args: readonly string[], until: number) {
  const left = until - Date.now();
  if (left <= 0) return undefined;
  const r = screenGit(gitDir, args, undefined, 32 << 20, Math.min(left, 1_000), {
    GIT_INDEX_FILE: path.join(scratch, 'index'),
    GIT_OBJECT_DIRECTORY: path.join(scratch, 'objects'),
    GIT_ALTERNATE_OBJECT_DIRECTORIES: path.join(commonDirOf(gitDir), 'objects'),
  });
  return r.code === 0 ? r.stdout : undefined;
}

/** The work tree of a git directory: a linked worktree's from its `gitdir` file. */
function treeOf(gitDir: string): string {
  const link = readRegularFile(path.join(gitDir, 'gitdir'), 4096);
  return typeof link === 'string' && link.trim() !== '' ? path.dirname(link.trim()) : workTreeOf(gitDir);
}

/**
 * Do the patches waiting in `applyDir` (`<gitDir>/rebase-apply`) that name a package.json (`numbered`: their
 * file names, e.g. `0002`) change, applied as the person's `git am --skip` would apply them, a package.json key
 * the sandbox may not write — or could that not be told? `opts`: the am's options for git apply.
 */
export function patchesChangeManifestKeys(applyDir: string, numbered: readonly string[], opts: readonly string[]) {
  if (numbered.length === 0) return false;
  if (numbered.length > MAX_PATCHES) return true;
  const gitDir = path.dirname(applyDir);
  const next = Number(readRegularFile(path.join(applyDir, 'next'), 64)?.trim() ?? '1');
  const until = Date.now() + BUDGET_MS;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'da-am-manifest-'));
  try {
    fs.mkdirSync(path.join(scratch, 'objects'));
    if (scratchGit(gitDir, scratch, ['read-tree', 'HEAD'], until) === undefined) return true;
    for (const name of [...numbered].sort((a, b) => Number(a) - Number(b))) {
      if (Number(name) < next) continue; // applied already: HEAD has it
      const text = readRegularFile(path.join(applyDir, name), MAX_PATCH);
      if (typeof text !== 'string') return true;
      const file = path.join(scratch, 'patch');
      fs.writeFileSync(file, Buffer.from(text, 'latin1'));
      const applied = scratchGit(gitDir, scratch, ['apply', '--cached', ...opts, file], until);
      // The stopped patch does not apply (that is why am stopped): the person's --skip skips it.
      if (applied === undefined && (Number(name) !== next || Date.now() >= until)) return true;
    }
    return changedManifests(gitDir, scratch, until);
  } catch {
    return true;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** Does the scratch index change a package.json of HEAD's against the rule of the file tools? */
function changedManifests(gitDir: string, scratch: string, until: number): boolean {
  const names = scratchGit(
    gitDir,
    scratch,
    ['diff-index', '--cached', '-z', '--no-renames', '--name-only', 'HEAD', '--', MANIFESTS],
    until,
  );
  if (names === undefined) return true;
  const tree = treeOf(gitDir);
  const hooked = hookManifestKeys([tree]);
  for (const rel of names.split('\0').filter((n) => n !== '')) {
    const after = scratchGit(gitDir, scratch, ['cat-file', 'blob', `:${rel}`], until);
    if (after === undefined) {
      if (Date.now() >= until) return true;
      continue; // removed: the tools fall back to the person's own configuration
    }
    const before = scratchGit(gitDir, scratch, ['cat-file', 'blob', `HEAD:${rel}`], until) ?? null;
    if (Date.now() >= until) return true;
    const file = path.join(tree, ...rel.split('/'));
    if (manifestEditRefusal(file, before, after, hookedFor(hooked, file)) !== undefined) return true;
  }
  return false;
}
