// MCP server configuration in the reference's format: `.mcp.json` (project scope, `{ "mcpServers":
// { name: server } }`) and `mcpServers` in settings files. Pure parsing and validation plus one
// loader for the project file; the settings loader (src/cli/settings.ts) calls these.
//
// Loud configuration (invariant 12): a malformed entry or an unsupported key is an error naming
// the file and the key. Environment expansion (`${VAR}`, `${VAR:-default}`) happens where the
// server is started (the worker, expandMcpServer), so secrets never enter workflow history; the
// loader reports variables its own environment lacks.
import { DurableAgentError } from '../engine/errors';
import { readConfigFileSync } from '../permissions/configRead';
import { dirname, join, parse, resolve } from 'node:path';
import { normalizeMcpName } from './names';
import { readClaudeJsonServers } from './claudeJson';
import { parseConfigJson } from '../engine/jsonPosition';

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
}

/** A remote server: streamable HTTP (`http`, alias `streamable-http`) or the legacy HTTP+SSE transport (`sse`). */
export interface McpHttpServer {
  type: 'http' | 'sse';
  url: string;
  headers?: Record<string, string>;
  timeout?: number;
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

function parseMatchers(v: unknown, at: string): McpServerMatcher[] {
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

const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** Expands `${VAR}` and `${VAR:-default}` in one string; names the variables it could not expand. */
export function expandEnvString(s: string, env: Record<string, string | undefined>, missing: string[]): string {
  return s.replace(VAR, (_m, name: string, dflt: string | undefined) => {
    const value = env[name];
    if (value !== undefined) return value;
    if (dflt !== undefined) return dflt;
    if (!missing.includes(name)) missing.push(name);
    return '';
  });
}

/**
 * A server with its environment variables expanded, as the reference does: in `command`, `args`,
 * `env` (values), `url` and `headers` (values). Throws McpConfigError naming the server and the
 * variables that are unset and have no default.
 */
export function expandMcpServer(
  name: string,
  server: McpServerConfig,
  env: Record<string, string | undefined>,
): McpServerConfig {
  const missing: string[] = [];
  const x = (s: string) => expandEnvString(s, env, missing);
  const xMap = (m: Record<string, string> | undefined) =>
    m ? Object.fromEntries(Object.entries(m).map(([k, v]) => [k, x(v)])) : undefined;
  let out: McpServerConfig;
  if (isRemoteMcpServer(server)) {
    const headers = xMap(server.headers);
    out = { ...server, url: x(server.url), ...(headers ? { headers } : {}) };
  } else {
    const e = xMap(server.env);
    out = {
      ...server,
      command: x(server.command),
      ...(server.args ? { args: server.args.map(x) } : {}),
      ...(e ? { env: e } : {}),
    };
  }
  if (missing.length > 0) {
    throw new McpConfigError(
      `MCP server ${name}: missing environment variable${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (set ${missing.length > 1 ? 'them' : 'it'} or write \${VAR:-default})`,
    );
  }
  return out;
}

export function projectMcpJsonPath(cwd: string): string {
  return join(resolve(cwd), '.mcp.json');
}

/** Reads one `.mcp.json` (undefined when absent). Throws McpConfigError on a malformed file. */
function readMcpJsonFile(path: string): { path: string; servers: McpServers } | undefined {
  // It must lie inside the directory it configures (src/permissions/configRead.ts): its servers run outside the sandbox.
  const read = readConfigFileSync(path, { within: [dirname(path)] });
  if ('missing' in read) return undefined;
  if ('refused' in read) throw new McpConfigError(`${path}: not read: ${read.refused}`);
  const parsed: unknown = parseConfigJson(path, read.text, (m) => new McpConfigError(m));
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new McpConfigError(`${path} must hold a JSON object`);
  for (const k of Object.keys(parsed))
    if (k !== 'mcpServers') throw new McpConfigError(`${path}: ${k} is not a key of .mcp.json (only mcpServers)`);
  const raw = (parsed as { mcpServers?: unknown }).mcpServers;
  return { path, servers: raw === undefined ? {} : parseMcpServers(raw, path) };
}

/**
 * The project scope as the reference reads it: `.mcp.json` in the working directory and in each of
 * its parents (the filesystem root excepted), merged from the top down — the file closest to the
 * working directory wins for a name. Undefined when there is none. `origins`: each server's file.
 */
export function readProjectMcpJson(
  cwd: string,
): { path: string; servers: McpServers; origins: Record<string, string> } | undefined {
  const dirs: string[] = [];
  for (let d = resolve(cwd); d !== parse(d).root; d = dirname(d)) dirs.push(d);
  let found: { path: string; servers: McpServers; origins: Record<string, string> } | undefined;
  for (const d of dirs.reverse()) {
    const file = readMcpJsonFile(join(d, '.mcp.json'));
    if (!file) continue;
    found ??= { path: file.path, servers: {}, origins: {} };
    found.path = file.path;
    for (const [name, server] of Object.entries(file.servers)) {
      delete found.servers[name];
      found.servers[name] = server;
      found.origins[name] = file.path;
    }
  }
  return found;
}

/** Validates the approval keys of one settings file (throws McpConfigError naming file and key). */
export function parseMcpApproval(raw: Record<string, unknown>, source: string): McpApproval {
  const out: McpApproval = {};
  if (raw.enableAllProjectMcpServers !== undefined) {
    if (typeof raw.enableAllProjectMcpServers !== 'boolean')
      throw new McpConfigError(`${source}: enableAllProjectMcpServers must be true or false`);
    out.enableAllProjectMcpServers = raw.enableAllProjectMcpServers;
  }
  for (const key of ['enabledMcpjsonServers', 'disabledMcpjsonServers'] as const) {
    const v = raw[key];
    if (v === undefined) continue;
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
      throw new McpConfigError(`${source}: ${key} must be a list of server names`);
    out[key] = v as string[];
  }
  for (const key of ['allowedMcpServers', 'deniedMcpServers'] as const) {
    if (raw[key] !== undefined) out[key] = parseMatchers(raw[key], `${source}: ${key}`);
  }
  return out;
}

export interface ResolvedMcpServers {
  servers: McpServers;
  /** Where each server came from (`<file>`), for `status`/`run` and messages. */
  origins: Record<string, string>;
  /** Servers of `.mcp.json` left out, and variables the loader's environment lacks: show them. */
  warnings: string[];
}

/** Does an approval list name the server? Names compare as the reference does: after normalisation (`my.srv` = `my_srv`). */
function listNames(list: string[] | undefined, name: string): boolean {
  return !!list?.some((n) => normalizeMcpName(n) === normalizeMcpName(name));
}

/**
 * The session's servers, by scope as in the reference (a later scope wins for a name): user
 * (`~/.claude.json` `mcpServers`), project (the servers of `.mcp.json` not disabled), local
 * (`~/.claude.json` `projects[<project>].mcpServers`), then the settings files' `mcpServers` (a
 * durable-agent extension: the reference does not read that key from settings files). A `.mcp.json`
 * server runs unless its name is in `disabledMcpjsonServers`: the reference's unattended mode
 * (`claude -p`) approves a server still pending approval (`enableAllProjectMcpServers`,
 * `enabledMcpjsonServers` only matter to its interactive prompt), and so does `run`.
 * `claudeJson`: the path of `.claude.json` to read (claudeJsonPath()); absent, none is read.
 */
export function resolveMcpServers(opts: {
  cwd: string;
  settingsServers?: McpServers;
  settingsOrigin?: Record<string, string>;
  approval?: McpApproval;
  env?: Record<string, string | undefined>;
  claudeJson?: string;
  /** `run --mcp-config` servers: they win over every other; with `strict`, they are the only ones. */
  cli?: { servers: McpServers; origins: Record<string, string>; strict?: boolean };
}): ResolvedMcpServers {
  const servers: McpServers = {};
  const origins: Record<string, string> = {};
  const warnings: string[] = [];
  const strict = opts.cli?.strict === true;
  const project = strict ? undefined : readProjectMcpJson(opts.cwd);
  const approval = opts.approval ?? {};
  const claude = opts.claudeJson && !strict ? readClaudeJsonServers(opts.claudeJson, opts.cwd) : undefined;
  const put = (name: string, server: McpServerConfig, origin: string) => {
    // A name that normalises like an earlier one from another scope replaces it, as the same name does.
    for (const other of Object.keys(servers))
      if (other !== name && normalizeMcpName(other) === normalizeMcpName(name)) {
        delete servers[other];
        delete origins[other];
      }
    servers[name] = server;
    origins[name] = origin;
  };
  // Two names of one scope that normalise alike would give their tools the same names: an error.
  const checkScope = (scope: McpServers, origin: (name: string) => string) => {
    const seen = new Map<string, string>();
    for (const name of Object.keys(scope)) {
      const other = seen.get(normalizeMcpName(name));
      if (other !== undefined)
        throw new McpConfigError(
          `MCP servers "${other}" (${origin(other)}) and "${name}" (${origin(name)}) both name their tools mcp__${normalizeMcpName(name)}__…: rename one`,
        );
      seen.set(normalizeMcpName(name), name);
    }
  };
  if (claude) checkScope({ ...claude.user }, () => `${claude.path} mcpServers`);
  if (claude) checkScope({ ...claude.local }, () => `${claude.path} projects`);
  if (project) checkScope(project.servers, (n) => project.origins[n] ?? project.path);
  const settingsServers = strict ? {} : (opts.settingsServers ?? {});
  checkScope(settingsServers, (n) => opts.settingsOrigin?.[n] ?? 'settings');
  checkScope(opts.cli?.servers ?? {}, (n) => opts.cli?.origins[n] ?? '--mcp-config');
  for (const [name, server] of Object.entries(claude?.user ?? {})) put(name, server, claude!.path);
  if (project) {
    for (const [name, server] of Object.entries(project.servers)) {
      if (listNames(approval.disabledMcpjsonServers, name)) {
        warnings.push(`${project.origins[name]}: mcpServers.${name} is disabled (disabledMcpjsonServers); not started`);
        continue;
      }
      put(name, server, project.origins[name] ?? project.path);
    }
  }
  for (const [name, server] of Object.entries(claude?.local ?? {})) put(name, server, claude!.path);
  for (const [name, server] of Object.entries(settingsServers))
    put(name, server, opts.settingsOrigin?.[name] ?? 'settings');
  for (const [name, server] of Object.entries(opts.cli?.servers ?? {}))
    put(name, server, opts.cli?.origins[name] ?? '--mcp-config');
  // The allow/deny lists apply to every server, wherever it was configured (deny wins).
  for (const [name, server] of Object.entries(servers)) {
    if (approval.deniedMcpServers?.some((m) => mcpServerMatches(m, name, server))) {
      warnings.push(`${origins[name]}: mcpServers.${name} is blocked by deniedMcpServers; not started`);
      delete servers[name];
      delete origins[name];
    } else if (
      approval.allowedMcpServers &&
      !approval.allowedMcpServers.some((m) => mcpServerMatches(m, name, server))
    ) {
      warnings.push(`${origins[name]}: mcpServers.${name} is not in allowedMcpServers; not started`);
      delete servers[name];
      delete origins[name];
    }
  }
  for (const name of strict ? [] : [...(approval.enabledMcpjsonServers ?? [])]) {
    if (!project || !Object.keys(project.servers).some((s) => normalizeMcpName(s) === normalizeMcpName(name)))
      warnings.push(
        `enabledMcpjsonServers names ${name}, which is not a server of ${project ? 'any .mcp.json from the working directory up' : projectMcpJsonPath(opts.cwd)}`,
      );
  }
  if (opts.env) {
    for (const [name, server] of Object.entries(servers)) {
      try {
        expandMcpServer(name, server, opts.env);
      } catch (e) {
        warnings.push(`${origins[name]}: ${(e as Error).message}; the worker's environment must provide it`);
      }
    }
  }
  return { servers, origins, warnings };
}

/** The MCP part of the merged settings files. */
export interface McpSettings {
  servers: McpServers;
  /** The file each server came from. */
  origins: Record<string, string>;
  approval: McpApproval;
}

/** The settings keys this module reads (the settings loader hands them over). */
export const MCP_SETTINGS_KEYS: readonly string[] = [
  'mcpServers',
  'enableAllProjectMcpServers',
  'enabledMcpjsonServers',
  'disabledMcpjsonServers',
  'allowedMcpServers',
  'deniedMcpServers',
];

/**
 * Merges one settings file's MCP keys into `acc` (files in precedence order, lowest first):
 * servers by name (a later file replaces a server of the same name), `enableAllProjectMcpServers`
 * overridden, the two lists concatenated. Throws McpConfigError naming the file and the key.
 */
export function mergeMcpSettings(
  acc: McpSettings | undefined,
  raw: Record<string, unknown>,
  path: string,
): McpSettings | undefined {
  if (!MCP_SETTINGS_KEYS.some((k) => raw[k] !== undefined)) return acc;
  const out: McpSettings = acc
    ? { servers: { ...acc.servers }, origins: { ...acc.origins }, approval: { ...acc.approval } }
    : { servers: {}, origins: {}, approval: {} };
  if (raw.mcpServers !== undefined) {
    for (const [name, server] of Object.entries(parseMcpServers(raw.mcpServers, path))) {
      out.servers[name] = server;
      out.origins[name] = path;
    }
  }
  const a = parseMcpApproval(raw, path);
  if (a.enableAllProjectMcpServers !== undefined)
    out.approval.enableAllProjectMcpServers = a.enableAllProjectMcpServers;
  if (a.enabledMcpjsonServers)
    out.approval.enabledMcpjsonServers = [...(out.approval.enabledMcpjsonServers ?? []), ...a.enabledMcpjsonServers];
  if (a.disabledMcpjsonServers)
    out.approval.disabledMcpjsonServers = [...(out.approval.disabledMcpjsonServers ?? []), ...a.disabledMcpjsonServers];
  if (a.allowedMcpServers)
    out.approval.allowedMcpServers = [...(out.approval.allowedMcpServers ?? []), ...a.allowedMcpServers];
  if (a.deniedMcpServers)
    out.approval.deniedMcpServers = [...(out.approval.deniedMcpServers ?? []), ...a.deniedMcpServers];
  return out;
}
