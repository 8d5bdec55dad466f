// The reference's own state file, `~/.claude.json` (`$CLAUDE_CONFIG_DIR/.claude.json` when that is
// set): where `claude mcp add` keeps user-scope servers (top-level `mcpServers`) and local-scope
// servers (`projects[<project>].mcpServers`, the project being the git root of the working
// directory, else the directory). Only those two keys are read; the rest of the file (history,
// onboarding state, caches) is the reference's business and is left alone.
import { existsSync, statSync } from 'node:fs';
import { readConfigFileSync } from '../permissions/configRead';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { McpConfigError, parseMcpServers, type McpServers } from './servers';
import { parseConfigJson } from '../core/jsonPosition';

/** Where the reference keeps `.claude.json`. */
export function claudeJsonPath(env: Record<string, string | undefined> = process.env): string {
  const dir = env.CLAUDE_CONFIG_DIR ? resolve(env.CLAUDE_CONFIG_DIR) : homedir();
  return join(dir, '.claude.json');
}

/** The key of a project in `.claude.json`: the git root holding `cwd`, else `cwd` itself. */
export function claudeJsonProjectKey(cwd: string): string {
  let dir = resolve(cwd);
  for (;;) {
    if (existsSync(join(dir, '.git'))) return dir.normalize('NFC');
    const up = dirname(dir);
    if (up === dir) return resolve(cwd).normalize('NFC');
    dir = up;
  }
}

export interface ClaudeJsonServers {
  path: string;
  /** Top-level `mcpServers` (user scope). */
  user: McpServers;
  /** `projects[<project>].mcpServers` (local scope). */
  local: McpServers;
}

/**
 * The user- and local-scope servers of `.claude.json` (undefined when the file is absent). A file
 * that is not JSON, or a malformed server, is an McpConfigError naming the file and the key.
 */
export function readClaudeJsonServers(path: string, cwd: string): ClaudeJsonServers | undefined {
  if (!existsSync(path) || !statSync(path).isFile()) return undefined;
  // The user's own file, read as itself; a link from it to another credential file is not followed (src/permissions/configRead.ts).
  const read = readConfigFileSync(path);
  if ('missing' in read) return undefined;
  if ('refused' in read) throw new McpConfigError(`${path}: not read: ${read.refused}`);
  const parsed: unknown = parseConfigJson(path, read.text, (m) => new McpConfigError(m));
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new McpConfigError(`${path} must hold a JSON object`);
  const top = parsed as { mcpServers?: unknown; projects?: unknown };
  const user = top.mcpServers === undefined ? {} : parseMcpServers(top.mcpServers, path);
  const key = claudeJsonProjectKey(cwd);
  const projects =
    top.projects && typeof top.projects === 'object' && !Array.isArray(top.projects)
      ? (top.projects as Record<string, unknown>)
      : {};
  const project = projects[key] as { mcpServers?: unknown } | undefined;
  const local =
    project && typeof project === 'object' && project.mcpServers !== undefined
      ? parseMcpServers(project.mcpServers, path, `projects["${key}"].mcpServers`)
      : {};
  return { path, user, local };
}
