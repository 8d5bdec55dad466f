// A call whose write denies the sandbox runtime cannot mount, refused before anything is made for it
// (red team u, U10b). bubblewrap takes its mounts as arguments, and @anthropic-ai/sandbox-runtime
// refuses a profile of more than BWRAP_MAX_ARGS of them (three a mount) — but only at the end of its
// argument build, which is quadratic in the denied paths and synchronous, after our placeholders and
// the live guard's baseline were made for every one of them: a thousand nested repositories (four
// denied paths each) held the worker's event loop 3-7 s at every call, each refused in the end.
//
// Counted here: the denied paths for which the runtime certainly emits a mount of its own, read from
// its argument build (linux-sandbox-utils.js generateFilesystemArgs): one that is there, is where it
// is spelled (no symlink on the way), lies in a writable directory and under no other denied directory
// (`--ro-bind p p`); one that is absent whose parent is such a directory this user may write (a
// placeholder, `--ro-bind /dev/null p`); and the directories between those and their write root, which
// it pins (`--ro-bind d d`, ancestorPinArgs). Left out, so that the count stays a lower bound: anything
// under a directory the runtime's own scan of its working directory may deny whole (`.git/hooks`,
// `.vscode`, `.idea`, `.claude/commands`, `.claude/agents`), or that this user cannot read (ripgrep's
// unreadable directories), and the mounts it adds besides (the allow binds, its own denies).
import * as fs from 'node:fs';
import * as path from 'node:path';

/** What @anthropic-ai/sandbox-runtime accepts (its BWRAP_MAX_ARGS; test/unit/sandbox-mount-bound checks it against the runtime). */
export const RUNTIME_MAX_BWRAP_ARGS = 9000;
/** bubblewrap's arguments per mount (`--ro-bind <source> <dest>`). */
const ARGS_PER_MOUNT = 3;
/** The most deny mounts a profile the runtime runs can hold. */
export const MAX_DENY_MOUNTS = Math.floor(RUNTIME_MAX_BWRAP_ARGS / ARGS_PER_MOUNT);

/** Directories the runtime's own mandatory denies may bind read-only whole (its DANGEROUS_DIRECTORIES and git's hooks). */
const RUNTIME_DENIED_DIRS = [['.git', 'hooks'], ['.vscode'], ['.idea'], ['.claude', 'commands'], ['.claude', 'agents']];

