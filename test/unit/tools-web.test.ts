// unit: WebFetch and WebSearch — address checks, domain rules, HTML to text, redirects, limits,
// permissions; WebFetch against a real local HTTP server, the side model a recording stub.
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { decidePermission } from '../../src/permissions/decide';
import { domainPatternMatches, matchDomainRule, ruleNamesHost } from '../../src/permissions/domains';
import { checkedAddress, isInternalAddress } from '../../src/tools/webAddress';
import { htmlToText, isTextContentType } from '../../src/tools/webContent';
import { upgradedUrl, WebFetchTool } from '../../src/tools/webFetch';
import { sameSiteRedirect } from '../../src/tools/webRequest';
import { searchResults, WebSearchTool } from '../../src/tools/webSearch';
import type { SideModel, SideModelRequest, ToolUseContext } from '../../src/toolProtocol/Tool';
import { initialContext } from '../../src/core/context';
import type { PermissionMode } from '../../src/toolProtocol/permissionTypes';
import type { SandboxSettings } from '../../src/sandbox/settings';

describe('addresses', () => {
  it('loopback, private, link-local, CGNAT, mapped and NAT64 forms are internal; public ones are not', () => {
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
      assert.equal(isInternalAddress(a), true, a);
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '172.32.0.1', '::ffff:8.8.8.8'])
      assert.equal(isInternalAddress(a), false, a);
  });

  it('a name with any internal answer is refused (rebinding), unless internal is allowed', async () => {
    const resolve = async () => [
      { address: '93.184.216.34', family: 4 as const },
      { address: '127.0.0.1', family: 4 as const },
    ];
    const refused = await checkedAddress('evil.example', false, resolve);
    assert.equal(refused.ok, false);
    assert.match(refused.ok ? '' : refused.message, /127\.0\.0\.1.*WebFetch\(domain:evil\.example\)/);
    const allowed = await checkedAddress('evil.example', true, resolve);
    assert.deepEqual(allowed, { ok: true, address: { address: '93.184.216.34', family: 4 } });
    const literal = await checkedAddress('[::1]', false, resolve);
    assert.equal(literal.ok, false);
  });
});

describe('domain rules', () => {
  it('exact, *.subdomains (not the apex), * and case/trailing dots', () => {
    assert.equal(domainPatternMatches('example.com', 'EXAMPLE.com.'), true);
    assert.equal(domainPatternMatches('example.com', 'www.example.com'), false);
    assert.equal(domainPatternMatches('*.example.com', 'docs.example.com'), true);
    assert.equal(domainPatternMatches('*.example.com', 'a.b.example.com'), true);
    assert.equal(domainPatternMatches('*.example.com', 'example.com'), false);
    assert.equal(domainPatternMatches('*.example.com', 'badexample.com'), false);
    assert.equal(domainPatternMatches('*', 'anything.org'), true);
    assert.equal(domainPatternMatches('api-*.example.com', 'api-v2.example.com'), true);
    assert.equal(domainPatternMatches('api-*.example.com', 'api-v2.evil.example.com'), false);
    assert.equal(matchDomainRule('domain:*.github.com', 'domain:api.github.com'), true);
    assert.equal(matchDomainRule('github.com', 'domain:github.com'), false);
    assert.equal(ruleNamesHost('domain:127.0.0.1', '127.0.0.1'), true);
    assert.equal(ruleNamesHost('domain:*', '127.0.0.1'), false);
  });
});

