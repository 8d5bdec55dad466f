// What a sandboxed command stages for the person's hooks (red team q, Q16). The main checkout's
// sandbox writes `.git/index` (the agent's own `git add` needs it), and the index is no ref: one call
// staged `.githooks/post-checkout` with `git update-index --cacheinfo` (the blob in `.git/objects`,
// nothing on disk, no ref moved), and the person's "throw away my changes" — `git checkout -- .` —
// wrote it from the index and ran it at once; their `git commit` committed it. The same for the
// person's own hook, staged with the agent's blob. So: when a command starts, the index is kept (its
// bytes: no git runs unless the command changes it); when the command changed it, its entries under
// the paths the person's hooks are (movedRefs.ts hookPathspecs: the hooks directory inside the work
// tree, the files its hooks and hook frameworks run) are listed in both, and an entry the command
// added or changed there is put back as it was (taken out of the index when new). The working tree
// is not touched (its hook files are denied to the command).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runHostProcessSync } from '../hostProcess/door';
import { GIT_GUARD_ENV } from '../hostProcess/git';
import { hookPathspecs } from './movedRefs';

interface Staged {
  gitDir: string;
  /** The index file's identity and times (a write replaces it: index.lock renamed over it). */
  stat: string;
  /** Its bytes, to list its hook entries only when a command changed it (none over MAX_INDEX: HEAD's then). */
  bytes?: Buffer;
  /** The hook paths, read once (what names them is protected: the same for the whole command). */
  specs?: string[];
  /** Its entries under the hook paths, once listed (the live guard looks again and again): by the paths. */
  listedThen?: { specs: string; entries: Map<string, string> };
}

/** The index of each working directory's repository when a command started. */
export type StagedSnapshots = Staged[];

/** An index kept for the comparison at most (a repository of ~300,000 files); a bigger one is compared with HEAD. */
const MAX_INDEX = 32 << 20;

function git(gitDir: string, args: readonly string[], env: Record<string, string> = {}) {
  return runHostProcessSync(
    {
      purpose: 'git',
      command: 'git',
      args: [`--git-dir=${gitDir}`, '-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', ...args],
      cwd: '/',
      env: { ...GIT_GUARD_ENV, HOME: '/nonexistent', GIT_NO_LAZY_FETCH: '1', ...env },
    },
    { timeoutMs: 10_000, maxBuffer: 64 << 20 },
  );
}

function indexStat(gitDir: string): string {
  const st = fs.statSync(path.join(gitDir, 'index'), { throwIfNoEntry: false, bigint: true });
  return st ? `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}` : '-';
}

const literal = (specs: readonly string[]) => ['--', ...specs.map((s) => `:(literal)${s}`)];

/** `<path>\0<stage>` → `<mode> <object id>` of git's listing (`ls-files -s -z`, or `ls-tree -r -z` as stage 0). */
function entriesOf(out: string): Map<string, string> {
  const entries = new Map<string, string>();
  for (const rec of out.split('\0')) {
    const m = /^(\d+) (?:blob |commit )?([0-9a-f]+)(?: (\d))?\t(.+)$/s.exec(rec);
    if (m) entries.set(`${m[4]}\0${m[3] ?? '0'}`, `${m[1]} ${m[2]}`);
  }
  return entries;
}

/** The entries under `specs` of the index now, of the index as `bytes` held it, or of HEAD; undefined when git could not list them. */
function listed(gitDir: string, specs: readonly string[], from?: Buffer | 'HEAD'): Map<string, string> | undefined {
  if (from === 'HEAD') {
    const r = git(gitDir, ['ls-tree', '-r', '-z', '--full-tree', 'HEAD', ...literal(specs)]);
    return r.code === 0 ? entriesOf(r.stdout) : undefined;
  }
  let tmp: string | undefined;
  try {
    if (from) {
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'da-index-'));
      fs.writeFileSync(path.join(tmp, 'index'), from, { flag: 'wx', mode: 0o600 });
    }
    const env: Record<string, string> = tmp ? { GIT_INDEX_FILE: path.join(tmp, 'index') } : {};
    const r = git(gitDir, ['ls-files', '-s', '-z', ...literal(specs)], env);
    return r.code === 0 ? entriesOf(r.stdout) : undefined;
  } finally {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** The index of each repository at the working directories (a `.git` directory) now: its identity and bytes. */
export function stagedSnapshots(roots: readonly string[]): StagedSnapshots {
  const out: StagedSnapshots = [];
  for (const r of roots) {
    const gitDir = path.join(r, '.git');
    if (!fs.lstatSync(gitDir, { throwIfNoEntry: false })?.isDirectory()) continue;
    const stat = indexStat(gitDir);
    let bytes: Buffer | undefined;
    try {
      const file = path.join(gitDir, 'index');
      if (fs.lstatSync(file).size <= MAX_INDEX) bytes = fs.readFileSync(file);
    } catch {
      bytes = Buffer.alloc(0); // no index: every entry is new
    }
    out.push({ gitDir, stat, ...(bytes ? { bytes } : {}) });
  }
  return out;
}

/** The entries under `specs` when the command started (listed once per set of paths). */
function thenOf(was: Staged, specs: readonly string[]): Map<string, string> | undefined {
  const key = specs.join('\0');
  if (was.listedThen?.specs === key) return was.listedThen.entries;
  const entries = was.bytes?.length === 0 ? new Map<string, string>() : listed(was.gitDir, specs, was.bytes ?? 'HEAD');
  if (entries) was.listedThen = { specs: key, entries };
  return entries;
}

/**
 * After a command: each index it changed gets its hook entries back as they were when it started
 * (an added one removed, a changed one staged again with its old object). One line per entry put back.
 */
export function undoStagedHooks(before: StagedSnapshots, rel: (p: string) => string = (p) => p): string[] {
  const notes: string[] = [];
  for (const was of before) {
    // An index removed carries nothing (git reads none); one written again from nothing would drop the rest.
    const stat = indexStat(was.gitDir);
    if (stat === was.stat || stat === '-') continue;
    const specs = (was.specs ??= hookPathspecs(was.gitDir));
    if (specs.length === 0) continue;
    const now = listed(was.gitDir, specs);
    const then = thenOf(was, specs);
    if (now === undefined || then === undefined) continue;
    const tree = path.dirname(was.gitDir);
    for (const key of new Set([...then.keys(), ...now.keys()])) {
      const [file, stage] = key.split('\0') as [string, string];
      const old = then.get(key);
      // A conflict's stages (a merge stopped on a hook file) are the person's git's to resolve.
      if (old === now.get(key) || stage !== '0') continue;
      const [mode, oid] = (old ?? '').split(' ');
      const r = old
        ? git(was.gitDir, ['update-index', '--add', '--cacheinfo', `${mode},${oid},${file}`])
        : git(was.gitDir, ['update-index', '--force-remove', '--', file]);
      const where = rel(path.join(tree, ...file.split('/')));
      notes.push(
        r.code === 0
          ? `${where}: ${old ? 'staged again as it was' : 'taken out of the index'} (a hook path this call staged)`
          : `${where}: a hook path this call staged could not be put back in the index (${r.stderr.trim().split('\n')[0] ?? ''})`,
      );
    }
  }
  return notes;
}
