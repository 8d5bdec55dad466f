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

export interface ViolationReport {
  line: string;
  encodedCommand?: string;
}

/** The most distinct lines kept per command (the runtime kept 100 for all commands together). */
export const VIOLATIONS_PER_COMMAND = 100;

/** The runtime's attribution key of a command id (its encodeSandboxedCommand: the first 100 chars, base64). */
export function encodedCommandKey(commandId: string): string {
  return Buffer.from(commandId.slice(0, 100)).toString('base64');
}

/** Violation reports sorted by command, as they are recorded. */
export class CommandViolations {
  private readonly byKey = new Map<string, Set<string>>();

  constructor(private readonly perCommand = VIOLATIONS_PER_COMMAND) {}

  /** Starts collecting the reports of `commandId` (call before the command is wrapped). */
  open(commandId: string): void {
    this.byKey.set(encodedCommandKey(commandId), new Set());
  }

  /** One report of the runtime: kept for its command if that command is open. */
  add(v: ViolationReport): void {
    const lines = v.encodedCommand === undefined ? undefined : this.byKey.get(v.encodedCommand);
    if (lines && lines.size < this.perCommand) lines.add(v.line);
  }

  /** The reports of `commandId` so far, without closing it. */
  peek(commandId: string): string[] {
    return [...(this.byKey.get(encodedCommandKey(commandId)) ?? [])];
  }

  /** The reports of `commandId`; stops collecting them. */
  take(commandId: string): string[] {
    const key = encodedCommandKey(commandId);
    const lines = this.byKey.get(key);
    this.byKey.delete(key);
    return [...(lines ?? [])];
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
  constructor(private readonly store: RuntimeStore) {
    super();
  }
  override peek(commandId: string): string[] {
    return this.store.getViolationsForCommand(commandId).map((v) => v.line);
  }
  override take(commandId: string): string[] {
    return [...new Set(this.peek(commandId))];
  }
}