describe('page text', () => {
  it('HTML becomes Markdown-like text; scripts and styles are dropped; entities decoded', () => {
    const text = htmlToText(
      '<html><head><title>T</title><style>x{}</style></head><body><h1>Hello &amp; welcome</h1>' +
        '<script>alert(1)</script><p>See <a href="/docs">the docs</a>.</p><ul><li>one</li><li>two</li></ul>' +
        '<pre>  indented\n    code</pre></body></html>',
    );
    assert.equal(text, '# Hello & welcome\n\nSee [the docs](/docs).\n\n- one\n- two\n\n```\n  indented\n    code\n```');
    assert.equal(isTextContentType('text/html; charset=utf-8'), true);
    assert.equal(isTextContentType('application/json'), true);
    assert.equal(isTextContentType('image/png'), false);
  });

  it('redirects within the site (www. aside) are followed; another host, port or scheme is not', () => {
    const u = (s: string) => new URL(s);
    assert.equal(sameSiteRedirect(u('https://example.com/a'), u('https://www.example.com/b')), true);
    assert.equal(sameSiteRedirect(u('https://example.com/a'), u('https://evil.com/b')), false);
    assert.equal(sameSiteRedirect(u('https://example.com/a'), u('http://example.com/b')), false);
    assert.equal(sameSiteRedirect(u('https://example.com/a'), u('https://example.com:8443/b')), false);
    assert.equal(sameSiteRedirect(u('https://example.com/a'), u('https://user:pw@example.com/b')), false);
  });

  it('http is upgraded to https, except for a local address an allow rule names', () => {
    const none = { allow: [], ask: [], deny: [] };
    assert.equal(upgradedUrl('http://example.com/x', none), 'https://example.com/x');
    assert.equal(upgradedUrl('http://127.0.0.1:8080/x', none), 'https://127.0.0.1:8080/x');
    assert.equal(
      upgradedUrl('http://127.0.0.1:8080/x', { ...none, allow: ['WebFetch(domain:127.0.0.1)'] }),
      'http://127.0.0.1:8080/x',
    );
    assert.equal(
      upgradedUrl('http://example.com/x', { ...none, allow: ['WebFetch(domain:example.com)'] }),
      'https://example.com/x',
    );
  });
});

/** A side model that records what it was asked and answers with a fixed text. */
function recordingModel(answer = 'the answer'): SideModel & { requests: SideModelRequest[] } {
  const requests: SideModelRequest[] = [];
  return {
    model: 'claude-test-small',
    requests,
    async create(req) {
      requests.push(req);
      return { content: [{ type: 'text', text: answer }] };
    },
  };
}

