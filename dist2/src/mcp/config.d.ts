import { DurableAgentError } from '../engine/errors';
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
export declare function isRemoteMcpServer(server: McpServerConfig): server is McpHttpServer;
export type McpServers = Record<string, McpServerConfig>;
/** One entry of `allowedMcpServers` / `deniedMcpServers`: a server by name, by command line, or by URL (`*` wildcards). */
export type McpServerMatcher = {
    serverName: string;
} | {
    serverCommand: string[];
} | {
    serverUrl: string;
};
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
export declare function mcpServerMatches(m: McpServerMatcher, name: string, server: McpServerConfig): boolean;
export declare class McpConfigError extends DurableAgentError {
    constructor(message: string);
}
/**
 * Validates an `mcpServers` object from `source` (a file path, for messages). Throws
 * McpConfigError naming the file and the key of the first problem. Server names are free text as
 * in the reference (`my.server` is fine: its tools are `mcp__my_server__…`); `alwaysLoad` is
 * accepted and has no effect (every server's tools are always loaded here).
 */
export declare function parseMcpServers(raw: unknown, source: string, key?: string): McpServers;
/** Expands `${VAR}` and `${VAR:-default}` in one string; names the variables it could not expand. */
export declare function expandEnvString(s: string, env: Record<string, string | undefined>, missing: string[]): string;
/**
 * A server with its environment variables expanded, as the reference does: in `command`, `args`,
 * `env` (values), `url` and `headers` (values). Throws McpConfigError naming the server and the
 * variables that are unset and have no default.
 */
export declare function expandMcpServer(name: string, server: McpServerConfig, env: Record<string, string | undefined>): McpServerConfig;
export declare function projectMcpJsonPath(cwd: string): string;
/**
 * The project scope as the reference reads it: `.mcp.json` in the working directory and in each of
 * its parents (the filesystem root excepted), merged from the top down — the file closest to the
 * working directory wins for a name. Undefined when there is none. `origins`: each server's file.
 */
export declare function readProjectMcpJson(cwd: string): {
    path: string;
    servers: McpServers;
    origins: Record<string, string>;
} | undefined;
/** Validates the approval keys of one settings file (throws McpConfigError naming file and key). */
export declare function parseMcpApproval(raw: Record<string, unknown>, source: string): McpApproval;
export interface ResolvedMcpServers {
    servers: McpServers;
    /** Where each server came from (`<file>`), for `status`/`run` and messages. */
    origins: Record<string, string>;
    /** Servers of `.mcp.json` left out, and variables the loader's environment lacks: show them. */
    warnings: string[];
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
export declare function resolveMcpServers(opts: {
    cwd: string;
    settingsServers?: McpServers;
    settingsOrigin?: Record<string, string>;
    approval?: McpApproval;
    env?: Record<string, string | undefined>;
    claudeJson?: string;
    /** `run --mcp-config` servers: they win over every other; with `strict`, they are the only ones. */
    cli?: {
        servers: McpServers;
        origins: Record<string, string>;
        strict?: boolean;
    };
}): ResolvedMcpServers;
/** The MCP part of the merged settings files. */
export interface McpSettings {
    servers: McpServers;
    /** The file each server came from. */
    origins: Record<string, string>;
    approval: McpApproval;
}
/** The settings keys this module reads (the settings loader hands them over). */
export declare const MCP_SETTINGS_KEYS: readonly string[];
/**
 * Merges one settings file's MCP keys into `acc` (files in precedence order, lowest first):
 * servers by name (a later file replaces a server of the same name), `enableAllProjectMcpServers`
 * overridden, the two lists concatenated. Throws McpConfigError naming the file and the key.
 */
export declare function mergeMcpSettings(acc: McpSettings | undefined, raw: Record<string, unknown>, path: string): McpSettings | undefined;
