// The sandbox runtimes of one worker process, and which one a call runs on.
//
// @anthropic-ai/sandbox-runtime's SandboxManager is one per process: initialize() sets a worker-wide
// configuration (network.deniedDomains, the proxy ports, the weaker nested sandbox, ignoreViolations,
// bwrap/socat/ripgrep paths …) that applies to every command it wraps, and re-initialising it under a
// running command removes that command's proxies and violation-monitor socket. So:
//  - a runtime is initialised with ONE worker-wide configuration and is re-initialised only when no
//    command of its runs: a command runs under exactly its own session's configuration;
//  - a call whose configuration is the one of a runtime joins it at once, whoever else waits;
//  - a call whose configuration no runtime has gets the worker's own runtime when it is idle (re-
//    initialised for it), and otherwise a runtime in a process of its own (src/sandbox/runtimeChild.ts)
//    initialised for that configuration — it never waits for another session's commands while fewer
//    than `maxProcesses` such processes run (MAX_RUNTIME_PROCESSES, DURABLE_AGENT_SANDBOX_RUNTIMES).
//    At the cap, an idle process is ended for it, least recently used first; when every process runs
//    a command, the call waits for one to become idle (or end) — holding no runtime while it waits,
//    so waiting calls never block each other — until its own timeout or its cancellation, and says
//    what it waits for once it has waited WAIT_NOTICE_MS. A process runtime ends once idle for
//    CHILD_IDLE_MS, and with the worker; one that ends by itself (killed, out of memory) is dropped
//    at once: the next call of its configuration starts a new one.
import { withOwnerMarker } from './reaper';
import { commandViolations, type CommandViolations } from './violations';

export type SandboxAvailability = { available: true } | { available: false; reason: string };

/** What one sandboxed command needs of a runtime (the worker's own, or one in a process of its own). */
export interface WrappingRuntime {
  wrapWithSandbox(
    command: string,
    binShell?: string,
    customConfig?: unknown,
    abortSignal?: AbortSignal,
    options?: { commandId?: string; commandText?: string },
  ): Promise<string>;
  registerCommandNetworkLists(commandId: string, lists: { allowedDomains?: string[] }): void | Promise<void>;
  unregisterCommandNetworkLists(commandId: string): void;
  getSandboxViolationStore(): { getViolationsForCommand(key: string): Array<{ line: string }> };
  cleanupAfterCommand(): void;
  reset(): Promise<void>;
}

/** The parts of the runtime's SandboxManager we use (the package is ESM; it is loaded with import()). */
export interface SandboxRuntime extends WrappingRuntime {
  initialize(config: unknown, ask?: unknown, enableLogMonitor?: boolean): Promise<void>;
  isSupportedPlatform(): boolean;
  checkDependencies(): { errors: string[]; warnings: string[] };
  registerCommandNetworkLists(commandId: string, lists: { allowedDomains?: string[] }): void;
}

/** A runtime of another process: initialised once, for one configuration. */
export interface ProcessRuntime extends WrappingRuntime {
  initialize(config: unknown): Promise<void>;
  /** Called once when its process has ended, whoever ended it. */
  onEnd(listener: (why: string) => void): void;
}

/** A call's hold on a runtime initialised with its configuration. */
export interface Lease {
  runtime: WrappingRuntime;
  /** That runtime's violation reports, per command (violations.ts). */
  violations: CommandViolations;
  release(): void;
}

/** How a call waits for a runtime when every runtime process runs other configurations' commands. */
export interface AcquireOptions {
  /** How long it may wait (a Bash command's timeout); then it fails, saying what it waited for. */
  timeoutMs?: number;
  /** Told what the call waits for, once it has waited WAIT_NOTICE_MS. */
  onWaiting?: (why: string) => void;
}

/** How long a runtime in a process of its own stays after its last command (then it is reset). */
export const CHILD_IDLE_MS = 30_000;
/** How many runtimes in processes of their own a worker runs at most (each ≈ 77 MB resident). */
export const MAX_RUNTIME_PROCESSES = 4;
/** After this long waiting for a runtime process, a call says what it waits for. */
export const WAIT_NOTICE_MS = 5_000;

