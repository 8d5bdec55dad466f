import { type McpServers } from './config';
/** Where the reference keeps `.claude.json`. */
export declare function claudeJsonPath(env?: Record<string, string | undefined>): string;
/** The key of a project in `.claude.json`: the git root holding `cwd`, else `cwd` itself. */
export declare function claudeJsonProjectKey(cwd: string): string;
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
export declare function readClaudeJsonServers(path: string, cwd: string): ClaudeJsonServers | undefined;
