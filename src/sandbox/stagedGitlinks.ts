// Gitlinks a command staged (red team y, Y4b). `git submodule update` checks each submodule out at the
// commit the index's gitlink names, so a gitlink staged with `git update-index --cacheinfo
// 160000,<c>,sub` — no commit, no ref moved — put the agent's submodule commit (built in
// `.git/modules/sub/objects`, adding `.claude/settings.json` and `.envrc`) on disk at the person's next
// `git submodule update`. The index screen (stagedHooks.ts) compares entries under the hook paths only;
// a gitlink is none. So when a command changed the index, its gitlinks are compared with the index's
// when the command started — both as `diff-index --cached` against one tree (HEAD's now), so that
// only what differs from it is listed — and one it added or moved is followed into the submodule's
// objects (gitlinkCommits.ts): when the commit it names changes a protected path there (or that could
// not be told), the entry is put back as it was, by the index screen's own put-back.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gitlinkChangesControl } from './gitlinkCommits';
import { screenGit } from './screenGit';

/** Time one git run may hold the worker's one thread (controlCommits.ts' GIT_MS). */
const GIT_MS = 750;
/** Bytes of one `diff-index` listing: more is not screened (counts as unscreenable). */
const LISTING_BYTES = 32 << 20;
const RAW = /^:(\d{6}) (\d{6}) ([0-9a-f]{40,64}) ([0-9a-f]{40,64}) ([A-Z])\d*$/;
const GITLINK = '160000';
const ABSENT = /^0{6} /;

/** An index entry to put back: its path, and `<mode> <object id>` as it was (none: taken out). */
export interface PutBack {
  file: string;
  old?: string;
}

/** Path → `[tree side, index side]` (`<mode> <object id>`) of a `diff-index --cached -z` listing. */
type Sides = Map<string, [string, string]>;

function sidesOf(stdout: string): Sides {
  const out: Sides = new Map();
  const tokens = stdout.split('\0');
  for (let i = 0; i < tokens.length; i++) {
    const m = RAW.exec(tokens[i]!);
    if (!m) continue;
    const file = tokens[++i];
    if (file !== undefined) out.set(file, [`${m[1]} ${m[3]}`, m[5] === 'U' ? `000000 ${m[4]}` : `${m[2]} ${m[4]}`]);
  }
  return out;
}

/** The index (the repository's, or one held as `bytes`) against `tree`; undefined when git could not tell. */
function diffIndex(gitDir: string, tree: string, bytes?: Buffer): Sides | undefined {
  let tmp: string | undefined;
  try {
    if (bytes) {
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'da-index-'));
      fs.writeFileSync(path.join(tmp, 'index'), bytes, { flag: 'wx', mode: 0o600 });
    }
    const args = ['diff-index', '--cached', '-z', '--no-renames', '--ignore-submodules=none', tree];
    const env: Record<string, string> = tmp ? { GIT_INDEX_FILE: path.join(tmp, 'index') } : {};
    const r = screenGit(gitDir, args, undefined, LISTING_BYTES, GIT_MS, env);
    return r.code === 0 ? sidesOf(r.stdout) : undefined;
  } finally {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** HEAD's tree now, or the empty tree (no commit yet); undefined when git could not tell. */
function headTree(gitDir: string): string | undefined {
  const head = screenGit(gitDir, ['rev-parse', '--verify', '-q', 'HEAD^{tree}'], undefined, 1 << 12, GIT_MS);
  if (head.code === 0) return /^[0-9a-f]{40,64}$/.exec(head.stdout.trim())?.[0];
  if (head.timedOut || head.signal || head.spawnError) return undefined;
  const empty = screenGit(gitDir, ['hash-object', '-t', 'tree', '--stdin'], '', 1 << 12, GIT_MS);
  return empty.code === 0 ? /^[0-9a-f]{40,64}$/.exec(empty.stdout.trim())?.[0] : undefined;
}

/**
 * The gitlinks the index holds now and did not hold so when `bytes` were the index (empty: there was
 * none; undefined: too big to keep — HEAD's entries then), whose commit changes a protected path in
 * the submodule against the old gitlink's (or could not be screened): each with its entry as it was.
 * 'unscreenable' when git could not list the index.
 */
export function stagedGitlinks(gitDir: string, bytes: Buffer | undefined): PutBack[] | 'unscreenable' {
  const tree = headTree(gitDir);
  if (tree === undefined) return 'unscreenable';
  const now = diffIndex(gitDir, tree);
  if (now === undefined) return 'unscreenable';
  const links = [...now].filter(([, [, idx]]) => idx.startsWith(`${GITLINK} `));
  if (links.length === 0) return [];
  const then = bytes === undefined || bytes.length === 0 ? new Map() : diffIndex(gitDir, tree, bytes);
  if (then === undefined) return 'unscreenable';
  const out: PutBack[] = [];
  for (const [file, [headSide, idx]] of links) {
    // As the index held it then: listed against the same tree, or the tree's own entry (none at all
    // when there was no index).
    const was = bytes?.length === 0 ? undefined : (then.get(file)?.[1] ?? headSide);
    const old = was === undefined || ABSENT.test(was) ? undefined : was;
    if (old === idx) continue;
    const oid = idx.split(' ')[1]!;
    const oldLink = old?.startsWith(`${GITLINK} `) ? old.split(' ')[1] : undefined;
    if (gitlinkChangesControl(gitDir, { path: file, oid, ...(oldLink ? { old: oldLink } : {}) }))
      out.push({ file, ...(old ? { old } : {}) });
  }
  return out;
}
