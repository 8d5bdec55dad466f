// The stdio transport of an MCP server the worker starts: newline-delimited JSON-RPC over the
// server's stdin/stdout, the process started through the one door for host processes
// (src/hostProcess, invariant 15) — so its environment is the MCP purpose's allowlist plus what the
// server's configuration names, and its directory the session's project root. The SDK's own stdio
// client spawns by itself (its whole PATH lookup and environment merge out of our hands), so it is
// not used.
import type { ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import type { ReadBuffer } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { startHostProcess } from '../hostProcess/door';

export interface HostStdioServer {
  command: string;
  args?: readonly string[];
  /** What the server's configuration names (expanded `env` of `.mcp.json`). */
  env?: Readonly<Record<string, string>>;
  /** Absolute: where the session's servers start (its project root). */
  cwd: string;
  /** Inside the session's sandbox (src/mcp/sandboxed.ts): the wrapped command is spawned instead. */
  contained?: {
    shellCommand: string;
    env: Readonly<Record<string, string>>;
    spawned(pid: number | undefined): void;
    finish(): Promise<void>;
  };
}

/** The SDK's stdio framing, loaded with the first transport (src/mcp/manager.ts loads the SDK on first use too). */
const stdio = () =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('@modelcontextprotocol/sdk/shared/stdio.js') as typeof import('@modelcontextprotocol/sdk/shared/stdio.js');

/** How long close() waits for the server to exit after its stdin closed, then after SIGTERM. */
const CLOSE_GRACE_MS = 2_000;

export class HostStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcess | undefined;
  private readonly buffer: ReadBuffer = new (stdio().ReadBuffer)();
  /** The server's stderr, readable before start() so that no early line is lost. */
  readonly stderr = new PassThrough();

  constructor(private readonly server: HostStdioServer) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('HostStdioTransport already started');
    return new Promise((resolve, reject) => {
      let child: ChildProcess;
      const contained = this.server.contained;
      try {
        child = startHostProcess({
          purpose: 'mcp-server',
          command: contained ? 'bash' : this.server.command,
          args: contained ? ['-c', contained.shellCommand] : (this.server.args ?? []),
          cwd: this.server.cwd,
          ...(this.server.env || contained ? { env: { ...this.server.env, ...contained?.env } } : {}),
          stdio: ['pipe', 'pipe', 'pipe'],
        });
      } catch (err) {
        void contained?.finish();
        reject(err as Error);
        return;
      }
      this.child = child;
      contained?.spawned(child.pid);
      child.on('error', (err) => {
        reject(err);
        this.onerror?.(err);
      });
      child.on('spawn', () => resolve());
      child.on('close', () => {
        this.child = undefined;
        // Inside the sandbox: what the server left running is killed, the sandbox's holds released.
        void contained?.finish();
        this.onclose?.();
      });
      child.stdin!.on('error', (err) => this.onerror?.(err));
      child.stdout!.on('error', (err) => this.onerror?.(err));
      child.stdout!.on('data', (chunk: Buffer) => {
        this.buffer.append(chunk);
        this.drain();
      });
      child.stderr!.pipe(this.stderr);
    });
  }

  private drain(): void {
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (err) {
        this.onerror?.(err as Error);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin) return reject(new Error('the MCP server is not running'));
      if (stdin.write(stdio().serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child) {
      const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
      const within = (ms: number) =>
        Promise.race([closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);
      try {
        child.stdin?.end();
      } catch {
        // already closed
      }
      if (!(await within(CLOSE_GRACE_MS)) && child.exitCode === null) {
        child.kill('SIGTERM');
        if (!(await within(CLOSE_GRACE_MS)) && child.exitCode === null) child.kill('SIGKILL');
      }
      await this.server.contained?.finish();
    }
    this.buffer.clear();
  }
}
