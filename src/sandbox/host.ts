// The worker's side of the sandbox: @anthropic-ai/sandbox-runtime's SandboxManager (one per
// process, because it owns the filtering proxies), driven by each session's own settings.
//
// The session's settings travel in the session input to every tool activity; nothing about a
// session is worker-global state. The runtime splits its configuration in two, and so do we:
//  - per call (filesystem allow/deny lists, nested namespaces) goes to wrapWithSandbox as
//    `customConfig`, and the session's network allowlist is registered under the call's own
//    unguessable command id — so sessions with different paths and allowlists run side by side;
//  - worker-wide (deniedDomains, Unix sockets, local binding, proxy ports, weaker-sandbox flags,
//    ignoreViolations, bwrap/socat/ripgrep paths) is what initialize() takes. Calls whose
//    worker-wide part is the same share one initialisation; a call that needs another never waits
//    for the running commands of the first: it gets the worker's runtime if idle, else a runtime in
//    a process of its own (src/sandbox/runtimePool.ts).
import { randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startHostProcess } from '../hostProcess/door';
import { narrowProcessPath, personPath } from '../hostProcess/programs';
import { MANDATORY_DENY_SEARCH_DEPTH, hostPrograms, type GlobalRuntimeConfig, type RuntimePlan } from './policy';
import { OWNER_MARKER_ENV, ownerId } from './reaper';
import { callEnding, callStarted, endedChecked } from './liveWriters';
import {
  MAX_RUNTIME_PROCESSES,
  RuntimePool,
  type AcquireOptions,
  type Lease,
  type ProcessRuntime,
  type SandboxAvailability,
  type SandboxRuntime,
} from './runtimePool';
import { RuntimeProcessEndedError, startRemoteRuntime } from './remoteRuntime';
import { placeholders, withoutDeniesLedOut } from './placeholders';
import { wrapConfig } from './readDenies';
import { repositoryConfigMasks } from './repoConfigMask';
import { hideMaskStore, placeMaskStore } from './maskStore';
import { guardWhileRunning, type GuardedProtection } from './liveGuard';
import { mountable } from './mountBound';
import type { CommandReports } from './violations';

export type { AcquireOptions, SandboxAvailability, SandboxRuntime } from './runtimePool';

// A real dynamic import (tsc would turn `import()` into require() under CommonJS output).
const importEsm = new Function('specifier', 'return import(specifier)') as (
  s: string,
) => Promise<{ SandboxManager: SandboxRuntime }>;

/** The runtime package's SandboxManager: one object per process (the package's module state). */
export function loadSandboxRuntime(): Promise<SandboxRuntime> {
  return importEsm('@anthropic-ai/sandbox-runtime').then((m) => m.SandboxManager);
}

export function currentPlatform(): string {
  if (process.platform === 'darwin') return 'macos';
  if (process.platform === 'win32') return 'windows';
  if (process.platform === 'linux' && /microsoft/i.test(os.release())) return 'wsl';
  return process.platform;
}

/** The probe's configuration: nothing allowed, the sandbox's programs by absolute path (policy.ts hostPrograms). */
function probeGlobal(): GlobalRuntimeConfig {
  return {
    network: { allowedDomains: [], deniedDomains: [] },
    filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
    ...hostPrograms(undefined),
    mandatoryDenySearchDepth: MANDATORY_DENY_SEARCH_DEPTH,
  };
}

/**
 * How many sandbox runtimes in processes of their own a worker runs at most: DURABLE_AGENT_SANDBOX_RUNTIMES,
 * default MAX_RUNTIME_PROCESSES (src/sandbox/runtimePool.ts). A bad value is an error naming it.
 */
export function sandboxRuntimeProcesses(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.DURABLE_AGENT_SANDBOX_RUNTIMES;
  if (raw === undefined || raw === '') return MAX_RUNTIME_PROCESSES;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 64)
    throw new Error(`DURABLE_AGENT_SANDBOX_RUNTIMES=${raw}: expected a whole number from 1 to 64`);
  return n;
}

const pools = new WeakMap<SandboxRuntime, RuntimePool>();
/** The runtimes of one SandboxManager (its hosts share them: two hosts in one process never re-initialise it under each other). */
function poolOf(m: SandboxRuntime, startChild: () => ProcessRuntime, maxProcesses?: number): RuntimePool {
  let pool = pools.get(m);
  if (!pool)
    pools.set(m, (pool = new RuntimePool(m, startChild, undefined, maxProcesses ?? sandboxRuntimeProcesses())));
  return pool;
}

/**
 * Bash's OS sandbox on this host: availability, wrapping one command with a session's plan, and
 * closing the runtime's proxies. The worker's start-up and the in-process runner each own one and
 * pass it to Bash through the tool context (`ToolUseContext.sandboxHost`); Bash has no other way
 * to the sandbox. Hosts of one runtime share its runtimes (src/sandbox/runtimePool.ts).
 */
