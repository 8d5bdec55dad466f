"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.readMcpConfigArgs = readMcpConfigArgs;
// `run --mcp-config <file or JSON>` (repeatable) and `--strict-mcp-config`: the reference's flags
// for servers given on the command line (its "dynamic" scope: no approval needed, and they win over
// every file's server of the same name). The value is a JSON file `{ "mcpServers": { … } }`, or that
// JSON itself when it starts with `{`.
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const config_1 = require("./config");
/** Reads the `--mcp-config` values in order (a later one wins for a name). Throws McpConfigError naming the value. */
function readMcpConfigArgs(values, cwd) {
    const out = { servers: {}, origins: {} };
    for (const value of values) {
        const inline = value.trim().startsWith('{');
        const path = inline ? undefined : (0, node_path_1.resolve)(cwd, value);
        const source = inline ? '--mcp-config <json>' : `--mcp-config ${path}`;
        let text;
        if (path) {
            if (!(0, node_fs_1.existsSync)(path))
                throw new config_1.McpConfigError(`${source}: no such file`);
            text = (0, node_fs_1.readFileSync)(path, 'utf8');
        }
        else
            text = value;
        let parsed;
        try {
            parsed = JSON.parse(text);
        }
        catch (err) {
            throw new config_1.McpConfigError(`${source} is not valid JSON: ${err.message}`);
        }
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
            throw new config_1.McpConfigError(`${source} must hold a JSON object { "mcpServers": { … } }`);
        for (const k of Object.keys(parsed))
            if (k !== 'mcpServers')
                throw new config_1.McpConfigError(`${source}: ${k} is not a key of an MCP config (only mcpServers)`);
        const servers = (0, config_1.parseMcpServers)(parsed.mcpServers ?? {}, source);
        for (const [name, server] of Object.entries(servers)) {
            out.servers[name] = server;
            out.origins[name] = source;
        }
    }
    return out;
}
//# sourceMappingURL=cliConfig.js.map