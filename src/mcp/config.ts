// MCP server configuration in the reference's format: `.mcp.json` (project scope, `{ "mcpServers":
// { name: server } }`) and `mcpServers` in settings files. Pure parsing and validation plus one
// loader for the project file; the settings loader (src/cli/settings.ts) calls these.
//
// Loud configuration (invariant 12): a malformed entry or an unsupported key is an error naming
// the file and the key. Environment expansion (`${VAR}`, `${VAR:-default}`) happens where the
// server is started (the worker, expandMcpServer), so secrets never enter workflow history; the
// loader reports variables its own environment lacks.
import { readConfigFileSync } from '../permissions/configRead';
import { dirname, join, parse, resolve } from 'node:path';
import { normalizeMcpName } from './names';
import { readClaudeJsonServers } from './claudeJson';
import { parseConfigJson } from '../core/jsonPosition';
import { BASH_ENV_ALLOWLIST, WORKER_SECRET_ENV_VARS } from '../hostProcess/environment';
import {
  type McpApproval,
  McpConfigError,
  type McpProjectScope,
  type McpServerConfig,
  type McpServers,
  isRemoteMcpServer,
  mcpServerMatches,
  parseMatchers,
  parseMcpServers,
} from './servers';

export {
  isRemoteMcpServer,
  mcpServerMatches,
  McpConfigError,
  parseMcpServers,
  type McpApproval,
  type McpHttpServer,
  type McpProjectScope,
  type McpServerConfig,
  type McpServerMatcher,
  type McpServers,
  type McpStdioServer,
} from './servers';

const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Expands `${VAR}` and `${VAR:-default}` in one string; names the variables it could not expand.
 * `may`: which variables this configuration may read at all; another is named in `refused` (and
 * expands to nothing, its default included: the caller refuses the whole server).
 */
export function expandEnvString(
  s: string,
  env: Record<string, string | undefined>,
  missing: string[],
  may?: (name: string) => boolean,
  refused: string[] = [],
): string {
  return s.replace(VAR, (_m, name: string, dflt: string | undefined) => {
    if (may && !may(name)) {
      if (!refused.includes(name)) refused.push(name);
      return '';
    }
    const value = env[name];
    if (value !== undefined) return value;
    if (dflt !== undefined) return dflt;
    if (!missing.includes(name)) missing.push(name);
    return '';
  });
}

/**
 * What a server's configuration expands from the worker's environment, as a text filter: each value a
 * `${VAR}` of its command, args, env, url or headers took (three characters or more) is written back
 * as `${VAR}`. Every message about the server goes through it — a failed start quotes its command line
 * or URL, its stderr may print its own key — so that a user-scope `--api-key ${SECRET}` never reaches
 * the model or the log (red team, issue 30, O4).
 */
export function expansionRedactor(
  server: McpServerConfig,
  env: Record<string, string | undefined>,
): (text: string) => string {
  const texts = isRemoteMcpServer(server)
    ? [server.url, ...Object.values(server.headers ?? {})]
    : [server.command, ...(server.args ?? []), ...Object.values(server.env ?? {})];
  const pairs = new Map<string, string>();
  for (const t of texts)
    for (const m of t.matchAll(VAR)) {
      const v = env[m[1]!];
      if (v !== undefined && v.length >= 3) pairs.set(v, m[1]!);
    }
  const ordered = [...pairs].sort((a, b) => b[0].length - a[0].length);
  return (text) => ordered.reduce((out, [v, name]) => out.split(v).join(`\${${name}}`), text);
}

function matchesEntry(entry: string, name: string): boolean {
  return entry.endsWith('*') ? name.startsWith(entry.slice(0, -1)) : name === entry;
}

/**
 * May a server of a project's configuration (`projectScope`) read this worker variable? Only what
 * a Bash command of the session gets — the allowlist (src/hostProcess/environment.ts) and the
 * person's `sandbox.passEnv` — and never a worker credential, even one `passEnv` names: the worker
 * itself sends a remote server's URL and headers, outside the sandbox's network allowlist.
 */
export function projectMayExpand(name: string, scope: McpProjectScope): boolean {
  if (WORKER_SECRET_ENV_VARS.includes(name)) return false;
  return [...BASH_ENV_ALLOWLIST, ...scope.passEnv].some((e) => matchesEntry(e, name));
}