export class SandboxHost {
  private runtimePromise: Promise<SandboxRuntime> | undefined;

  /**
   * `load`: the runtime (default: the package's SandboxManager, loaded on first use). `probe`: how
   * often a failed probe is tried again at once (attempts, the pause between two, default 3 and
   * 500 ms) and how long its "unavailable" stands before the next call asks again (default
   * AVAILABILITY_RECHECK_MS); `runtimeProcesses`: the cap on runtime processes (default
   * DURABLE_AGENT_SANDBOX_RUNTIMES, else MAX_RUNTIME_PROCESSES; the first host of a runtime sets it).
   */
  constructor(
    private readonly load: () => Promise<SandboxRuntime> = loadSandboxRuntime,
    private readonly probe: { attempts?: number; pauseMs?: number; recheckMs?: number; runtimeProcesses?: number } = {},
  ) {
    // Before the runtime looks anything up by name (`which`, `bwrap --version`, `rg`, the shell) in
    // this process: the trusted PATH (src/hostProcess/programs.ts; red teams, issue 30, I-3, J6).
    narrowProcessPath();
  }

  private pool(m: SandboxRuntime): RuntimePool {
    return poolOf(m, startRemoteRuntime, this.probe.runtimeProcesses);
  }

  private runtime(): Promise<SandboxRuntime> {
    this.runtimePromise ??= this.load();
    return this.runtimePromise;
  }

  /**
   * Can Bash be sandboxed here? Checks the platform and the dependencies, then runs `true` in a
   * real sandbox (that is what catches a kernel without user namespaces, a missing capability, a
   * seccomp helper that does not run). A failure is tried again (a dependency check or a start
   * that timed out under load is not a missing sandbox); the answer is shared by the runtime's
   * hosts: "available" for the life of the process, "unavailable" until the recheck interval.
   */
  async availability(): Promise<SandboxAvailability> {
    let m: SandboxRuntime;
    try {
      m = await this.runtime();
    } catch (err) {
      return {
        available: false as const,
        reason: `@anthropic-ai/sandbox-runtime could not be loaded: ${(err as Error).message}`,
      };
    }
    const pool = this.pool(m);
    const { attempts = PROBE_ATTEMPTS, pauseMs = PROBE_PAUSE_MS, recheckMs = AVAILABILITY_RECHECK_MS } = this.probe;
    return pool.availabilityBy(async () => {
      let a = await probeAvailability(m, pool);
      for (let i = 1; i < attempts && !a.available && m.isSupportedPlatform(); i++) {
        await new Promise((r) => setTimeout(r, pauseMs * i));
        a = await probeAvailability(m, pool);
      }
      return a;
    }, recheckMs);
  }

  /** Wraps one command for the sandbox with this session's plan. The caller spawns it and calls finish(). */
  async prepare(
    command: string,
    plan: RuntimePlan,
    tmpDir: string,
    abortSignal?: AbortSignal,
    /** The session's protected paths: watched while the command runs (src/sandbox/liveGuard.ts). */
    protection?: GuardedProtection,
    /** How long the call may wait for a runtime process, and who hears what it waits for (runtimePool.ts). */
    wait?: AcquireOptions,
  ): Promise<PreparedCommand> {
    const m = await this.runtime();
    const pool = this.pool(m);
    try {
      return await prepareSandboxedCommand(pool, command, plan, tmpDir, abortSignal, protection, wait);
    } catch (err) {
      if (!(err instanceof RuntimeProcessEndedError)) throw err;
      // The runtime process ended before the command started (nothing ran): the pool has dropped
      // it, so the same call again gets a new one. Once; a second end is the call's error.
      try {
        return await prepareSandboxedCommand(pool, command, plan, tmpDir, abortSignal, protection, wait);
      } catch (again) {
        if (!(again instanceof RuntimeProcessEndedError)) throw again;
        throw new Error(
          `the sandbox runtime process for this session's worker-wide sandbox settings ended before the command started, twice (${again.why}); nothing ran. The worker starts a new one for the next call: run the command again.`,
        );
      }
    }
  }

  /**
   * Stops the runtime's proxies once no sandboxed command runs (they keep a process alive). The next
   * sandboxed command starts them again. For embedders that want their process to exit; the CLI exits anyway.
   */
  async close(): Promise<void> {
    let m: SandboxRuntime;
    try {
      m = await this.runtime();
    } catch {
      return; // never loaded: nothing runs
    }
    await pools.get(m)?.close();
  }
}

