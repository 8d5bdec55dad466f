import { type McpServerCommand } from '../permissions/protectedPaths';
import { type McpServers, type McpStdioServer } from './config';
/** The stdio servers' command lines (remote servers run nothing here). */
export declare function stdioCommands(servers: McpServers | undefined): McpServerCommand[];
/**
 * What a path is now, to compare with a pin: `absent`, a file's sha256 (and whether it is
 * executable), a directory's tree (names, kinds, file hashes; bounded), a link's target and what
 * it leads to.
 */
export declare function fileFingerprint(path: string, budget?: {
    bytes: number;
}): string;
/**
 * The files one stdio server runs from the working directories (cwd: where it is started). The
 * local copy of a package runner's package is included even when absent (a copy planted later is
 * what `npx` would run), unlike in the protected paths, where an absent one would mask `node_modules`.
 */
export declare function mcpServerFiles(server: McpStdioServer, cwd: string, dirs: readonly string[]): string[];
/**
 * The servers with the files each one runs from the working directories pinned (`pinnedFiles`:
 * path → fingerprint, absent ones included, so that a file created later is seen too). A server
 * already pinned (a subagent's, a continued session's) keeps its pins. `cwd`: where the worker
 * starts the servers (the session's first working directory).
 */
export declare function pinMcpServers(servers: McpServers, cwd: string, dirs: readonly string[]): McpServers;
/** The pinned files that are not what they were when the session started, and how. */
export declare function changedPins(pinned: Record<string, string> | undefined): Array<{
    path: string;
    change: 'created' | 'deleted' | 'modified';
}>;
/** How a pinned file changed, for messages (never its content). */
export declare function pinChange(was: string | undefined, now: string): 'created' | 'deleted' | 'modified';
