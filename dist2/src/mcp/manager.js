"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.McpManager = exports.McpUnavailableError = void 0;
// The worker's MCP connections (an I/O room like src/activities, but without Temporal): one
// connection per (server name, expanded config, working directory), started on first use,
// reused by every call and session with the same config, dropped when the server goes away
// (the next use starts it again) and closed when the worker shuts down. Every wait has a
// timeout: a server that does not start, answer or stay up gives an error, never a hang.
const errors_1 = require("../engine/errors");
const index_js_1 = require("@modelcontextprotocol/sdk/client/index.js");
const stdio_js_1 = require("@modelcontextprotocol/sdk/client/stdio.js");
const streamableHttp_js_1 = require("@modelcontextprotocol/sdk/client/streamableHttp.js");
const sse_js_1 = require("@modelcontextprotocol/sdk/client/sse.js");
const types_js_1 = require("@modelcontextprotocol/sdk/types.js");
const config_1 = require("./config");
const pins_1 = require("./pins");
/** A server that is not there: failed to start, closed, or timed out. The message says which. */
class McpUnavailableError extends errors_1.DurableAgentError {
    constructor(message) {
        super('MCP_UNAVAILABLE', message);
    }
}
exports.McpUnavailableError = McpUnavailableError;
function envNumber(name) {
    const v = Number(process.env[name]);
    return Number.isFinite(v) && v > 0 ? v : undefined;
}
class McpManager {
    connections = new Map();
    failedStarts = new Map();
    /** Keys whose start is under way. */
    starting = new Set();
    failedStartMemoryMs;
    startupTimeoutMs;
    toolTimeoutMs;
    env;
    shuttingDown = false;
    /** How many servers were started (tests check reuse and reconnects). */
    started = 0;
    /** How many tools/list_changed notifications arrived. */
    listChanges = 0;
    constructor(opts = {}) {
        this.startupTimeoutMs = opts.startupTimeoutMs ?? envNumber('MCP_TIMEOUT') ?? 30_000;
        this.toolTimeoutMs = opts.toolTimeoutMs ?? envNumber('MCP_TOOL_TIMEOUT') ?? 600_000;
        this.env = opts.env ?? process.env;
        this.failedStartMemoryMs = opts.failedStartMemoryMs ?? 5_000;
    }
    /**
     * The server's tools (listed once per connection; a new connection, or tools/list_changed, lists
     * again). `noWaitAfterFailure`: when the server's last start failed, start it again in the
     * background and answer with that failure at once (the model activity of every turn lists the
     * tools: a server that hangs at start-up costs MCP_TIMEOUT once, not on every turn).
     */
    async listTools(server, config, cwd, noWaitAfterFailure = false) {
        const conn = await this.connection(server, config, cwd, noWaitAfterFailure);
        conn.tools ??= conn.client
            .listTools(undefined, { timeout: this.toolTimeoutMs })
            .then((r) => r.tools.map((t) => ({
            name: t.name,
            ...(t.description ? { description: t.description } : {}),
            inputSchema: t.inputSchema,
            ...(t.annotations ? { annotations: t.annotations } : {}),
        })))
            .catch((err) => {
            conn.tools = undefined;
            throw this.failure(conn, 'tools/list', err);
        });
        return conn.tools;
    }
    /** Calls one tool. Rejects with McpUnavailableError when the server is gone or does not answer in time. */
    async callTool(server, config, cwd, tool, args, signal) {
        const conn = await this.connection(server, config, cwd);
        const timeout = this.callTimeoutMs(config);
        try {
            const r = await conn.client.callTool({ name: tool, arguments: args }, undefined, {
                timeout,
                ...(signal ? { signal } : {}),
            });
            return {
                content: (Array.isArray(r.content) ? r.content : []),
                ...(r.isError === true ? { isError: true } : {}),
                ...(r.structuredContent !== undefined ? { structuredContent: r.structuredContent } : {}),
            };
        }
        catch (err) {
            if (signal?.aborted)
                throw err;
            throw this.failure(conn, `the call of ${tool}`, err, timeout);
        }
    }
    /** Closes every connection (worker shutdown). Later uses start servers again unless `final`. */
    async close(final = true) {
        if (final)
            this.shuttingDown = true;
        const all = [...this.connections.values()];
        this.connections.clear();
        await Promise.all(all.map(async (p) => {
            try {
                const c = await p;
                c.closed = true;
                c.closeReason = 'the worker closed it';
                await c.client.close();
            }
            catch {
                // a connection that never started has nothing to close
            }
        }));
    }
    /** How many server starts are under way now. */
    get startsInFlight() {
        return this.starting.size;
    }
    /** How many connections are open now. */
    get openConnections() {
        return this.connections.size;
    }
    /** A call's timeout: the server's `timeout` (ms, from 1000 up, as the reference reads it), else the manager's. */
    callTimeoutMs(config) {
        return config.timeout !== undefined && config.timeout >= 1000 ? config.timeout : this.toolTimeoutMs;
    }
    failure(conn, what, err, timeoutMs = this.toolTimeoutMs) {
        const msg = err instanceof Error ? err.message : String(err);
        if (conn.closed || /closed|ECONNRESET|EPIPE|ECONNREFUSED/i.test(msg)) {
            this.drop(conn);
            return new McpUnavailableError(`MCP server ${conn.server} is gone (${conn.closeReason ?? msg}) during ${what}${this.stderrNote(conn)}; it will be started again on the next call`);
        }
        if (/timed out|timeout/i.test(msg))
            return new McpUnavailableError(`MCP server ${conn.server} did not answer ${what} within ${timeoutMs} ms (${msg})`);
        return new McpUnavailableError(`MCP server ${conn.server}: ${what} failed: ${msg}`);
    }
    stderrNote(conn) {
        const t = conn.stderrTail.trim();
        return t ? `; its last output: ${t.slice(-300)}` : '';
    }
    drop(conn) {
        void this.connections.get(conn.key)?.then((c) => {
            if (c === conn)
                this.connections.delete(conn.key);
        }, () => undefined);
    }
    connection(server, config, cwd, noWaitAfterFailure = false) {
        if (this.shuttingDown)
            return Promise.reject(new McpUnavailableError(`MCP server ${server}: the worker is shutting down`));
        const key = JSON.stringify([server, config, cwd]);
        const existing = this.connections.get(key);
        const failed = this.failedStarts.get(key);
        if (existing)
            return noWaitAfterFailure && failed && this.starting.has(key) ? Promise.reject(failed.error) : existing;
        if (failed && Date.now() - failed.at < this.failedStartMemoryMs)
            return Promise.reject(failed.error);
        const p = this.start(key, server, config, cwd);
        this.connections.set(key, p);
        this.starting.add(key);
        p.then(() => {
            this.starting.delete(key);
            this.failedStarts.delete(key);
        }, (err) => {
            this.starting.delete(key);
            if (this.connections.get(key) === p)
                this.connections.delete(key);
            if (err instanceof McpUnavailableError)
                this.failedStarts.set(key, { at: Date.now(), error: err });
        });
        return noWaitAfterFailure && failed ? Promise.reject(failed.error) : p;
    }
    async start(key, server, config, cwd) {
        // The files it runs from the working directories, as the session found them at its start (src/mcp/pins.ts).
        if (!(0, config_1.isRemoteMcpServer)(config) && config.pinnedFiles) {
            const changed = (0, pins_1.changedPins)(config.pinnedFiles);
            if (changed.length > 0) {
                throw new McpUnavailableError(`MCP server ${server} was not started: ${changed.map((c) => `${c.path} was ${c.change}`).join(', ')} since this session started, and the server runs ${changed.length > 1 ? 'them' : 'it'} outside the sandbox. ` +
                    'This session runs the server only as it was when the session started; start a new session to use the new version.');
            }
        }
        let expanded;
        try {
            expanded = (0, config_1.expandMcpServer)(server, config, this.env);
        }
        catch (e) {
            throw new McpUnavailableError(e.message);
        }
        const transport = (0, config_1.isRemoteMcpServer)(expanded)
            ? expanded.type === 'sse'
                ? new sse_js_1.SSEClientTransport(new URL(expanded.url), expanded.headers
                    ? {
                        requestInit: { headers: expanded.headers },
                        eventSourceInit: {
                            fetch: (u, init) => fetch(u, {
                                ...init,
                                headers: { ...init?.headers, ...expanded.headers },
                            }),
                        },
                    }
                    : undefined)
                : new streamableHttp_js_1.StreamableHTTPClientTransport(new URL(expanded.url), expanded.headers ? { requestInit: { headers: expanded.headers } } : undefined)
            : new stdio_js_1.StdioClientTransport({
                command: expanded.command,
                args: expanded.args ?? [],
                env: { ...(0, stdio_js_1.getDefaultEnvironment)(), ...(expanded.env ?? {}) },
                cwd,
                stderr: 'pipe',
            });
        const client = new index_js_1.Client({ name: 'durable-agent', version: '0.1.0' });
        const conn = { key, server, client, transport, closed: false, stderrTail: '' };
        if (transport instanceof stdio_js_1.StdioClientTransport) {
            transport.stderr?.on('data', (d) => {
                conn.stderrTail = (conn.stderrTail + d.toString('utf8')).slice(-2000);
            });
        }
        // notifications/tools/list_changed: the next listing (the next turn's model activity) asks again.
        client.setNotificationHandler(types_js_1.ToolListChangedNotificationSchema, () => {
            conn.tools = undefined;
            this.listChanges++;
        });
        client.onclose = () => {
            conn.closed = true;
            conn.closeReason ??= 'the connection closed';
            this.drop(conn);
        };
        client.onerror = (err) => {
            if (/exit|closed/i.test(err.message))
                conn.closeReason ??= err.message;
        };
        this.started++;
        let timer;
        try {
            await Promise.race([
                client.connect(transport, { timeout: this.startupTimeoutMs }),
                new Promise((_, reject) => {
                    timer = setTimeout(() => reject(new Error(`did not start within ${this.startupTimeoutMs} ms`)), this.startupTimeoutMs);
                }),
            ]);
        }
        catch (err) {
            conn.closed = true;
            await client.close().catch(() => undefined);
            const target = (0, config_1.isRemoteMcpServer)(expanded)
                ? expanded.url
                : [expanded.command, ...(expanded.args ?? [])].join(' ');
            throw new McpUnavailableError(`MCP server ${server} failed to start (${target}): ${err instanceof Error ? err.message : String(err)}${this.stderrNote(conn)}`);
        }
        finally {
            if (timer)
                clearTimeout(timer);
        }
        return conn;
    }
}
exports.McpManager = McpManager;
//# sourceMappingURL=manager.js.map