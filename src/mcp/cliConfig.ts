// `run --mcp-config <file or JSON>` (repeatable) and `--strict-mcp-config`: the reference's flags
// for servers given on the command line (its "dynamic" scope: no approval needed, and they win over
// every file's server of the same name). The value is a JSON file `{ "mcpServers": { … } }`, or that
// JSON itself when it starts with `{`. A file inside the working directory is the project's (a
// session can write it): its servers get `projectScope` (src/mcp/config.ts).
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { relative, resolve, isAbsolute } from 'node:path';
import { McpConfigError, parseMcpServers, type McpServers } from './config';

export interface McpCliServers {
  servers: McpServers;
  /** `--mcp-config <file>` (or `--mcp-config <json>`) of each server, for messages. */
  origins: Record<string, string>;
}

/** Reads the `--mcp-config` values in order (a later one wins for a name). Throws McpConfigError naming the value. */
export function readMcpConfigArgs(values: readonly string[], cwd: string): McpCliServers {
  const out: McpCliServers = { servers: {}, origins: {} };
  for (const value of values) {
    const inline = value.trim().startsWith('{');
    const path = inline ? undefined : resolve(cwd, value);
    const source = inline ? '--mcp-config <json>' : `--mcp-config ${path}`;
    let text: string;
    if (path) {
      if (!existsSync(path)) throw new McpConfigError(`${source}: no such file`);
      text = readFileSync(path, 'utf8');
    } else text = value;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new McpConfigError(`${source} is not valid JSON: ${(err as Error).message}`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new McpConfigError(`${source} must hold a JSON object { "mcpServers": { … } }`);
    for (const k of Object.keys(parsed))
      if (k !== 'mcpServers')
        throw new McpConfigError(`${source}: ${k} is not a key of an MCP config (only mcpServers)`);
    const servers = parseMcpServers((parsed as { mcpServers?: unknown }).mcpServers ?? {}, source);
    const ofProject = path !== undefined && insideDir(path, cwd);
    for (const [name, server] of Object.entries(servers)) {
      out.servers[name] = ofProject ? { ...server, projectScope: { passEnv: [] } } : server;
      out.origins[name] = source;
    }
  }
  return out;
}

/** Does the file (through any link) lie inside the directory (through any link)? */
function insideDir(file: string, dir: string): boolean {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  const rel = relative(real(dir), real(file));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}
