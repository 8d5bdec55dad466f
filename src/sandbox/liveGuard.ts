// While a sandboxed command runs: a repository it creates is neutralised as it appears, not only
// after the call (red team, issue 30).
//
// The deny list is fixed when the command starts, and no mount can deny a `.git` in a directory
// that does not exist yet: a command may `git init sub` and give `sub/.git/config` a
// `core.fsmonitor` (or write `sub/.git` as a `gitdir:` file naming a git directory it wrote
// elsewhere). undoProtectedWrites (protect.ts) undoes that after the call, but the person's own git
// runs meanwhile: an editor that detects nested repositories runs `git status` in them, a shell
// prompt runs git wherever the person stands, and the repository's fsmonitor runs as the user.
// So while the command runs, every directory it can write is watched (treeWatch.ts: every depth,
// node_modules too, the session's temp directory and the sandbox's other writable directories, so
// that a symlink in the project to a repository built there leads to a watched one): a new `.git`
// is undone the moment it appears, by the same rules as after the call (a new config keeps only
// keys that run nothing, a new hook is removed, a new `.git` file or `commondir` is removed), and
// watched for what is written into it later. What this leaves: the time between a write and its
// undo (the watcher's event, then one round of checks), and a tree past the kernel's watch budget
// (checked whole after the call) — docs/security.md says so.
//
// The other protected names too (red team, issue 30, J4): a background command (up to hours) or a
// sandboxed MCP server that writes `packages/x/.claude/settings.json`, `.mcp.json`, `.claude/agents/…`
// in a directory that did not exist (no deny list can name it) would otherwise have it read by a
// session the person starts there meanwhile. An entry with a protected name in a working directory
// that was not there with content when the command started is removed as soon as it has content
// (the same undo as after the call: not under the deny list, its parent not swapped for a symlink,
// no symlink followed); the check after the call then finds nothing left of it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  addProtectedEntries,
  gitDirScan,
  undoProtectedWrites,
  type ProtectedEntry,
  type ProtectedScan,
} from './protect';
import { undoManifestBins } from './manifestBins';
import { treeWatch } from './treeWatch';

/** What the guard compares with: the protection of the command (src/sandbox/sessionPlan.ts). */
export interface GuardedProtection {
  scan: ProtectedScan;
  denyWrite: readonly string[];
  roots: readonly string[];
  /** Every directory the command can write (roots first): where a new `.git` is looked for. */
  gitRoots?: readonly string[];
  /** What the guard undid while the command ran (the check after the call reports it with its own). */
  live?: string[];
  /** The durable-agent bin of each package.json when the command started (manifestBins.ts). */
  manifests?: ReadonlyMap<string, string>;
}

/** The least time between two rounds of checks (the events of a round coalesced); the first round runs at once. */
const CHECK_INTERVAL_MS = 5;
/** How often, and how far apart, a config whose lock is taken is looked at again before it is rewritten anyway. */
const LOCK_RETRIES = 50;
const LOCK_RETRY_MS = 10;

/** What existed with content before the command (the plan's scan, or the guard's start) is not its write. */
function beforeOf(scan: ProtectedScan, planned: ProtectedScan, baseline: ReadonlySet<string>): ProtectedScan {
  const entries = new Map<string, ProtectedEntry>();
  for (const p of scan.entries.keys())
    entries.set(p, { path: p, kind: 'file', existed: planned.entries.get(p)?.existed === true || baseline.has(p) });
  return { entries, truncated: false };
}

/** Keys added meanwhile, run once per round: the first round at once, the next ones CHECK_INTERVAL_MS apart. */
function coalesce(run: (key: string) => void): { add(key: string): void; cancel(): void } {
  const due = new Set<string>();
  let timer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  let last = 0;
  const round = () => {
    timer = undefined;
    last = Date.now();
    const now = [...due];
    due.clear();
    for (const k of now) run(k);
  };
  return {
    add: (key) => {
      due.add(key);
      if (timer) return;
      const wait = last + CHECK_INTERVAL_MS - Date.now();
      if (wait <= 0) timer = setImmediate(round);
      else {
        timer = setTimeout(round, wait);
        timer.unref();
      }
    },
    cancel: () => {
      clearTimeout(timer as NodeJS.Timeout);
      clearImmediate(timer as NodeJS.Immediate);
    },
  };
}

