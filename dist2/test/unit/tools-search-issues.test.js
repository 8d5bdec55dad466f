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
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const http = __importStar(require("node:http"));
const node_test_1 = require("node:test");
const apiSchema_1 = require("../../src/tools/apiSchema");
const searchIssues_1 = require("../../src/tools/examples/searchIssues");
const tools_harness_1 = require("./tools-harness");
const TOKEN = 'sekret-token-123';
let server;
let baseUrl;
let requests = [];
let respond;
let dir;
let closedEarly = 0;
(0, node_test_1.before)(async () => {
    dir = await (0, tools_harness_1.makeTmpDir)();
    server = http.createServer((req, res) => {
        requests.push({ method: req.method, url: new URL(req.url ?? '/', 'http://x'), headers: req.headers });
        req.on('close', () => {
            if (!res.writableEnded)
                closedEarly++;
        });
        respond(req, res);
    });
    await new Promise((r) => server.listen(0, '127.0.0.1', () => r()));
    baseUrl = `http://127.0.0.1:${server.address().port}/api/`;
});
(0, node_test_1.after)(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await (0, tools_harness_1.removeDir)(dir);
});
(0, node_test_1.beforeEach)(() => {
    requests = [];
});
function json(res, status, body) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
}
(0, node_test_1.describe)('SearchIssues example tool', () => {
    (0, node_test_1.it)('calls the API with the token, the query parameters and the idempotency key; trims the output', async () => {
        respond = (_req, res) => json(res, 200, {
            items: [
                {
                    number: 12,
                    title: 'Login times out',
                    state: 'open',
                    html_url: 'https://tracker/12',
                    body: 'x'.repeat(1000),
                    assignee: { huge: 'object' },
                },
                { number: 7, title: 'Auth header dropped', state: 'open', url: 'https://tracker/7', body: null },
            ],
            hasMore: true,
        });
        const tool = (0, searchIssues_1.createSearchIssuesTool)({ baseUrl, token: TOKEN });
        const s = new tools_harness_1.ToolSession(dir);
        const r = await s.run(tool, { query: 'login timeout', limit: 2 });
        strict_1.default.equal(r.isError, false, r.text);
        strict_1.default.equal(requests.length, 1);
        const req = requests[0];
        strict_1.default.equal(req.method, 'GET');
        strict_1.default.equal(req.url.pathname, '/api/issues/search');
        strict_1.default.equal(req.url.searchParams.get('q'), 'login timeout');
        strict_1.default.equal(req.url.searchParams.get('state'), 'open');
        strict_1.default.equal(req.url.searchParams.get('limit'), '2');
        strict_1.default.equal(req.headers.authorization, `Bearer ${TOKEN}`);
        strict_1.default.match(String(req.headers['idempotency-key']), /^test-session\/toolu_\d+$/);
        strict_1.default.deepEqual(Object.keys(r.data.issues[0]).sort(), ['excerpt', 'number', 'state', 'title', 'url']);
        strict_1.default.equal(r.data.issues[0].excerpt.length, 300);
        strict_1.default.equal(r.data.issues[1].excerpt, undefined);
        strict_1.default.match(r.text, /^Found 2 open issues for "login timeout":\n#12 \[open\] Login times out\n  https:\/\/tracker\/12\n  x{299}…\n#7 \[open\] Auth header dropped\n  https:\/\/tracker\/7/);
        strict_1.default.match(r.text, /More issues match/);
        strict_1.default.doesNotMatch(JSON.stringify(r.data), /huge/);
    });
    (0, node_test_1.it)('state and limit are passed through; empty results', async () => {
        respond = (_req, res) => json(res, 200, { items: [] });
        const r = await new tools_harness_1.ToolSession(dir).run((0, searchIssues_1.createSearchIssuesTool)({ baseUrl, token: TOKEN }), {
            query: 'crash',
            state: 'all',
            limit: 20,
        });
        strict_1.default.equal(requests[0]?.url.searchParams.get('state'), 'all');
        strict_1.default.equal(requests[0]?.url.searchParams.get('limit'), '20');
        strict_1.default.equal(r.text, 'No issues match "crash".');
    });
    (0, node_test_1.it)('validates business inputs: query length, limit range, state enum, no extra fields', async () => {
        const tool = (0, searchIssues_1.createSearchIssuesTool)({ baseUrl, token: TOKEN });
        const s = new tools_harness_1.ToolSession(dir);
        strict_1.default.equal((await s.run(tool, { query: 'a' })).invalid, 'The search query needs at least 2 characters.');
        strict_1.default.match((await s.run(tool, { query: '' })).invalid ?? '', /schema/);
        strict_1.default.match((await s.run(tool, { query: 'ok', limit: 21 })).invalid ?? '', /schema/);
        strict_1.default.match((await s.run(tool, { query: 'ok', state: 'merged' })).invalid ?? '', /schema/);
        strict_1.default.match((await s.run(tool, { query: 'ok', url: 'http://evil' })).invalid ?? '', /schema/);
        strict_1.default.equal(requests.length, 0);
    });
    (0, node_test_1.it)('HTTP errors throw with the status (and never leak the token)', async () => {
        respond = (_req, res) => json(res, 503, { error: `backend down (token ${TOKEN})` });
        const r = await new tools_harness_1.ToolSession(dir).run((0, searchIssues_1.createSearchIssuesTool)({ baseUrl, token: TOKEN }), { query: 'login' });
        strict_1.default.ok(r.thrown);
        strict_1.default.match(r.text, /^Issue search failed: HTTP 503 Service Unavailable/);
        strict_1.default.doesNotMatch(r.text, new RegExp(TOKEN));
    });
    (0, node_test_1.it)('passes the abort signal to fetch', async () => {
        respond = () => {
            /* never answers */
        };
        const ac = new AbortController();
        const run = new tools_harness_1.ToolSession(dir).run((0, searchIssues_1.createSearchIssuesTool)({ baseUrl, token: TOKEN }), { query: 'slow' }, { signal: ac.signal });
        while (requests.length === 0)
            await new Promise((r) => setTimeout(r, 10));
        ac.abort();
        const r = await run;
        strict_1.default.ok(r.thrown);
        strict_1.default.match(r.thrown.name + r.thrown.message, /abort/i);
        const deadline = Date.now() + 2000;
        while (closedEarly === 0 && Date.now() < deadline)
            await new Promise((res) => setTimeout(res, 10));
        strict_1.default.equal(closedEarly, 1, 'the server saw the connection closed before it answered');
    });
    (0, node_test_1.it)('uses an injected fetch', async () => {
        const calls = [];
        const fakeFetch = (async (url) => {
            calls.push(String(url));
            return new Response(JSON.stringify({ issues: [{ id: 3, title: 't', state: 'closed', url: 'u' }] }), {
                status: 200,
            });
        });
        const r = await new tools_harness_1.ToolSession(dir).run((0, searchIssues_1.createSearchIssuesTool)({ baseUrl: 'https://example.invalid/v1', token: TOKEN, fetch: fakeFetch }), { query: 'abc', state: 'closed' });
        strict_1.default.equal(calls[0], 'https://example.invalid/v1/issues/search?q=abc&state=closed&limit=10');
        strict_1.default.match(r.text, /#3 \[closed\] t/);
    });
    (0, node_test_1.it)('exposes no URL or token to the model; declarations', async () => {
        const tool = (0, searchIssues_1.createSearchIssuesTool)({ baseUrl, token: TOKEN });
        const api = await (0, apiSchema_1.toolToAPISchema)(tool);
        const visible = JSON.stringify(api);
        strict_1.default.doesNotMatch(visible, new RegExp(TOKEN));
        strict_1.default.doesNotMatch(visible, /127\.0\.0\.1|api\//);
        strict_1.default.deepEqual(Object.keys(api.input_schema.properties ?? {}).sort(), ['limit', 'query', 'state']);
        strict_1.default.deepEqual(api.input_schema.required, ['query']);
        strict_1.default.equal(api.input_schema.additionalProperties, false);
        const input = { query: 'login' };
        strict_1.default.equal(tool.isReadOnly(input), true);
        strict_1.default.equal(tool.isConcurrencySafe(input), true);
        strict_1.default.equal(tool.isIdempotent(input), true);
        strict_1.default.deepEqual(await tool.checkPermissions(input, undefined), { behavior: 'passthrough' });
        strict_1.default.equal(tool.summary({ query: 'login', state: 'all', limit: 5 }), 'SearchIssues "login" (all, 5)');
    });
});
//# sourceMappingURL=tools-search-issues.test.js.map