// P1's rule for package.json keys (red team w, W9): the ref screens (movedRefs.ts) compare a new commit's
// hook PATHS, but what a hook's `npm run lint` runs is a KEY, `scripts.lint`, which a sandboxed command may
// not change in the work tree (manifestBins.ts puts it back) — a branch whose commit changed it ran the
// agent's script at the person's checkout of it and next commit. So every commit a moved ref (a todo word,
// a reflog line, an imported worktree branch) brings in that changes a package.json is judged by the same
// rule the file tools apply to an edit (manifestBins.ts `manifestEditRefusal`: the control keys, the
// scripts and bins the person's hooks run, a durable-agent bin) against each of its parents.
//
// Bounded (red team y, Y3: one 8 MB manifest at 32 paths held the worker's event loop 44 s, 32 parses):
// the blobs are compared by id first and each is read and parsed once however many paths name it, no
// larger than MANIFEST_BYTES, RANGE_BYTES over all a range reads, within RANGE_MS (git runs and parses
// together: screenGit.ts withScreenBudget). Past any of them the range counts as changing one (put back).
import * as path from 'node:path';
import { hookedFor, manifestEditRefusal } from './manifestBins';
import { hookManifestKeys, workTreeOf } from './repoConfigTargets';
import { overBudget, screenGit, unanswered, withScreenBudget } from './screenGit';

/**
 * Commits, and package.json changes over all of them, judged at most (each a few synchronous git runs; the
 * commits one command made): past either, the range counts as changing one (put back, named).
 */
const MAX_COMMITS = 16;
const MAX_FILES = 32;
/** Bytes of one manifest judged (a package.json is kilobytes; the file tools' own bound is 8 MiB). */
const MANIFEST_BYTES = 1 << 20;
/** Bytes of all the manifests one range reads, each blob once. */
const RANGE_BYTES = 4 << 20;
/** Time one range's judging may hold the worker's one thread (its git runs and its parses). */
const RANGE_MS = 1_000;
const MANIFESTS = ':(glob)**/package.json';
const OID = /^[0-9a-f]{40,64}$/;
const NO_BLOB = /^0+$/;

/** One range's blobs: the texts read (by id), the bytes read so far, one parse per text. */
interface Blobs {
  texts: Map<string, string>;
  bytes: number;
  parsed: Map<string, Record<string, unknown> | undefined>;
}

/**
 * Reads the texts of `ids` into `blobs` (each once); false when one is not a blob there, is over
 * MANIFEST_BYTES, would take the range past RANGE_BYTES, or git did not answer in time.
 */
function readBlobs(gitDir: string, ids: readonly string[], blobs: Blobs): boolean {
  const ask = [...new Set(ids)].filter((id) => !blobs.texts.has(id));
  if (ask.length === 0) return true;
  // Their sizes first: nothing over the bounds is read.
  const sizes = screenGit(gitDir, ['cat-file', '--batch-check=%(objecttype) %(objectsize)'], ask.join('\n') + '\n');
  if (sizes.code !== 0) return false;
  const lines = sizes.stdout.split('\n');
  for (let i = 0; i < ask.length; i++) {
    const m = /^blob (\d+)$/.exec(lines[i] ?? '');
    if (!m || Number(m[1]) > MANIFEST_BYTES || (blobs.bytes += Number(m[1])) > RANGE_BYTES) return false;
  }
  for (const id of ask) {
    const r = screenGit(gitDir, ['cat-file', 'blob', id], undefined, MANIFEST_BYTES + 1);
    if (r.code !== 0 || overBudget()) return false;
    blobs.texts.set(id, r.stdout);
  }
  return true;
}

/** The package.json paths `commit` changes against `parent` (every one of it for a root commit): path, blob before, blob after. */
function changedManifests(gitDir: string, commit: string, parent: string | undefined) {
  const out: { rel: string; was: string | undefined; now: string | undefined }[] = [];
  if (parent) {
    const r = screenGit(gitDir, ['diff-tree', '-r', '-z', '--no-renames', parent, commit, '--', MANIFESTS]);
    if (r.code !== 0) return undefined;
    const f = r.stdout.split('\0');
    // `:<mode a> <mode b> <blob a> <blob b> <status>` then the name.
    for (let i = 0; i + 1 < f.length; i += 2) {
      const [modeA, modeB, a, b] = f[i]!.replace(/^:/, '').split(' ');
      const blob = (mode: string | undefined, id: string | undefined) =>
        mode === '160000' || !id || NO_BLOB.test(id) ? undefined : id;
      out.push({ rel: f[i + 1]!, was: blob(modeA, a), now: blob(modeB, b) });
    }
    return out;
  }
  const r = screenGit(gitDir, ['ls-tree', '-r', '-z', '--full-tree', commit, '--', MANIFESTS]);
  if (r.code !== 0) return undefined;
  for (const rec of r.stdout.split('\0')) {
    // `<mode> <type> <object>\t<name>`
    const m = /^\d+ blob ([0-9a-f]{40,64})\t(.*)$/s.exec(rec);
    if (m) out.push({ rel: m[2]!, was: undefined, now: m[1]! });
  }
  return out;
}