export interface LiveGuard {
  /** The directories watched now (tests, diagnostics). */
  watched(): number;
  stop(): void;
}

/** Starts watching before the command is spawned; stop() once it has ended. */
export function guardWhileRunning(protection: GuardedProtection): LiveGuard {
  const baseline = new Set<string>();
  let stopped = false;
  const live = (protection.live ??= []);

  const retries = new Map<string, number>();
  const check = (dotGit: string, force = false) => {
    if (stopped) return;
    const scan = gitDirScan(dotGit);
    const before = beforeOf(scan, protection.scan, baseline);
    // A config git is writing right now (its lock taken): looked at again shortly; after a while a
    // lock still there is one left behind, and the config is rewritten without it.
    const busy = (config: string) => {
      const n = (retries.get(config) ?? 0) + 1;
      retries.set(config, n);
      setTimeout(() => check(dotGit, n >= LOCK_RETRIES), LOCK_RETRY_MS).unref();
    };
    const notes = undoProtectedWrites(before, scan, protection.denyWrite, protection.roots, force ? undefined : busy);
    for (const note of notes) if (!live.includes(note)) live.push(note);
  };

  // An entry with a protected name (not `.git`) in a working directory: undone when new with content.
  const workRoots = protection.roots.map((r) => path.resolve(r));
  const inWork = (p: string) => workRoots.some((r) => p.startsWith(r + path.sep));
  const checkMarked = (p: string) => {
    if (stopped || !inWork(p)) return;
    if (protection.manifests && path.basename(p) === 'package.json') {
      for (const note of undoManifestBins([p], protection.manifests)) if (!live.includes(note)) live.push(note);
      return;
    }
    const scan: ProtectedScan = { entries: new Map(), truncated: false };
    addProtectedEntries(scan, [p]);
    const notes = undoProtectedWrites(beforeOf(scan, protection.scan, baseline), scan, protection.denyWrite, workRoots);
    for (const note of notes) if (!live.includes(note)) live.push(note);
  };

  // Events coalesced: a command writing a config in a loop gets one check per CHECK_INTERVAL_MS (each
  // check may run git once, synchronously), not one per write — the worker's event loop stays free.
  const rounds = coalesce((k) => (k.startsWith('m:') ? checkMarked(k.slice(2)) : check(k.slice(2))));
  const roots = [...new Set([...protection.roots, ...(protection.gitRoots ?? [])].map((r) => path.resolve(r)))];
  const trees = roots.filter((r) => fs.lstatSync(r, { throwIfNoEntry: false })?.isDirectory()).map(treeWatch);
  // What is there already, with content, is not this command's (the plan's scan may have missed none of it: it reads the same record).
  const existing: ProtectedScan = { entries: new Map(), truncated: false };
  for (const t of trees) {
    for (const g of t.gitEntries()) for (const e of gitDirScan(g).entries.values()) if (e.existed) baseline.add(e.path);
    addProtectedEntries(existing, t.protectedEntries().filter(inWork));
  }
  for (const e of existing.entries.values()) if (e.existed) baseline.add(e.path);
  const unsubscribe = trees.map((t) =>
    t.subscribe((p, kind) => (stopped ? undefined : rounds.add(`${kind === 'git' ? 'g' : 'm'}:${p}`))),
  );
  return {
    watched: () => trees.reduce((n, t) => n + t.watched(), 0),
    stop: () => {
      stopped = true;
      rounds.cancel();
      for (const u of unsubscribe) u();
    },
  };
}
