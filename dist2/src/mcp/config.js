"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MCP_SETTINGS_KEYS = exports.McpConfigError = void 0;
exports.isRemoteMcpServer = isRemoteMcpServer;
exports.mcpServerMatches = mcpServerMatches;
exports.parseMcpServers = parseMcpServers;
exports.expandEnvString = expandEnvString;
exports.expandMcpServer = expandMcpServer;
exports.projectMcpJsonPath = projectMcpJsonPath;
exports.readProjectMcpJson = readProjectMcpJson;
exports.parseMcpApproval = parseMcpApproval;
exports.resolveMcpServers = resolveMcpServers;
exports.mergeMcpSettings = mergeMcpSettings;
// MCP server configuration in the reference's format: `.mcp.json` (project scope, `{ "mcpServers":
// { name: server } }`) and `mcpServers` in settings files. Pure parsing and validation plus one
// loader for the project file; the settings loader (src/cli/settings.ts) calls these.
//
// Loud configuration (invariant 12): a malformed entry or an unsupported key is an error naming
// the file and the key. Environment expansion (`${VAR}`, `${VAR:-default}`) happens where the
// server is started (the worker, expandMcpServer), so secrets never enter workflow history; the
// loader reports variables its own environment lacks.
const errors_1 = require("../engine/errors");
const configRead_1 = require("../permissions/configRead");
const node_path_1 = require("node:path");
const names_1 = require("./names");
const claudeJson_1 = require("./claudeJson");
const jsonPosition_1 = require("../engine/jsonPosition");
/** Is the server reached over the network (http or sse) rather than started as a process? */
function isRemoteMcpServer(server) {
    return server.type === 'http' || server.type === 'sse';
}
/** Does a matcher name this server? */
function mcpServerMatches(m, name, server) {
    if ('serverName' in m)
        return m.serverName === name;
    if ('serverCommand' in m) {
        if (isRemoteMcpServer(server))
            return false;
        const line = [server.command, ...(server.args ?? [])];
        return line.length === m.serverCommand.length && line.every((w, i) => w === m.serverCommand[i]);
    }
    if (!isRemoteMcpServer(server))
        return false;
    const re = new RegExp(`^${m.serverUrl
        .split('*')
        .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`);
    return re.test(server.url);
}
function parseMatchers(v, at) {
    if (!Array.isArray(v))
        throw new McpConfigError(`${at} must be a list of { serverName } / { serverCommand } / { serverUrl } entries`);
    return v.map((e, i) => {
        const keys = e && typeof e === 'object' && !Array.isArray(e) ? Object.keys(e) : [];
        const o = e;
        if (keys.length === 1 && keys[0] === 'serverName' && typeof o.serverName === 'string')
            return { serverName: o.serverName };
        if (keys.length === 1 && keys[0] === 'serverUrl' && typeof o.serverUrl === 'string')
            return { serverUrl: o.serverUrl };
        if (keys.length === 1 &&
            keys[0] === 'serverCommand' &&
            Array.isArray(o.serverCommand) &&
            o.serverCommand.length > 0 &&
            o.serverCommand.every((w) => typeof w === 'string')) {
            return { serverCommand: o.serverCommand };
        }
        throw new McpConfigError(`${at}[${i}] must be exactly one of { "serverName": string }, { "serverCommand": [strings] }, { "serverUrl": string }`);
    });
}
class McpConfigError extends errors_1.DurableAgentError {
    constructor(message) {
        super('MCP_CONFIG', message);
    }
}
exports.McpConfigError = McpConfigError;
const STDIO_KEYS = new Set(['type', 'command', 'args', 'env', 'timeout', 'alwaysLoad']);
const HTTP_KEYS = new Set(['type', 'url', 'headers', 'timeout', 'alwaysLoad']);
/** Keys of the reference's server config that durable-agent does not implement: an error, never ignored. */
const UNSUPPORTED_KEYS = {
    headersHelper: 'put the headers in "headers" (with ${VAR} expansion) instead',
    oauth: 'OAuth sign-in needs a person at a browser; pass a token in "headers" instead',
    tools: 'per-tool permission policies: use permissions rules (allow/ask/deny "mcp__<server>__<tool>") instead',
    toolPermissions: 'use permissions rules (allow/ask/deny "mcp__<server>__<tool>") instead',
    role: 'server roles are not supported',
    workspaceFolder: 'not supported',
};
function isStringMap(v) {
    return !!v && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');
}
function checkKeys(v, allowed, at, what) {
    for (const k of Object.keys(v)) {
        if (allowed.has(k))
            continue;
        const why = UNSUPPORTED_KEYS[k];
        if (why)
            throw new McpConfigError(`${at}.${k} is a Claude Code key that durable-agent does not support (${why})`);
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
function parseMcpServers(raw, source, key = 'mcpServers') {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw))
        throw new McpConfigError(`${source}: ${key} must be an object of servers`);
    const out = {};
    for (const [name, value] of Object.entries(raw)) {
        const at = `${source}: ${key}.${name}`;
        if (name.trim() === '')
            throw new McpConfigError(`${source}: ${key} has a server with an empty name`);
        if (!value || typeof value !== 'object' || Array.isArray(value))
            throw new McpConfigError(`${at} must be an object`);
        const v = value;
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
                ...(v.args ? { args: v.args } : {}),
                ...(v.env ? { env: v.env } : {}),
                ...timeout,
            };
        }
        else if (type === 'http' || type === 'streamable-http' || type === 'sse') {
            checkKeys(v, HTTP_KEYS, at, `an ${type} server`);
            if (typeof v.url !== 'string' || v.url === '')
                throw new McpConfigError(`${at}.url must be a non-empty string`);
            if (v.headers !== undefined && !isStringMap(v.headers))
                throw new McpConfigError(`${at}.headers must be an object of strings`);
            out[name] = {
                type: type === 'sse' ? 'sse' : 'http',
                url: v.url,
                ...(v.headers ? { headers: v.headers } : {}),
                ...timeout,
            };
        }
        else if (type === 'ws') {
            throw new McpConfigError(`${at}.type "ws" is not supported by durable-agent (stdio, http, streamable-http and sse only)`);
        }
        else {
            throw new McpConfigError(`${at}.type must be "stdio", "http", "streamable-http" or "sse" (got ${JSON.stringify(type)})`);
        }
    }
    return out;
}
const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;
/** Expands `${VAR}` and `${VAR:-default}` in one string; names the variables it could not expand. */
function expandEnvString(s, env, missing) {
    return s.replace(VAR, (_m, name, dflt) => {
        const value = env[name];
        if (value !== undefined)
            return value;
        if (dflt !== undefined)
            return dflt;
        if (!missing.includes(name))
            missing.push(name);
        return '';
    });
}
/**
 * A server with its environment variables expanded, as the reference does: in `command`, `args`,
 * `env` (values), `url` and `headers` (values). Throws McpConfigError naming the server and the
 * variables that are unset and have no default.
 */
