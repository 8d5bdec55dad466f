// Each running command's own sandbox violation reports.
//
// The runtime keeps the violations of every command it wraps in ONE store, a ring of the last 100
// (SandboxViolationStore), and a command's reports are read back by filtering that ring on its key
// when it ends. Two commands of one runtime (the worker's own, or a runtime process shared by the
// sessions of one configuration) share the ring: a command that makes 100 reports pushes a
// concurrent command's reports out before that one ends, and its result says nothing was refused.
// So each report is routed, as it is recorded, to the list of the command whose key it carries;
// a command's list is opened before it is wrapped and taken when it ends. Reports for a key nobody
// opened (a command already finished, or an attribution the sandboxed process forged) are dropped.
// The runtime's own ring is left as it is: nothing here reads it.
//
// Reports arrive asynchronously: on Linux the sandbox's observer writes them to a socket the
// runtime reads in its own event loop, and a runtime process forwards them over IPC. So a command's
// end waits for the reports still in flight before its list is taken (drain()): every report
// written before the command ended is in a socket buffer by then, and is read within two poll
// phases of the runtime's event loop (accept, read); a runtime process is asked for a round trip ('flush') that it answers
// after its own reports have gone quiet, and IPC keeps them in order before the answer. The wait is
// bounded (violationDrain.maxMs), so a runtime that is dead or stopped never holds a command.

export interface ViolationReport {
  line: string;
  encodedCommand?: string;
}

/** The most distinct lines kept per command (the runtime kept 100 for all commands together). */
export const VIOLATIONS_PER_COMMAND = 100;

/** How long a command's end waits at most for its reports still in flight (tests may raise it). */
export const violationDrain = { maxMs: 250 };

/** What a command was refused: its first distinct lines, and how many reports there were in all. */
export interface CommandReports {
  /** At most VIOLATIONS_PER_COMMAND distinct lines, in the order they came. */
  lines: string[];
  /** Every report of the command (repeats and those past the cap included). */
  total: number;
}

/** A command that ran outside the sandbox: nothing reported. */
export const NO_REPORTS: CommandReports = Object.freeze({ lines: [], total: 0 });

/** The runtime's attribution key of a command id (its encodeSandboxedCommand: the first 100 chars, base64). */
export function encodedCommandKey(commandId: string): string {
  return Buffer.from(commandId.slice(0, 100)).toString('base64');
}

const immediate = () => new Promise<void>((r) => setImmediate(r));

/**
 * Resolves once `count()` stopped changing over two poll phases of this event loop (three
 * immediates: the first may run in the current iteration; a connection accepted in the first poll
 * is read in the second), or after `maxMs`.
 */
export async function quiesce(count: () => number, maxMs: number): Promise<void> {
  const deadline = Date.now() + maxMs;
  for (;;) {
    const seen = count();
    for (let i = 0; i < 3; i++) await immediate();
    if (count() === seen || Date.now() >= deadline) return;
  }
}

