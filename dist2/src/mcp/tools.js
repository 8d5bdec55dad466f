"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.mcpResultBlock = mcpResultBlock;
exports.mcpTool = mcpTool;
exports.unavailableMcpTool = unavailableMcpTool;
exports.mcpToolsFor = mcpToolsFor;
// MCP tools as durable-agent tools: the name `mcp__<server>__<tool>`, the server's JSON Schema as
// both the API input_schema and the validator, safety from the annotations, results mapped to a
// tool_result (is_error from the server's isError). Every call goes through the one pipeline.
const zod_1 = require("zod");
const ajv_provider_js_1 = require("@modelcontextprotocol/sdk/validation/ajv-provider.js");
const Tool_1 = require("../tools/Tool");
const names_1 = require("./names");
const manager_1 = require("./manager");
const content_1 = require("./content");
const validators = new ajv_provider_js_1.AjvJsonSchemaValidator();
function mcpResultBlock(data, toolUseId, server = data.server ?? 'mcp') {
    const content = (0, content_1.mcpReferenceContent)(data, server);
    if (data.isError === true) {
        // The reference's error result is the text alone (its PostToolUseFailure `error` too).
        const text = typeof content === 'string' ? content : content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
        return {
            type: 'tool_result',
            tool_use_id: toolUseId,
            content: text || 'the MCP tool reported an error without text',
            is_error: true,
        };
    }
    return { type: 'tool_result', tool_use_id: toolUseId, content: content.length === 0 ? '(no content)' : content };
}
function inputSchemaOf(info) {
    const json = info.inputSchema && typeof info.inputSchema === 'object' && info.inputSchema.type === 'object'
        ? info.inputSchema
        : { type: 'object', properties: {} };
    let validate;
    try {
        validate = validators.getValidator(json);
    }
    catch (e) {
        const msg = e.message;
        validate = () => ({ valid: false, errorMessage: `the server's input schema does not compile: ${msg}` });
    }
    const zod = zod_1.z.record(zod_1.z.string(), zod_1.z.unknown()).superRefine((value, ctx) => {
        const r = validate(value);
        if (!r.valid)
            ctx.addIssue({ code: 'custom', message: r.errorMessage ?? 'does not match the input schema' });
    });
    return { zod, json };
}
/** A durable-agent tool for one MCP tool of one server. */
function mcpTool(site, info) {
    const name = (0, names_1.mcpToolName)(site.server, info.name);
    const { zod, json } = inputSchemaOf(info);
    const readOnly = info.annotations?.readOnlyHint === true;
    const idempotent = readOnly || info.annotations?.idempotentHint === true;
    return (0, Tool_1.buildTool)({
        name,
        inputSchema: zod,
        inputJSONSchema: json,
        prompt: () => info.description ?? `${info.name} (MCP server ${site.server})`,
        // With tool search on, every MCP tool is offered by name and loaded through ToolSearch (as the reference).
        shouldDefer: true,
        isReadOnly: () => readOnly,
        isConcurrencySafe: () => readOnly,
        isIdempotent: () => idempotent,
        async call(input, ctx) {
            const r = await site.manager.callTool(site.server, site.config, site.cwd, info.name, input, ctx.abortSignal);
            return { data: { ...r, server: site.server } };
        },
        mapToolResultToToolResultBlockParam: (data, id) => mcpResultBlock(data, id, site.server),
    });
}
/** A stand-in for the tools of a server that is not there: every call is an is_error result saying why. */
function unavailableMcpTool(name, server, reason) {
    return (0, Tool_1.buildTool)({
        name,
        inputSchema: zod_1.z.record(zod_1.z.string(), zod_1.z.unknown()),
        prompt: () => `MCP server ${server} is unavailable`,
        async call() {
            return {
                data: {
                    content: [{ type: 'text', text: `MCP server ${server} is unavailable: ${reason}` }],
                    isError: true,
                    server,
                },
            };
        },
        mapToolResultToToolResultBlockParam: (data, id) => mcpResultBlock(data, id, server),
    });
}
/**
 * The tools of a session's servers, listed through the manager (servers start on first use).
 * A server that fails contributes no tools and a failure; with `wanted` (a tool name the model
 * asked for), a failed server's tool is a stand-in that answers with the failure.
 */
async function mcpToolsFor(manager, servers, cwd, wanted) {
    const names = Object.keys(servers);
    const only = wanted !== undefined ? (0, names_1.mcpServerOf)(wanted, names)?.server : undefined;
    if (wanted !== undefined && only === undefined)
        return { tools: [], failures: [] };
    const tools = [];
    const failures = [];
    await Promise.all(names
        .filter((s) => only === undefined || s === only)
        .map(async (server) => {
        const site = { manager, server, config: servers[server], cwd };
        try {
            // Listing for the model (no tool wanted) does not wait again for a server that failed to start.
            const infos = await manager.listTools(server, site.config, cwd, wanted === undefined);
            for (const info of infos)
                tools.push(mcpTool(site, info));
        }
        catch (e) {
            const error = e instanceof manager_1.McpUnavailableError ? e.message : `MCP server ${server}: ${e.message}`;
            failures.push({ server, error });
            if (wanted !== undefined)
                tools.push(unavailableMcpTool(wanted, server, error));
        }
    }));
    // Stable order: by server as configured, then as listed.
    const order = new Map(names.map((n, i) => [n, i]));
    tools.sort((a, b) => (order.get((0, names_1.mcpServerOf)(a.name, names)?.server ?? '') ?? 0) -
        (order.get((0, names_1.mcpServerOf)(b.name, names)?.server ?? '') ?? 0));
    return { tools, failures };
}
//# sourceMappingURL=tools.js.map