/** Why a project's configuration may not read these variables, for the server's error. */
function refusalOf(name: string, refused: string[]): string {
  const secrets = refused.filter((v) => WORKER_SECRET_ENV_VARS.includes(v));
  const others = refused.filter((v) => !secrets.includes(v));
  const list = (vs: string[]) => vs.map((v) => `\${${v}}`).join(', ');
  const why = [
    ...(secrets.length > 0
      ? [
          `${list(secrets)} ${secrets.length > 1 ? 'are' : 'is'} the worker's own credential${secrets.length > 1 ? 's' : ''}, which no project file receives`,
        ]
      : []),
    ...(others.length > 0
      ? [
          `${list(others)} ${others.length > 1 ? 'are' : 'is'} not among the variables a Bash command gets (the allowlist and sandbox.passEnv of your user settings)`,
        ]
      : []),
  ];
  return (
    `MCP server ${name} is not started: ${list(refused)} ${refused.length > 1 ? 'are' : 'is'} not expanded, because its configuration is in a file of the project ` +
    `(.mcp.json, the project's settings), which a session or a cloned repository can write; ${why.join('; ')}. ` +
    `Configure the server in your user scope (~/.claude.json, ~/.claude/settings.json) or with --mcp-config '<json>'` +
    (others.length > 0 ? `, or name ${others.join(', ')} in sandbox.passEnv of your user settings` : '')
  );
}

/**
 * A server with its environment variables expanded, as the reference does: in `command`, `args`,
 * `env` (values), `url` and `headers` (values). Throws McpConfigError naming the server and the
 * variables that are unset and have no default — and, for a server of a project's configuration
 * (`projectScope`), the variables it may not read (projectMayExpand) and why: it is never started
 * with an empty or literal value in their place.
 */
export function expandMcpServer(
  name: string,
  server: McpServerConfig,
  env: Record<string, string | undefined>,
): McpServerConfig {
  const missing: string[] = [];
  const refused: string[] = [];
  const scope = server.projectScope;
  const may = scope ? (v: string) => projectMayExpand(v, scope) : undefined;
  const x = (s: string) => expandEnvString(s, env, missing, may, refused);
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
  if (refused.length > 0) throw new McpConfigError(refusalOf(name, refused));
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
  // An empty file configures nothing (as an empty settings file): the sandbox keeps an empty
  // read-only placeholder at an absent `.mcp.json` while a sandboxed command runs (issue 30, J5).
  if ((read.text.charCodeAt(0) === 0xfeff ? read.text.slice(1) : read.text).trim() === '') return undefined;
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
  /**
   * `sandbox.passEnv` of the person's own settings files (EffectiveSettings.personPassEnv): what a
   * project's servers may expand besides the Bash allowlist (projectMayExpand).
   */
  personPassEnv?: readonly string[];
}): ResolvedMcpServers {
  const { ofProject, restamp } = projectStamps(opts.personPassEnv ?? []);
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
  const settingsServers = strict ? {} : restamp(opts.settingsServers);
  const cliServers = restamp(opts.cli?.servers);
  checkScope(settingsServers, (n) => opts.settingsOrigin?.[n] ?? 'settings');
  checkScope(cliServers, (n) => opts.cli?.origins[n] ?? '--mcp-config');
  for (const [name, server] of Object.entries(claude?.user ?? {})) put(name, server, claude!.path);
  if (project) {
    for (const [name, server] of Object.entries(project.servers)) {
      if (listNames(approval.disabledMcpjsonServers, name)) {
        warnings.push(`${project.origins[name]}: mcpServers.${name} is disabled (disabledMcpjsonServers); not started`);
        continue;
      }
      put(name, ofProject(server), project.origins[name] ?? project.path);
    }
  }
  for (const [name, server] of Object.entries(claude?.local ?? {})) put(name, server, claude!.path);
  for (const [name, server] of Object.entries(settingsServers))
    put(name, server, opts.settingsOrigin?.[name] ?? 'settings');
  for (const [name, server] of Object.entries(cliServers)) put(name, server, opts.cli?.origins[name] ?? '--mcp-config');
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
  if (opts.env) warnings.push(...expansionWarnings(servers, origins, opts.env));
  return { servers, origins, warnings };
}

/**
 * Every server of a file the project holds (`.mcp.json`; a project's or local settings file and a
 * `--mcp-config` file in the working directory, marked where they are read) gets `projectScope`
 * with the person's `passEnv`.
 */
function projectStamps(personPassEnv: readonly string[]): {
  ofProject: (server: McpServerConfig) => McpServerConfig;
  restamp: (scope: McpServers | undefined) => McpServers;
} {
  const ofProject = (server: McpServerConfig): McpServerConfig => ({
    ...server,
    projectScope: { passEnv: [...personPassEnv] },
  });
  const restamp = (scope: McpServers | undefined): McpServers =>
    Object.fromEntries(Object.entries(scope ?? {}).map(([n, s]) => [n, s.projectScope ? ofProject(s) : s]));
  return { ofProject, restamp };
}

/** What `run` says before the session starts: variables the loader's environment lacks, and those a project's server may not read. */
function expansionWarnings(
  servers: McpServers,
  origins: Record<string, string>,
  env: Record<string, string | undefined>,
): string[] {
  const out: string[] = [];
  for (const [name, server] of Object.entries(servers)) {
    try {
      expandMcpServer(name, server, env);
    } catch (e) {
      const msg = (e as Error).message;
      out.push(
        `${origins[name]}: ${msg}${/ is not started: /.test(msg) ? '' : "; the worker's environment must provide it"}`,
      );
    }
  }
  return out;
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
