// The worker's MCP connections (an I/O room like src/temporal/activities, but without Temporal): one
// connection per (server name, expanded config, working directory) — and, for a stdio server inside
// a session's sandbox, per session (src/mcp/sandboxed.ts) — started on first use,
// reused by every call (and, on the host, every session) with the same config, dropped when the server goes away
// (the next use starts it again) and closed when the worker shuts down. Every wait has a
// timeout: a server that does not start, answer or stay up gives an error, never a hang.
import { DurableAgentError } from '../core/errors';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { expandMcpServer, expansionRedactor, isRemoteMcpServer, type McpServerConfig } from './config';
import { changedPins } from './pins';
import { HostStdioTransport } from './stdioTransport';
import { serverDirectory } from './serverDirectory';
import { containMcpServer, registerMcpManager, sessionBound, type McpSessionScope } from './sandboxed';
import * as path from 'node:path';

/** A tool as the server lists it (the parts durable-agent uses). */
export interface McpToolInfo {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: {
    readOnlyHint?: boolean;
    idempotentHint?: boolean;
    destructiveHint?: boolean;
    openWorldHint?: boolean;
    title?: string;
  };
}

/** A content item of a tools/call result (text, image, audio, resource_link, resource …). */
export type McpContent = { type: string; [key: string]: unknown };

export interface McpCallResult {
  content: McpContent[];
  isError?: boolean;
  structuredContent?: unknown;
}

export interface McpManagerOptions {
  /** How long a server may take to start and answer `initialize`. Default env MCP_TIMEOUT, else 30 s. */
  startupTimeoutMs?: number;
  /** How long one tools/list or tools/call may take. Default env MCP_TOOL_TIMEOUT, else 10 min. */
  toolTimeoutMs?: number;
  /** The environment `${VAR}` expands from. Default process.env. */
  env?: Record<string, string | undefined>;
  /** After a failed start, uses within this time get the same error at once instead of another start. Default 5 s. */
  failedStartMemoryMs?: number;
  /** A server inside a session's sandbox stops after this long without a call. Default env MCP_SANDBOX_IDLE_MS, else 5 min. */
  sandboxedIdleMs?: number;
}

/** A server that is not there: failed to start, closed, or timed out. The message says which. */
export class McpUnavailableError extends DurableAgentError {
  constructor(message: string) {
    super('MCP_UNAVAILABLE', message);
  }
}

interface Connection {
  key: string;
  server: string;
  client: Client;
  transport: Transport;
  closed: boolean;
  closeReason?: string;
  stderrTail: string;
  tools?: Promise<McpToolInfo[]>;
  /** Inside a sandbox: the protected paths a call wrote are undone after it. */
  guard?: <T>(fn: () => Promise<T>) => Promise<T>;
  /** What the configuration expanded, written back as `${VAR}` in every message (expansionRedactor). */
  redact: (text: string) => string;
}

/**
 * The MCP SDK, loaded when the first server starts: a worker, runner or CLI whose sessions have no
 * MCP server never loads it (it costs every process about 0.1 s of CPU at start-up).
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const sdk = {
  client: () =>
    require('@modelcontextprotocol/sdk/client/index.js') as typeof import('@modelcontextprotocol/sdk/client/index.js'),
  http: () =>
    require('@modelcontextprotocol/sdk/client/streamableHttp.js') as typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  sse: () =>
    require('@modelcontextprotocol/sdk/client/sse.js') as typeof import('@modelcontextprotocol/sdk/client/sse.js'),
  types: () => require('@modelcontextprotocol/sdk/types.js') as typeof import('@modelcontextprotocol/sdk/types.js'),
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** The transport of an expanded server: streamable HTTP, SSE, or a process through the door (maybe sandboxed). */
function transportOf(
  expanded: McpServerConfig,
  cwd: string,
  contained?: ConstructorParameters<typeof HostStdioTransport>[0]['contained'],
): Transport {
  if (!isRemoteMcpServer(expanded))
    return new HostStdioTransport({
      command: expanded.command,
      ...(expanded.args ? { args: expanded.args } : {}),
      ...(expanded.env ? { env: expanded.env } : {}),
      cwd: path.resolve(cwd),
      ...(contained ? { contained } : {}),
    });
  const headers = expanded.headers;
  if (expanded.type !== 'sse')
    return new (sdk.http().StreamableHTTPClientTransport)(
      new URL(expanded.url),
      headers ? { requestInit: { headers } } : undefined,
    );
  return new (sdk.sse().SSEClientTransport)(
    new URL(expanded.url),
    headers
      ? {
          requestInit: { headers },
          eventSourceInit: {
            fetch: (u, init) =>
              fetch(u, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } }),
          },
        }
      : undefined,
  );
}