/** A failed availability probe is tried this many times in all before the answer is "unavailable"… */
const PROBE_ATTEMPTS = 3;
/** …with this pause before the second attempt, twice that before the third. */
const PROBE_PAUSE_MS = 500;
/** How long an "unavailable" answer stands before the next call probes again. */
export const AVAILABILITY_RECHECK_MS = 60_000;

async function probeAvailability(m: SandboxRuntime, pool: RuntimePool): Promise<SandboxAvailability> {
  if (!m.isSupportedPlatform())
    return { available: false, reason: `the sandbox does not support this platform (${currentPlatform()})` };
  const deps = m.checkDependencies();
  if (deps.errors.length > 0)
    return {
      available: false,
      reason: `${deps.errors.join('; ')} (on Debian/Ubuntu: apt-get install bubblewrap socat ripgrep)`,
    };
  try {
    const lease = await pool.acquire(probeGlobal());
    try {
      const wrapped = await lease.runtime.wrapWithSandbox('true', 'bash', {
        filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
      });
      const probe = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
        // Marked as this worker's sandbox machinery: a worker killed during the probe leaves nothing.
        const child = startHostProcess({
          purpose: 'sandbox-machinery',
          command: 'bash',
          args: ['-c', wrapped],
          cwd: process.cwd(),
          stdio: ['ignore', 'ignore', 'pipe'],
          env: { [OWNER_MARKER_ENV]: ownerId() },
        });
        let stderr = '';
        child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
        child.once('error', reject);
        child.once('close', (code) => resolve({ code, stderr }));
      });
      if (probe.code !== 0)
        return {
          available: false,
          reason: `a test command failed in the sandbox (exit ${probe.code}): ${probe.stderr.trim().split('\n').slice(-2).join(' ').slice(0, 300)}`,
        };
    } finally {
      lease.release();
      // Its proxies stop if nothing else runs (never under another session's command).
      await pool.closeIdle();
    }
  } catch (err) {
    return { available: false, reason: `the sandbox could not start: ${(err as Error).message.split('\n')[0]}` };
  }
  return { available: true };
}

// --- one sandboxed command ----------------------------------------------------------------------------

// The session's temp, tasks and spool directories: src/sandbox/sessionTemp.ts (sessions apart).
export {
  sessionSpoolDir,
  sessionSpoolPath,
  sessionTasksPath,
  sessionTempDir,
  sessionTempPath,
  sessionTempRoot,
} from './sessionTemp';

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

const under = (p: string, dir: string): boolean => p === dir || p.startsWith(dir.endsWith('/') ? dir : `${dir}/`);

/**
 * The Linux monitor reports write *attempts* and classifies them against the worker-wide write
 * list only; this call's own list (passed per call) is applied here, so that a write the call was
 * allowed to make is not reported as a violation.
 */
function allowedWrite(line: string, plan: RuntimePlan): boolean {
  const m = /^deny \S+ (\/.*)$/.exec(line);
  if (!m || line.startsWith('deny network')) return false;
  const p = path.normalize(m[1] as string);
  const fsCfg = plan.call.filesystem;
  if (fsCfg.denyWrite.some((d) => under(p, d))) return false;
  return fsCfg.allowWrite.some((a) => under(p, a) || under(p, safeRealpath(a)));
}

/**
 * `sandbox.ignoreViolations` of this session, as the runtime applies its own: `*` patterns for every
 * command, other keys for commands containing them; a pattern silences a line that contains it.
 */
function ignored(line: string, command: string, plan: RuntimePlan): boolean {
  const iv = plan.ignoreViolations;
  if (!iv) return false;
  return Object.entries(iv).some(
    ([cmd, patterns]) => (cmd === '*' || command.includes(cmd)) && patterns.some((p) => line.includes(p)),
  );
}

function safeRealpath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

export interface PreparedCommand {
  /** Run it with `bash -c`. */
  shellCommand: string;
  commandId: string;
  /**
   * Call once the command (and its process group) has ended: the sandbox's violation reports, after
   * those still in flight have arrived (a bounded wait, violations.ts); the same answer every call.
   */
  finish(): Promise<CommandReports>;
  /**
   * How to stop the command when the live guard finds it hostile (it wrote again a protected path
   * the guard undid: liveGuard.ts): the caller's kill of its process group and call. Register once it is spawned.
   */
  onHostile(stopCommand: (notice: string) => void): void;
}

/**
 * The call's filesystem without the denied paths a symlink in a writable directory leads out of
 * every writable one now: read-only already, and the runtime's own mount point there raced its
 * removal (placeholders.ts).
 */
function callFilesystem(fsCall: RuntimePlan['call']['filesystem']): RuntimePlan['call']['filesystem'] {
  const denyWrite = withoutDeniesLedOut(fsCall.denyWrite, fsCall.allowWrite);
  return denyWrite.length === fsCall.denyWrite.length ? fsCall : { ...fsCall, denyWrite };
}

