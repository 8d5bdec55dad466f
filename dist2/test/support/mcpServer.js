"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
// A small real MCP server for tests, on the real SDK: `node mcpServer.js [stdio|http <port-file>]`.
// Tools: ping (read-only), pid (read-only: which process answers), wait (read-only, sleeps),
// crash (unannotated: the process exits in the middle of the call), fail (isError result),
// image (an image and a resource link), grow (adds the tool grown: tools/list_changed). Runs as a separate process like any server from npm.
const node_http_1 = require("node:http");
const node_fs_1 = require("node:fs");
const zod_1 = require("zod");
const mcp_js_1 = require("@modelcontextprotocol/sdk/server/mcp.js");
const stdio_js_1 = require("@modelcontextprotocol/sdk/server/stdio.js");
const streamableHttp_js_1 = require("@modelcontextprotocol/sdk/server/streamableHttp.js");
const RO = { readOnlyHint: true, idempotentHint: true };
function makeServer() {
    const server = new mcp_js_1.McpServer({ name: 'test-server', version: '1.0.0' });
    server.registerTool('ping', { description: 'Answers pong with the message', inputSchema: { message: zod_1.z.string() }, annotations: RO }, async ({ message }) => ({
        content: [{ type: 'text', text: `pong ${message}` }],
    }));
    server.registerTool('pid', { description: 'The process id of the server', inputSchema: {}, annotations: RO }, async () => ({
        content: [{ type: 'text', text: `pid ${process.pid}` }],
    }));
    server.registerTool('wait', { description: 'Waits ms milliseconds', inputSchema: { ms: zod_1.z.number(), tag: zod_1.z.string() }, annotations: RO }, async ({ ms, tag }) => {
        const started = Date.now();
        await new Promise((r) => setTimeout(r, ms));
        return { content: [{ type: 'text', text: `waited ${tag} ${started} ${Date.now()}` }] };
    });
    server.registerTool('crash', { description: 'Exits the server process in the middle of the call', inputSchema: {} }, async () => {
        setTimeout(() => process.exit(3), 10);
        await new Promise((r) => setTimeout(r, 10_000));
        return { content: [{ type: 'text', text: 'unreachable' }] };
    });
    server.registerTool('fail', { description: 'Returns an error result', inputSchema: {} }, async () => ({
        content: [{ type: 'text', text: 'the thing failed' }],
        isError: true,
    }));
    server.registerTool('big', { description: 'A result of n characters', inputSchema: { n: zod_1.z.number() }, annotations: RO }, async ({ n }) => ({
        content: [{ type: 'text', text: 'x'.repeat(n) }],
    }));
    server.registerTool('image', { description: 'An image and a resource link', inputSchema: {}, annotations: RO }, async () => ({
        content: [
            { type: 'image', data: Buffer.from('not really a png').toString('base64'), mimeType: 'image/png' },
            { type: 'resource_link', uri: 'file:///tmp/x.txt', name: 'x.txt', mimeType: 'text/plain' },
            { type: 'resource', resource: { uri: 'mem://note', mimeType: 'text/plain', text: 'embedded note' } },
        ],
    }));
    // grow: adds a tool while connected (the SDK sends notifications/tools/list_changed).
    server.registerTool('grow', { description: 'Adds the tool grown', inputSchema: {} }, async () => {
        if (!grown)
            grown = server.registerTool('grown', { description: 'A tool added at run time', inputSchema: {}, annotations: RO }, async () => ({ content: [{ type: 'text', text: 'grown here' }] }));
        return { content: [{ type: 'text', text: 'grew' }] };
    });
    // MCP_TEST_EXTRA_TOOLS=N: N more tools (`extra_000`…), each with a schema of a few typed fields and
    // descriptions, the shape of a large real server's catalogue (the deferred-tools benchmark).
    const extra = Number(process.env['MCP_TEST_EXTRA_TOOLS'] ?? 0);
    for (let i = 0; i < extra; i++) {
        const name = `extra_${String(i).padStart(3, '0')}`;
        server.registerTool(name, {
            description: `Extra tool number ${i}: looks up record ${i} of the catalogue and reports its fields, with optional filters on owner, state and date range.`,
            inputSchema: {
                id: zod_1.z.string().describe('The record id'),
                owner: zod_1.z.string().optional().describe('Only records of this owner'),
                state: zod_1.z.enum(['open', 'closed', 'all']).optional().describe('Filter by state'),
                since: zod_1.z.string().optional().describe('ISO date: records changed since'),
                limit: zod_1.z.number().int().min(1).max(100).optional().describe('At most this many results'),
            },
            annotations: RO,
        }, async ({ id }) => ({ content: [{ type: 'text', text: `${name} ${id}` }] }));
    }
    return server;
}
let grown;
async function main() {
    const mode = process.argv[2] ?? 'stdio';
    if (mode === 'stdio') {
        await makeServer().connect(new stdio_js_1.StdioServerTransport());
        return;
    }
    // Streamable HTTP, stateless: a server and a transport per request.
    const http = (0, node_http_1.createServer)(async (req, res) => {
        const server = makeServer();
        const transport = new streamableHttp_js_1.StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        res.on('close', () => {
            void transport.close();
            void server.close();
        });
        await server.connect(transport);
        const chunks = [];
        for await (const c of req)
            chunks.push(c);
        const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
        await transport.handleRequest(req, res, body);
    });
    http.listen(0, '127.0.0.1', () => {
        const addr = http.address();
        const port = typeof addr === 'object' && addr ? addr.port : 0;
        if (process.argv[3])
            (0, node_fs_1.writeFileSync)(process.argv[3], String(port));
        else
            console.log(port);
    });
}
void main();
//# sourceMappingURL=mcpServer.js.map