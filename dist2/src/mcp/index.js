"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __exportStar = (this && this.__exportStar) || function(m, exports) {
    for (var p in m) if (p !== "default" && !Object.prototype.hasOwnProperty.call(exports, p)) __createBinding(exports, m, p);
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.MCP_IMAGE_MAX_CHARS = exports.mcpReferenceContent = exports.mcpContentBlocks = exports.unavailableMcpTool = exports.mcpResultBlock = exports.mcpToolsFor = exports.mcpTool = exports.McpUnavailableError = exports.McpManager = void 0;
// MCP servers: configuration (pure), names and rules (pure), the worker's connections, tools.
__exportStar(require("./config"), exports);
__exportStar(require("./names"), exports);
__exportStar(require("./claudeJson"), exports);
var manager_1 = require("./manager");
Object.defineProperty(exports, "McpManager", { enumerable: true, get: function () { return manager_1.McpManager; } });
Object.defineProperty(exports, "McpUnavailableError", { enumerable: true, get: function () { return manager_1.McpUnavailableError; } });
var tools_1 = require("./tools");
Object.defineProperty(exports, "mcpTool", { enumerable: true, get: function () { return tools_1.mcpTool; } });
Object.defineProperty(exports, "mcpToolsFor", { enumerable: true, get: function () { return tools_1.mcpToolsFor; } });
Object.defineProperty(exports, "mcpResultBlock", { enumerable: true, get: function () { return tools_1.mcpResultBlock; } });
Object.defineProperty(exports, "unavailableMcpTool", { enumerable: true, get: function () { return tools_1.unavailableMcpTool; } });
var content_1 = require("./content");
Object.defineProperty(exports, "mcpContentBlocks", { enumerable: true, get: function () { return content_1.mcpContentBlocks; } });
Object.defineProperty(exports, "mcpReferenceContent", { enumerable: true, get: function () { return content_1.mcpReferenceContent; } });
Object.defineProperty(exports, "MCP_IMAGE_MAX_CHARS", { enumerable: true, get: function () { return content_1.MCP_IMAGE_MAX_CHARS; } });
//# sourceMappingURL=index.js.map