// MCP servers: configuration (pure), names and rules (pure), the worker's connections, tools.
export * from './config';
export * from './names';
export * from './claudeJson';
export {
  McpManager,
  McpUnavailableError,
  type McpManagerOptions,
  type McpToolInfo,
  type McpCallResult,
  type McpContent,
} from './manager';
export { mcpTool, mcpToolsFor, mcpResultBlock, unavailableMcpTool, type McpToolsResult } from './tools';
export { mcpContentBlocks, mcpReferenceContent, MCP_IMAGE_MAX_CHARS, type McpToolOutput } from './content';
export {
  endMcpSessions,
  mcpSessionScope,
  sessionBound,
  type McpSessionListing,
  type McpSessionScope,
} from './sandboxed';