function ctxFor(
  opts: { allow?: string[]; deny?: string[]; mode?: PermissionMode; sandbox?: SandboxSettings; model?: SideModel } = {},
): ToolUseContext {
  return {
    sessionId: 's',
    toolUseId: 'toolu_web',
    idempotencyKey: 's/toolu_web',
    agent: initialContext('/tmp'),
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

async function decide(input: unknown, ctx: ToolUseContext) {
  return decidePermission(WebFetchTool, WebFetchTool.inputSchema.parse(input), ctx);
}

describe('WebFetch permissions', () => {
  it('an unlisted host asks (dontAsk: denied); a domain rule allows; deny rules win', async () => {
    const url = { url: 'https://docs.example.com/x', prompt: 'p' };
    assert.equal((await decide(url, ctxFor())).behavior, 'ask');
    assert.equal((await decide(url, ctxFor({ mode: 'dontAsk' }))).behavior, 'deny');
    assert.equal((await decide(url, ctxFor({ allow: ['WebFetch(domain:*.example.com)'] }))).behavior, 'allow');
    assert.equal((await decide(url, ctxFor({ allow: ['WebFetch(domain:example.com)'] }))).behavior, 'ask');
    assert.equal(
      (await decide(url, ctxFor({ allow: ['WebFetch'], deny: ['WebFetch(domain:docs.example.com)'] }))).behavior,
      'deny',
    );
    // Read-only, but never allowed by the mode alone (as the reference).
    assert.equal((await decide(url, ctxFor({ mode: 'acceptEdits' }))).behavior, 'ask');
  });

  it('a private address literal is denied in every mode unless a rule names it', async () => {
    const local = { url: 'http://127.0.0.1:9/x', prompt: 'p' };
    assert.equal((await decide(local, ctxFor({ mode: 'bypassPermissions' }))).behavior, 'deny');
    assert.equal((await decide(local, ctxFor({ allow: ['WebFetch(domain:*)'] }))).behavior, 'deny');
    assert.equal((await decide(local, ctxFor({ allow: ['WebFetch(domain:127.0.0.1)'] }))).behavior, 'allow');
    const meta = { url: 'http://169.254.169.254/latest/meta-data', prompt: 'p' };
    assert.equal((await decide(meta, ctxFor({ mode: 'bypassPermissions' }))).behavior, 'deny');
  });

  it('the sandbox: denied domains are refused; a host off its allowlist asks even in bypassPermissions', async () => {
    const url = { url: 'https://example.com/', prompt: 'p' };
    const denied = await decide(
      url,
      ctxFor({ mode: 'bypassPermissions', sandbox: { network: { deniedDomains: ['example.com'] } } }),
    );
    assert.equal(denied.behavior, 'deny');
    assert.equal((await decide(url, ctxFor({ mode: 'bypassPermissions', sandbox: {} }))).behavior, 'ask');
    assert.equal(
      (
        await decide(
          url,
          ctxFor({ mode: 'bypassPermissions', sandbox: { network: { allowedDomains: ['example.com'] } } }),
        )
      ).behavior,
      'allow',
    );
    assert.equal(
      (await decide(url, ctxFor({ mode: 'bypassPermissions', sandbox: { enabled: false } }))).behavior,
      'allow',
    );
  });

  it('validateInput: no localhost or dotless hosts, no credentials, http(s) only', async () => {
    const v = (url: string) => WebFetchTool.validateInput!({ url, prompt: 'p' }, ctxFor());
    assert.equal((await v('http://localhost:3000/')).result, false);
    assert.equal((await v('https://user:pw@example.com/')).result, false);
    assert.equal((await v('ftp://example.com/')).result, false);
    assert.equal((await v('https://example.com/')).result, true);
    assert.equal(
      WebFetchTool.inputSchema.safeParse({ url: `https://e.com/${'a'.repeat(2000)}`, prompt: 'p' }).success,
      false,
    );
  });
});

describe('WebFetch against a local server', () => {
  let server: http.Server;
  let base: string;
  const hits: string[] = [];
  before(async () => {
    server = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/page') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<h1>Title</h1><p>Body text</p>');
      } else if (req.url === '/long') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('x'.repeat(250_000));
      } else if (req.url === '/same') {
        res.writeHead(301, { location: '/page' });
        res.end();
      } else if (req.url === '/away') {
        res.writeHead(302, { location: 'https://elsewhere.example.org/target' });
        res.end();
      } else if (req.url === '/private') {
        res.writeHead(401);
        res.end('secret body');
      } else if (req.url === '/image') {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(Buffer.alloc(64));
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  const allowLocal = ['WebFetch(domain:127.0.0.1)'];

  it('fetches, converts the HTML and asks the side model with the page and the prompt', async () => {
    const model = recordingModel('It says Body text.');
    const r = await WebFetchTool.call(
      { url: `${base}/page`, prompt: 'What does it say?' },
      ctxFor({ allow: allowLocal, model }),
      () => {},
    );
    assert.equal(r.data.result, 'It says Body text.');
    assert.equal(r.data.code, 200);
    assert.equal(r.data.bytes, Buffer.byteLength('<h1>Title</h1><p>Body text</p>'));
    const sent = String(model.requests[0]?.messages[0]?.content);
    assert.match(sent, /# Title\n\nBody text/);
    assert.match(sent, /What does it say\?/);
    assert.equal(r.network?.requests[0]?.address, '127.0.0.1');
    assert.equal(r.network?.bytes, r.data.bytes);
  });

  it('a long page is read 100,000 characters at a time, with the offset to read on', async () => {
    const model = recordingModel('part');
    const first = await WebFetchTool.call(
      { url: `${base}/long`, prompt: 'p' },
      ctxFor({ allow: allowLocal, model }),
      () => {},
    );
    assert.match(first.data.result, /characters 0 to 100000 of the page's 250000.*offset: 100000/s);
    const last = await WebFetchTool.call(
      { url: `${base}/long`, prompt: 'p', offset: 200_000 },
      ctxFor({ allow: allowLocal, model }),
      () => {},
    );
    assert.equal(last.data.result, 'part');
    assert.match(String(model.requests[1]?.messages[0]?.content), /starts 200000 characters into the page's 250000/);
    const past = await WebFetchTool.call(
      { url: `${base}/long`, prompt: 'p', offset: 300_000 },
      ctxFor({ allow: allowLocal, model }),
      () => {},
    );
    assert.match(past.data.result, /Nothing left to read from offset 300000/);
    assert.equal(model.requests.length, 2);
  });

  it('a same-site redirect is followed; another host is reported, not fetched; errors and binaries are said', async () => {
    const model = recordingModel();
    const ctx = ctxFor({ allow: allowLocal, model });
    const same = await WebFetchTool.call({ url: `${base}/same`, prompt: 'p' }, ctx, () => {});
    assert.equal(same.data.result, 'the answer');
    assert.deepEqual(
      same.network?.requests.map((h) => h.status),
      [301, 200],
    );
    const away = await WebFetchTool.call({ url: `${base}/away`, prompt: 'p' }, ctx, () => {});
    assert.match(away.data.result, /REDIRECT DETECTED[\s\S]*https:\/\/elsewhere\.example\.org\/target/);
    assert.equal(away.data.code, 302);
    assert.equal(away.network?.redirectedTo, 'https://elsewhere.example.org/target');
    const denied = await WebFetchTool.call({ url: `${base}/private`, prompt: 'p' }, ctx, () => {});
    assert.match(denied.data.result, /HTTP 401/);
    assert.doesNotMatch(denied.data.result, /secret body/);
    const image = await WebFetchTool.call({ url: `${base}/image`, prompt: 'p' }, ctx, () => {});
    assert.match(image.data.result, /binary content \(image\/png, 64 bytes\)/);
    assert.equal(model.requests.length, 1);
  });

  it('without a rule naming the host, the local address is never connected to', async () => {
    const before = hits.length;
    await assert.rejects(
      WebFetchTool.call(
        { url: `${base}/page`, prompt: 'p' },
        ctxFor({ allow: ['WebFetch(domain:*)'], model: recordingModel() }),
        () => {},
      ),
      /loopback, private or link-local/,
    );
    assert.equal(hits.length, before);
  });
});

describe('WebSearch', () => {
  it('sends the server tool with the domains and maps server_tool_use / web_search_tool_result blocks', async () => {
    const requests: SideModelRequest[] = [];
    const model: SideModel = {
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
    const r = await WebSearchTool.call(
      { query: 'durable agents', allowed_domains: ['a.example'] },
      ctxFor({ model }),
      () => {},
    );
    assert.deepEqual(requests[0]?.tools, [
      { type: 'web_search_20250305', name: 'web_search', max_uses: 8, allowed_domains: ['a.example'] },
    ]);
    assert.deepEqual(requests[0]?.toolChoice, { type: 'tool', name: 'web_search' });
    assert.deepEqual(r.data.results, [
      'Searching.',
      { tool_use_id: 'srvtoolu_1', content: [{ title: 'A', url: 'https://a.example/' }] },
      'A says so.',
    ]);
    assert.equal(r.data.searchCount, 1);
    const text = WebSearchTool.mapToolResultToToolResultBlockParam(r.data, 'toolu_1').content as string;
    assert.match(
      text,
      /^Web search results for query: "durable agents"\n\nSearching\.\n\nLinks: \[\{"title":"A","url":"https:\/\/a\.example\/"\}\]\n\nA says so\.\n\n\nREMINDER: You MUST include the sources above/,
    );
  });

  it('an error result is a line; both domain lists at once and a one-letter query are refused', async () => {
    const out = searchResults(
      'q',
      [
        { type: 'server_tool_use', id: 's1' },
        {
          type: 'web_search_tool_result',
          tool_use_id: 's1',
          content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' },
        },
      ],
      0,
    );
    assert.deepEqual(out.results, ['Web search error: max_uses_exceeded']);
    const both = await WebSearchTool.validateInput!(
      { query: 'qq', allowed_domains: ['a'], blocked_domains: ['b'] },
      ctxFor(),
    );
    assert.equal(both.result, false);
    assert.equal(WebSearchTool.inputSchema.safeParse({ query: 'q' }).success, false);
    assert.equal(
      (await decidePermission(WebSearchTool, { query: 'qq' }, ctxFor({ mode: 'dontAsk' }))).behavior,
      'deny',
    );
    assert.equal(
      (await decidePermission(WebSearchTool, { query: 'qq' }, ctxFor({ allow: ['WebSearch'] }))).behavior,
      'allow',
    );
  });
});