function envNumber(name: string): number | undefined {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : undefined;
}

export class McpManager {
  private readonly connections = new Map<string, Promise<Connection>>();
  private readonly failedStarts = new Map<string, { at: number; error: McpUnavailableError }>();
  /** Keys whose start is under way. */
  private readonly starting = new Set<string>();
  private readonly failedStartMemoryMs: number;
  private readonly startupTimeoutMs: number;
  private readonly toolTimeoutMs: number;
  private readonly env: Record<string, string | undefined>;
  private readonly sandboxedIdleMs: number;
  private shuttingDown = false;
  private readonly unregister: () => void;
  /** How many servers were started (tests check reuse and reconnects). */
  started = 0;
  /** How many tools/list_changed notifications arrived. */
  listChanges = 0;

  constructor(opts: McpManagerOptions = {}) {
    this.startupTimeoutMs = opts.startupTimeoutMs ?? envNumber('MCP_TIMEOUT') ?? 30_000;
    this.toolTimeoutMs = opts.toolTimeoutMs ?? envNumber('MCP_TOOL_TIMEOUT') ?? 600_000;
    this.env = opts.env ?? process.env;
    this.failedStartMemoryMs = opts.failedStartMemoryMs ?? 5_000;
    this.sandboxedIdleMs = opts.sandboxedIdleMs ?? envNumber('MCP_SANDBOX_IDLE_MS') ?? 300_000;
    this.unregister = registerMcpManager(this);
  }

  /**
   * The server's tools (listed once per connection; a new connection, or tools/list_changed, lists
   * again). `noWaitAfterFailure`: when the server's last start failed, start it again in the
   * background and answer with that failure at once (the model activity of every turn lists the
   * tools: a server that hangs at start-up costs MCP_TIMEOUT once, not on every turn).
   */
  async listTools(
    server: string,
    config: McpServerConfig,
    cwd: string,
    noWaitAfterFailure = false,
    scope?: McpSessionScope,
  ): Promise<McpToolInfo[]> {
    const conn = await this.connection(server, config, cwd, noWaitAfterFailure, scope);
    conn.tools ??= conn.client
      .listTools(undefined, { timeout: this.toolTimeoutMs })
      .then((r) =>
        r.tools.map((t) => ({
          name: t.name,
          ...(t.description ? { description: t.description } : {}),
          inputSchema: t.inputSchema as Record<string, unknown>,
          ...(t.annotations ? { annotations: t.annotations } : {}),
        })),
      )
      .catch((err: unknown) => {
        conn.tools = undefined;
        throw this.failure(conn, 'tools/list', err);
      });
    return conn.tools;
  }

  /** Calls one tool. Rejects with McpUnavailableError when the server is gone or does not answer in time. */
  async callTool(
    server: string,
    config: McpServerConfig,
    cwd: string,
    tool: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
    scope?: McpSessionScope,
  ): Promise<McpCallResult> {
    const conn = await this.connection(server, config, cwd, false, scope);
    const timeout = this.callTimeoutMs(config);
    try {
      const call = () =>
        conn.client.callTool({ name: tool, arguments: args }, undefined, { timeout, ...(signal ? { signal } : {}) });
      const r = await (conn.guard ? conn.guard(call) : call());
      return {
        content: (Array.isArray(r.content) ? r.content : []) as McpContent[],
        ...(r.isError === true ? { isError: true } : {}),
        ...(r.structuredContent !== undefined ? { structuredContent: r.structuredContent } : {}),
      };
    } catch (err) {
      if (signal?.aborted) throw err;
      throw this.failure(conn, `the call of ${tool}`, err, timeout);
    }
  }

