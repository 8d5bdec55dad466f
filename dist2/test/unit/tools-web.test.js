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
// unit: WebFetch and WebSearch — address checks, domain rules, HTML to text, redirects, limits,
// permissions; WebFetch against a real local HTTP server, the side model a recording stub.
const strict_1 = __importDefault(require("node:assert/strict"));
const http = __importStar(require("node:http"));
const node_test_1 = require("node:test");
const decide_1 = require("../../src/permissions/decide");
const domains_1 = require("../../src/permissions/domains");
const webAddress_1 = require("../../src/tools/builtin/webAddress");
const webContent_1 = require("../../src/tools/builtin/webContent");
const webFetch_1 = require("../../src/tools/builtin/webFetch");
const webRequest_1 = require("../../src/tools/builtin/webRequest");
const webSearch_1 = require("../../src/tools/builtin/webSearch");
const context_1 = require("../../src/engine/context");
(0, node_test_1.describe)('addresses', () => {
    (0, node_test_1.it)('loopback, private, link-local, CGNAT, mapped and NAT64 forms are internal; public ones are not', () => {
        for (const a of [
            '127.0.0.1',
            '10.1.2.3',
            '172.16.0.1',
            '192.168.1.1',
            '169.254.169.254',
            '100.64.0.1',
            '0.0.0.0',
            '::1',
            '::',
            'fe80::1',
            'fd00::1',
            '::ffff:127.0.0.1',
            '::ffff:7f00:1',
            '64:ff9b::a9fe:a9fe',
            'not-an-ip',
        ])
            strict_1.default.equal((0, webAddress_1.isInternalAddress)(a), true, a);
        for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '172.32.0.1', '::ffff:8.8.8.8'])
            strict_1.default.equal((0, webAddress_1.isInternalAddress)(a), false, a);
    });
    (0, node_test_1.it)('a name with any internal answer is refused (rebinding), unless internal is allowed', async () => {
        const resolve = async () => [
            { address: '93.184.216.34', family: 4 },
            { address: '127.0.0.1', family: 4 },
        ];
        const refused = await (0, webAddress_1.checkedAddress)('evil.example', false, resolve);
        strict_1.default.equal(refused.ok, false);
        strict_1.default.match(refused.ok ? '' : refused.message, /127\.0\.0\.1.*WebFetch\(domain:evil\.example\)/);
        const allowed = await (0, webAddress_1.checkedAddress)('evil.example', true, resolve);
        strict_1.default.deepEqual(allowed, { ok: true, address: { address: '93.184.216.34', family: 4 } });
        const literal = await (0, webAddress_1.checkedAddress)('[::1]', false, resolve);
        strict_1.default.equal(literal.ok, false);
    });
});
(0, node_test_1.describe)('domain rules', () => {
    (0, node_test_1.it)('exact, *.subdomains (not the apex), * and case/trailing dots', () => {
        strict_1.default.equal((0, domains_1.domainPatternMatches)('example.com', 'EXAMPLE.com.'), true);
        strict_1.default.equal((0, domains_1.domainPatternMatches)('example.com', 'www.example.com'), false);
        strict_1.default.equal((0, domains_1.domainPatternMatches)('*.example.com', 'docs.example.com'), true);
        strict_1.default.equal((0, domains_1.domainPatternMatches)('*.example.com', 'a.b.example.com'), true);
        strict_1.default.equal((0, domains_1.domainPatternMatches)('*.example.com', 'example.com'), false);
        strict_1.default.equal((0, domains_1.domainPatternMatches)('*.example.com', 'badexample.com'), false);
        strict_1.default.equal((0, domains_1.domainPatternMatches)('*', 'anything.org'), true);
        strict_1.default.equal((0, domains_1.domainPatternMatches)('api-*.example.com', 'api-v2.example.com'), true);
        strict_1.default.equal((0, domains_1.domainPatternMatches)('api-*.example.com', 'api-v2.evil.example.com'), false);
        strict_1.default.equal((0, domains_1.matchDomainRule)('domain:*.github.com', 'domain:api.github.com'), true);
        strict_1.default.equal((0, domains_1.matchDomainRule)('github.com', 'domain:github.com'), false);
        strict_1.default.equal((0, domains_1.ruleNamesHost)('domain:127.0.0.1', '127.0.0.1'), true);
        strict_1.default.equal((0, domains_1.ruleNamesHost)('domain:*', '127.0.0.1'), false);
    });
});
(0, node_test_1.describe)('page text', () => {
    (0, node_test_1.it)('HTML becomes Markdown-like text; scripts and styles are dropped; entities decoded', () => {
        const text = (0, webContent_1.htmlToText)('<html><head><title>T</title><style>x{}</style></head><body><h1>Hello &amp; welcome</h1>' +
            '<script>alert(1)</script><p>See <a href="/docs">the docs</a>.</p><ul><li>one</li><li>two</li></ul>' +
            '<pre>  indented\n    code</pre></body></html>');
        strict_1.default.equal(text, '# Hello & welcome\n\nSee [the docs](/docs).\n\n- one\n- two\n\n```\n  indented\n    code\n```');
        strict_1.default.equal((0, webContent_1.isTextContentType)('text/html; charset=utf-8'), true);
        strict_1.default.equal((0, webContent_1.isTextContentType)('application/json'), true);
        strict_1.default.equal((0, webContent_1.isTextContentType)('image/png'), false);
    });
    (0, node_test_1.it)('redirects within the site (www. aside) are followed; another host, port or scheme is not', () => {
        const u = (s) => new URL(s);
        strict_1.default.equal((0, webRequest_1.sameSiteRedirect)(u('https://example.com/a'), u('https://www.example.com/b')), true);
        strict_1.default.equal((0, webRequest_1.sameSiteRedirect)(u('https://example.com/a'), u('https://evil.com/b')), false);
        strict_1.default.equal((0, webRequest_1.sameSiteRedirect)(u('https://example.com/a'), u('http://example.com/b')), false);
        strict_1.default.equal((0, webRequest_1.sameSiteRedirect)(u('https://example.com/a'), u('https://example.com:8443/b')), false);
        strict_1.default.equal((0, webRequest_1.sameSiteRedirect)(u('https://example.com/a'), u('https://user:pw@example.com/b')), false);
    });
    (0, node_test_1.it)('http is upgraded to https, except for a local address an allow rule names', () => {
        const none = { allow: [], ask: [], deny: [] };
        strict_1.default.equal((0, webFetch_1.upgradedUrl)('http://example.com/x', none), 'https://example.com/x');
        strict_1.default.equal((0, webFetch_1.upgradedUrl)('http://127.0.0.1:8080/x', none), 'https://127.0.0.1:8080/x');
        strict_1.default.equal((0, webFetch_1.upgradedUrl)('http://127.0.0.1:8080/x', { ...none, allow: ['WebFetch(domain:127.0.0.1)'] }), 'http://127.0.0.1:8080/x');
        strict_1.default.equal((0, webFetch_1.upgradedUrl)('http://example.com/x', { ...none, allow: ['WebFetch(domain:example.com)'] }), 'https://example.com/x');
    });
});
/** A side model that records what it was asked and answers with a fixed text. */
function recordingModel(answer = 'the answer') {
    const requests = [];
    return {
        model: 'claude-test-small',
        requests,
        async create(req) {
            requests.push(req);
            return { content: [{ type: 'text', text: answer }] };
        },
    };
}
function ctxFor(opts = {}) {
    return {
        sessionId: 's',
        toolUseId: 'toolu_web',
        idempotencyKey: 's/toolu_web',
        agent: (0, context_1.initialContext)('/tmp'),
        permission: {
            mode: opts.mode ?? 'default',
            rules: { allow: opts.allow ?? [], ask: [], deny: opts.deny ?? [] },
            workingDirectories: ['/tmp'],
            ...(opts.sandbox ? { sandbox: opts.sandbox } : {}),
        },
        abortSignal: new AbortController().signal,
        ...(opts.model ? { sideModel: opts.model } : {}),
    };
}
async function decide(input, ctx) {
    return (0, decide_1.decidePermission)(webFetch_1.WebFetchTool, webFetch_1.WebFetchTool.inputSchema.parse(input), ctx);
}
(0, node_test_1.describe)('WebFetch permissions', () => {
    (0, node_test_1.it)('an unlisted host asks (dontAsk: denied); a domain rule allows; deny rules win', async () => {
        const url = { url: 'https://docs.example.com/x', prompt: 'p' };
        strict_1.default.equal((await decide(url, ctxFor())).behavior, 'ask');
        strict_1.default.equal((await decide(url, ctxFor({ mode: 'dontAsk' }))).behavior, 'deny');
        strict_1.default.equal((await decide(url, ctxFor({ allow: ['WebFetch(domain:*.example.com)'] }))).behavior, 'allow');
        strict_1.default.equal((await decide(url, ctxFor({ allow: ['WebFetch(domain:example.com)'] }))).behavior, 'ask');
        strict_1.default.equal((await decide(url, ctxFor({ allow: ['WebFetch'], deny: ['WebFetch(domain:docs.example.com)'] }))).behavior, 'deny');
        // Read-only, but never allowed by the mode alone (as the reference).
        strict_1.default.equal((await decide(url, ctxFor({ mode: 'acceptEdits' }))).behavior, 'ask');
    });
    (0, node_test_1.it)('a private address literal is denied in every mode unless a rule names it', async () => {
        const local = { url: 'http://127.0.0.1:9/x', prompt: 'p' };
        strict_1.default.equal((await decide(local, ctxFor({ mode: 'bypassPermissions' }))).behavior, 'deny');
        strict_1.default.equal((await decide(local, ctxFor({ allow: ['WebFetch(domain:*)'] }))).behavior, 'deny');
        strict_1.default.equal((await decide(local, ctxFor({ allow: ['WebFetch(domain:127.0.0.1)'] }))).behavior, 'allow');
        const meta = { url: 'http://169.254.169.254/latest/meta-data', prompt: 'p' };
        strict_1.default.equal((await decide(meta, ctxFor({ mode: 'bypassPermissions' }))).behavior, 'deny');
    });
    (0, node_test_1.it)('the sandbox: denied domains are refused; a host off its allowlist asks even in bypassPermissions', async () => {
        const url = { url: 'https://example.com/', prompt: 'p' };
        const denied = await decide(url, ctxFor({ mode: 'bypassPermissions', sandbox: { network: { deniedDomains: ['example.com'] } } }));
        strict_1.default.equal(denied.behavior, 'deny');
        strict_1.default.equal((await decide(url, ctxFor({ mode: 'bypassPermissions', sandbox: {} }))).behavior, 'ask');
        strict_1.default.equal((await decide(url, ctxFor({ mode: 'bypassPermissions', sandbox: { network: { allowedDomains: ['example.com'] } } }))).behavior, 'allow');
        strict_1.default.equal((await decide(url, ctxFor({ mode: 'bypassPermissions', sandbox: { enabled: false } }))).behavior, 'allow');
    });
    (0, node_test_1.it)('validateInput: no localhost or dotless hosts, no credentials, http(s) only', async () => {
        const v = (url) => webFetch_1.WebFetchTool.validateInput({ url, prompt: 'p' }, ctxFor());
        strict_1.default.equal((await v('http://localhost:3000/')).result, false);
        strict_1.default.equal((await v('https://user:pw@example.com/')).result, false);
        strict_1.default.equal((await v('ftp://example.com/')).result, false);
        strict_1.default.equal((await v('https://example.com/')).result, true);
        strict_1.default.equal(webFetch_1.WebFetchTool.inputSchema.safeParse({ url: `https://e.com/${'a'.repeat(2000)}`, prompt: 'p' }).success, false);
    });
});
(0, node_test_1.describe)('WebFetch against a local server', () => {
    let server;
    let base;
    const hits = [];
    (0, node_test_1.before)(async () => {
        server = http.createServer((req, res) => {
            hits.push(req.url ?? '');
            if (req.url === '/page') {
                res.writeHead(200, { 'content-type': 'text/html' });
                res.end('<h1>Title</h1><p>Body text</p>');
            }
            else if (req.url === '/long') {
                res.writeHead(200, { 'content-type': 'text/plain' });
                res.end('x'.repeat(250_000));
            }
            else if (req.url === '/same') {
                res.writeHead(301, { location: '/page' });
                res.end();
            }
            else if (req.url === '/away') {
                res.writeHead(302, { location: 'https://elsewhere.example.org/target' });
                res.end();
            }
            else if (req.url === '/private') {
                res.writeHead(401);
                res.end('secret body');
            }
            else if (req.url === '/image') {
                res.writeHead(200, { 'content-type': 'image/png' });
                res.end(Buffer.alloc(64));
            }
            else {
                res.writeHead(404);
                res.end();
            }
        });
        await new Promise((r) => server.listen(0, '127.0.0.1', r));
        base = `http://127.0.0.1:${server.address().port}`;
    });
    (0, node_test_1.after)(() => new Promise((r) => server.close(() => r())));
    const allowLocal = ['WebFetch(domain:127.0.0.1)'];
    (0, node_test_1.it)('fetches, converts the HTML and asks the side model with the page and the prompt', async () => {
        const model = recordingModel('It says Body text.');
        const r = await webFetch_1.WebFetchTool.call({ url: `${base}/page`, prompt: 'What does it say?' }, ctxFor({ allow: allowLocal, model }), () => { });
        strict_1.default.equal(r.data.result, 'It says Body text.');
        strict_1.default.equal(r.data.code, 200);
        strict_1.default.equal(r.data.bytes, Buffer.byteLength('<h1>Title</h1><p>Body text</p>'));
        const sent = String(model.requests[0]?.messages[0]?.content);
        strict_1.default.match(sent, /# Title\n\nBody text/);
        strict_1.default.match(sent, /What does it say\?/);
        strict_1.default.equal(r.network?.requests[0]?.address, '127.0.0.1');
        strict_1.default.equal(r.network?.bytes, r.data.bytes);
    });
    (0, node_test_1.it)('a long page is read 100,000 characters at a time, with the offset to read on', async () => {
        const model = recordingModel('part');
        const first = await webFetch_1.WebFetchTool.call({ url: `${base}/long`, prompt: 'p' }, ctxFor({ allow: allowLocal, model }), () => { });
        strict_1.default.match(first.data.result, /characters 0 to 100000 of the page's 250000.*offset: 100000/s);
        const last = await webFetch_1.WebFetchTool.call({ url: `${base}/long`, prompt: 'p', offset: 200_000 }, ctxFor({ allow: allowLocal, model }), () => { });
        strict_1.default.equal(last.data.result, 'part');
        strict_1.default.match(String(model.requests[1]?.messages[0]?.content), /starts 200000 characters into the page's 250000/);
        const past = await webFetch_1.WebFetchTool.call({ url: `${base}/long`, prompt: 'p', offset: 300_000 }, ctxFor({ allow: allowLocal, model }), () => { });
        strict_1.default.match(past.data.result, /Nothing left to read from offset 300000/);
        strict_1.default.equal(model.requests.length, 2);
    });
    (0, node_test_1.it)('a same-site redirect is followed; another host is reported, not fetched; errors and binaries are said', async () => {
        const model = recordingModel();
        const ctx = ctxFor({ allow: allowLocal, model });
        const same = await webFetch_1.WebFetchTool.call({ url: `${base}/same`, prompt: 'p' }, ctx, () => { });
        strict_1.default.equal(same.data.result, 'the answer');
        strict_1.default.deepEqual(same.network?.requests.map((h) => h.status), [301, 200]);
        const away = await webFetch_1.WebFetchTool.call({ url: `${base}/away`, prompt: 'p' }, ctx, () => { });
        strict_1.default.match(away.data.result, /REDIRECT DETECTED[\s\S]*https:\/\/elsewhere\.example\.org\/target/);
        strict_1.default.equal(away.data.code, 302);
        strict_1.default.equal(away.network?.redirectedTo, 'https://elsewhere.example.org/target');
        const denied = await webFetch_1.WebFetchTool.call({ url: `${base}/private`, prompt: 'p' }, ctx, () => { });
        strict_1.default.match(denied.data.result, /HTTP 401/);
        strict_1.default.doesNotMatch(denied.data.result, /secret body/);
        const image = await webFetch_1.WebFetchTool.call({ url: `${base}/image`, prompt: 'p' }, ctx, () => { });
        strict_1.default.match(image.data.result, /binary content \(image\/png, 64 bytes\)/);
        strict_1.default.equal(model.requests.length, 1);
    });
    (0, node_test_1.it)('without a rule naming the host, the local address is never connected to', async () => {
        const before = hits.length;
        await strict_1.default.rejects(webFetch_1.WebFetchTool.call({ url: `${base}/page`, prompt: 'p' }, ctxFor({ allow: ['WebFetch(domain:*)'], model: recordingModel() }), () => { }), /loopback, private or link-local/);
        strict_1.default.equal(hits.length, before);
    });
});
(0, node_test_1.describe)('WebSearch', () => {
    (0, node_test_1.it)('sends the server tool with the domains and maps server_tool_use / web_search_tool_result blocks', async () => {
        const requests = [];
        const model = {
            model: 'm',
            async create(req) {
                requests.push(req);
                return {
                    content: [
                        { type: 'text', text: 'Searching.' },
                        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } },
                        {
                            type: 'web_search_tool_result',
                            tool_use_id: 'srvtoolu_1',
                            content: [{ type: 'web_search_result', title: 'A', url: 'https://a.example/', encrypted_content: 'x' }],
                        },
                        { type: 'text', text: 'A says so.' },
                    ],
                };
            },
        };
        const r = await webSearch_1.WebSearchTool.call({ query: 'durable agents', allowed_domains: ['a.example'] }, ctxFor({ model }), () => { });
        strict_1.default.deepEqual(requests[0]?.tools, [
            { type: 'web_search_20250305', name: 'web_search', max_uses: 8, allowed_domains: ['a.example'] },
        ]);
        strict_1.default.deepEqual(requests[0]?.toolChoice, { type: 'tool', name: 'web_search' });
        strict_1.default.deepEqual(r.data.results, [
            'Searching.',
            { tool_use_id: 'srvtoolu_1', content: [{ title: 'A', url: 'https://a.example/' }] },
            'A says so.',
        ]);
        strict_1.default.equal(r.data.searchCount, 1);
        const text = webSearch_1.WebSearchTool.mapToolResultToToolResultBlockParam(r.data, 'toolu_1').content;
        strict_1.default.match(text, /^Web search results for query: "durable agents"\n\nSearching\.\n\nLinks: \[\{"title":"A","url":"https:\/\/a\.example\/"\}\]\n\nA says so\.\n\n\nREMINDER: You MUST include the sources above/);
    });
    (0, node_test_1.it)('an error result is a line; both domain lists at once and a one-letter query are refused', async () => {
        const out = (0, webSearch_1.searchResults)('q', [
            { type: 'server_tool_use', id: 's1' },
            {
                type: 'web_search_tool_result',
                tool_use_id: 's1',
                content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' },
            },
        ], 0);
        strict_1.default.deepEqual(out.results, ['Web search error: max_uses_exceeded']);
        const both = await webSearch_1.WebSearchTool.validateInput({ query: 'qq', allowed_domains: ['a'], blocked_domains: ['b'] }, ctxFor());
        strict_1.default.equal(both.result, false);
        strict_1.default.equal(webSearch_1.WebSearchTool.inputSchema.safeParse({ query: 'q' }).success, false);
        strict_1.default.equal((await (0, decide_1.decidePermission)(webSearch_1.WebSearchTool, { query: 'qq' }, ctxFor({ mode: 'dontAsk' }))).behavior, 'deny');
        strict_1.default.equal((await (0, decide_1.decidePermission)(webSearch_1.WebSearchTool, { query: 'qq' }, ctxFor({ allow: ['WebSearch'] }))).behavior, 'allow');
    });
});
//# sourceMappingURL=tools-web.test.js.map