/**
 * Does a commit reachable from `oid` and from none of `olds` change a package.json key the sandbox may not
 * write — against one of its parents (a root commit: against nothing) — or could that not be told?
 */
export function rangeChangesManifestKeys(gitDir: string, oid: string, olds: ReadonlySet<string>): boolean {
  if (olds.has(oid)) return false; // a ref led there before: it brings in no commit no ref reached
  // One answer per object for one set of old objects (one screen: 3,000 tags on one new commit took 12 s).
  let memo = answers.get(olds);
  if (!memo) answers.set(olds, (memo = new Map()));
  const key = `${gitDir}\0${oid}`;
  let v = memo.get(key);
  if (v === undefined) memo.set(key, (v = rangeChanges(gitDir, oid, olds)));
  return v;
}

/** The answers of rangeChangesManifestKeys, per set of old objects (a screen's; gone with it). */
const answers = new WeakMap<ReadonlySet<string>, Map<string, boolean>>();

function rangeChanges(gitDir: string, oid: string, olds: ReadonlySet<string>): boolean {
  return withScreenBudget(RANGE_MS, () => judgeRange(gitDir, oid, olds));
}

function judgeRange(gitDir: string, oid: string, olds: ReadonlySet<string>): boolean {
  const r = screenGit(
    gitDir,
    [
      'rev-list',
      '--ignore-missing',
      '--stdin',
      '--full-history',
      `--max-count=${MAX_COMMITS + 1}`,
      oid,
      '--',
      MANIFESTS,
    ],
    [...olds].map((o) => `^${o}\n`).join(''),
  );
  if (r.code !== 0) {
    if (unanswered(r)) return true;
    const type = screenGit(gitDir, ['cat-file', '-t', oid]);
    return type.code !== 0 || /^(commit|tag)\s*$/.test(type.stdout);
  }
  const commits = r.stdout.split('\n').filter((l) => OID.test(l));
  if (commits.length === 0) return false;
  if (commits.length > MAX_COMMITS) return true;
  const tree = workTreeOf(gitDir);
  const hooked = hookManifestKeys([tree]);
  const blobs: Blobs = { texts: new Map(), bytes: 0, parsed: new Map() };
  // One parse per text (the same blob at 32 paths: Y3).
  const parseOf = (text: string) => {
    if (!blobs.parsed.has(text)) {
      let json: unknown;
      try {
        json = JSON.parse(text.replace(/^\uFEFF/, ''));
      } catch {
        json = undefined;
      }
      blobs.parsed.set(
        text,
        json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined,
      );
    }
    return blobs.parsed.get(text);
  };
  let files = 0;
  for (const c of commits) {
    const p = screenGit(gitDir, ['rev-list', '--parents', '-n', '1', c]);
    if (p.code !== 0) return true;
    const parents = p.stdout.trim().split(/\s+/).slice(1);
    for (const parent of parents.length > 0 ? parents : [undefined]) {
      const changed = changedManifests(gitDir, c, parent);
      if (!changed) return true;
      if ((files += changed.length) > MAX_FILES) return true;
      const ids = changed.flatMap((x) => (x.now ? [x.now, ...(x.was ? [x.was] : [])] : []));
      if (!readBlobs(gitDir, ids, blobs)) return true;
      for (const { rel, was, now } of changed) {
        if (now === undefined) continue; // removed: the tools fall back to the person's own configuration
        if (overBudget()) return true;
        const file = path.join(tree, ...rel.split('/'));
        const before = was === undefined ? null : blobs.texts.get(was)!;
        const after = blobs.texts.get(now)!;
        if (manifestEditRefusal(file, before, after, hookedFor(hooked, file), parseOf) !== undefined) return true;
      }
    }
  }
  return false;
}
