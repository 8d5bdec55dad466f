// One session's sandbox plan for one command, shared by what runs in it: Bash and Monitor
// (src/tools/builtin/bash.ts) and command hooks (src/hooks/sandboxed.ts). From the session's
// settings and directories to the runtime's configuration: writes in the working directories and the
// session's temp dir minus the protected paths of THOSE directories (never the worker's cwd); reads
// everywhere but credentials, the worker's private state (the store) and other sessions' temp
// directories; network only to the session's allowed domains (src/sandbox/policy.ts runtimePlan).
import { wayIdentities } from './linkedWays';
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AgentContext } from '../core/context';
import { registerSessionDirectories, sandboxScratchDirectories } from '../hostProcess/door';
import { workerCodeInside } from '../hostProcess/workerCode';
import { currentPlatform, type SandboxHost, type SandboxAvailability } from './host';
import { expandTilde, runtimePlan, sandboxEnabled, writableDirectories, type RuntimePlan } from './policy';
import {
  addProtectedEntries,
  fingerprint,
  gitDirScan,
  protectedDenyWrite,
  scanProtectedWalk,
  type ProtectedScan,
} from './protect';
import { manifestBins, type ManifestState } from './manifestBins';
import { isLintManifest, lintKeysOf, type LintState } from './lintKeys';
import type { RefSnapshots } from './movedRefs';
import { allRefSnapshots } from './refRepositories';
import { stagedSnapshots, type StagedSnapshots } from './stagedHooks';
import { objectSnapshotsSliced, type ObjectSnapshots } from './movedObjects';
import { todoSnapshotsSliced, type TodoSnapshots } from './sequencerState';
import { gitEntriesOf, protectedEntriesOf } from './treeWatch';
import { detachHardLinks } from './hardLinks';
import { withLinks } from './entryState';
import {
  enclosingTrees,
  gitDirOf,
  hasOwnHooks,
  hookManifestKeys,
  isRepositoryDir,
  repositoryConfigTargets,
} from './repoConfigTargets';
import { toolConfigTargets } from './toolConfigTargets';
import { sessionTempDir, sessionTempRoot } from './sessionTemp';
import type { SandboxSettings } from './settings';
import { worktreeGitAccess } from '../worktree/git';
import { personPath, sandboxPrograms } from '../hostProcess/programs';
import { sandboxGitFiles } from './gitEnv';
import { recheckUnchecked } from './uncheckedCalls';
import { registerSessionControlFiles } from './hookPathspecs';
import { loopTicker, runAll, runSliced } from './loopSlices';

let runtimeRoot: string | undefined;

/**
 * What the sandbox itself provides to a command, which must stay readable in a closed HOME: the
 * runtime's package (its seccomp helper and proxy agent), the git config copy sandboxed git reads,
 * bash and socat (the network bridge inside).
 */
export function sandboxProvidedFiles(): string[] {
  runtimeRoot ??= path.dirname(require.resolve('@anthropic-ai/sandbox-runtime/package.json'));
  const { socat, bash } = sandboxPrograms();
  return [runtimeRoot, ...sandboxGitFiles(), ...[socat, bash].filter((p) => p !== undefined)];
}

/** Is `dir` one of `roots` or inside one? */
export function withinDirectories(dir: string, roots: readonly string[]): boolean {
  return roots.some((r) => {
    const rel = path.relative(r, dir);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  });
}

function realOrSelf(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
}

/** What a command of the session may touch, before the plan is made. */
export interface SessionCommandScope {
  sessionId: string;
  /** The session's sandbox settings (ToolPermissionContext.sandbox). */
  settings: SandboxSettings | undefined;
  /** The session's working directories: the command may write there (minus the protected paths). */
  workingDirectories: readonly string[];
  /** A linked worktree the session is in (EnterWorktree): its git access, and no write to the checkout holding it. */
  worktree?: AgentContext['worktree'];
  /** Files the session's hooks and MCP servers run (ToolPermissionContext.controlFiles): protected too. */
  controlFiles?: readonly string[];
  /** The worker's own state (the store, the data directory): neither readable nor writable. */
  privatePaths?: readonly string[];
  /** Inside privatePaths, readable again and never writable: this session's results, a hook's transcript file. */
  readable?: readonly string[];
  /** Who the command is, for the messages ("Bash", "The hook"). */
  who: string;
}

