// An MCP server's configuration in the reference's format: its shapes (stdio, http), the matchers
// that name servers in settings, and the parsing of a `mcpServers` object (loud: McpConfigError).
import { DurableAgentError } from '../core/errors';

export interface McpStdioServer {
  type?: 'stdio';
  command: string;
  args?: string[];
  env?: Record<string, string>;
  /** Per-server tool call timeout in ms (the reference's key; from 1000 up, else MCP_TOOL_TIMEOUT). */
  timeout?: number;
  /**
   * Set at the session's start, never read from a file (src/mcp/pins.ts): the files from the
   * working directories this server runs, path → fingerprint. The worker starts the server only
   * while every one is unchanged.
   */
  pinnedFiles?: Record<string, string>;
  projectScope?: McpProjectScope;
}

/**
 * Set at the edge (src/mcp/config.ts `resolveMcpServers`), never read from a file: the server's
 * configuration lies in a file a session or a cloned repository can write — a `.mcp.json`, a
 * project's or local settings file, a `--mcp-config` file inside the working directory. The worker
 * expands `${VAR}` in it only for the variables a Bash command gets (the allowlist, and `passEnv`:
 * the `sandbox.passEnv` of the person's own settings files), never a worker credential
 * (docs/security.md "MCP configuration a project can write").
 */
export interface McpProjectScope {
  /** `sandbox.passEnv` entries of the user's and managed settings (never a project's or local file). */
  passEnv: string[];
}

/** A remote server: streamable HTTP (`http`, alias `streamable-http`) or the legacy HTTP+SSE transport (`sse`). */
export interface McpHttpServer {
  type: 'http' | 'sse';
  url: string;
  headers?: Record<string, string>;
  timeout?: number;
  projectScope?: McpProjectScope;
}

export type McpServerConfig = McpStdioServer | McpHttpServer;

/** Is the server reached over the network (http or sse) rather than started as a process? */
export function isRemoteMcpServer(server: McpServerConfig): server is McpHttpServer {
  return server.type === 'http' || server.type === 'sse';
}
export type McpServers = Record<string, McpServerConfig>;

/** One entry of `allowedMcpServers` / `deniedMcpServers`: a server by name, by command line, or by URL (`*` wildcards). */
export type McpServerMatcher = { serverName: string } | { serverCommand: string[] } | { serverUrl: string };

/** The reference's approval settings for `.mcp.json` servers, and its server allow/deny lists. */
export interface McpApproval {
  enableAllProjectMcpServers?: boolean;
  enabledMcpjsonServers?: string[];
  disabledMcpjsonServers?: string[];
  /** When present (even empty), only matching servers start. */
  allowedMcpServers?: McpServerMatcher[];
  /** Matching servers never start (wins over everything). */
  deniedMcpServers?: McpServerMatcher[];
}