function stat(p: string, follow = false): fs.Stats | undefined {
  try {
    return (follow ? fs.statSync : fs.lstatSync)(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

const isUnder = (p: string, dir: string) => p === dir || p.startsWith(dir === '/' ? '/' : `${dir}/`);

/** Is `dir` an open directory the runtime mounts beneath: there, spelled as it is, searchable, in no covering directory? */
function openDirectory(dir: string, root: string, denied: ReadonlySet<string>, cache: Map<string, boolean>): boolean {
  const hit = cache.get(dir);
  if (hit !== undefined) return hit;
  let ok = false;
  const st = stat(dir);
  if (st?.isDirectory() && !denied.has(dir)) {
    const parts = dir.split(path.sep);
    const named = RUNTIME_DENIED_DIRS.some((n) => n.every((c, i) => parts[parts.length - n.length + i] === c));
    let readable = true;
    try {
      fs.accessSync(dir, fs.constants.R_OK | fs.constants.X_OK);
    } catch {
      readable = false;
    }
    ok = !named && readable && (dir === root || openDirectory(path.dirname(dir), root, denied, cache));
  }
  cache.set(dir, ok);
  return ok;
}

/**
 * How many mounts the runtime certainly makes for `denyWrite` — deny binds and the pins above them (see
 * the head of this file) — counted up to `stopAt` (beyond it the answer is only "more").
 */
export function certainDenyMounts(
  fsCall: { allowWrite: readonly string[]; denyWrite: readonly string[] },
  stopAt = MAX_DENY_MOUNTS + 1,
): number {
  const roots = fsCall.allowWrite
    .map((a) => path.resolve(a))
    .filter((a) => {
      try {
        return fs.realpathSync.native(a) === a;
      } catch {
        return false;
      }
    });
  const denied = new Set(fsCall.denyWrite.map((d) => path.resolve(d)));
  const cache = new Map<string, boolean>();
  const pins = new Set<string>();
  const writeRoots = new Set(fsCall.allowWrite.map((a) => path.resolve(a)));
  let n = 0;
  for (const p of denied) {
    if (n + pins.size >= stopAt) break;
    const root = roots.find((r) => p !== r && isUnder(p, r));
    if (root === undefined || p.startsWith('/dev/')) continue;
    const parent = path.dirname(p);
    if (!openDirectory(parent, root, denied, cache)) continue;
    const st = stat(p);
    if (st === undefined) {
      // Absent: a placeholder, where this user may create it.
      try {
        fs.accessSync(parent, fs.constants.W_OK | fs.constants.X_OK);
      } catch {
        continue; // unmakeable: none
      }
    } else if (st.isSymbolicLink()) continue;
    n++;
    // The runtime pins every directory between a deny mount and its write root (ancestorPinArgs:
    // `--ro-bind d d`, so that it cannot be renamed away); those below `root` are there (openDirectory).
    // Under a write root `/` it covers them instead: not counted.
    if (root !== '/')
      for (let d = parent; d !== root && !pins.has(d); d = path.dirname(d)) if (!writeRoots.has(d)) pins.add(d);
  }
  return n + pins.size;
}

/** The nested repositories (`…/.git`) among the denied paths, fewest path components first. */
function repositoriesOf(denyWrite: readonly string[]): string[] {
  const out = new Set<string>();
  for (const d of denyWrite) {
    const i = d.lastIndexOf(`${path.sep}.git${path.sep}`);
    if (i > 0) out.add(d.slice(0, i));
  }
  return [...out];
}

/**
 * Why a call with these write denies is refused before it is prepared (the runtime cannot mount them
 * all), or undefined. `roots`: the working directories, for the message.
 */
export function tooManyDenyMounts(
  fsCall: { allowWrite: readonly string[]; denyWrite: readonly string[]; disabled?: boolean },
  roots: readonly string[],
): string | undefined {
  if (fsCall.disabled) return undefined;
  const n = certainDenyMounts(fsCall);
  if (n <= MAX_DENY_MOUNTS) return undefined;
  const repos = repositoriesOf(fsCall.denyWrite).filter((r) => !roots.includes(r));
  const rel = (r: string) => {
    const root = roots.find((w) => isUnder(r, w));
    return root === undefined ? r : path.relative(root, r);
  };
  const which =
    repos.length > 0
      ? ` Most are the hooks and configuration of the ${repos.length} git repositories nested in the working directories (${repos
          .slice(0, 5)
          .map(rel)
          .join(', ')}${repos.length > 5 ? ', …' : ''}): each is protected like the project's own.`
      : '';
  return `the sandbox would need more than ${MAX_DENY_MOUNTS} mounts for the ${fsCall.denyWrite.length} paths it protects in the working directories (one for each, and one for each directory above one), and bubblewrap takes at most ${RUNTIME_MAX_BWRAP_ARGS} arguments (about ${MAX_DENY_MOUNTS} mounts); nothing ran.${which} To go on, remove what is not needed of them outside the sandbox (a nested repository's .git directory, e.g. \`rm -rf <dir>/.git\` run by the person: the sandboxed Bash cannot), or start the session in a directory with fewer of them.`;
}

/** `fsCall` — on Linux (bubblewrap; macOS's sandbox denies by rule) after throwing {@link tooManyDenyMounts}'s refusal. */
export function mountable<
  T extends { allowWrite: readonly string[]; denyWrite: readonly string[]; disabled?: boolean },
>(fsCall: T, roots: readonly string[]): T {
  const why = process.platform === 'linux' ? tooManyDenyMounts(fsCall, roots) : undefined;
  if (why !== undefined) throw new Error(why);
  return fsCall;
}
