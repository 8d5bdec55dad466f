// The (empty) files that keep absent protected paths from being created inside the sandbox, made and
// removed by us, per command, instead of by @anthropic-ai/sandbox-runtime.
//
// The runtime mounts a read-only placeholder over each absent write-denied path (bubblewrap creates
// the mount point, an empty file, on the host) and removes ALL of them only when the last sandboxed
// command of the process has ended: its count is per process, and its list of mount points is
// module state with no API. So a one-hour background task in project A kept B's `.bashrc`, `.claude`,
// `.mcp.json`… for an hour. Here the placeholder is created before the wrap (the runtime then finds
// the path present and binds it read-only onto itself — the same deny — and does not track it) and
// is held by every running sandboxed command that could create the path if it were absent: the one
// that made it, and any later one whose writable directories contain it (for that command's sandbox
// the file is a mount point; removing it on the host while the command runs would detach the mount
// and let the command create the path). When its last holder ends it is removed — only if it is
// still the regular file we created, as we wrote it (not a symlink, empty or placeholderContent, the same inode: we keep it open
// meanwhile, so its number cannot be reused): a file the user or the agent filled, or replaced, stays.
//
// What is left to the runtime (unchanged: removed when the process's last sandboxed command ends):
// an absent denied path whose parent is missing too (its placeholder would be a directory), one
// with another denied path beneath it, and the `.claude` and `.git` of the worker's own cwd (the
// runtime denies paths below them itself). Not across processes: two workers on one machine each
// keep their own placeholders (as the runtime does). Linux only (bubblewrap): macOS needs none.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { anchoredFile } from './anchored';
import { runAll, runSliced } from './loopSlices';

/** The part of one call's runtime configuration the placeholders follow from. */
export interface PlaceholderConfig {
  allowWrite: readonly string[];
  denyWrite: readonly string[];
  disabled?: boolean;
}

/**
 * What a placeholder holds, by its name: empty, except a git directory's `commondir`, where git dies
 * on an empty file (it would break the person's git in the project while the command runs); `.`
 * names the git directory itself, which git reads as no commondir at all (issue 30).
 */
export function placeholderContent(p: string): string {
  return path.basename(p) === 'commondir' ? '.\n' : '';
}

interface Placeholder {
  /** Kept open while it is on record: its inode cannot be freed, so no other file can take its number. */
  fd: number;
  dev: number;
  ino: number;
  holders: number;
  /** What it was made with (placeholderContent). */
  content: string;
}

/** One command's hold on its placeholders: release() once, when the command has ended. */
export interface PlaceholderHold {
  /** The placeholders this command holds (real paths), for tests and diagnostics. */
  readonly paths: readonly string[];
  release(): void;
  /**
   * release(), with the event loop's turn between slices (U10b: closing two thousand of them took 1-2 s).
   * A placeholder another command holds meanwhile stays: each is let go one by one, as release() does.
   */
  releaseSliced(): Promise<void>;
}

const under = (p: string, dir: string): boolean =>
  p === dir || p.startsWith(dir === '/' ? '/' : dir.endsWith('/') ? dir : `${dir}/`);
const strictlyUnder = (p: string, dir: string): boolean => p !== dir && under(p, dir);

function realOrUndefined(p: string): string | undefined {
  // What lstat cannot reach realpath cannot resolve: most denied paths are absent (no error built).
  if (!lstat(p)) return undefined;
  try {
    return fs.realpathSync.native(p);
  } catch {
    return undefined;
  }
}

function lstat(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p, { throwIfNoEntry: false }); // absent: no error built (issue 32: hundreds a call)
  } catch {
    return undefined;
  }
}

/**
 * The denied paths to give the runtime: without those that lead now, through a symlink inside a
 * writable directory, out of every writable directory (red team, issue 30, P5 end to end). There the
 * sandbox is read-only already, so such a deny adds nothing — but the runtime, finding the path
 * absent an instant later (a command exchanging that directory with the symlink, in a loop), made it
 * a mount point of its own and removed it after the call by path (`statSync`, then `unlinkSync`),
 * which the next exchange turned into the removal of the person's `~/.bashrc`. A path whose
 * directory is back by the next command is denied again (a placeholder, made through the pinned
 * directory: above); meanwhile what the command writes there is undone by the live guard and the
 * check after the call.
 */