  /** Closes every connection (worker shutdown). Later uses start servers again unless `final`. */
  async close(final = true): Promise<void> {
    if (final) {
      this.shuttingDown = true;
      this.unregister();
    }
    const all = [...this.connections.values()];
    this.connections.clear();
    await this.closeAll(all);
  }

  /** The session ended: the servers bound to it (inside its sandbox) stop; shared ones stay. */
  async closeSession(sessionId: string): Promise<void> {
    const mine = [...this.connections].filter(([key]) => JSON.parse(key)[3] === sessionId);
    for (const [key] of mine) this.connections.delete(key);
    await this.closeAll(mine.map(([, p]) => p));
  }

  private async closeAll(all: Array<Promise<Connection>>): Promise<void> {
    await Promise.all(
      all.map(async (p) => {
        try {
          const c = await p;
          c.closed = true;
          c.closeReason = 'the worker closed it';
          await c.client.close();
        } catch {
          // a connection that never started has nothing to close
        }
      }),
    );
  }

  /** How many server starts are under way now. */
  get startsInFlight(): number {
    return this.starting.size;
  }

  /** How many connections are open now. */
  get openConnections(): number {
    return this.connections.size;
  }

  /** A call's timeout: the server's `timeout` (ms, from 1000 up, as the reference reads it), else the manager's. */
  callTimeoutMs(config: McpServerConfig): number {
    return config.timeout !== undefined && config.timeout >= 1000 ? config.timeout : this.toolTimeoutMs;
  }

  private failure(conn: Connection, what: string, err: unknown, timeoutMs = this.toolTimeoutMs): McpUnavailableError {
    const msg = conn.redact(err instanceof Error ? err.message : String(err));
    if (conn.closed || /closed|ECONNRESET|EPIPE|ECONNREFUSED/i.test(msg)) {
      this.drop(conn);
      return new McpUnavailableError(
        `MCP server ${conn.server} is gone (${conn.redact(conn.closeReason ?? msg)}) during ${what}${this.stderrNote(conn)}; it will be started again on the next call`,
      );
    }
    if (/timed out|timeout/i.test(msg))
      return new McpUnavailableError(
        `MCP server ${conn.server} did not answer ${what} within ${timeoutMs} ms (${msg})`,
      );
    return new McpUnavailableError(`MCP server ${conn.server}: ${what} failed: ${msg}`);
  }

  private stderrNote(conn: Connection): string {
    const t = conn.stderrTail.trim();
    return t ? `; its last output: ${conn.redact(t).slice(-300)}` : '';
  }

  private drop(conn: Connection): void {
    void this.connections.get(conn.key)?.then(
      (c) => {
        if (c === conn) this.connections.delete(conn.key);
      },
      () => undefined,
    );
  }

  private connection(
    server: string,
    config: McpServerConfig,
    cwd: string,
    noWaitAfterFailure = false,
    scope?: McpSessionScope,
  ): Promise<Connection> {
    if (this.shuttingDown)
      return Promise.reject(new McpUnavailableError(`MCP server ${server}: the worker is shutting down`));
    // A stdio server inside a session's sandbox is that session's alone (its plan: temp dir, directories, allowlist).
    const bound = !isRemoteMcpServer(config) && sessionBound(scope) ? scope : undefined;
    const key = JSON.stringify([server, config, cwd, ...(bound ? [bound.sessionId] : [])]);
    const existing = this.connections.get(key);
    const failed = this.failedStarts.get(key);
    if (existing)
      return noWaitAfterFailure && failed && this.starting.has(key) ? Promise.reject(failed.error) : existing;
    if (failed && Date.now() - failed.at < this.failedStartMemoryMs) return Promise.reject(failed.error);
    const p = this.start(key, server, config, cwd, bound);
    this.connections.set(key, p);
    this.starting.add(key);
    p.then(
      () => {
        this.starting.delete(key);
        this.failedStarts.delete(key);
      },
      (err: unknown) => {
        this.starting.delete(key);
        if (this.connections.get(key) === p) this.connections.delete(key);
        if (err instanceof McpUnavailableError) this.failedStarts.set(key, { at: Date.now(), error: err });
      },
    );
    return noWaitAfterFailure && failed ? Promise.reject(failed.error) : p;
  }