function expandMcpServer(name, server, env) {
    const missing = [];
    const x = (s) => expandEnvString(s, env, missing);
    const xMap = (m) => m ? Object.fromEntries(Object.entries(m).map(([k, v]) => [k, x(v)])) : undefined;
    let out;
    if (isRemoteMcpServer(server)) {
        const headers = xMap(server.headers);
        out = { ...server, url: x(server.url), ...(headers ? { headers } : {}) };
    }
    else {
        const e = xMap(server.env);
        out = {
            ...server,
            command: x(server.command),
            ...(server.args ? { args: server.args.map(x) } : {}),
            ...(e ? { env: e } : {}),
        };
    }
    if (missing.length > 0) {
        throw new McpConfigError(`MCP server ${name}: missing environment variable${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (set ${missing.length > 1 ? 'them' : 'it'} or write \${VAR:-default})`);
    }
    return out;
}
function projectMcpJsonPath(cwd) {
    return (0, node_path_1.join)((0, node_path_1.resolve)(cwd), '.mcp.json');
}
/** Reads one `.mcp.json` (undefined when absent). Throws McpConfigError on a malformed file. */
function readMcpJsonFile(path) {
    // It must lie inside the directory it configures (src/permissions/configRead.ts): its servers run outside the sandbox.
    const read = (0, configRead_1.readConfigFileSync)(path, { within: [(0, node_path_1.dirname)(path)] });
    if ('missing' in read)
        return undefined;
    if ('refused' in read)
        throw new McpConfigError(`${path}: not read: ${read.refused}`);
    const parsed = (0, jsonPosition_1.parseConfigJson)(path, read.text, (m) => new McpConfigError(m));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
        throw new McpConfigError(`${path} must hold a JSON object`);
    for (const k of Object.keys(parsed))
        if (k !== 'mcpServers')
            throw new McpConfigError(`${path}: ${k} is not a key of .mcp.json (only mcpServers)`);
    const raw = parsed.mcpServers;
    return { path, servers: raw === undefined ? {} : parseMcpServers(raw, path) };
}
/**
 * The project scope as the reference reads it: `.mcp.json` in the working directory and in each of
 * its parents (the filesystem root excepted), merged from the top down — the file closest to the
 * working directory wins for a name. Undefined when there is none. `origins`: each server's file.
 */
