// The worker's side of a sandbox runtime in a process of its own (src/sandbox/runtimeChild.ts): the
// SandboxRuntime calls the worker makes, sent over IPC. The child is started through the door as
// sandbox machinery (the Bash allowlist, plus the owner marker its socat bridges inherit, so the
// reaper finds them if the worker dies), in its own process group, and ends with the worker.
import type { ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { startHostProcess } from '../hostProcess/door';
import { trustedPath } from '../hostProcess/programs';
import { OWNER_MARKER_ENV, ownerId } from './reaper';
import { CommandViolations, VIOLATIONS_PER_COMMAND, type ViolationReport } from './violations';

/**
 * The runtime process ended (killed, out of memory, crashed) before it answered. Nothing was started
 * under it; the pool drops the process when it ends, so the same call made again gets a new one.
 */
export class RuntimeProcessEndedError extends Error {
  readonly retryable = true;
  constructor(readonly why: string) {
    super(`the sandbox runtime process ended: ${why}`);
    this.name = 'RuntimeProcessEndedError';
  }
}

/** What the worker asks of a runtime it does not hold in its own module state. */
export interface RemoteRuntime {
  initialize(config: unknown): Promise<void>;
  wrapWithSandbox(
    command: string,
    binShell?: string,
    customConfig?: unknown,
    abortSignal?: AbortSignal,
    options?: { commandId?: string; commandText?: string },
  ): Promise<string>;
  registerCommandNetworkLists(commandId: string, lists: { allowedDomains?: string[] }): Promise<void>;
  unregisterCommandNetworkLists(commandId: string): void;
  getSandboxViolationStore(): { getViolationsForCommand(key: string): Array<{ line: string }> };
  /** Each command's own violation reports, routed as the process forwards them (violations.ts). */
  readonly commandViolations: CommandViolations;
  cleanupAfterCommand(): void;
  reset(): Promise<void>;
  /** Called once when the process has ended, whoever ended it (the pool drops it then). */
  onEnd(listener: (why: string) => void): void;
  /** The process's id (undefined if it did not start). */
  readonly pid: number | undefined;
}

/** The proxy variables the runtime reads for its own upstream (a worker behind a corporate proxy). */
const PROXY_ENV = ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy', 'SRT_DEBUG'];

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };

/** The runtime process, through the door: the Bash allowlist, the owner marker, the proxy variables. */
function spawnRuntimeProcess(): ChildProcess {
  const named: Record<string, string> = { [OWNER_MARKER_ENV]: ownerId() };
  for (const k of PROXY_ENV) if (process.env[k] !== undefined) named[k] = process.env[k] as string;
  return startHostProcess({
    purpose: 'sandbox-machinery',
    command: process.execPath,
    args: [path.join(__dirname, 'runtimeChild.js')],
    cwd: process.cwd(), // the runtime resolves relative entries and scans for mandatory denies from it
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    detached: true,
    env: named,
  });
}

/**
 * A wrap request's arguments, with the worker's trusted PATH of now: the runtime process looks
 * `which` and the shell up by name, and sessions registered since it started are off that PATH too
 * (red team, issue 30, L1; runtimeChild.ts narrows its own PATH to it).
 */
function wrapRequest(command: string, binShell?: string, customConfig?: unknown, options?: unknown): unknown[] {
  return [command, binShell ?? 'bash', customConfig, options ?? {}, trustedPath()];
}

/**
 * Starts a runtime process; it is ready (its package loaded) when `initialize` resolves. A command's
 * end asks it for a round trip through its reports' own channel ('flush', violations.ts drain()).
 */
export function startRemoteRuntime(): RemoteRuntime {
  const child = spawnRuntimeProcess();
  // Neither the process nor its channel keeps the worker alive, except while an answer is awaited.
  child.unref();
  const channel = (child as unknown as { channel?: { ref(): void; unref(): void } }).channel;
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-2000)));
  (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
  const pending = new Map<number, Pending>();
  const violations = new CommandViolations(VIOLATIONS_PER_COMMAND, (key, maxMs) => call('flush', key, maxMs));
  const endListeners: Array<(why: string) => void> = [];
  let nextId = 1;
  let gone: string | undefined;
  let readyResolve: () => void = () => undefined;
  let readyReject: (e: Error) => void = () => undefined;
  const ready = new Promise<void>((res, rej) => {
    readyResolve = res;
    readyReject = rej;
  });
  ready.catch(() => undefined);
  const fail = (why: string) => {
    gone ??= why;
    const err = new RuntimeProcessEndedError(`${gone}${stderr ? ` (${stderr.trim().slice(-300)})` : ''}`);
    readyReject(err);
    for (const p of pending.values()) p.reject(err);
    pending.clear();
    channel?.unref();
  };
  let exited = false;
  const ended = (why: string) => {
    fail(why);
    exited = true;
    for (const l of endListeners.splice(0)) l(gone as string);
  };
  // An 'error' with no pid is a process that never started (no 'exit' follows).
  child.on('error', (e) => (child.pid === undefined ? ended(e.message) : fail(e.message)));
  child.on('exit', (code, signal) => ended(`exit ${code ?? signal}`));
  child.on('message', (msg: Record<string, unknown>) => {
    if (msg.ready) {
      if (pending.size === 0) channel?.unref();
      return readyResolve();
    }
    if (typeof msg.failed === 'string') return fail(msg.failed);
    if (msg.violation) return violations.add(msg.violation as ViolationReport);
    const p = pending.get(msg.id as number);
    if (!p) return;
    pending.delete(msg.id as number);
    if (pending.size === 0) channel?.unref();
    if (msg.ok) p.resolve(msg.value);
    else p.reject(new Error(String(msg.error)));
  });
  const call = async (op: string, ...args: unknown[]): Promise<unknown> => {
    await ready;
    if (gone) throw new RuntimeProcessEndedError(gone);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      channel?.ref();
      child.send({ id, op, args }, (err) => {
        if (err) {
          pending.delete(id);
          // Channel closed (EPIPE before 'exit'): ended now, so a retry never joins its slot again.
          const why = gone ?? err.message;
          child.kill('SIGKILL');
          ended(why);
          reject(new RuntimeProcessEndedError(why));
        }
      });
    });
  };
  const fireAndForget = (op: string, ...args: unknown[]) => void call(op, ...args).catch(() => undefined);
  return {
    initialize: async (config) => void (await call('initialize', config)),
    wrapWithSandbox: async (command, binShell, customConfig, abortSignal, options) => {
      abortSignal?.throwIfAborted();
      const wrapped = (await call('wrap', ...wrapRequest(command, binShell, customConfig, options))) as string;
      abortSignal?.throwIfAborted();
      return wrapped;
    },
    registerCommandNetworkLists: async (commandId, lists) => void (await call('register', commandId, lists)),
    unregisterCommandNetworkLists: (commandId) => fireAndForget('unregister', commandId),
    getSandboxViolationStore: () => ({
      getViolationsForCommand: (key) => violations.peek(key).map((line) => ({ line })),
    }),
    commandViolations: violations,
    pid: child.pid,
    onEnd: (listener) => {
      if (exited) listener(gone ?? 'ended');
      else endListeners.push(listener);
    },
    cleanupAfterCommand: () => fireAndForget('cleanup'),
    reset: async () => {
      if (gone) return;
      child.ref(); // until it has gone
      const exit = new Promise<void>((r) => child.once('exit', () => r()));
      await call('reset').catch(() => undefined);
      if (!gone) await exit;
    },
  };
}