  private async start(
    key: string,
    server: string,
    config: McpServerConfig,
    cwd: string,
    scope: McpSessionScope | undefined,
  ): Promise<Connection> {
    // The files it runs from the working directories, as the session found them at its start (src/mcp/pins.ts).
    if (!isRemoteMcpServer(config) && config.pinnedFiles) {
      const changed = changedPins(config.pinnedFiles);
      if (changed.length > 0) {
        throw new McpUnavailableError(
          `MCP server ${server} was not started: ${changed.map((c) => `${c.path} was ${c.change}`).join(', ')} since this session started, and the server runs ${changed.length > 1 ? 'them' : 'it'} outside the sandbox. ` +
            'This session runs the server only as it was when the session started; start a new session to use the new version.',
        );
      }
    }
    let expanded: McpServerConfig;
    try {
      expanded = expandMcpServer(server, config, this.env);
    } catch (e) {
      throw new McpUnavailableError((e as Error).message);
    }
    const redact = expansionRedactor(config, this.env);
    // The person's own servers start where nothing a session wrote is looked up (O10, serverDirectory.ts).
    let directory = cwd;
    if (!isRemoteMcpServer(expanded) && !isRemoteMcpServer(config))
      try {
        const dirs = scope?.workingDirectories ?? [path.resolve(cwd)];
        directory = serverDirectory(server, config, expanded, path.resolve(cwd), dirs);
      } catch (e) {
        throw new McpUnavailableError(redact((e as Error).message));
      }
    // Inside the session's sandbox unless it is off or the settings say `host` (src/mcp/sandboxed.ts).
    const placed = isRemoteMcpServer(expanded)
      ? undefined
      : await containMcpServer(scope, server, expanded.command, expanded.args ?? []);
    if (placed?.kind === 'refused')
      throw new McpUnavailableError(`MCP server ${server} was not started: ${redact(placed.reason)}`);
    const contained = placed?.kind === 'sandboxed' ? placed.contained : undefined;
    const transport = transportOf(expanded, directory, contained);
    const client = new (sdk.client().Client)({ name: 'durable-agent', version: '0.1.0' });
    const conn: Connection = {
      key,
      server,
      client,
      transport,
      closed: false,
      stderrTail: '',
      redact,
      ...(contained ? { guard: contained.guard } : {}),
    };
    if (transport instanceof HostStdioTransport) {
      transport.stderr.on('data', (d: Buffer) => {
        conn.stderrTail = (conn.stderrTail + d.toString('utf8')).slice(-2000);
      });
    }
    // notifications/tools/list_changed: the next listing (the next turn's model activity) asks again.
    client.setNotificationHandler(sdk.types().ToolListChangedNotificationSchema, () => {
      conn.tools = undefined;
      this.listChanges++;
    });
    client.onclose = () => {
      conn.closed = true;
      conn.closeReason ??= 'the connection closed';
      this.drop(conn);
    };
    client.onerror = (err) => {
      if (/exit|closed/i.test(err.message)) conn.closeReason ??= err.message;
    };
    this.started++;
    let timer: NodeJS.Timeout | undefined;
    try {
      const connect = () => client.connect(transport, { timeout: this.startupTimeoutMs });
      await Promise.race([
        contained ? contained.guard(connect) : connect(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`did not start within ${this.startupTimeoutMs} ms`)),
            this.startupTimeoutMs,
          );
        }),
      ]);
    } catch (err) {
      conn.closed = true;
      await client.close().catch(() => undefined);
      // As configured (`${VAR}` unexpanded): the expanded command line or URL may carry a key (O4).
      const target = isRemoteMcpServer(config) ? config.url : [config.command, ...(config.args ?? [])].join(' ');
      throw new McpUnavailableError(
        `MCP server ${server} failed to start (${target}): ${conn.redact(err instanceof Error ? err.message : String(err))}${this.stderrNote(conn)}`,
      );
    } finally {
      if (timer) clearTimeout(timer);
    }
    contained?.idleAfter(this.sandboxedIdleMs, () => client.close());
    return conn;
  }
}