export function withoutDeniesLedOut(denyWrite: readonly string[], allowWrite: readonly string[]): string[] {
  const roots = allowWrite.map((r) => [path.resolve(r), realOrUndefined(r)] as const);
  const realRoots = roots.map(([, real]) => real).filter((r) => r !== undefined);
  return denyWrite.filter((d) => {
    const abs = path.resolve(d);
    const root = roots.find(([r, real]) => real !== undefined && strictlyUnder(abs, r));
    if (root === undefined || /[*?[\]{}]/.test(abs)) return true;
    // The deepest directory of it that is there now, where it leads.
    let at = path.dirname(abs);
    while (strictlyUnder(at, root[0]) && !lstat(at)) at = path.dirname(at);
    const real = realOrUndefined(at);
    if (real === undefined || real === path.join(root[1]!, path.relative(root[0], at))) return true;
    return realRoots.some((r) => under(real, r));
  });
}

/**
 * The denied paths as sets (red team u, U10: thousands of denied paths, each compared with every
 * other, held the worker's event loop for seconds): the directories strictly above a denied path
 * (`above`: by its name; `aboveReal`: by its real path) and the real paths themselves.
 */
interface DeniedSets {
  above: ReadonlySet<string>;
  aboveReal: ReadonlySet<string>;
  real: ReadonlySet<string>;
}

/** Every directory strictly above one of `paths` (absolute, normalized). */
function ancestorsOf(paths: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const p of paths)
    for (let d = path.dirname(p); !out.has(d); d = path.dirname(d)) {
      out.add(d);
      if (path.dirname(d) === d) break;
    }
  return out;
}

/** The placeholders of one process (the filesystem is shared by every host in it). */
export class PlaceholderRegistry {
  private readonly live = new Map<string, Placeholder>();
  /** How often `live` changed: a hold in slices looks at it again only then. */
  private changes = 0;
  private exitHandler = false;

  /** The placeholders currently on disk (real paths). */
  paths(): string[] {
    return [...this.live.keys()];
  }

  /**
   * Before a command's wrap: creates the placeholders of its absent denied paths and holds them,
   * with the existing ones it could otherwise create, at once.
   */
  hold(cfg: PlaceholderConfig, workerCwd: string = process.cwd()): PlaceholderHold {
    return runAll(this.holdWalk(cfg, workerCwd));
  }

  /**
   * {@link hold}, with the event loop's turn between slices (red team u, U10b: two thousand placeholders
   * of nested repositories held it 1-2 s). What is held is held at once, so another command's release in
   * between never removes it; another command's placeholder made in between is held at the next slice.
   */
  holdSliced(cfg: PlaceholderConfig, workerCwd: string = process.cwd()): Promise<PlaceholderHold> {
    return runSliced(this.holdWalk(cfg, workerCwd));
  }

  private *holdWalk(cfg: PlaceholderConfig, workerCwd: string): Generator<unknown, PlaceholderHold> {
    if (cfg.disabled) return { paths: [], release: () => undefined, releaseSliced: () => Promise.resolve() };
    const roots = [
      ...new Set(cfg.allowWrite.flatMap((r) => [path.resolve(r), realOrUndefined(r)]).filter((r) => r !== undefined)),
    ];
    const writable = (p: string) => roots.some((r) => under(p, r));
    const held = new Set<string>();
    const holdOne = (p: string) => {
      const ph = this.live.get(p);
      if (!ph || held.has(p)) return;
      held.add(p);
      ph.holders++;
    };
    // The placeholders on record that this command could create (other commands' too): held. Looked at
    // again only when the record changed since (between slices, by another command's hold or release).
    let seen = -1;
    const holdLive = () => {
      if (seen === this.changes) return;
      for (const p of this.live.keys()) if (writable(p)) holdOne(p);
      seen = this.changes;
    };
    holdLive();
    const denied = cfg.denyWrite.map((d) => path.resolve(d));
    const deniedReal = denied.map((d) => realOrUndefined(d) ?? d);
    yield;
    holdLive();
    const cwd = realOrUndefined(workerCwd) ?? path.resolve(workerCwd);
    const runtimeOwn = [path.join(cwd, '.claude'), path.join(cwd, '.git')];
    const sets = { above: ancestorsOf(denied), aboveReal: ancestorsOf(deniedReal), real: new Set(deniedReal) };
    for (const d of denied) {
      const p = this.candidate(d, sets, runtimeOwn, writable);
      if (p !== undefined && !held.has(p) && this.create(p)) {
        holdOne(p);
        seen = this.changes; // this command's own change (nothing else ran since holdLive)
      }
      yield;
      holdLive();
    }
    this.registerExitHandler();
    let released = false;
    const releaseWalk = function* (this: PlaceholderRegistry): Generator<unknown, void> {
      if (released) return;
      released = true;
      for (const p of held) {
        const ph = this.live.get(p);
        if (!ph) continue;
        ph.holders--;
        if (ph.holders <= 0) this.remove(p, ph);
        yield;
      }
    }.bind(this);
    return {
      paths: [...held],
      release: () => runAll(releaseWalk()),
      releaseSliced: () => runSliced(releaseWalk()),
    };
  }

