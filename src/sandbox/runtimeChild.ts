// A second sandbox runtime, in a process of its own (src/sandbox/remoteRuntime.ts starts it). The
// runtime's SandboxManager is one per process (module state: the filtering proxies, the violation
// monitor), and its worker-wide configuration (network.deniedDomains, the proxy ports, the weaker
// nested sandbox, …) applies to every command it wraps. A call whose worker-wide configuration
// differs from the one of the worker's own runtime, while that one runs commands, runs on a runtime
// here: initialised once with that configuration, never re-initialised, reset when the worker closes
// it or goes away (IPC disconnect). The worker spawns the wrapped commands itself (through the door).
//
// Protocol (IPC, JSON): requests { id, op, args } answered { id, ok, value | error }; and
// { violation: { line, encodedCommand, command } } for each violation the runtime records, so that
// the worker has a command's violations when it ends, as from its own runtime. The worker asks
// { op: 'flush', args: [key, maxMs] } once a command has ended: answered when this process's
// reports for that key have gone quiet (the observer's socket read to its end), after them.
import * as path from 'node:path';
import { quiesce } from './violations';
import { hideMaskStore, placeMaskStore } from './maskStore';

interface Request {
  id: number;
  op: 'initialize' | 'wrap' | 'register' | 'unregister' | 'cleanup' | 'reset' | 'flush';
  args: unknown[];
}

interface Violation {
  line: string;
  encodedCommand?: string;
  command?: string;
}

interface ChildRuntime {
  initialize(config: unknown, ask?: unknown, enableLogMonitor?: boolean): Promise<void>;
  wrapWithSandbox(
    command: string,
    binShell: string,
    customConfig: unknown,
    abortSignal: AbortSignal | undefined,
    options: unknown,
  ): Promise<string>;
  registerCommandNetworkLists(commandId: string, lists: unknown): void;
  unregisterCommandNetworkLists(commandId: string): void;
  getSandboxViolationStore(): {
    addViolation(v: Violation): void;
    getViolations(limit?: number): Violation[];
  };
  cleanupAfterCommand(): void;
  reset(): Promise<void>;
}

// A real dynamic import (tsc would turn `import()` into require() under CommonJS output).
const importEsm = new Function('specifier', 'return import(specifier)') as (
  s: string,
) => Promise<{ SandboxManager: ChildRuntime }>;

/**
 * The runtime looks `which` and the shell up by name on process.env.PATH at every wrap; this process
 * serves sessions that registered their directories in the worker after it started. Each wrap
 * request carries the worker's trusted PATH of now: this PATH keeps only the entries it holds (it
 * never widens; red team, issue 30, L1).
 */
function narrowPathTo(trusted: unknown): void {
  if (typeof trusted !== 'string' || process.env.PATH === undefined) return;
  const keep = new Set(trusted.split(path.delimiter));
  process.env.PATH = process.env.PATH.split(path.delimiter)
    .filter((e) => keep.has(e))
    .join(path.delimiter);
}

function send(message: unknown): void {
  if (process.connected) process.send?.(message);
}

async function serve(): Promise<void> {
  const m = (await importEsm('@anthropic-ai/sandbox-runtime')).SandboxManager;
  // Forward every violation the runtime stores (the monitor binds addViolation at initialize(),
  // so it is wrapped before that).
  const store = m.getSandboxViolationStore();
  const add = store.addViolation.bind(store);
  // Reports forwarded per key while a flush of that key waits.
  const flushing = new Map<string, number>();
  store.addViolation = (v: Violation) => {
    add(v);
    const stored = store.getViolations(1)[0];
    if (!stored) return;
    send({ violation: { line: stored.line, encodedCommand: stored.encodedCommand, command: stored.command } });
    const key = stored.encodedCommand;
    if (key !== undefined && flushing.has(key)) flushing.set(key, (flushing.get(key) ?? 0) + 1);
  };
  const flush = async (key: string, maxMs: number): Promise<void> => {
    if (flushing.has(key)) return quiesce(() => flushing.get(key) ?? 0, maxMs);
    flushing.set(key, 0);
    try {
      await quiesce(() => flushing.get(key) ?? 0, maxMs);
    } finally {
      flushing.delete(key);
    }
  };
  let closing = false;
  const closeAndExit = () => {
    if (closing) return;
    closing = true;
    void m
      .reset()
      .catch(() => undefined)
      .finally(() => process.exit(0));
  };
  // Only the worker ends this runtime: its close() waits for the running commands. Signals aimed
  // at a terminal's process group do not reach this process (it has its own), and the runtime's own
  // SIGINT/SIGTERM handlers (a reset under running commands) are taken out after initialize().
  process.on('disconnect', closeAndExit);
  for (const s of ['SIGINT', 'SIGTERM'] as const) process.on(s, () => undefined);
  const handle = async (req: Request): Promise<unknown> => {
    switch (req.op) {
      case 'initialize': {
        const before = new Set([...process.rawListeners('SIGINT'), ...process.rawListeners('SIGTERM')]);
        await m.initialize(req.args[0], undefined, true);
        for (const s of ['SIGINT', 'SIGTERM'] as const)
          for (const l of process.rawListeners(s))
            if (!before.has(l)) process.removeListener(s, l as (...args: unknown[]) => void);
        return undefined;
      }
      case 'wrap': {
        narrowPathTo(req.args[4]);
        // The store of masked copies in the sessions' root, and out of the command's sight (maskStore.ts, L-c).
        const store = placeMaskStore(m);
        const wrapped = await m.wrapWithSandbox(
          req.args[0] as string,
          req.args[1] as string,
          req.args[2],
          undefined,
          req.args[3],
        );
        return hideMaskStore(wrapped, store);
      }
      case 'register':
        m.registerCommandNetworkLists(req.args[0] as string, req.args[1]);
        return undefined;
      case 'unregister':
        m.unregisterCommandNetworkLists(req.args[0] as string);
        return undefined;
      case 'cleanup':
        m.cleanupAfterCommand();
        return undefined;
      case 'flush':
        return flush(String(req.args[0]), Math.min(Number(req.args[1]) || 0, 60_000));
      case 'reset':
        closing = true;
        await m.reset();
        setImmediate(() => process.exit(0));
        return undefined;
    }
  };
  process.on('message', (req: Request) => {
    handle(req).then(
      (value) => send({ id: req.id, ok: true, value }),
      (err: unknown) => send({ id: req.id, ok: false, error: err instanceof Error ? err.message : String(err) }),
    );
  });
  send({ ready: true });
}

if (require.main === module) {
  serve().catch((err: unknown) => {
    send({ failed: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  });
}
