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
// integration: WebFetch, WebSearch and NotebookEdit in sessions on the real dev server, the real
// SDK against the fake Messages API (the main model and the tools' own model calls), a real local
// HTTP server that counts its requests. A finished fetch is never fetched again: not when the
// model's stream fails and the fallback repeats the tool_use_id, not when the worker is SIGKILLed
// during a later fetch (the fetch in flight runs again on the next worker; the finished one not).
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const http = __importStar(require("node:http"));
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const audit_1 = require("../../src/audit");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const wait_1 = require("../support/wait");
const workerProcs_1 = require("../support/workerProcs");
(0, node_test_1.after)(temporal_1.closeTestEnv);
/** A local site: /page answers at once, /slow after `slowMs`; every request is counted by path. */
async function startSite(slowMs = 0) {
    const hits = new Map();
    const server = http.createServer((req, res) => {
        const path = req.url ?? '';
        hits.set(path, (hits.get(path) ?? 0) + 1);
        const send = () => {
            res.writeHead(200, { 'content-type': 'text/html' });
            res.end(`<h1>${path}</h1><p>The answer is 42.</p>`);
        };
        if (path === '/slow')
            setTimeout(send, slowMs).unref();
        else
            send();
    });
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    return {
        base: `http://127.0.0.1:${server.address().port}`,
        hits,
        close: () => new Promise((r) => {
            server.closeAllConnections();
            server.close(() => r());
        }),
    };
}
/** The tools' own model calls: no client tools (WebFetch reads a page) or only the server web search. */
function isSideRequest(req) {
    const tools = (req.tools ?? []);
    if (tools.length === 0)
        return 'fetch';
    if (tools.every((t) => t.type?.startsWith('web_search_')))
        return 'search';
    return undefined;
}
const SEARCH_ANSWER = {
    content: [
        { type: 'server_tool_use', input: { query: 'durable execution' } },
        {
            type: 'web_search_tool_result',
            results: [{ url: 'https://temporal.io/', title: 'Temporal', page_age: '2 days ago' }],
        },
        { type: 'text', text: 'Temporal runs durable workflows.' },
    ],
};
const rules = {
    allow: ['WebFetch(domain:127.0.0.1)', 'WebSearch'],
    ask: [],
    deny: [],
};
(0, node_test_1.test)('integration: WebFetch and WebSearch in a session; a stream that fails after the fetch started falls back, and the repeated id is not fetched again; NotebookEdit after Read', { timeout: 120_000 }, async () => {
    const site = await startSite();
    try {
        await (0, agent_1.withAgent)({}, async ({ fake, start, workDir, client }) => {
            const nb = (0, node_path_1.join)(workDir, 'n.ipynb');
            await (0, promises_1.writeFile)(nb, JSON.stringify({
                cells: [{ cell_type: 'code', id: 'a1', source: 'x = 1', metadata: {}, outputs: [] }],
                nbformat: 4,
                nbformat_minor: 5,
            }));
            const fetch = {
                type: 'tool_use',
                id: 'toolu_fetch',
                name: 'WebFetch',
                input: { url: `${site.base}/page`, prompt: 'What is the answer?' },
            };
            let main = 0;
            fake.script((req) => {
                const side = isSideRequest(req);
                if (side === 'fetch')
                    return (0, fakeAnthropic_1.textResponse)('The page says the answer is 42.');
                if (side === 'search')
                    return SEARCH_ANSWER;
                main++;
                if (main === 1)
                    // The fetch starts while the message streams; then the stream dies.
                    return { content: [{ ...fetch, pauseAfterMs: 1500 }], dropAfterBlocks: 1 };
                if (main === 2)
                    return { content: [fetch] }; // the non-streamed fallback: the same id
                if (main === 3)
                    return (0, fakeAnthropic_1.toolUseResponse)([
                        { id: 'toolu_search', name: 'WebSearch', input: { query: 'durable execution' } },
                        { id: 'toolu_read', name: 'Read', input: { file_path: nb } },
                    ]);
                if (main === 4)
                    return (0, fakeAnthropic_1.toolUseResponse)([
                        {
                            id: 'toolu_nb',
                            name: 'NotebookEdit',
                            input: { notebook_path: nb, cell_id: 'a1', new_source: 'x = 2' },
                        },
                    ]);
                return (0, fakeAnthropic_1.textResponse)('Done.');
            });
            // acceptEdits: NotebookEdit in the working directory runs unasked; the web tools only by their rules.
            const handle = await start({ prompt: 'look it up', rules, permissionMode: 'acceptEdits' });
            const result = await handle.result();
            strict_1.default.equal(result.status, 'completed', result.endReason);
            strict_1.default.equal(site.hits.get('/page'), 1, 'the page was fetched once');
            const reqs = fake.messageRequests();
            const mainReqs = reqs.filter((r) => !isSideRequest(r));
            const [fetchResult] = (0, fakeAnthropic_1.lastToolResults)(mainReqs[2]);
            strict_1.default.equal(fetchResult?.tool_use_id, 'toolu_fetch');
            strict_1.default.notEqual(fetchResult?.is_error, true, JSON.stringify(fetchResult));
            strict_1.default.match(JSON.stringify(fetchResult?.content), /answer is 42/);
            // The side model saw the page as text and the prompt.
            const sideFetch = reqs.find((r) => isSideRequest(r) === 'fetch');
            strict_1.default.match(JSON.stringify(sideFetch?.messages), /# \/page[\s\S]*The answer is 42\.[\s\S]*What is the answer\?/);
            // The search: the server tool in the request, its blocks in the result.
            const sideSearch = reqs.find((r) => isSideRequest(r) === 'search');
            strict_1.default.deepEqual(sideSearch?.tools, [{ type: 'web_search_20250305', name: 'web_search', max_uses: 8 }]);
            strict_1.default.deepEqual(sideSearch?.tool_choice, { type: 'tool', name: 'web_search' });
            const results = (0, fakeAnthropic_1.lastToolResults)(mainReqs[3]);
            const search = results.find((r) => r.tool_use_id === 'toolu_search');
            strict_1.default.match(JSON.stringify(search?.content), /Links: \[\{\\"title\\":\\"Temporal\\",\\"url\\":\\"https:\/\/temporal.io\/\\"\}\]/);
            const nbResult = (0, fakeAnthropic_1.lastToolResults)(mainReqs[4])[0];
            strict_1.default.equal(nbResult?.content, 'Updated cell a1 with x = 2');
            strict_1.default.equal(JSON.parse(await (0, promises_1.readFile)(nb, 'utf8')).cells[0]?.source, 'x = 2');
            const turn = (await client.workflow.getHandle(`${handle.workflowId}/turn-1`).result());
            strict_1.default.equal(turn.fallback, true);
            strict_1.default.deepEqual(turn.records.map((r) => [r.toolUseId, r.status, r.early ?? false]), [['toolu_fetch', 'ok', true]]);
            // The audit names the URL, the address and the bytes fetched.
            const text = (0, audit_1.formatAuditText)(await (0, audit_1.buildAudit)(client, handle.workflowId));
            strict_1.default.match(text, new RegExp(`WebFetch ${site.base.replace(/[.]/g, '\\.')}/page`));
            strict_1.default.match(text, /fetched \d+ bytes: http:\/\/127\.0\.0\.1:\d+\/page \(127\.0\.0\.1\) 200/);
        });
    }
    finally {
        await site.close();
    }
});
(0, node_test_1.test)('integration: SIGKILL the worker during a slow WebFetch; the next worker fetches it again, the finished fetch never runs twice', { timeout: 180_000 }, async () => {
    const site = await startSite(6000);
    const procs = [];
    try {
        await (0, agent_1.withAgent)({ noWorker: true }, async ({ env, fake, start, storeDir, taskQueue }) => {
            const workerEnv = await (0, workerProcs_1.workerProcessEnv)({ env, fake, storeDir, taskQueue });
            let main = 0;
            fake.script((req) => {
                if (isSideRequest(req))
                    return (0, fakeAnthropic_1.textResponse)('42.');
                main++;
                if (main === 1)
                    return (0, fakeAnthropic_1.toolUseResponse)([
                        { id: 'toolu_fast', name: 'WebFetch', input: { url: `${site.base}/page`, prompt: 'answer?' } },
                    ]);
                if (main === 2)
                    return (0, fakeAnthropic_1.toolUseResponse)([
                        { id: 'toolu_slow', name: 'WebFetch', input: { url: `${site.base}/slow`, prompt: 'answer?' } },
                    ]);
                return (0, fakeAnthropic_1.textResponse)('Both read.');
            });
            const worker = await (0, workerProcs_1.spawnWorker)('worker-1', workerEnv, procs);
            const handle = await start({
                prompt: 'read two pages',
                rules,
                permissionMode: 'default',
                toolHeartbeatTimeoutMs: 2000,
            });
            await (0, wait_1.waitFor)('the slow fetch to reach the site', async () => (site.hits.get('/slow') ?? 0) >= 1, 60_000);
            strict_1.default.equal(site.hits.get('/page'), 1);
            (0, workerProcs_1.killGroup)(worker);
            await worker.exited;
            await (0, workerProcs_1.spawnWorker)('worker-2', workerEnv, procs); // killed in finally
            const result = await handle.result();
            strict_1.default.equal(result.status, 'completed', result.endReason);
            strict_1.default.equal(site.hits.get('/page'), 1, 'the finished fetch was not fetched again');
            strict_1.default.equal(site.hits.get('/slow'), 2, 'the fetch in flight ran again, once, on the next worker');
            const last = fake
                .messageRequests()
                .filter((r) => !isSideRequest(r))
                .at(-1);
            const [slow] = (0, fakeAnthropic_1.lastToolResults)(last);
            strict_1.default.equal(slow?.tool_use_id, 'toolu_slow');
            strict_1.default.notEqual(slow?.is_error, true, JSON.stringify(slow));
        });
    }
    finally {
        for (const p of procs)
            (0, workerProcs_1.killGroup)(p);
        await site.close();
    }
});
//# sourceMappingURL=web-tools.test.js.map