/** Does a matcher name this server? */
export function mcpServerMatches(m: McpServerMatcher, name: string, server: McpServerConfig): boolean {
  if ('serverName' in m) return m.serverName === name;
  if ('serverCommand' in m) {
    if (isRemoteMcpServer(server)) return false;
    const line = [server.command, ...(server.args ?? [])];
    return line.length === m.serverCommand.length && line.every((w, i) => w === m.serverCommand[i]);
  }
  if (!isRemoteMcpServer(server)) return false;
  const re = new RegExp(
    `^${m.serverUrl
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return re.test(server.url);
}

export function parseMatchers(v: unknown, at: string): McpServerMatcher[] {
  if (!Array.isArray(v))
    throw new McpConfigError(`${at} must be a list of { serverName } / { serverCommand } / { serverUrl } entries`);
  return v.map((e, i) => {
    const keys = e && typeof e === 'object' && !Array.isArray(e) ? Object.keys(e) : [];
    const o = e as Record<string, unknown>;
    if (keys.length === 1 && keys[0] === 'serverName' && typeof o.serverName === 'string')
      return { serverName: o.serverName };
    if (keys.length === 1 && keys[0] === 'serverUrl' && typeof o.serverUrl === 'string')
      return { serverUrl: o.serverUrl };
    if (
      keys.length === 1 &&
      keys[0] === 'serverCommand' &&
      Array.isArray(o.serverCommand) &&
      o.serverCommand.length > 0 &&
      o.serverCommand.every((w) => typeof w === 'string')
    ) {
      return { serverCommand: o.serverCommand as string[] };
    }
    throw new McpConfigError(
      `${at}[${i}] must be exactly one of { "serverName": string }, { "serverCommand": [strings] }, { "serverUrl": string }`,
    );
  });
}

export class McpConfigError extends DurableAgentError {
  constructor(message: string) {
    super('MCP_CONFIG', message);
  }
}

const STDIO_KEYS = new Set(['type', 'command', 'args', 'env', 'timeout', 'alwaysLoad']);
const HTTP_KEYS = new Set(['type', 'url', 'headers', 'timeout', 'alwaysLoad']);
/** Keys of the reference's server config that durable-agent does not implement: an error, never ignored. */
const UNSUPPORTED_KEYS: Record<string, string> = {
  headersHelper: 'put the headers in "headers" (with ${VAR} expansion) instead',
  oauth: 'OAuth sign-in needs a person at a browser; pass a token in "headers" instead',
  tools: 'per-tool permission policies: use permissions rules (allow/ask/deny "mcp__<server>__<tool>") instead',
  toolPermissions: 'use permissions rules (allow/ask/deny "mcp__<server>__<tool>") instead',
  role: 'server roles are not supported',
  workspaceFolder: 'not supported',
};

function isStringMap(v: unknown): v is Record<string, string> {
  return !!v && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');
}

function checkKeys(v: Record<string, unknown>, allowed: Set<string>, at: string, what: string): void {
  for (const k of Object.keys(v)) {
    if (allowed.has(k)) continue;
    const why = UNSUPPORTED_KEYS[k];
    if (why) throw new McpConfigError(`${at}.${k} is a Claude Code key that durable-agent does not support (${why})`);
    throw new McpConfigError(`${at}.${k} is not a key of ${what} (${[...allowed].join(', ')})`);
  }
  if (v.timeout !== undefined && !(typeof v.timeout === 'number' && Number.isInteger(v.timeout) && v.timeout > 0)) {
    throw new McpConfigError(`${at}.timeout must be a positive whole number of milliseconds`);
  }
  if (v.alwaysLoad !== undefined && typeof v.alwaysLoad !== 'boolean')
    throw new McpConfigError(`${at}.alwaysLoad must be true or false`);
}

/**
 * Validates an `mcpServers` object from `source` (a file path, for messages). Throws
 * McpConfigError naming the file and the key of the first problem. Server names are free text as
 * in the reference (`my.server` is fine: its tools are `mcp__my_server__…`); `alwaysLoad` is
 * accepted and has no effect (every server's tools are always loaded here).
 */
export function parseMcpServers(raw: unknown, source: string, key = 'mcpServers'): McpServers {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new McpConfigError(`${source}: ${key} must be an object of servers`);
  const out: McpServers = {};
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    const at = `${source}: ${key}.${name}`;
    if (name.trim() === '') throw new McpConfigError(`${source}: ${key} has a server with an empty name`);
    if (!value || typeof value !== 'object' || Array.isArray(value))
      throw new McpConfigError(`${at} must be an object`);
    const v = value as Record<string, unknown>;
    const type = v.type ?? 'stdio';
    const timeout = typeof v.timeout === 'number' ? { timeout: v.timeout } : {};
    if (type === 'stdio') {
      checkKeys(v, STDIO_KEYS, at, 'a stdio server');
      if (typeof v.command !== 'string' || v.command === '')
        throw new McpConfigError(`${at}.command must be a non-empty string`);
      if (v.args !== undefined && (!Array.isArray(v.args) || v.args.some((a) => typeof a !== 'string')))
        throw new McpConfigError(`${at}.args must be a list of strings`);
      if (v.env !== undefined && !isStringMap(v.env))
        throw new McpConfigError(`${at}.env must be an object of strings`);
      out[name] = {
        ...(v.type ? { type: 'stdio' } : {}),
        command: v.command,
        ...(v.args ? { args: v.args as string[] } : {}),
        ...(v.env ? { env: v.env } : {}),
        ...timeout,
      };
    } else if (type === 'http' || type === 'streamable-http' || type === 'sse') {
      checkKeys(v, HTTP_KEYS, at, `an ${type} server`);
      if (typeof v.url !== 'string' || v.url === '') throw new McpConfigError(`${at}.url must be a non-empty string`);
      if (v.headers !== undefined && !isStringMap(v.headers))
        throw new McpConfigError(`${at}.headers must be an object of strings`);
      out[name] = {
        type: type === 'sse' ? 'sse' : 'http',
        url: v.url,
        ...(v.headers ? { headers: v.headers } : {}),
        ...timeout,
      };
    } else if (type === 'ws') {
      throw new McpConfigError(
        `${at}.type "ws" is not supported by durable-agent (stdio, http, streamable-http and sse only)`,
      );
    } else {
      throw new McpConfigError(
        `${at}.type must be "stdio", "http", "streamable-http" or "sse" (got ${JSON.stringify(type)})`,
      );
    }
  }
  return out;
}
