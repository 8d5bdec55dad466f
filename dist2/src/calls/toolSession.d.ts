import type { HooksConfig } from '../hooks';
import type { McpServers } from '../mcp/config';
import type { ToolPermissionContext } from '../tools/permissionTypes';
import type { ResultStore } from '../tools/Tool';
import type { SessionMcp, ToolSessionSettings } from './tools';
export declare function sessionMcp(session: ToolSessionSettings, wanted?: string): SessionMcp | undefined;
/** The session's hooks followed by the worker's own (library users add them programmatically), per event. */
export declare function withWorkerHooks(worker: HooksConfig | undefined, session?: HooksConfig): HooksConfig | undefined;
/**
 * The permission context a session's tool calls see: its result directory counts as a working
 * directory (see withResultDirectory), a session whose input says nothing about the sandbox
 * gets the default sandbox settings (`{}`: Bash sandboxed where the platform supports it), and
 * the files its command hooks and its stdio MCP servers run are protected paths (`controlFiles`,
 * from the hooks of the session's settings, resolved against the session's cwd and the project
 * root, and from the servers' command lines, resolved where the worker starts them).
 */
export declare function sessionPermission(permission: ToolPermissionContext, store: ResultStore, hooks?: HooksConfig, cwd?: string, mcpServers?: McpServers): ToolPermissionContext;
/**
 * The session's background task outputs (Bash `run_in_background`) are files the model is told to
 * Read: their directory on this worker counts as a working directory, as the result directory does.
 */
export declare function withTaskDirectory(permission: ToolPermissionContext, sessionId: string): ToolPermissionContext;
/**
 * Large results are stored outside the working directory and the model is told to Read them:
 * the session's own result directory counts as a working directory, so that Read never asks.
 */
export declare function withResultDirectory(permission: ToolPermissionContext, store: ResultStore): ToolPermissionContext;