async function prepareSandboxedCommand(
  pool: RuntimePool,
  command: string,
  plan: RuntimePlan,
  tmpDir: string,
  abortSignal?: AbortSignal,
  protection?: GuardedProtection,
  wait?: AcquireOptions,
): Promise<PreparedCommand> {
  const fsCall = plan.call.filesystem;
  // Refused before anything is made when bubblewrap could not mount its denies (mountBound.ts, U10b).
  const filesystem = mountable(callFilesystem(fsCall), protection?.roots ?? fsCall.allowWrite);
  // A runtime initialised with exactly this session's worker-wide part (runtimePool.ts).
  const lease: Lease = await pool.acquire(plan.global, abortSignal, wait);
  const m = lease.runtime;
  // Placeholders for absent denied paths, held while it runs (placeholders.ts; macOS's sandbox denies them by rule).
  const hold = process.platform === 'linux' ? await placeholders.holdSliced(filesystem) : undefined;
  // A repository the command creates is undone as it appears, not only after it (liveGuard.ts).
  const guard = protection ? guardWhileRunning(protection) : undefined;
  const release = async () => {
    guard?.stop();
    await hold?.releaseSliced();
    lease.release();
  };
  const commandId = randomBytes(16).toString('base64url');
  if (protection) callStarted(protection, filesystem.allowWrite); // to the person's `run` until undoProtected
  // This command's own violation reports, apart from the runtime's other commands' (violations.ts); lines that are
  // no refusal of it (a write the plan allows, an ignored pattern) dropped as they come.
  lease.violations.open(commandId, (line) => !allowedWrite(line, plan) && !ignored(line, command, plan));
  let registered = false;
  // Exactly one cleanupAfterCommand() per wrap the runtime handed out (it removes its own mount points once all are
  // back): fewer leaves placeholders in the project for good, more removes them under a running sandbox.
  let wrapped = false;
  let cleaned = false;
  const cleanup = () => {
    if (!wrapped || cleaned) return;
    cleaned = true;
    try {
      m.cleanupAfterCommand();
    } catch {
      // best effort: leftover mount points of denied paths that did not exist
    }
  };
  try {
    // TMPDIR: the runtime sets its own shared one; the session's is set inside, before the command.
    // PATH: the outer shell (the door's) looks up on the trusted PATH only; inside the sandbox,
    // where what it finds runs sandboxed, the command gets the person's PATH back
    // (`node_modules/.bin` of an npx-started worker).
    const person = personPath();
    const pathBack = person !== undefined ? `export PATH=${shellQuote(person)}; ` : '';
    const inner = `${pathBack}export TMPDIR=${shellQuote(tmpDir)}; ${command}`;
    // The read denies that are there now (readDenies.ts: an absent one mounts nothing, and costs the wrap).
    // A repository configuration holding a credential is read through a masked copy (O12).
    const masks = protection && !plan.call.filesystem.disabled ? repositoryConfigMasks(protection.roots) : [];
    const call = wrapConfig(filesystem === fsCall ? plan.call : { ...plan.call, filesystem });
    const config = masks.length > 0 ? { ...call, credentials: { files: masks } } : call;
    // The runtime's store of masked copies out of the command's sight (maskStore.ts, L-c; a runtime
    // in a process of its own does the same there, runtimeChild.ts).
    const store = placeMaskStore(m);
    const shellCommand = hideMaskStore(
      await m.wrapWithSandbox(inner, 'bash', config, abortSignal, { commandId, commandText: command }),
      store,
    );
    wrapped = true;
    if (plan.allowedDomains.length > 0) {
      registered = true;
      // Before the command starts: a runtime in another process confirms it over IPC.
      await m.registerCommandNetworkLists(commandId, { allowedDomains: plan.allowedDomains });
    }
    let finished: Promise<CommandReports> | undefined;
    const finish = async (): Promise<CommandReports> => {
      if (protection) callEnding(protection);
      // Reports the runtime has not delivered yet (its socket, a runtime process's IPC) belong here.
      await lease.violations.drain(commandId).catch(() => undefined);
      if (registered) m.unregisterCommandNetworkLists(commandId);
      let reports: CommandReports;
      try {
        reports = lease.violations.take(commandId);
      } catch {
        reports = { lines: [], total: 0 };
      }
      cleanup();
      await release();
      return reports;
    };
    return {
      shellCommand,
      commandId,
      finish: () => (finished ??= finish()),
      onHostile: (stopCommand) => guard?.onHostile(stopCommand),
    };
  } catch (err) {
    if (protection) endedChecked(protection);
    if (registered) m.unregisterCommandNetworkLists(commandId);
    lease.violations.take(commandId);
    cleanup();
    void release();
    throw err;
  }
}