/** What the check after a sandboxed command compares with (src/sandbox/protect.ts). */
export interface Protection {
  scan: ProtectedScan;
  denyWrite: string[];
  roots: string[];
  extra: string[];
  /**
   * Every directory the command can write, as real paths (the roots, the session's temp directory,
   * `filesystem.allowWrite`, the runtime's own scratch directories): a `.git` anywhere below them,
   * at any depth, is looked for and undone (src/sandbox/treeWatch.ts) — a symlink in the project
   * can lead the person's git to any of them.
   */
  gitRoots: string[];
  /**
   * Where an entry with a protected name (`.claude`, `.mcp.json`, `.envrc`…) is the command's to undo,
   * at any depth: the roots and every writable `filesystem.allowWrite` directory (red team, issue 30,
   * K10: a sibling checkout the person let the agent write is a project a later session starts in).
   * Absent: the roots only (a protection an earlier release built).
   */
  nameRoots?: string[];
  /** What the guard undid while the command ran (src/sandbox/liveGuard.ts): reported with the check after it. */
  live?: string[];
  /** The durable-agent bin and control keys of each package.json in the roots when the command started (manifestBins.ts, M14, G2). */
  manifests?: Map<string, ManifestState>;
  /** The Python linters' protected keys of each pyproject.toml, setup.cfg and tox.ini in the roots when the command started (lintKeys.ts, N7). */
  lint?: Map<string, LintState>;
  /** The refs of the working directories' repositories when the command started (movedRefs.ts, N3). */
  refs?: RefSnapshots;
  /** The index entries under the hook paths when the command started (stagedHooks.ts, Q16). */
  staged?: StagedSnapshots;
  /** The repositories whose objects the command could forge, and when it started (movedObjects.ts, Q1). */
  objects?: ObjectSnapshots;
  /** The rebase todos of those repositories when the command started (sequencerState.ts, Q10). */
  todos?: TodoSnapshots;
  /** `device:inode` of the directories on the way to the protected paths when the command started (linkedWays.ts, T8). */
  ways?: Map<string, string>;
}

export interface SessionSandboxPlan {
  /** The session's temp directory: writable, TMPDIR inside the sandbox. */
  tmpDir: string;
  runtime: RuntimePlan;
  /** Absent when the session switched the filesystem part off (sandbox.filesystem.disabled). */
  protection?: Protection;
}

/** The session's sandbox settings with a worktree's git access added (none outside a worktree). */
function sandboxInWorktree(
  s: SandboxSettings | undefined,
  worktree: AgentContext['worktree'],
): SandboxSettings | undefined {
  if (!s || !worktree?.gitDir || !worktree.commonDir) return s;
  const access = worktreeGitAccess(worktree.commonDir, worktree.gitDir);
  return {
    ...s,
    filesystem: {
      ...s.filesystem,
      allowWrite: [...(s.filesystem?.allowWrite ?? []), ...access.allowWrite],
      denyWrite: [...(s.filesystem?.denyWrite ?? []), ...access.denyWrite],
    },
  };
}

/**
 * A session's writable directories — its working directories and `filesystem.allowWrite` — are
 * session directories for the door: no program there, and no PATH entry there, is run or looked up
 * outside the sandbox, by the door or by the sandbox runtime's own lookups (src/hostProcess/programs.ts;
 * red team, issue 30, K1, L1, L13). Before anything wraps a command for the session.
 */
export function registerWritableDirectories(
  workingDirectories: readonly string[],
  settings: SandboxSettings | undefined,
): void {
  registerSessionDirectories([...workingDirectories, ...writableDirectories(settings, os.homedir())]);
}

/**
 * The runtime plan of one command of the session, as it is now: the protected paths are scanned
 * in the session's directories at this moment (the deny list is fixed when the command starts;
 * undoProtected after it undoes what the list could not stop).
 */