/** A call that waited for a runtime process for as long as it may. */
export class RuntimeWaitTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RuntimeWaitTimeoutError';
  }
}

const ignore = (): undefined => undefined;

class Slot {
  key: string | undefined;
  inflight = 0;
  switching: Promise<void> | undefined;
  readonly idle: Array<() => void> = [];
  idleTimer: NodeJS.Timeout | undefined;
  /** When its last command ended (the least recently used idle process is ended first). */
  lastUsed = 0;
  /** Its process has ended (a process runtime). */
  ended = false;
  readonly violations: CommandViolations;
  constructor(readonly runtime: WrappingRuntime) {
    this.violations = commandViolations(runtime as WrappingRuntime & { commandViolations?: CommandViolations });
  }
}

/** The calls waiting for a runtime process: woken whenever a runtime becomes idle or a process ends. */
class Waiters {
  private readonly waiting = new Set<() => void>();

  wake(): void {
    const all = [...this.waiting];
    this.waiting.clear();
    for (const w of all) w();
  }

  /** Resolves at the next wake(); rejects on `signal` or when `deadline` passes; tells `onWaiting` at `noticeAt`. */
  wait(
    signal: AbortSignal | undefined,
    deadline: number | undefined,
    notice: () => void,
    noticeAt: number,
    why: () => string,
  ): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timers: NodeJS.Timeout[] = [];
      const done = () => {
        this.waiting.delete(done);
        for (const t of timers) clearTimeout(t);
        signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        done();
        reject(signal?.reason instanceof Error ? signal.reason : new Error('the call was cancelled'));
      };
      const woken = () => {
        done();
        resolve();
      };
      this.waiting.add(woken);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (deadline !== undefined)
        timers.push(
          setTimeout(
            () => {
              done();
              reject(new RuntimeWaitTimeoutError(why()));
            },
            Math.max(0, deadline - Date.now()),
          ),
        );
      if (noticeAt !== Infinity) timers.push(setTimeout(notice, Math.max(0, noticeAt - Date.now())));
    });
  }
}

export class RuntimePool {
  private readonly home: Slot;
  /** Runtimes in processes of their own, by configuration. */
  private readonly children = new Map<string, Slot>();
  /** Processes started and not ended yet (in `children`, or being ended): at most maxProcesses. */
  private readonly running = new Set<Slot>();
  private readonly waiters = new Waiters();
  /** The calls waiting for a new runtime, in order: only the first may start or end one. */
  private readonly queue: object[] = [];
  /** Whether a sandboxed `true` ran on this runtime, and since when it did not (see availabilityBy). */
  private checked: { result: Promise<SandboxAvailability>; unavailableSince?: number } | undefined;

  constructor(
    private readonly m: SandboxRuntime,
    private readonly startChild: () => ProcessRuntime,
    private readonly childIdleMs = CHILD_IDLE_MS,
    private readonly maxProcesses = MAX_RUNTIME_PROCESSES,
  ) {
    if (!Number.isInteger(maxProcesses) || maxProcesses < 1)
      throw new Error(`the sandbox runtime processes' cap must be a positive integer (got ${maxProcesses})`);
    // Before the runtime's first initialize(): its violation monitor binds the store's addViolation then.
    this.home = new Slot(m);
  }

  /**
   * The probe's answer, shared by every host of this runtime. "Available" is kept for the life of
   * the process; "unavailable" for `recheckMs` only, then asked again: the runtime's dependency check
   * runs `which` with a 1 s timeout, so one start on a loaded machine can answer "ripgrep (rg) not
   * found" — kept for good, that would leave a worker that lives for days running Bash unsandboxed
   * (or asking for every call) because of a slow second at its start.
   */
  availabilityBy(probe: () => Promise<SandboxAvailability>, recheckMs: number): Promise<SandboxAvailability> {
    const c = this.checked;
    if (c && (c.unavailableSince === undefined || Date.now() - c.unavailableSince < recheckMs)) return c.result;
    const entry: NonNullable<RuntimePool['checked']> = { result: probe() };
    void entry.result.then((a) => {
      if (!a.available) entry.unavailableSince = Date.now();
    });
    this.checked = entry;
    return entry.result;
  }

