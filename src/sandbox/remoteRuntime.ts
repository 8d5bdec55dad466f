// The worker's side of a sandbox runtime in a process of its own (src/sandbox/runtimeChild.ts): the
// SandboxRuntime calls the worker makes, sent over IPC. The child is started through the door as
// sandbox machinery (the Bash allowlist, plus the owner marker its socat bridges inherit, so the
// reaper finds them if the worker dies), in its own process group, and ends with the worker.
import type { ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { startHostProcess } from '../hostProcess/door';
import { OWNER_MARKER_ENV, ownerId } from './reaper';

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
  cleanupAfterCommand(): void;
  reset(): Promise<void>;
}

/** The proxy variables the runtime reads for its own upstream (a worker behind a corporate proxy). */
const PROXY_ENV = ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy', 'SRT_DEBUG'];

/** The runtime's attribution key of a command id (its encodeSandboxedCommand: 100 chars, base64). */
function encodedKey(commandId: string): string {
  return Buffer.from(commandId.slice(0, 100)).toString('base64');
}

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };

/** Starts a runtime process; it is ready (its package loaded) when `initialize` resolves. */
export function startRemoteRuntime(): RemoteRuntime {
  const named: Record<string, string> = { [OWNER_MARKER_ENV]: ownerId() };
  for (const k of PROXY_ENV) if (process.env[k] !== undefined) named[k] = process.env[k] as string;
  const child: ChildProcess = startHostProcess({
    purpose: 'sandbox-machinery',
    command: process.execPath,
    args: [path.join(__dirname, 'runtimeChild.js')],
    cwd: process.cwd(), // the runtime resolves relative entries and scans for mandatory denies from it
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    detached: true,
    env: named,
  });
  // Neither the process nor its channel keeps the worker alive, except while an answer is awaited.
  child.unref();
  const channel = (child as unknown as { channel?: { ref(): void; unref(): void } }).channel;
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-2000)));
  (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
  const pending = new Map<number, Pending>();
  const violations: Array<{ line: string; encodedCommand?: string }> = [];
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
    const err = new Error(
      `the sandbox runtime process ended: ${gone}${stderr ? ` (${stderr.trim().slice(-300)})` : ''}`,
    );
    readyReject(err);
    for (const p of pending.values()) p.reject(err);
    pending.clear();
    channel?.unref();
  };
  child.on('error', (e) => fail(e.message));
  child.on('exit', (code, signal) => fail(`exit ${code ?? signal}`));
  child.on('message', (msg: Record<string, unknown>) => {
    if (msg.ready) {
      if (pending.size === 0) channel?.unref();
      return readyResolve();
    }
    if (typeof msg.failed === 'string') return fail(msg.failed);
    if (msg.violation) {
      violations.push(msg.violation as { line: string; encodedCommand?: string });
      if (violations.length > 100) violations.splice(0, violations.length - 100);
      return;
    }
    const p = pending.get(msg.id as number);
    if (!p) return;
    pending.delete(msg.id as number);
    if (pending.size === 0) channel?.unref();
    if (msg.ok) p.resolve(msg.value);
    else p.reject(new Error(String(msg.error)));
  });
  const call = async (op: string, ...args: unknown[]): Promise<unknown> => {
    await ready;
    if (gone) throw new Error(`the sandbox runtime process ended: ${gone}`);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      channel?.ref();
      child.send({ id, op, args }, (err) => {
        if (err) {
          pending.delete(id);
          reject(err);
        }
      });
    });
  };
  const fireAndForget = (op: string, ...args: unknown[]) => void call(op, ...args).catch(() => undefined);
  return {
    initialize: async (config) => void (await call('initialize', config)),
    wrapWithSandbox: async (command, binShell, customConfig, abortSignal, options) => {
      abortSignal?.throwIfAborted();
      const wrapped = (await call('wrap', command, binShell ?? 'bash', customConfig, options ?? {})) as string;
      abortSignal?.throwIfAborted();
      return wrapped;
    },
    registerCommandNetworkLists: async (commandId, lists) => void (await call('register', commandId, lists)),
    unregisterCommandNetworkLists: (commandId) => fireAndForget('unregister', commandId),
    getSandboxViolationStore: () => ({
      getViolationsForCommand: (key) => violations.filter((v) => v.encodedCommand === encodedKey(key)),
    }),
    cleanupAfterCommand: () => fireAndForget('cleanup'),
    reset: async () => {
      if (gone) return;
      child.ref(); // until it has gone
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      await call('reset').catch(() => undefined);
      if (!gone) await exited;
    },
  };
}