export async function sessionSandboxPlan(scope: SessionCommandScope): Promise<SessionSandboxPlan> {
  const tmpDir = await sessionTempDir(scope.sessionId);
  // In a worktree (EnterWorktree) the worktree is the working directory: a directory holding it (the
  // main checkout) is not writable from there, and git gets what it needs of the main repository's
  // git directory (worktreeGitAccess).
  const worktree = scope.worktree;
  const workingDirectories = [...new Set(scope.workingDirectories)].filter(
    (d) => !worktree || d === worktree.path || !withinDirectories(worktree.path, [d]),
  );
  const settings = sandboxInWorktree(scope.settings, worktree);
  // What this session may write holds no program the worker runs outside the sandbox (src/hostProcess/door.ts).
  registerWritableDirectories(workingDirectories, settings);
  // The protected paths of THIS session's directories, as they are now (never the worker's cwd).
  let protection: Protection | undefined;
  if (!scope.settings?.filesystem?.disabled) {
    const roots = [...new Set(workingDirectories.map(realOrSelf))];
    // The checks after an earlier call here that threw (afterCall.ts): run again first; still throwing, no command.
    const rechecked = await recheckUnchecked(roots, scope.who);
    const extra = [...(scope.controlFiles ?? [])];
    registerSessionControlFiles(extra); // a ref, staged entry or patch carries none either (red team z, Z5)
    // Inside a git directory (a worktree's git access) no protected name configures anything: not a root to guard.
    const allowed = (settings?.filesystem?.allowWrite ?? []).map((p) => realOrSelf(expandTilde(p, os.homedir())));
    const writable = allowed.filter((p) => !p.split(path.sep).includes('.git'));
    const gitRoots = writableRoots([...roots, realOrSelf(tmpDir), ...writable]);
    // Every writable allowWrite directory is guarded like a working directory for protected names (K10),
    // and so are the session's temp directory and the runtime's scratch directories (issue 30, known
    // limit L-b): a symlink in the project leads the person's tools there (`tools -> $TMPDIR/x`, with
    // an `.envrc`, a `.vscode/settings.json` or a `node_modules/.bin/npm` behind it).
    const nameRoots = [
      ...roots,
      ...gitRoots.filter((d) => !withinDirectories(d, roots)),
      ...writable.filter((d) => existsDirectory(d) && !withinDirectories(d, [...roots, ...gitRoots])),
    ];
    // Each step, and the per-repository ones repository by repository, with the event loop's turn
    // between slices: a thousand `.git` directories held it for seconds (red team u, U10).
    const tick = loopTicker();
    const scan = await protectionScanSliced({ roots, extra, gitRoots, nameRoots }, tick);
    await tick();
    // A protected file with another name (a hard link) is written through that name despite the
    // deny list's bind of its path: cut before the command (red team, issue 30, M11).
    const detached = detachHardLinks(scan, gitRoots, relativeTo(roots));
    await tick();
    // The package.json keys the person's git hooks run (`npm run precommit`: O6) are watched too.
    const repos = repositoryTrees(roots, gitRoots);
    const manifests = manifestBins(
      manifestsOf({ roots, gitRoots, nameRoots }),
      hookManifestKeys(roots, [...repos, ...enclosingTrees(roots)], [...scan.entries.keys()]),
    );
    await tick();
    const denyWrite = protectedDenyWrite(scan, roots, writable, allowed);
    await tick();
    const lint = lintKeysOf(lintFilesOf({ roots, gitRoots, nameRoots }));
    const refs = await allRefSnapshots(roots, gitRoots, denyWrite, tick); // nested ones too (Z6); past the bound: denied
    const staged = stagedSnapshots(repos);
    await tick();
    const objects = await objectSnapshotsSliced(repositoryDirs(roots, gitRoots), tick);
    const todos = await todoSnapshotsSliced(objects.gitDirs, tick);
    protection = { scan, denyWrite, roots, extra, gitRoots, nameRoots, manifests, lint, refs, staged, objects, todos };
    await tick();
    protection.ways = wayIdentities(waysOf(protection), nameRoots);
    if (detached.length > 0 || rechecked.length > 0) protection.live = [...rechecked, ...detached];
  }
  const readable = [...(scope.readable ?? [])];
  // The worker's private state is read- and write-denied: a writable directory inside it would be
  // unusable (every write refused). Say so instead of running a command that cannot work.
  for (const dir of [tmpDir, ...workingDirectories.filter((d) => !readable.includes(d))]) {
    const holder = (scope.privatePaths ?? []).find((p) => dir === p || dir.startsWith(p.endsWith('/') ? p : `${p}/`));
    if (holder) {
      const what =
        dir === tmpDir
          ? `the session's temp directory ${dir} (under the worker's TMPDIR)`
          : `the working directory ${dir}`;
      throw new Error(
        `${scope.who} did not run: ${what} is inside ${holder}, the worker's own state (store or data directory), which sandboxed commands may neither read nor write. Use a directory outside it.`,
      );
    }
  }
  const runtime = runtimePlan(settings, workingDirectories, {
    home: os.homedir(),
    sessionTmpDir: tmpDir,
    // Every other session's temp, task outputs and live spool on this worker: unreadable (issue 30).
    sessionsRoot: sessionTempRoot(),
    platform: currentPlatform(),
    ...(protection ? { protectedDenyWrite: protection.denyWrite } : {}),
    // The worker's own code (durable-agent installed in the project's node_modules): write-denied (H-1).
    workerCode: workerCodeInside([
      ...workingDirectories,
      tmpDir,
      ...(settings?.filesystem?.allowWrite ?? []).map((p) => expandTilde(p, os.homedir())),
    ]),
    env: process.env,
    cwd: process.cwd(),
    privatePaths: scope.privatePaths ?? [],
    ownResults: readable,
    // In a closed HOME (src/permissions/homeReads.ts): what the sandbox provides, the PATH it runs with.
    sandboxFiles: sandboxProvidedFiles(),
    ...(personPath() !== undefined ? { pathVar: personPath() } : {}),
  });
  return { tmpDir, runtime, ...(protection ? { protection } : {}) };
}

