import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { toolToAPISchema } from '../../src/toolProtocol/apiSchema';
import { createSearchIssuesTool } from '../../src/toolProtocol/examples/searchIssues';
import { makeTmpDir, removeDir, ToolSession } from './tools-harness';

interface Recorded {
  method?: string;
  url: URL;
  headers: http.IncomingHttpHeaders;
}

const TOKEN = 'sekret-token-123';
let server: http.Server;
let baseUrl: string;
let requests: Recorded[] = [];
let respond: (req: http.IncomingMessage, res: http.ServerResponse) => void;
let dir: string;
let closedEarly = 0;

before(async () => {
  dir = await makeTmpDir();
  server = http.createServer((req, res) => {
    requests.push({ method: req.method, url: new URL(req.url ?? '/', 'http://x'), headers: req.headers });
    req.on('close', () => {
      if (!res.writableEnded) closedEarly++;
    });
    respond(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await removeDir(dir);
});
beforeEach(() => {
  requests = [];
});

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

describe('SearchIssues example tool', () => {
  it('calls the API with the token, the query parameters and the idempotency key; trims the output', async () => {
    respond = (_req, res) =>
      json(res, 200, {
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
    const tool = createSearchIssuesTool({ baseUrl, token: TOKEN });
    const s = new ToolSession(dir);
    const r = await s.run(tool, { query: 'login timeout', limit: 2 });
    assert.equal(r.isError, false, r.text);
    assert.equal(requests.length, 1);
    const req = requests[0] as Recorded;
    assert.equal(req.method, 'GET');
    assert.equal(req.url.pathname, '/api/issues/search');
    assert.equal(req.url.searchParams.get('q'), 'login timeout');
    assert.equal(req.url.searchParams.get('state'), 'open');
    assert.equal(req.url.searchParams.get('limit'), '2');
    assert.equal(req.headers.authorization, `Bearer ${TOKEN}`);
    assert.match(String(req.headers['idempotency-key']), /^test-session\/toolu_\d+$/);
    assert.deepEqual(Object.keys(r.data.issues[0]).sort(), ['excerpt', 'number', 'state', 'title', 'url']);
    assert.equal(r.data.issues[0].excerpt.length, 300);
    assert.equal(r.data.issues[1].excerpt, undefined);
    assert.match(
      r.text,
      /^Found 2 open issues for "login timeout":\n#12 \[open\] Login times out\n  https:\/\/tracker\/12\n  x{299}…\n#7 \[open\] Auth header dropped\n  https:\/\/tracker\/7/,
    );
    assert.match(r.text, /More issues match/);
    assert.doesNotMatch(JSON.stringify(r.data), /huge/);
  });

  it('state and limit are passed through; empty results', async () => {
    respond = (_req, res) => json(res, 200, { items: [] });
    const r = await new ToolSession(dir).run(createSearchIssuesTool({ baseUrl, token: TOKEN }), {
      query: 'crash',
      state: 'all',
      limit: 20,
    });
    assert.equal(requests[0]?.url.searchParams.get('state'), 'all');
    assert.equal(requests[0]?.url.searchParams.get('limit'), '20');
    assert.equal(r.text, 'No issues match "crash".');
  });

  it('validates business inputs: query length, limit range, state enum, no extra fields', async () => {
    const tool = createSearchIssuesTool({ baseUrl, token: TOKEN });
    const s = new ToolSession(dir);
    assert.equal((await s.run(tool, { query: 'a' })).invalid, 'The search query needs at least 2 characters.');
    assert.match((await s.run(tool, { query: '' })).invalid ?? '', /schema/);
    assert.match((await s.run(tool, { query: 'ok', limit: 21 })).invalid ?? '', /schema/);
    assert.match((await s.run(tool, { query: 'ok', state: 'merged' })).invalid ?? '', /schema/);
    assert.match((await s.run(tool, { query: 'ok', url: 'http://evil' })).invalid ?? '', /schema/);
    assert.equal(requests.length, 0);
  });

  it('HTTP errors throw with the status (and never leak the token)', async () => {
    respond = (_req, res) => json(res, 503, { error: `backend down (token ${TOKEN})` });
    const r = await new ToolSession(dir).run(createSearchIssuesTool({ baseUrl, token: TOKEN }), { query: 'login' });
    assert.ok(r.thrown);
    assert.match(r.text, /^Issue search failed: HTTP 503 Service Unavailable/);
    assert.doesNotMatch(r.text, new RegExp(TOKEN));
  });

  it('passes the abort signal to fetch', async () => {
    respond = () => {
      /* never answers */
    };
    const ac = new AbortController();
    const run = new ToolSession(dir).run(
      createSearchIssuesTool({ baseUrl, token: TOKEN }),
      { query: 'slow' },
      { signal: ac.signal },
    );
    while (requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    ac.abort();
    const r = await run;
    assert.ok(r.thrown);
    assert.match(r.thrown.name + r.thrown.message, /abort/i);
    const deadline = Date.now() + 2000;
    while (closedEarly === 0 && Date.now() < deadline) await new Promise((res) => setTimeout(res, 10));
    assert.equal(closedEarly, 1, 'the server saw the connection closed before it answered');
  });

  it('uses an injected fetch', async () => {
    const calls: string[] = [];
    const fakeFetch = (async (url: URL | string) => {
      calls.push(String(url));
      return new Response(JSON.stringify({ issues: [{ id: 3, title: 't', state: 'closed', url: 'u' }] }), {
        status: 200,
      });
    }) as typeof fetch;
    const r = await new ToolSession(dir).run(
      createSearchIssuesTool({ baseUrl: 'https://example.invalid/v1', token: TOKEN, fetch: fakeFetch }),
      { query: 'abc', state: 'closed' },
    );
    assert.equal(calls[0], 'https://example.invalid/v1/issues/search?q=abc&state=closed&limit=10');
    assert.match(r.text, /#3 \[closed\] t/);
  });

  it('exposes no URL or token to the model; declarations', async () => {
    const tool = createSearchIssuesTool({ baseUrl, token: TOKEN });
    const api = await toolToAPISchema(tool);
    const visible = JSON.stringify(api);
    assert.doesNotMatch(visible, new RegExp(TOKEN));
    assert.doesNotMatch(visible, /127\.0\.0\.1|api\//);
    assert.deepEqual(Object.keys(api.input_schema.properties ?? {}).sort(), ['limit', 'query', 'state']);
    assert.deepEqual(api.input_schema.required, ['query']);
    assert.equal(api.input_schema.additionalProperties, false);
    const input = { query: 'login' };
    assert.equal(tool.isReadOnly(input), true);
    assert.equal(tool.isConcurrencySafe(input), true);
    assert.equal(tool.isIdempotent(input), true);
    assert.deepEqual(await tool.checkPermissions(input, undefined as never), { behavior: 'passthrough' });
    assert.equal(tool.summary({ query: 'login', state: 'all', limit: 5 }), 'SearchIssues "login" (all, 5)');
  });
});
