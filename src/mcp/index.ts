// MCP servers: configuration (pure), names and rules (pure), the worker's connections, tools.
export * from './config';
export * from './names';
export * from './claudeJson';
export { McpManager, McpUnavailableError, type McpManagerOptions, type McpToolInfo, type McpCallResult, type McpContent } from './manager';
export { mcpTool, mcpToolsFor, mcpResultBlock, mcpContentText, unavailableMcpTool, type McpToolOutput, type McpToolsResult } from './tools';