/**
 * The directories a sandboxed command can write that a `.git` may sit in: `dirs`, and the sandbox
 * runtime's own writable scratch directories that exist (`/tmp/claude`, `~/.claude/debug`,
 * `~/.npm/_logs`); none inside another (the outer one is watched whole).
 */
function writableRoots(dirs: readonly string[]): string[] {
  // The sessions' temp root itself is not watched whole: each session's own directory is one of `dirs`.
  const scratch = sandboxScratchDirectories()
    .filter((d) => d !== sessionTempRoot() && existsDirectory(d))
    .map(realOrSelf);
  const all = [...new Set([...dirs, ...scratch])].filter(existsDirectory);
  return all.filter((d) => !all.some((o) => o !== d && withinDirectories(d, [o])));
}

function existsDirectory(d: string): boolean {
  try {
    return statSync(d).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The protected entries of the roots (scanProtected: to its depth; beyond it and in node_modules, the
 * tree watches' record of protected names) and every git directory below any writable root, bare ones
 * too, at any depth (the tree watches' record, or a full walk): before a command (its deny list, what
 * existed) and after it (what it made).
 */
export function protectionScan(p: ScanScope): ProtectedScan {
  return runAll(protectionScanWalk(p));
}

type ScanScope = Pick<Protection, 'roots' | 'extra' | 'gitRoots' | 'nameRoots'>;

/** {@link protectionScan} with the event loop's turn between slices of it (loopSlices.ts; red team u, U10). */
export const protectionScanSliced = (p: ScanScope, tick?: () => Promise<void>): Promise<ProtectedScan> =>
  runSliced(protectionScanWalk(p), tick);

/** {@link protectionScan}'s walk: it may pause at each `yield` (between git directories). */
function* protectionScanWalk(p: ScanScope): Generator<void, ProtectedScan> {
  const nameRoots = p.nameRoots ?? p.roots;
  const scan = yield* scanProtectedWalk(p.roots, p.extra);
  // What the working directories' own repository configuration names: its hooks directory, its includes (M6a, M6b).
  // Inside node_modules (lefthook's own binary its hook runs: R4) compared, not denied: npm reinstalls
  // it. A framework's absent configuration name (also among the session's control files) gets no placeholder.
  const repos = [...repositoryTrees(p.roots, p.gitRoots ?? []), ...enclosingTrees(p.roots)];
  for (const e of repositoryConfigTargets(p.roots, repos, [...scan.entries.keys()])) {
    const had = scan.entries.get(e.path);
    const loose = e.kind === 'file' && e.path.split(path.sep).includes('node_modules');
    if (had && !e.absentUndone && !loose && (had.kind === e.kind || e.kind !== 'dir')) continue;
    scan.entries.set(e.path, {
      ...had,
      ...e,
      existed: hasContentOf(e.path),
      ...(loose ? { loose: fingerprint(e.path) } : {}),
    });
  }
  yield;
  const recorded: string[] = [];
  for (const root of p.gitRoots ?? []) {
    for (const dotGit of gitEntriesOf(root)) {
      for (const e of gitDirScan(dotGit).entries.values()) if (!scan.entries.has(e.path)) scan.entries.set(e.path, e);
      yield;
    }
    // The other protected names, at any depth and in node_modules (the tree's record): in the working
    // directories and the writable allowWrite directories (nameRoots).
    const here = protectedEntriesOf(root).filter((m) => withinDirectories(m, nameRoots));
    for (let i = 0; i < here.length; i += 64) {
      addProtectedEntries(scan, here.slice(i, i + 64));
      yield;
    }
    recorded.push(...here);
  }
  // What the person's direnv, mise and uv control files name (files they load, programs on the PATH
  // they build, a `.python-version` path): the `.envrc` and mise configs found, and a
  // `.python-version` beside each recorded pyproject.toml (Q14, R3, R6, R9).
  const found = [
    ...scan.entries.keys(),
    ...recorded
      .filter((m) => isLintManifest(path.dirname(m), path.basename(m).toLowerCase()))
      .map((m) => path.join(path.dirname(m), '.python-version')),
  ];
  yield;
  for (const e of toolConfigTargets(p.roots, found))
    if (!scan.entries.has(e.path)) scan.entries.set(e.path, { ...e, existed: hasContentOf(e.path) });
  yield;
  return withLinks(scan);
}

/** The person's repositories below the working directories whose configuration is read, at the most. */
const MAX_NESTED_REPOSITORIES = 64;
/** Recorded `.git` entries looked at for them, at the most (shallowest first). */
const MAX_NESTED_CANDIDATES = 1_024;

/**
 * The working directories, then the work trees of the repositories below them (each `.git` the tree
 * watches record that is a repository), MAX_NESTED_REPOSITORIES at the most (red team t, T2: the hooks
 * of a person's repository in a folder of checkouts, or nested in a monorepo, were writable): those
 * with hooks of their own first (red team u, U9: empty `.git` directories a command made took every
 * place), then the shallowest.
 */
function repositoryTrees(roots: readonly string[], gitRoots: readonly string[]): string[] {
  const seen = new Set(roots);
  const nested: string[] = [];
  for (const root of gitRoots)
    for (const g of gitEntriesOf(root)) {
      const tree = path.dirname(g);
      if (path.basename(g) !== '.git' || seen.has(tree) || !withinDirectories(tree, roots)) continue;
      seen.add(tree);
      nested.push(tree);
    }
  const depth = (p: string) => p.split(path.sep).length;
  const byDepth = (a: string, b: string) => depth(a) - depth(b) || (a < b ? -1 : 1);
  const repos = nested
    .sort(byDepth)
    .slice(0, MAX_NESTED_CANDIDATES)
    .filter((t) => {
      const g = gitDirOf(t);
      return g !== undefined && isRepositoryDir(g);
    });
  const hooked = new Set(repos.filter(hasOwnHooks));
  repos.sort((a, b) => Number(hooked.has(b)) - Number(hooked.has(a)) || byDepth(a, b));
  return [...roots, ...repos.slice(0, MAX_NESTED_REPOSITORIES)];
}

/** The git directories (not pointers) at the roots and below every writable root (the tree watches' record). */
function repositoryDirs(roots: readonly string[], gitRoots: readonly string[]): string[] {
  const out = new Set(roots.map((r) => path.join(r, '.git')));
  for (const root of gitRoots) for (const g of gitEntriesOf(root)) out.add(g);
  return [...out].filter((g) => lstatSync(g, { throwIfNoEntry: false })?.isDirectory());
}

/** An entry with content (a directory with an entry, a non-empty file). */
function hasContentOf(p: string): boolean {
  try {
    const st = lstatSync(p);
    return st.isDirectory() ? readdirSync(p).length > 0 : !st.isFile() || st.size > 0;
  } catch {
    return false;
  }
}

/** A path as the tool result names it: relative to the working directory holding it. */
export function relativeTo(roots: readonly string[]): (p: string) => string {
  return (p) => {
    const r = roots.find((x) => withinDirectories(p, [x]));
    return r ? path.relative(r, p) || '.' : p;
  };
}

/** The package.json files in the working directories outside node_modules (the tree watches' record). */
export function manifestsOf(p: Pick<Protection, 'roots' | 'gitRoots' | 'nameRoots'>): string[] {
  return recordedFiles(p, (m) => path.basename(m) === 'package.json');
}

/** The pyproject.toml, setup.cfg and tox.ini files in the working directories (the tree watches' record). */
export function lintFilesOf(p: Pick<Protection, 'roots' | 'gitRoots' | 'nameRoots'>): string[] {
  return recordedFiles(p, (m) => isLintManifest(path.dirname(m), path.basename(m).toLowerCase()));
}

function recordedFiles(
  p: Pick<Protection, 'roots' | 'gitRoots' | 'nameRoots'>,
  which: (m: string) => boolean,
): string[] {
  const out = new Set<string>();
  for (const root of p.gitRoots ?? [])
    for (const m of protectedEntriesOf(root)) if (which(m) && withinDirectories(m, p.nameRoots ?? p.roots)) out.add(m);
  return [...out];
}

/**
 * The protected paths whose ways (linkedWays.ts) are recorded: the scan's entries, absent names too
 * (T21: a way directory absent at the scan made a link), the manifests.
 */
function waysOf(p: Protection): string[] {
  const entries = [...p.scan.entries.values()].map((e) => e.path);
  return [...entries, ...(p.manifests?.keys() ?? []), ...(p.lint?.keys() ?? [])];
}

/**
 * Where a session's command hook (or stdio MCP server) runs (docs/hooks.md "Where hooks run"): in
 * the session's sandbox unless the sandbox is off for the session or `sandbox.hooks` (for a server:
 * `sandbox.mcpServers`) is `host`; with the sandbox enabled and unavailable on this worker, what Bash
 * does then — refused with `sandbox.failIfUnavailable`, else on the host (said in the record).
 */
export type HookPlacement =
  { where: 'host'; reason: string } | { where: 'refused'; reason: string } | { where: 'sandbox'; host: SandboxHost };

export async function hookPlacement(
  settings: SandboxSettings | undefined,
  host: SandboxHost | undefined,
  what: 'hooks' | 'mcpServers' = 'hooks',
): Promise<HookPlacement> {
  const enabled = sandboxEnabled(settings, currentPlatform());
  if (!enabled.on) return { where: 'host', reason: enabled.reason };
  const them = what === 'hooks' ? 'hooks' : 'MCP servers';
  if (settings?.[what] === 'host')
    return { where: 'host', reason: `sandbox.${what} is "host": ${them} run outside the sandbox` };
  // The settings say sandboxed and this run was given no host: it does not run (never unsandboxed by omission).
  if (!host)
    return {
      where: 'refused',
      reason: `the session runs its ${them} in the OS sandbox, and this ${what === 'hooks' ? 'hook run' : 'start'} was given no sandbox host`,
    };
  const available: SandboxAvailability = await host.availability();
  if (!available.available) {
    if (settings?.failIfUnavailable)
      return {
        where: 'refused',
        reason: `the sandbox is unavailable on this worker (${available.reason}) and sandbox.failIfUnavailable is set`,
      };
    return { where: 'host', reason: `the sandbox is unavailable on this worker: ${available.reason}` };
  }
  return { where: 'sandbox', host };
}