function readProjectMcpJson(cwd) {
    const dirs = [];
    for (let d = (0, node_path_1.resolve)(cwd); d !== (0, node_path_1.parse)(d).root; d = (0, node_path_1.dirname)(d))
        dirs.push(d);
    let found;
    for (const d of dirs.reverse()) {
        const file = readMcpJsonFile((0, node_path_1.join)(d, '.mcp.json'));
        if (!file)
            continue;
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
function parseMcpApproval(raw, source) {
    const out = {};
    if (raw.enableAllProjectMcpServers !== undefined) {
        if (typeof raw.enableAllProjectMcpServers !== 'boolean')
            throw new McpConfigError(`${source}: enableAllProjectMcpServers must be true or false`);
        out.enableAllProjectMcpServers = raw.enableAllProjectMcpServers;
    }
    for (const key of ['enabledMcpjsonServers', 'disabledMcpjsonServers']) {
        const v = raw[key];
        if (v === undefined)
            continue;
        if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
            throw new McpConfigError(`${source}: ${key} must be a list of server names`);
        out[key] = v;
    }
    for (const key of ['allowedMcpServers', 'deniedMcpServers']) {
        if (raw[key] !== undefined)
            out[key] = parseMatchers(raw[key], `${source}: ${key}`);
    }
    return out;
}
/** Does an approval list name the server? Names compare as the reference does: after normalisation (`my.srv` = `my_srv`). */
function listNames(list, name) {
    return !!list?.some((n) => (0, names_1.normalizeMcpName)(n) === (0, names_1.normalizeMcpName)(name));
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
function resolveMcpServers(opts) {
    const servers = {};
    const origins = {};
    const warnings = [];
    const strict = opts.cli?.strict === true;
    const project = strict ? undefined : readProjectMcpJson(opts.cwd);
    const approval = opts.approval ?? {};
    const claude = opts.claudeJson && !strict ? (0, claudeJson_1.readClaudeJsonServers)(opts.claudeJson, opts.cwd) : undefined;
    const put = (name, server, origin) => {
        // A name that normalises like an earlier one from another scope replaces it, as the same name does.
        for (const other of Object.keys(servers))
            if (other !== name && (0, names_1.normalizeMcpName)(other) === (0, names_1.normalizeMcpName)(name)) {
                delete servers[other];
                delete origins[other];
            }
        servers[name] = server;
        origins[name] = origin;
    };
    // Two names of one scope that normalise alike would give their tools the same names: an error.
    const checkScope = (scope, origin) => {
        const seen = new Map();
        for (const name of Object.keys(scope)) {
            const other = seen.get((0, names_1.normalizeMcpName)(name));
            if (other !== undefined)
                throw new McpConfigError(`MCP servers "${other}" (${origin(other)}) and "${name}" (${origin(name)}) both name their tools mcp__${(0, names_1.normalizeMcpName)(name)}__…: rename one`);
            seen.set((0, names_1.normalizeMcpName)(name), name);
        }
    };
    if (claude)
        checkScope({ ...claude.user }, () => `${claude.path} mcpServers`);
    if (claude)
        checkScope({ ...claude.local }, () => `${claude.path} projects`);
    if (project)
        checkScope(project.servers, (n) => project.origins[n] ?? project.path);
    const settingsServers = strict ? {} : (opts.settingsServers ?? {});
    checkScope(settingsServers, (n) => opts.settingsOrigin?.[n] ?? 'settings');
    checkScope(opts.cli?.servers ?? {}, (n) => opts.cli?.origins[n] ?? '--mcp-config');
    for (const [name, server] of Object.entries(claude?.user ?? {}))
        put(name, server, claude.path);
    if (project) {
        for (const [name, server] of Object.entries(project.servers)) {
            if (listNames(approval.disabledMcpjsonServers, name)) {
                warnings.push(`${project.origins[name]}: mcpServers.${name} is disabled (disabledMcpjsonServers); not started`);
                continue;
            }
            put(name, server, project.origins[name] ?? project.path);
        }
    }
    for (const [name, server] of Object.entries(claude?.local ?? {}))
        put(name, server, claude.path);
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
        }
        else if (approval.allowedMcpServers &&
            !approval.allowedMcpServers.some((m) => mcpServerMatches(m, name, server))) {
            warnings.push(`${origins[name]}: mcpServers.${name} is not in allowedMcpServers; not started`);
            delete servers[name];
            delete origins[name];
        }
    }
    for (const name of strict ? [] : [...(approval.enabledMcpjsonServers ?? [])]) {
        if (!project || !Object.keys(project.servers).some((s) => (0, names_1.normalizeMcpName)(s) === (0, names_1.normalizeMcpName)(name)))
            warnings.push(`enabledMcpjsonServers names ${name}, which is not a server of ${project ? 'any .mcp.json from the working directory up' : projectMcpJsonPath(opts.cwd)}`);
    }
    if (opts.env) {
        for (const [name, server] of Object.entries(servers)) {
            try {
                expandMcpServer(name, server, opts.env);
            }
            catch (e) {
                warnings.push(`${origins[name]}: ${e.message}; the worker's environment must provide it`);
            }
        }
    }
    return { servers, origins, warnings };
}
/** The settings keys this module reads (the settings loader hands them over). */
exports.MCP_SETTINGS_KEYS = [
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
function mergeMcpSettings(acc, raw, path) {
    if (!exports.MCP_SETTINGS_KEYS.some((k) => raw[k] !== undefined))
        return acc;
    const out = acc
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
//# sourceMappingURL=config.js.map