/** `p`, or nothing after `ms` (its failure ignored). */
async function bounded(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([p.catch(() => undefined), new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}

interface Collecting {
  lines: Set<string>;
  total: number;
  /** Reports for the key, also those `keep` dropped (drain() waits until this stops moving). */
  seen: number;
  keep: ((line: string) => boolean) | undefined;
}

/** Violation reports sorted by command, as they are recorded. */
export class CommandViolations {
  private readonly byKey = new Map<string, Collecting>();

  /**
   * `flush(key)`: a round trip through the runtime's report channel that ends once the runtime has
   * delivered its reports for `key` (a runtime process); without it, turns of this event loop.
   */
  constructor(
    private readonly perCommand = VIOLATIONS_PER_COMMAND,
    private readonly flush?: (key: string, maxMs: number) => Promise<unknown>,
  ) {}

  /**
   * Starts collecting the reports of `commandId` (call before the command is wrapped); `keep`
   * drops the lines that are no violation of this command (counted neither listed).
   */
  open(commandId: string, keep?: (line: string) => boolean): void {
    this.byKey.set(encodedCommandKey(commandId), { lines: new Set(), total: 0, seen: 0, keep });
  }

  /** One report of the runtime: kept for its command if that command is open. */
  add(v: ViolationReport): void {
    const c = v.encodedCommand === undefined ? undefined : this.byKey.get(v.encodedCommand);
    if (!c) return;
    c.seen++;
    if (c.keep && !c.keep(v.line)) return;
    c.total++;
    if (c.lines.size < this.perCommand) c.lines.add(v.line);
  }

  /**
   * Waits (bounded) for the reports of `commandId` the runtime has not delivered yet: call once the
   * command has ended, before take(). Another command's reports never make it wait longer.
   */
  async drain(commandId: string, maxMs = violationDrain.maxMs): Promise<void> {
    const key = encodedCommandKey(commandId);
    if (this.flush) await bounded(this.flush(key, maxMs), maxMs);
    else await quiesce(() => this.byKey.get(key)?.seen ?? 0, maxMs);
  }

  /** The reports of `commandId` so far, without closing it. */
  peek(commandId: string): string[] {
    return [...(this.byKey.get(encodedCommandKey(commandId))?.lines ?? [])];
  }

  /** The reports of `commandId`; stops collecting them. */
  take(commandId: string): CommandReports {
    const key = encodedCommandKey(commandId);
    const c = this.byKey.get(key);
    this.byKey.delete(key);
    return { lines: [...(c?.lines ?? [])], total: c?.total ?? 0 };
  }

  /** How many commands are open (for tests). */
  openCommands(): number {
    return this.byKey.size;
  }
}

/** The parts of the runtime's store this module uses. */
interface RuntimeStore {
  addViolation?: (v: ViolationReport) => void;
  getViolations?: (limit?: number) => ViolationReport[];
  getViolationsForCommand(key: string): Array<{ line: string }>;
}

/** What a runtime offers to read violations: the package's store, or a runtime process's own router. */
interface ViolationSource {
  getSandboxViolationStore(): RuntimeStore;
  commandViolations?: CommandViolations;
}

const routers = new WeakMap<object, CommandViolations>();

/**
 * The per-command reports of a runtime. A runtime process (remoteRuntime.ts) routes its own; for the
 * package's SandboxManager the store's addViolation is wrapped — once, and before the runtime's first
 * initialize(), which binds it for the violation monitor (RuntimePool's constructor does so). A
 * runtime whose store cannot be wrapped (a test's fake) is read the old way, from its store.
 */
export function commandViolations(rt: ViolationSource): CommandViolations {
  if (rt.commandViolations) return rt.commandViolations;
  // A runtime with no store at all (a scripted one whose sandbox is unavailable) reports nothing.
  if (typeof rt.getSandboxViolationStore !== 'function') return new CommandViolations();
  const store = rt.getSandboxViolationStore();
  let router = routers.get(store);
  if (router) return router;
  if (typeof store.addViolation === 'function' && typeof store.getViolations === 'function') {
    const routed = new CommandViolations();
    const add = store.addViolation.bind(store);
    const latest = store.getViolations.bind(store);
    store.addViolation = (v: ViolationReport) => {
      add(v);
      // The stored copy: the store sanitises the line (one physical line, no angle brackets).
      const stored = latest(1)[0];
      if (stored) routed.add({ line: stored.line, ...(v.encodedCommand ? { encodedCommand: v.encodedCommand } : {}) });
    };
    router = routed;
  } else {
    router = new StoreReader(store);
  }
  routers.set(store, router);
  return router;
}

/** A store that cannot be wrapped: each command's reports read from it when the command ends. */
class StoreReader extends CommandViolations {
  private readonly keeps = new Map<string, (line: string) => boolean>();
  constructor(private readonly store: RuntimeStore) {
    super();
  }
  override open(commandId: string, keep?: (line: string) => boolean): void {
    if (keep) this.keeps.set(commandId, keep);
  }
  override peek(commandId: string): string[] {
    const keep = this.keeps.get(commandId) ?? (() => true);
    return this.store
      .getViolationsForCommand(commandId)
      .map((v) => v.line)
      .filter(keep);
  }
  override take(commandId: string): CommandReports {
    const all = this.peek(commandId);
    this.keeps.delete(commandId);
    const lines = [...new Set(all)].slice(0, VIOLATIONS_PER_COMMAND);
    return { lines, total: all.length };
  }
}