  /**
   * A runtime initialised with `config`, held until release(). Never waits for another
   * configuration's commands while fewer than maxProcesses runtime processes run; at the cap it ends
   * the least recently used idle one, or waits (holding nothing) for one to become idle.
   */
  async acquire(config: unknown, signal?: AbortSignal, opts: AcquireOptions = {}): Promise<Lease> {
    const key = JSON.stringify(config);
    const since = Date.now();
    const deadline = opts.timeoutMs === undefined ? undefined : since + opts.timeoutMs;
    let told = false;
    const notice = () => {
      if (told) return;
      told = true;
      opts.onWaiting?.(this.waitReason(since));
    };
    // Its place among the calls that wait for a runtime (first come, first served), once it waits.
    let ticket: object | undefined;
    try {
      for (;;) {
        signal?.throwIfAborted();
        const home = this.home;
        if (home.switching) {
          await home.switching.catch(ignore);
          continue;
        }
        if (home.key === key) return this.join(home);
        const child = this.children.get(key);
        if (child?.switching) {
          await child.switching.catch(ignore);
          continue;
        }
        if (child && child.key === key) return this.join(child);
        if (this.queue.length === 0 || this.queue[0] === ticket) {
          // The worker's own runtime, idle: re-initialised for this call (the lease is taken before any
          // other caller runs, so nobody re-initialises it under this one).
          if (home.inflight === 0) return this.switchHome(config, key);
          if (this.running.size < this.maxProcesses) return this.startChildFor(config, key);
          const idle = this.leastRecentlyUsedIdle();
          if (idle) {
            await this.retire(idle).catch(ignore);
            continue;
          }
        }
        if (!ticket) this.queue.push((ticket = {}));
        if (deadline !== undefined && Date.now() >= deadline) throw new RuntimeWaitTimeoutError(this.waitReason(since));
        const noticeAt = opts.onWaiting && !told ? since + WAIT_NOTICE_MS : Infinity;
        await this.waiters.wait(signal, deadline, notice, noticeAt, () => this.waitReason(since));
      }
    } finally {
      if (ticket) {
        this.queue.splice(this.queue.indexOf(ticket), 1);
        this.waiters.wake(); // the next in line looks again
      }
    }
  }

  /** What a waiting call waits for, in a sentence. */
  private waitReason(since: number): string {
    const s = Math.round((Date.now() - since) / 1000);
    return (
      `waited ${s} s for a sandbox runtime: the session's worker-wide sandbox settings (network.deniedDomains, ` +
      `proxy ports, weaker nested sandbox, binary paths) differ from those of every runtime this worker runs, ` +
      `and each of them — the worker's own and its ${this.maxProcesses} runtime process${this.maxProcesses === 1 ? '' : 'es'} ` +
      `(the cap, DURABLE_AGENT_SANDBOX_RUNTIMES) — runs other sessions' commands; the call runs when one of them is idle`
    );
  }

  private leastRecentlyUsedIdle(): Slot | undefined {
    let lru: Slot | undefined;
    for (const s of this.children.values())
      if (s.inflight === 0 && !s.switching && !s.ended && (!lru || s.lastUsed < lru.lastUsed)) lru = s;
    return lru;
  }

  private join(slot: Slot): Lease {
    slot.inflight++;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
    let released = false;
    return {
      runtime: slot.runtime,
      violations: slot.violations,
      release: () => {
        if (released) return;
        released = true;
        slot.inflight--;
        if (slot.inflight > 0) return;
        slot.lastUsed = Date.now();
        for (const wake of slot.idle.splice(0)) wake();
        if (slot !== this.home && !slot.ended) {
          slot.idleTimer = setTimeout(() => void this.retire(slot).catch(ignore), this.childIdleMs);
          slot.idleTimer.unref();
        }
        this.waiters.wake();
      },
    };
  }

