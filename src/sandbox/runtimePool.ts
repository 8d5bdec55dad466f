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
//    initialised for that configuration — it never waits for another session's commands, however long
//    they run (a dev server in the background, a Monitor, an MCP server). A process runtime ends once
//    idle for CHILD_IDLE_MS, and with the worker.
import { withOwnerMarker } from './reaper';

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
}

/** A call's hold on a runtime initialised with its configuration. */
export interface Lease {
  runtime: WrappingRuntime;
  release(): void;
}

/** How long a runtime in a process of its own stays after its last command (then it is reset). */
export const CHILD_IDLE_MS = 30_000;

class Slot {
  key: string | undefined;
  inflight = 0;
  switching: Promise<void> | undefined;
  readonly idle: Array<() => void> = [];
  idleTimer: NodeJS.Timeout | undefined;
  constructor(readonly runtime: WrappingRuntime) {}
}

export class RuntimePool {
  private readonly home: Slot;
  /** Runtimes in processes of their own, by configuration. */
  private readonly children = new Map<string, Slot>();
  /** Whether a sandboxed `true` ran on this runtime, and since when it did not (see availabilityBy). */
  private checked: { result: Promise<SandboxAvailability>; unavailableSince?: number } | undefined;

  constructor(
    private readonly m: SandboxRuntime,
    private readonly startChild: () => ProcessRuntime,
    private readonly childIdleMs = CHILD_IDLE_MS,
  ) {
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

  /** A runtime initialised with `config`, held until release(). Never waits for another configuration's commands. */
  async acquire(config: unknown, signal?: AbortSignal): Promise<Lease> {
    const key = JSON.stringify(config);
    for (;;) {
      signal?.throwIfAborted();
      const home = this.home;
      if (home.switching) {
        await home.switching.catch(() => undefined);
        continue;
      }
      if (home.key === key) return this.join(home);
      const child = this.children.get(key);
      if (child?.switching) {
        await child.switching.catch(() => undefined);
        continue;
      }
      if (child && child.key === key) return this.join(child);
      // The worker's own runtime, idle: re-initialised for this call (the lease is taken before any
      // other caller runs, so nobody re-initialises it under this one).
      if (home.inflight === 0) return this.switchHome(config, key);
      return this.startChildFor(config, key);
    }
  }

  private join(slot: Slot): Lease {
    slot.inflight++;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
    let released = false;
    return {
      runtime: slot.runtime,
      release: () => {
        if (released) return;
        released = true;
        slot.inflight--;
        if (slot.inflight > 0) return;
        for (const wake of slot.idle.splice(0)) wake();
        if (slot !== this.home) {
          slot.idleTimer = setTimeout(() => void this.retire(slot).catch(() => undefined), this.childIdleMs);
          slot.idleTimer.unref();
        }
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
    let lease: Lease | undefined;
    slot.switching = (async () => {
      await runtime.initialize(config);
      slot.key = key;
      lease = this.join(slot);
    })();
    try {
      await slot.switching;
    } catch (err) {
      this.children.delete(key);
      await runtime.reset().catch(() => undefined);
      throw err;
    } finally {
      slot.switching = undefined;
    }
    return lease as Lease;
  }

  /** Ends an idle process runtime (a call that joined it meanwhile keeps it). */
  private async retire(slot: Slot): Promise<void> {
    if (slot.inflight > 0 || slot.key === undefined) return;
    this.children.delete(slot.key);
    slot.key = undefined;
    await slot.runtime.reset();
  }

  /** How many runtimes run in processes of their own (for tests and status). */
  processRuntimes(): number {
    return this.children.size;
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