  /** Where this denied path's placeholder goes, if we make it (undefined: present, or the runtime's case). */
  private candidate(
    d: string,
    denied: DeniedSets,
    runtimeOwn: readonly string[],
    writable: (p: string) => boolean,
  ): string | undefined {
    if (/[*?[\]{}]/.test(d)) return undefined; // a pattern: the runtime expands it to what exists
    if (lstat(d) !== undefined) return undefined; // present (a dangling symlink counts: never ours to make)
    const parent = realOrUndefined(path.dirname(d));
    if (parent === undefined || !lstat(parent)?.isDirectory()) return undefined; // the runtime's directory case
    const p = path.join(parent, path.basename(d));
    if (p !== d && lstat(p) !== undefined) return undefined;
    if (!writable(p)) return undefined; // read-only in the sandbox already: the runtime makes none either
    if (runtimeOwn.includes(p)) return undefined;
    // Another denied path beneath it: the runtime would mount an empty directory there, not a file.
    if (denied.above.has(d) || denied.aboveReal.has(p)) return undefined;
    // Under an existing denied directory: read-only there, nothing to make.
    for (let x = path.dirname(p); ; x = path.dirname(x)) {
      if (denied.real.has(x) && lstat(x) !== undefined) return undefined;
      if (path.dirname(x) === x) return p;
    }
  }

  private create(p: string): boolean {
    let fd: number;
    try {
      // O_CREAT|O_EXCL: never follows a symlink at p, never takes over an existing file; made through
      // its directory opened without following a symlink on the way (anchored.ts: a command that
      // swaps that directory for a symlink to HOME meanwhile does not get an empty file made there).
      const { O_RDWR, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
      fd = anchoredFile(p, (pinned) => fs.openSync(pinned, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644));
    } catch {
      return false;
    }
    const content = placeholderContent(p);
    const st = fs.fstatSync(fd);
    const ph = { fd, dev: st.dev, ino: st.ino, holders: 0, content };
    try {
      if (content) fs.writeSync(fd, content);
    } catch {
      this.remove(p, ph);
      return false;
    }
    // The directory above was not swapped for a symlink meanwhile: the file is where we meant it.
    if (realOrUndefined(path.dirname(p)) !== path.dirname(p)) {
      this.remove(p, ph);
      return false;
    }
    this.live.set(p, ph);
    this.changes++;
    return true;
  }

  /** Removes it if it is still the file we made, as we made it; forgets it either way. */
  private remove(p: string, ph: Placeholder): void {
    if (this.live.get(p) === ph) {
      this.live.delete(p);
      this.changes++;
    }
    try {
      // Our inode is still open (ph.fd): a file at p with its device and number is ours, not a new
      // one that reused a freed number after ours was replaced; with what we wrote in it, unchanged.
      // Looked at and removed through its directory, pinned (anchored.ts): a command exchanging that
      // directory with a symlink to HOME between the look and the unlink made the unlink remove
      // the person's `~/.bashrc` (red team, issue 30, P5 end to end).
      anchoredFile(p, (pinned) => {
        const st = lstat(pinned);
        const same =
          st?.isFile() &&
          st.dev === ph.dev &&
          st.ino === ph.ino &&
          st.size === Buffer.byteLength(ph.content) &&
          (ph.content === '' || fs.readFileSync(pinned, 'utf8') === ph.content);
        if (same) fs.unlinkSync(pinned);
      });
    } catch {
      // gone already, or its directory is no longer ours to write: nothing of the user's is touched
    } finally {
      fs.closeSync(ph.fd);
    }
  }

  /** At exit every sandboxed command dies with the process (bwrap --die-with-parent): none is held. */
  private registerExitHandler(): void {
    if (this.exitHandler) return;
    this.exitHandler = true;
    process.on('exit', () => {
      for (const [p, ph] of [...this.live]) this.remove(p, ph);
    });
  }
}

/** The process's registry (the placeholders are on the shared filesystem, like the runtime's). */
export const placeholders = new PlaceholderRegistry();