  private async switchHome(config: unknown, key: string): Promise<Lease> {
    const home = this.home;
    let lease: Lease | undefined;
    home.switching = (async () => {
      if (home.key !== undefined) {
        home.key = undefined;
        await this.m.reset();
      }
      // The runtime's host-side socat bridges inherit the owner marker (src/sandbox/reaper.ts).
      await this.withoutSignalReset(() => withOwnerMarker(() => this.m.initialize(config, undefined, true)));
      home.key = key;
      lease = this.join(home);
    })();
    try {
      await home.switching;
    } finally {
      home.switching = undefined;
    }
    return lease as Lease;
  }

  private async startChildFor(config: unknown, key: string): Promise<Lease> {
    const runtime = this.startChild();
    const slot = new Slot(runtime);
    this.children.set(key, slot);
    this.running.add(slot);
    runtime.onEnd(() => this.ended(slot));
    let lease: Lease | undefined;
    slot.switching = (async () => {
      await runtime.initialize(config);
      if (slot.ended) throw new Error('the sandbox runtime process ended while it started');
      slot.key = key;
      lease = this.join(slot);
    })();
    try {
      await slot.switching;
    } catch (err) {
      await runtime.reset().catch(ignore);
      this.ended(slot);
      throw err;
    } finally {
      slot.switching = undefined;
    }
    return lease as Lease;
  }

  /** A process runtime has ended (reset, killed, crashed): out of the pool at once; waiting calls look again. */
  private ended(slot: Slot): void {
    if (slot.ended) return;
    slot.ended = true;
    for (const [k, s] of this.children) if (s === slot) this.children.delete(k);
    slot.key = undefined;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
    this.running.delete(slot);
    this.waiters.wake();
  }

  /** Ends an idle process runtime (a call that joined it meanwhile keeps it). */
  private async retire(slot: Slot): Promise<void> {
    if (slot.inflight > 0 || slot.key === undefined || slot.ended) return;
    this.children.delete(slot.key);
    slot.key = undefined;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
    try {
      await slot.runtime.reset();
    } finally {
      this.ended(slot);
    }
  }

  /** How many runtimes run in processes of their own now (for tests and status). */
  processRuntimes(): number {
    return this.running.size;
  }

  /**
   * The runtime's first initialisation registers SIGINT/SIGTERM handlers that reset it at once.
   * A worker drains on SIGTERM: the calls it still runs (and the ones it starts in its grace time)
   * would find the violation monitor's socket and the proxies gone under a command already wrapped
   * ("bwrap: Can't find source path …/srt-obs-…/….sock"). Those handlers are replaced by this
   * pool's close(), which waits for running commands; the runtime's 'exit' handler stays.
   */
  private async withoutSignalReset<T>(fn: () => Promise<T>): Promise<T> {
    const signals = ['SIGINT', 'SIGTERM'] as const;
    const before = new Map(signals.map((s) => [s, new Set(process.rawListeners(s))]));
    try {
      return await fn();
    } finally {
      for (const s of signals) {
        const added = process.rawListeners(s).filter((l) => !before.get(s)?.has(l));
        if (added.length === 0) continue;
        for (const l of added) process.removeListener(s, l as (...args: unknown[]) => void);
        process.once(s, () => void this.close().catch(() => undefined));
      }
    }
  }

  /** Resets every runtime once no sandboxed command runs on it (each waits for its own commands only). */
  async close(): Promise<void> {
    await Promise.all([this.closeSlot(this.home), ...[...this.children.values()].map((c) => this.closeSlot(c))]);
  }

  /** Resets the runtimes no command runs on now; waits for none. */
  async closeIdle(): Promise<void> {
    const idle = [this.home, ...this.children.values()].filter((s) => s.inflight === 0 && !s.switching);
    await Promise.all(idle.map((s) => this.closeSlot(s)));
  }

  private async closeSlot(slot: Slot): Promise<void> {
    for (;;) {
      if (slot.switching) {
        await slot.switching.catch(() => undefined);
        continue;
      }
      if (slot.inflight > 0) {
        await new Promise<void>((r) => slot.idle.push(r));
        continue;
      }
      break;
    }
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
    if (slot !== this.home) return this.retire(slot);
    if (slot.key === undefined) return;
    slot.key = undefined;
    const done = this.m.reset();
    slot.switching = done.then(() => undefined);
    try {
      await done;
    } finally {
      slot.switching = undefined;
    }
  }
}
