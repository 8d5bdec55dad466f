import { type AnyTool } from '../tools/Tool';
import type { ToolResultBlockParam } from '../engine/messages';
import { type McpManager, type McpToolInfo } from './manager';
import type { McpServers } from './config';
import { type McpToolOutput } from './content';
export type { McpToolOutput } from './content';
export declare function mcpResultBlock(data: McpToolOutput, toolUseId: string, server?: string): ToolResultBlockParam;
/** Where a tool's server lives, for one session: the manager, the config and the session's cwd. */
export interface McpToolSite {
    manager: McpManager;
    server: string;
    config: McpServers[string];
    cwd: string;
}
/** A durable-agent tool for one MCP tool of one server. */
export declare function mcpTool(site: McpToolSite, info: McpToolInfo): AnyTool;
/** A stand-in for the tools of a server that is not there: every call is an is_error result saying why. */
export declare function unavailableMcpTool(name: string, server: string, reason: string): AnyTool;
export interface McpToolsResult {
    tools: AnyTool[];
    /** Servers that could not be listed, with the reason (the model is not offered their tools). */
    failures: Array<{
        server: string;
        error: string;
    }>;
}
/**
 * The tools of a session's servers, listed through the manager (servers start on first use).
 * A server that fails contributes no tools and a failure; with `wanted` (a tool name the model
 * asked for), a failed server's tool is a stand-in that answers with the failure.
 */
export declare function mcpToolsFor(manager: McpManager, servers: McpServers, cwd: string, wanted?: string): Promise<McpToolsResult>;
