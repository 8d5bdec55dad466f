// unit: MCP configuration (parsing, approval, env expansion), tool names, permission rules on
// MCP tools, tools built from listed definitions (schema, annotations, result mapping).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  expandEnvString,
  expandMcpServer,
  mcpRuleCoversTool,
  mcpServerOf,
  mcpToolName,
  mergeMcpSettings,
  parseMcpServers,
  resolveMcpServers,
  McpConfigError,
  McpManager,
  mcpTool,
  mcpResultBlock,
  claudeJsonPath,
  MCP_IMAGE_MAX_CHARS,
  claudeJsonProjectKey,
} from '../../src/mcp';
import { parseRule, validatePermissionRules } from '../../src/permissions/rules';
import { decidePermission } from '../../src/permissions/decide';
import { createToolPool } from '../../src/permissions/toolPool';
import { toolToAPISchema } from '../../src/toolProtocol/apiSchema';
import { loadSettings } from '../../src/cli/settings';
import type { ToolUseContext } from '../../src/toolProtocol/Tool';
import { hookToolResponse } from '../../src/hooks/toolResponse';
import { isValidBlock } from '../../src/toolCall/pipeline/resultBlocks';
import { readMcpConfigArgs } from '../../src/mcp/cliConfig';
import { cli as cli_ } from '../support/cli';

test('unit mcp: parseMcpServers accepts stdio and http, rejects the rest naming file and key', () => {
  const ok = parseMcpServers(
    {
      a: { command: 'node', args: ['x'], env: { K: 'v' } },
      b: { type: 'http', url: 'http://h/mcp', headers: { Authorization: 'Bearer ${T}' } },
      c: { type: 'stdio', command: 'c' },
    },
    '/p/.mcp.json',
  );
  assert.deepEqual(Object.keys(ok), ['a', 'b', 'c']);
  assert.equal(ok.b?.type, 'http');
  // The reference's other forms: "streamable-http" is http, "sse" is the legacy transport, names
  // are free text (normalised in tool names), timeout and alwaysLoad are server keys.
  const ref = parseMcpServers(
    {
      'my.server': { type: 'streamable-http', url: 'http://h/mcp', timeout: 5000 },
      'sp ace': { type: 'sse', url: 'http://h/sse', headers: { A: 'b' } },
      s: { command: 'x', alwaysLoad: true, timeout: 2000 },
    },
    '/p/.mcp.json',
  );
  assert.deepEqual(ref, {
    'my.server': { type: 'http', url: 'http://h/mcp', timeout: 5000 },
    'sp ace': { type: 'sse', url: 'http://h/sse', headers: { A: 'b' } },
    s: { command: 'x', timeout: 2000 },
  });
  const bad: Array<[unknown, RegExp]> = [
    [{ a: { command: '' } }, /\/p\/.mcp.json: mcpServers\.a\.command must be a non-empty string/],
    [{ a: { command: 'x', args: 'y' } }, /mcpServers\.a\.args must be a list of strings/],
    [{ a: { command: 'x', cwd: '/' } }, /mcpServers\.a\.cwd is not a key of a stdio server/],
    [{ a: { type: 'ws', url: 'ws://x' } }, /mcpServers\.a\.type "ws" is not supported/],
    [
      { a: { type: 'http', url: 'https://x', oauth: { clientId: 'c' } } },
      /mcpServers\.a\.oauth is a Claude Code key that durable-agent does not support \(OAuth/,
    ],
    [
      { a: { command: 'x', headersHelper: 'h' } },
      /mcpServers\.a\.headersHelper is a Claude Code key that durable-agent does not support/,
    ],
    [{ a: { command: 'x', timeout: '5s' } }, /mcpServers\.a\.timeout must be a positive whole number of milliseconds/],
    [{ a: { command: 'x', alwaysLoad: 'yes' } }, /mcpServers\.a\.alwaysLoad must be true or false/],
    [{ a: { type: 'http' } }, /mcpServers\.a\.url must be a non-empty string/],
    [{ a: { type: 'http', url: 'u', env: {} } }, /mcpServers\.a\.env is not a key of an http server/],
    [{ '': { command: 'x' } }, /mcpServers has a server with an empty name/],
    [{ a: { type: 'grpc' } }, /type must be "stdio", "http", "streamable-http" or "sse"/],
    [[], /mcpServers must be an object/],
  ];
  for (const [raw, re] of bad)
    assert.throws(
      () => parseMcpServers(raw, '/p/.mcp.json'),
      (e: Error) => e instanceof McpConfigError && re.test(e.message),
      JSON.stringify(raw),
    );
});

test('unit mcp: ${VAR} and ${VAR:-default} expand in command, args, env, url and headers; a missing variable is named', () => {
  const env = { HOME_DIR: '/home/u', TOKEN: 'abc' };
  const missing: string[] = [];
  assert.equal(expandEnvString('${HOME_DIR}/x ${NOPE:-def} ${TOKEN}', env, missing), '/home/u/x def abc');
  assert.deepEqual(missing, []);
  assert.equal(expandEnvString('${EMPTY:-}', {}, missing), '');
  assert.equal(
    expandEnvString('$TOKEN and $' + '{ not a var}', env, missing),
    '$TOKEN and ${ not a var}',
    'only ${NAME} forms expand',
  );
  const s = expandMcpServer(
    's',
    { command: '${HOME_DIR}/bin', args: ['--t=${TOKEN}', '${X:-1}'], env: { A: '${TOKEN}' } },
    env,
  );
  assert.deepEqual(s, { command: '/home/u/bin', args: ['--t=abc', '1'], env: { A: 'abc' } });
  const h = expandMcpServer(
    'h',
    { type: 'http', url: 'http://${HOST:-localhost}:1/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
    env,
  );
  assert.deepEqual(h, { type: 'http', url: 'http://localhost:1/mcp', headers: { Authorization: 'Bearer abc' } });
  assert.throws(
    () => expandMcpServer('gh', { command: 'x', env: { T: '${GH_TOKEN}', U: '${OTHER}' } }, {}),
    /MCP server gh: missing environment variables GH_TOKEN, OTHER/,
  );
});

test('unit mcp: tool names, servers of names, and the reference rule shapes', () => {
  assert.equal(mcpToolName('everything', 'echo'), 'mcp__everything__echo');
  assert.equal(mcpToolName('my.server', 'get-env x'), 'mcp__my_server__get-env_x');
  assert.deepEqual(mcpServerOf('mcp__fs__read_file', ['fs', 'everything']), { server: 'fs', tool: 'read_file' });
  assert.deepEqual(mcpServerOf('mcp__a__b__c', ['a', 'a__b']), { server: 'a__b', tool: 'c' });
  assert.equal(mcpServerOf('mcp__zzz__x', ['fs']), undefined);
  assert.equal(mcpServerOf('Read', ['fs']), undefined);
  // mcp__server, mcp__server__*, mcp__server__tool
  assert.equal(mcpRuleCoversTool('mcp__fs', 'mcp__fs__read_file'), true);
  assert.equal(mcpRuleCoversTool('mcp__fs__*', 'mcp__fs__read_file'), true);
  assert.equal(mcpRuleCoversTool('mcp__fs__read_file', 'mcp__fs__read_file'), true);
  assert.equal(mcpRuleCoversTool('mcp__fs__write_file', 'mcp__fs__read_file'), false);
  assert.equal(mcpRuleCoversTool('mcp__f', 'mcp__fs__read_file'), false, 'a server prefix is not a server');
  assert.equal(mcpRuleCoversTool('mcp__*', 'mcp__fs__read_file'), false, 'in an allow rule, mcp__* covers nothing');
  // Deny and ask rules match `*` anywhere as a glob over the whole name (the reference 2.1.197).
  assert.equal(mcpRuleCoversTool('mcp__*', 'mcp__fs__read_file', true), true);
  assert.equal(mcpRuleCoversTool('mcp__fs__read_*', 'mcp__fs__read_file', true), true);
  assert.equal(mcpRuleCoversTool('mcp__fs__read_*', 'mcp__fs__write_file', true), false);
  assert.equal(mcpRuleCoversTool('mcp__*__write_file', 'mcp__fs__write_file', true), true);
  assert.equal(mcpRuleCoversTool('mcp__f.__*', 'mcp__fs__write_file', true), false, 'only * is special');
  assert.equal(mcpRuleCoversTool('mcp__fs', 'mcp__fsx__a'), false);
  assert.equal(mcpRuleCoversTool('Read', 'mcp__fs__read_file'), false);
  // Wildcard MCP names parse as rules.
  assert.equal(parseRule('mcp__fs__*').toolName, 'mcp__fs__*');
  assert.deepEqual(
    validatePermissionRules({ allow: ['mcp__fs__*', 'mcp__fs'], ask: ['mcp__fs__get-*'], deny: ['mcp__*'] }),
    [],
  );
});

const listed = (name: string, annotations?: Record<string, boolean>) => ({
  name,
  description: `${name} tool`,
  inputSchema: {
    type: 'object',
    properties: { message: { type: 'string' } },
    required: ['message'],
    additionalProperties: false,
  },
  ...(annotations ? { annotations } : {}),
});
const site = { manager: new McpManager(), server: 'srv', config: { command: 'none' }, cwd: '/tmp' };
const ctx = (
  rules: { allow?: string[]; ask?: string[]; deny?: string[] },
  mode: 'default' | 'bypassPermissions' = 'default',
): ToolUseContext => ({
  sessionId: 's',
  toolUseId: 't',
  idempotencyKey: 's/t',
  agent: { cwd: '/tmp', additionalDirectories: [], readFiles: {} } as never,
  permission: {
    mode,
    rules: { allow: rules.allow ?? [], ask: rules.ask ?? [], deny: rules.deny ?? [] },
    workingDirectories: ['/tmp'],
  },
  abortSignal: new AbortController().signal,
});

test('unit mcp: annotations decide safety and idempotency; unannotated is unsafe and not idempotent', () => {
  const ro = mcpTool(site, listed('get', { readOnlyHint: true }));
  const idem = mcpTool(site, listed('put', { idempotentHint: true }));
  const bare = mcpTool(site, listed('rm'));
  assert.equal(ro.name, 'mcp__srv__get');
  assert.deepEqual([ro.isReadOnly({}), ro.isConcurrencySafe({}), ro.isIdempotent({})], [true, true, true]);
  assert.deepEqual([idem.isReadOnly({}), idem.isConcurrencySafe({}), idem.isIdempotent({})], [false, false, true]);
  assert.deepEqual([bare.isReadOnly({}), bare.isConcurrencySafe({}), bare.isIdempotent({})], [false, false, false]);
});

test('unit mcp: the server JSON Schema is the API input_schema and the validator', async () => {
  const t = mcpTool(site, listed('get', { readOnlyHint: true }));
  const api = await toolToAPISchema(t);
  assert.deepEqual(api, { name: 'mcp__srv__get', description: 'get tool', input_schema: listed('get').inputSchema });
  assert.equal(t.inputSchema.safeParse({ message: 'x' }).success, true);
  const bad = t.inputSchema.safeParse({ message: 3 });
  assert.equal(bad.success, false);
  assert.match(JSON.stringify(bad.error?.issues), /string/);
  assert.equal(t.inputSchema.safeParse({ message: 'x', extra: 1 }).success, false, 'additionalProperties: false holds');
  assert.equal(t.inputSchema.safeParse('x').success, false);
});

test('unit mcp: rules on MCP tools: deny by server, by wildcard, by tool; allow by server; pool drops blanket-denied servers', async () => {
  const put = mcpTool(site, listed('put'));
  const get = mcpTool(site, listed('get', { readOnlyHint: true }));
  const decide = (tool: typeof put, rules: Parameters<typeof ctx>[0], mode?: 'default' | 'bypassPermissions') =>
    decidePermission(tool, { message: 'x' }, ctx(rules, mode));
  assert.equal((await decide(put, {})).behavior, 'ask', 'an unannotated MCP tool asks in default mode');
  assert.equal((await decide(get, {})).behavior, 'allow', 'a readOnlyHint tool runs in default mode');
  assert.equal((await decide(put, { allow: ['mcp__srv'] })).behavior, 'allow');
  assert.equal((await decide(put, { allow: ['mcp__srv__*'] })).behavior, 'allow');
  assert.equal((await decide(put, { allow: ['mcp__srv__get'] })).behavior, 'ask');
  assert.equal((await decide(get, { deny: ['mcp__srv'] }, 'bypassPermissions')).behavior, 'deny');
  assert.equal((await decide(get, { deny: ['mcp__srv__*'] }, 'bypassPermissions')).behavior, 'deny');
  const d = await decide(get, { deny: ['mcp__srv__get'] }, 'bypassPermissions');
  assert.equal(d.behavior, 'deny');
  assert.match((d as { message: string }).message, /mcp__srv__get has been denied by the rule mcp__srv__get/);
  assert.equal((await decide(get, { deny: ['mcp__srv__put'] }, 'bypassPermissions')).behavior, 'allow');
  assert.equal((await decide(get, { ask: ['mcp__srv'] })).behavior, 'ask');
  const perms = (deny: string[]) => ({
    mode: 'default' as const,
    rules: { allow: [], ask: [], deny },
    workingDirectories: [],
  });
  assert.deepEqual(
    createToolPool([], perms(['mcp__srv__*']), { userTools: [put, get] }).map((t) => t.name),
    [],
  );
  assert.deepEqual(
    createToolPool([], perms(['mcp__srv__put']), { userTools: [put, get] }).map((t) => t.name),
    ['mcp__srv__get'],
  );
  assert.deepEqual(createToolPool([], perms(['mcp__other']), { userTools: [put, get] }).length, 2);
  // Globs in deny/ask rules, as the reference 2.1.197: deny mcp__* takes every MCP tool out, a tool glob some.
  assert.deepEqual(
    createToolPool([], perms(['mcp__*']), { userTools: [put, get] }).map((t) => t.name),
    [],
  );
  assert.deepEqual(
    createToolPool([], perms(['mcp__srv__g*']), { userTools: [put, get] }).map((t) => t.name),
    ['mcp__srv__put'],
  );
  assert.equal((await decide(get, { deny: ['mcp__*'] }, 'bypassPermissions')).behavior, 'deny');
  assert.equal((await decide(get, { ask: ['mcp__srv__g*'] })).behavior, 'ask');
  assert.equal(
    (await decide(put, { allow: ['mcp__*'] })).behavior,
    'ask',
    'an allow rule takes no glob but mcp__server__*',
  );
});

test("unit mcp: results in the reference's words: text, resources and links; structuredContent as JSON; isError as text; the same value is the PostToolUse tool_response", () => {
  const data = {
    server: 'my.srv',
    content: [
      { type: 'text', text: 'hello' },
      { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' },
      { type: 'resource_link', uri: 'file:///x', name: 'x', description: 'the x' },
      { type: 'resource', resource: { uri: 'mem://n', text: 'note' } },
      { type: 'resource', resource: { uri: 'mem://b', blob: 'AAAA', mimeType: 'application/octet-stream' } },
      { type: 'something-new' },
    ],
  };
  const b = mcpResultBlock(data, 'toolu_1', 'my.srv');
  assert.equal(b.is_error, undefined);
  const texts = (b.content as Array<{ text: string }>).map((c) => c.text);
  assert.equal(texts.length, 5, 'an unknown item type gives nothing, as in the reference');
  assert.equal(texts[0], 'hello');
  assert.equal(texts[1], '[Image could not be processed: its bytes are not image/png]');
  assert.equal(texts[2], '[Resource link: x] file:///x (the x)');
  assert.equal(texts[3], '[Resource from my.srv at mem://n] note');
  assert.match(
    texts[4]!,
    /^\[Resource from my\.srv at mem:\/\/b\] Binary content \(application\/octet-stream, 3 bytes\)/,
  );
  assert.deepEqual(hookToolResponse('mcp__my_srv__t', data, {}), b.content, 'tool_response is what the model gets');
  // isError: the text alone (the reference's tool_result and PostToolUseFailure error).
  assert.deepEqual(mcpResultBlock({ content: [{ type: 'text', text: 'bad' }], isError: true }, 'toolu_2'), {
    type: 'tool_result',
    tool_use_id: 'toolu_2',
    content: 'bad',
    is_error: true,
  });
  // structuredContent: its JSON, the text content left out (the text is a copy of it by the spec).
  const sc = { content: [{ type: 'text', text: '{"a": 1}' }], structuredContent: { a: 1 } };
  assert.equal(mcpResultBlock(sc, 't').content, '{"a":1}');
  assert.equal(hookToolResponse('mcp__s__t', sc, {}), '{"a":1}');
  assert.deepEqual(
    mcpResultBlock({ content: [{ type: 'resource_link', uri: 'u', name: 'n' }], structuredContent: { a: 1 } }, 't')
      .content,
    [
      { type: 'text', text: '[Resource link: n] u' },
      { type: 'text', text: '{"a":1}' },
    ],
  );
  assert.deepEqual(mcpResultBlock({ content: [] }, 't').content, '(no content)');
  // A real PNG (and one inside a resource) reaches the model as an image block, as in the reference;
  // an unsupported type, audio and an oversized image are notices.
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(16)]).toString(
    'base64',
  );
  const img = mcpResultBlock(
    {
      content: [
        { type: 'text', text: 'look' },
        { type: 'image', data: png, mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'mem://i', blob: png, mimeType: 'image/png' } },
        { type: 'image', data: png, mimeType: 'image/tiff' },
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        { type: 'image', data: 'iVBORw0KGgo' + 'A'.repeat(MCP_IMAGE_MAX_CHARS), mimeType: 'image/png' },
      ],
    },
    't',
    'ev',
  );
  assert.ok(isValidBlock(img), 'the pipeline takes the block');
  const parts = img.content as Array<{ type: string; text?: string; source?: { media_type: string; data: string } }>;
  assert.deepEqual(parts[1], { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } });
  assert.deepEqual(parts.slice(2, 4), [
    { type: 'text', text: '[Resource from ev at mem://i] ' },
    { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
  ]);
  assert.match(parts[4]!.text!, /^Binary content \(image\/tiff, 24 bytes\) not shown: only PNG, JPEG, GIF and WebP/);
  assert.match(parts[5]!.text!, /^\[Audio from ev\] Binary content \(audio\/wav, 3 bytes\)/);
  assert.match(parts[6]!.text!, /larger than the 5 MB the model takes/);
  assert.equal(parts.length, 7);
});

test("unit mcp: .mcp.json servers run unless disabled, as in the reference's unattended mode (claude -p); settings servers always; messages name the file", async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-cfg-'));
  await writeFile(
    join(dir, '.mcp.json'),
    JSON.stringify({
      mcpServers: {
        a: { command: 'a' },
        b: { command: 'b', env: { T: '${MCP_TEST_UNSET_VAR}' } },
        c: { command: 'c' },
      },
    }),
  );
  // Nothing approved: `claude -p` starts a server still pending approval, and so does run.
  const none = resolveMcpServers({ cwd: dir });
  assert.deepEqual(Object.keys(none.servers), ['a', 'b', 'c']);
  assert.deepEqual(none.warnings, []);
  const some = resolveMcpServers({
    cwd: dir,
    approval: { enabledMcpjsonServers: ['a', 'zz'], enableAllProjectMcpServers: false },
    settingsServers: { s: { command: 's' } },
    env: {},
  });
  assert.deepEqual(Object.keys(some.servers).sort(), ['a', 'b', 'c', 's']);
  assert.ok(some.warnings.some((w) => /enabledMcpjsonServers names zz/.test(w)));
  const all = resolveMcpServers({
    cwd: dir,
    approval: { enableAllProjectMcpServers: true, disabledMcpjsonServers: ['c'] },
    env: {},
  });
  assert.deepEqual(Object.keys(all.servers).sort(), ['a', 'b']);
  assert.ok(all.warnings.some((w) => /mcpServers\.c is disabled \(disabledMcpjsonServers\)/.test(w)));
  // A project's server may not read a variable a Bash command does not get (issue 30 J4b): named, with the reason.
  assert.ok(
    all.warnings.some((w) =>
      /\.mcp\.json: MCP server b is not started: \$\{MCP_TEST_UNSET_VAR\} is not expanded, because/.test(w),
    ),
    all.warnings.join('\n'),
  );
  // The person's own server: a variable the environment lacks is named as missing.
  const mine = resolveMcpServers({
    cwd: dir,
    settingsServers: { u: { command: 'u', env: { T: '${MCP_TEST_UNSET_VAR}' } } },
    env: {},
  });
  assert.ok(
    mine.warnings.some((w) => /settings: MCP server u: missing environment variable MCP_TEST_UNSET_VAR/.test(w)),
    mine.warnings.join('\n'),
  );
  assert.equal(all.origins.a, join(dir, '.mcp.json'));
  // A malformed .mcp.json is an error naming the file.
  await writeFile(join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { a: { command: 1 } } }));
  assert.throws(() => resolveMcpServers({ cwd: dir }), /\.mcp\.json: mcpServers\.a\.command/);
  await writeFile(join(dir, '.mcp.json'), JSON.stringify({ servers: {} }));
  assert.throws(() => resolveMcpServers({ cwd: dir }), /servers is not a key of \.mcp\.json/);
});

test('unit mcp: settings files carry mcpServers and the approval keys (merged, validated)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-set-'));
  const merged = mergeMcpSettings(
    mergeMcpSettings(undefined, { mcpServers: { a: { command: 'a1' } }, enabledMcpjsonServers: ['x'] }, 'u.json'),
    { mcpServers: { a: { command: 'a2' } }, enabledMcpjsonServers: ['y'], enableAllProjectMcpServers: false },
    'p.json',
  );
  assert.deepEqual(merged, {
    servers: { a: { command: 'a2' } },
    origins: { a: 'p.json' },
    approval: { enabledMcpjsonServers: ['x', 'y'], enableAllProjectMcpServers: false },
  });
  assert.throws(
    () => mergeMcpSettings(undefined, { enableAllProjectMcpServers: 'yes' }, 'p.json'),
    /p\.json: enableAllProjectMcpServers must be true or false/,
  );
  await mkdir(join(dir, '.durable-agent'));
  const file = join(dir, '.durable-agent', 'settings.json');
  await writeFile(file, JSON.stringify({ mcpServers: { s: { command: 'node' } }, enableAllProjectMcpServers: true }));
  const eff = loadSettings(dir, [file]);
  assert.deepEqual(eff.mcp?.servers, { s: { command: 'node' } });
  assert.equal(eff.mcp?.approval.enableAllProjectMcpServers, true);
  assert.deepEqual(eff.warnings, []);
  await writeFile(file, JSON.stringify({ mcpServers: { s: { type: 'ws', url: 'ws://x' } } }));
  assert.throws(() => loadSettings(dir, [file]), /settings\.json: mcpServers\.s\.type "ws" is not supported/);
});

test('unit mcp: allowedMcpServers / deniedMcpServers by name, command line and URL; deny wins; malformed entries are errors', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-allow-'));
  const servers = {
    gh: { type: 'http' as const, url: 'https://api.github.example/mcp' },
    fs: { command: 'npx', args: ['-y', 'server-filesystem', '.'] },
    ev: { command: 'node', args: ['everything.js'] },
  };
  const run = (approval: Parameters<typeof mergeMcpSettings>[1]) =>
    resolveMcpServers({
      cwd: dir,
      settingsServers: servers,
      approval: mergeMcpSettings(undefined, approval, 's.json')!.approval,
    });
  assert.deepEqual(Object.keys(run({ deniedMcpServers: [{ serverName: 'gh' }] }).servers), ['fs', 'ev']);
  assert.deepEqual(Object.keys(run({ deniedMcpServers: [{ serverUrl: 'https://*.github.example/*' }] }).servers), [
    'fs',
    'ev',
  ]);
  assert.deepEqual(
    Object.keys(run({ deniedMcpServers: [{ serverCommand: ['npx', '-y', 'server-filesystem', '.'] }] }).servers),
    ['gh', 'ev'],
  );
  const allowed = run({
    allowedMcpServers: [{ serverName: 'ev' }, { serverUrl: 'https://api.github.example/*' }],
    deniedMcpServers: [{ serverName: 'ev' }],
  });
  assert.deepEqual(Object.keys(allowed.servers), ['gh'], 'deny wins over allow');
  assert.ok(
    allowed.warnings.some((w) => /settings: mcpServers\.fs is not in allowedMcpServers; not started/.test(w)),
    allowed.warnings.join('\n'),
  );
  assert.ok(allowed.warnings.some((w) => /mcpServers\.ev is blocked by deniedMcpServers/.test(w)));
  assert.deepEqual(Object.keys(run({ allowedMcpServers: [] }).servers), [], 'an empty allowlist allows nothing');
  assert.throws(
    () => mergeMcpSettings(undefined, { deniedMcpServers: [{ serverName: 'a', serverUrl: 'b' }] }, 's.json'),
    /s\.json: deniedMcpServers\[0\] must be exactly one of/,
  );
  assert.throws(
    () => mergeMcpSettings(undefined, { allowedMcpServers: 'gh' }, 's.json'),
    /s\.json: allowedMcpServers must be a list/,
  );
});

test('unit mcp: ~/.claude.json user and local scopes as the reference reads them; scope precedence; normalised names in approvals', async () => {
  const root = await mkdtemp(join(tmpdir(), 'mcp-claudejson-'));
  const repo = join(root, 'repo');
  const cwd = join(repo, 'pkg');
  await mkdir(join(repo, '.git'), { recursive: true });
  await mkdir(cwd, { recursive: true });
  assert.equal(claudeJsonProjectKey(cwd), repo, 'the project key is the git root');
  assert.equal(claudeJsonPath({ CLAUDE_CONFIG_DIR: '/cfg' }), '/cfg/.claude.json');
  const cj = join(root, '.claude.json');
  await writeFile(
    cj,
    JSON.stringify({
      numStartups: 3,
      mcpServers: { u: { command: 'user-u' }, both: { command: 'user-both' } },
      projects: {
        [repo]: { allowedTools: [], mcpServers: { l: { command: 'local-l' }, both: { command: 'local-both' } } },
        '/elsewhere': { mcpServers: { x: { command: 'x' } } },
      },
    }),
  );
  await writeFile(
    join(cwd, '.mcp.json'),
    JSON.stringify({
      mcpServers: { 'my.srv': { command: 'proj' }, u: { command: 'proj-u' }, both: { command: 'proj-both' } },
    }),
  );
  const r = resolveMcpServers({ cwd, claudeJson: cj, approval: { enabledMcpjsonServers: ['my_srv', 'u', 'both'] } });
  const fromProject = { projectScope: { passEnv: [] } };
  assert.deepEqual(
    r.servers,
    {
      u: { command: 'proj-u', ...fromProject },
      both: { command: 'local-both' },
      'my.srv': { command: 'proj', ...fromProject },
      l: { command: 'local-l' },
    },
    'user < project < local',
  );
  assert.equal(r.origins.l, cj);
  assert.equal(r.origins['my.srv'], join(cwd, '.mcp.json'));
  assert.ok(!r.warnings.some((w) => /my_srv/.test(w)), r.warnings.join('\n'));
  // Without the path, ~/.claude.json is not read (tests never see the machine's own file).
  assert.deepEqual(
    Object.keys(resolveMcpServers({ cwd, approval: { enableAllProjectMcpServers: true } }).servers).sort(),
    ['both', 'my.srv', 'u'],
  );
  // disabledMcpjsonServers compares normalised names too; settings servers beat every scope.
  const d = resolveMcpServers({
    cwd,
    claudeJson: cj,
    approval: { enableAllProjectMcpServers: true, disabledMcpjsonServers: ['my srv'] },
    settingsServers: { l: { command: 'settings-l' } },
  });
  assert.equal(d.servers['my.srv'], undefined);
  assert.deepEqual(d.servers.l, { command: 'settings-l' });
  // Two names of one scope that name their tools alike: an error naming both.
  await writeFile(
    join(cwd, '.mcp.json'),
    JSON.stringify({ mcpServers: { 'a.b': { command: 'x' }, a_b: { command: 'y' } } }),
  );
  assert.throws(
    () => resolveMcpServers({ cwd, approval: { enableAllProjectMcpServers: true } }),
    /MCP servers "a\.b" .* and "a_b" .* both name their tools mcp__a_b__/,
  );
  // A malformed ~/.claude.json server is an error naming the file and the key.
  await writeFile(cj, JSON.stringify({ projects: { [repo]: { mcpServers: { bad: { type: 'http' } } } } }));
  await writeFile(join(cwd, '.mcp.json'), '{}');
  assert.throws(
    () => resolveMcpServers({ cwd, claudeJson: cj }),
    (e: Error) => e.message.includes(`${cj}: projects["${repo}"].mcpServers.bad.url must be a non-empty string`),
  );
  await writeFile(cj, '{ not json');
  assert.throws(() => resolveMcpServers({ cwd, claudeJson: cj }), /\.claude\.json is not valid JSON/);
});

test('unit mcp: --mcp-config files and JSON strings win over every scope; --strict-mcp-config keeps only them; bad values name the flag', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-cliconfig-'));
  await writeFile(
    join(dir, '.mcp.json'),
    JSON.stringify({ mcpServers: { p: { command: 'proj' }, both: { command: 'proj-both' } } }),
  );
  await writeFile(
    join(dir, 'extra.json'),
    JSON.stringify({ mcpServers: { both: { command: 'file-both' }, f: { type: 'sse', url: 'http://h/sse' } } }),
  );
  const cli = readMcpConfigArgs(['extra.json', '{"mcpServers":{"j":{"command":"json"}}}'], dir);
  assert.deepEqual(Object.keys(cli.servers), ['both', 'f', 'j']);
  assert.equal(cli.origins.both, `--mcp-config ${join(dir, 'extra.json')}`);
  assert.equal(cli.origins.j, '--mcp-config <json>');
  const merged = resolveMcpServers({
    cwd: dir,
    approval: { enableAllProjectMcpServers: true },
    settingsServers: { s: { command: 's' } },
    cli,
  });
  // A file in the working directory is the project's: its servers expand no worker credential (issue 30 J4b).
  assert.deepEqual(merged.servers.both, { command: 'file-both', projectScope: { passEnv: [] } }, '--mcp-config wins');
  assert.deepEqual(merged.servers.j, { command: 'json' });
  assert.deepEqual(Object.keys(merged.servers).sort(), ['both', 'f', 'j', 'p', 's']);
  const strict = resolveMcpServers({
    cwd: dir,
    approval: { enableAllProjectMcpServers: true, enabledMcpjsonServers: ['p'] },
    settingsServers: { s: { command: 's' } },
    cli: { ...cli, strict: true },
  });
  assert.deepEqual(Object.keys(strict.servers).sort(), ['both', 'f', 'j']);
  assert.deepEqual(strict.warnings, []);
  assert.throws(() => readMcpConfigArgs(['missing.json'], dir), /--mcp-config .*missing\.json: no such file/);
  assert.throws(() => readMcpConfigArgs(['{"mcpServers": '], dir), /--mcp-config <json> is not valid JSON/);
  assert.throws(
    () => readMcpConfigArgs(['{"servers": {}}'], dir),
    /--mcp-config <json>: servers is not a key of an MCP config/,
  );
  assert.throws(
    () => readMcpConfigArgs(['{"mcpServers": {"x": {"command": ""}}}'], dir),
    /--mcp-config <json>: mcpServers\.x\.command must be a non-empty string/,
  );
  // Through the CLI: a bad --mcp-config is a one-line message and a non-zero exit, before any connection.
  const r = await cli_(['run', '--cwd', dir, '--mcp-config', 'missing.json', 'hello'], {
    TEMPORAL_ADDRESS: '127.0.0.1:1',
  });
  assert.notEqual(r.code, 0);
  assert.match(r.stderr.trim(), /^durable-agent: .*--mcp-config .*missing\.json: no such file$/);
});

test('unit mcp: .mcp.json files from the working directory up are merged as the reference does (the closest wins), each server naming its file', async () => {
  const root = await mkdtemp(join(tmpdir(), 'mcp-nested-'));
  const sub = join(root, 'packages', 'app');
  await mkdir(sub, { recursive: true });
  await writeFile(
    join(root, '.mcp.json'),
    JSON.stringify({ mcpServers: { top: { command: 'top' }, both: { command: 'top-both' } } }),
  );
  await writeFile(
    join(sub, '.mcp.json'),
    JSON.stringify({ mcpServers: { both: { command: 'sub-both' }, near: { command: 'near' } } }),
  );
  const r = resolveMcpServers({ cwd: sub, approval: { disabledMcpjsonServers: ['near'] } });
  const fromProject = { projectScope: { passEnv: [] } };
  assert.deepEqual(r.servers, {
    top: { command: 'top', ...fromProject },
    both: { command: 'sub-both', ...fromProject },
  });
  assert.equal(r.origins.top, join(root, '.mcp.json'));
  assert.equal(r.origins.both, join(sub, '.mcp.json'));
  assert.ok(
    r.warnings.some((w) => w.startsWith(`${join(sub, '.mcp.json')}: mcpServers.near is disabled`)),
    r.warnings.join('\n'),
  );
  // From a directory without its own file, the parent's servers still come.
  await mkdir(join(root, 'docs'));
  assert.deepEqual(
    Object.keys(
      resolveMcpServers({ cwd: join(root, 'docs'), approval: { enableAllProjectMcpServers: true } }).servers,
    ).sort(),
    ['both', 'top'],
  );
  // An empty file configures nothing (the sandbox's placeholder for an absent .mcp.json is one, issue 30 J5).
  await writeFile(join(root, '.mcp.json'), '');
  assert.deepEqual(Object.keys(resolveMcpServers({ cwd: sub }).servers).sort(), ['both', 'near']);
  await writeFile(join(root, '.mcp.json'), '\ufeff \n');
  assert.deepEqual(Object.keys(resolveMcpServers({ cwd: sub }).servers).sort(), ['both', 'near']);
  // A malformed parent file is an error naming it.
  await writeFile(join(root, '.mcp.json'), '{');
  assert.throws(
    () => resolveMcpServers({ cwd: sub }),
    (e: Error) => e.message.startsWith(`${join(root, '.mcp.json')} is not valid JSON`),
  );
  // Where it goes wrong, as for settings files: line and column (a trailing comma on line 3).
  await writeFile(join(root, '.mcp.json'), '{\n  "mcpServers": {\n    "a": {"command": "x"},\n  }\n}');
  assert.throws(
    () => resolveMcpServers({ cwd: sub }),
    (e: Error) =>
      e.message.startsWith(`${join(root, '.mcp.json')} is not valid JSON at line 4 column 3:`) &&
      /trailing commas/.test(e.message),
    'line and column',
  );
});

// ---- issue 30, J4b: a project's MCP configuration never receives the worker's secrets ----
// The worker expands `${VAR}` from its own environment; a file the project holds (a session wrote
// it, or the person cloned it) may read only what a Bash command of the session gets.

const BAIT_ENV = {
  HOME: '/home/u',
  LANG: 'C.UTF-8',
  ANTHROPIC_API_KEY: 'sk-ant-bait-j4b',
  CLAUDE_CODE_OAUTH_TOKEN: 'oauth-bait-j4b',
  TEMPORAL_API_KEY: 'temporal-bait-j4b',
  DATABASE_URL: 'postgres://app:db-bait-j4b@db/app',
  GITHUB_TOKEN: 'gh-bait-j4b',
  DB_HOST: 'db.internal',
};
const project = (passEnv: string[] = []) => ({ projectScope: { passEnv } });
const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof McpConfigError, String(e));
    assert.ok(!/bait-j4b/.test(e.message), `the message holds a secret: ${e.message}`);
    return e.message;
  }
  assert.fail('expected a refusal');
};

test("unit mcp: a project's server expands the Bash allowlist and the person's passEnv, never a worker credential; the refusal names the variable and why (issue 30 J4b)", () => {
  // Remote: the worker itself would send the header to a URL the file names.
  const remote = {
    type: 'http' as const,
    url: 'http://127.0.0.1:1/mcp',
    headers: { Authorization: 'Bearer ${ANTHROPIC_API_KEY}' },
  };
  let m = refusal(() => expandMcpServer('docs', { ...remote, ...project() }, BAIT_ENV));
  assert.match(m, /^MCP server docs is not started: \$\{ANTHROPIC_API_KEY\} is not expanded/);
  assert.match(m, /a file of the project .*which a session or a cloned repository can write/);
  assert.match(m, /the worker's own credential/);
  assert.match(m, /user scope \(~\/\.claude\.json, ~\/\.claude\/settings\.json\) or with --mcp-config/);
  // Never through a default (no empty or literal value in its place), nor a passEnv that names it, nor `*`.
  for (const [headers, passEnv] of [
    [{ Authorization: 'Bearer ${ANTHROPIC_API_KEY:-}' }, []],
    [{ Authorization: 'Bearer ${ANTHROPIC_API_KEY}' }, ['ANTHROPIC_API_KEY', '*', 'ANTHROPIC_*']],
    [{ 'X-T': '${CLAUDE_CODE_OAUTH_TOKEN}', 'X-U': '${TEMPORAL_API_KEY}' }, ['*']],
  ] as Array<[Record<string, string>, string[]]>)
    assert.match(
      refusal(() => expandMcpServer('docs', { ...remote, headers, ...project(passEnv) }, BAIT_ENV)),
      /is not started: \$\{[A-Z_]+\}(, \$\{[A-Z_]+\})? (is|are) not expanded.*worker's own credential/,
    );
  // In the URL too (a query string is as good as a header).
  m = refusal(() =>
    expandMcpServer('docs', { type: 'sse', url: 'http://h/sse?k=${GITHUB_TOKEN}', ...project() }, BAIT_ENV),
  );
  assert.match(m, /\$\{GITHUB_TOKEN\} is not expanded.*not among the variables a Bash command gets/);
  assert.match(m, /or name GITHUB_TOKEN in sandbox\.passEnv of your user settings/);
  // Stdio: command, args and env alike; every refused variable is named once.
  m = refusal(() =>
    expandMcpServer(
      'db',
      {
        command: '${HOME}/bin/srv',
        args: ['--db=${DATABASE_URL}', '--again=${DATABASE_URL}'],
        env: { K: '${ANTHROPIC_API_KEY}' },
        ...project(),
      },
      BAIT_ENV,
    ),
  );
  assert.match(m, /\$\{ANTHROPIC_API_KEY\}, \$\{DATABASE_URL\} are not expanded/);
  assert.match(m, /\$\{ANTHROPIC_API_KEY\} is the worker's own credential.*\$\{DATABASE_URL\} is not among/);
  // What a Bash command gets expands: the allowlist, and the person's passEnv (names and patterns).
  assert.deepEqual(
    expandMcpServer(
      'ok',
      {
        command: '${HOME}/bin/srv',
        args: ['--lang=${LANG}', '--db=${DB_HOST}', '--x=${UNSET_IN_WORKER:-d}'],
        env: { U: '${DATABASE_URL}' },
        ...project(['DB_*', 'DATABASE_URL', 'UNSET_IN_WORKER']),
      },
      BAIT_ENV,
    ),
    {
      command: '/home/u/bin/srv',
      args: ['--lang=C.UTF-8', '--db=db.internal', '--x=d'],
      env: { U: 'postgres://app:db-bait-j4b@db/app' },
      ...project(['DB_*', 'DATABASE_URL', 'UNSET_IN_WORKER']),
    },
  );
  // The person's own scopes (no projectScope) expand every variable, as the reference does.
  assert.deepEqual((expandMcpServer('docs', remote, BAIT_ENV) as typeof remote).headers, {
    Authorization: 'Bearer sk-ant-bait-j4b',
  });
  // A file cannot set (or clear) the mark: it is not a key of any server.
  assert.throws(
    () => parseMcpServers({ a: { command: 'x', projectScope: { passEnv: ['*'] } } }, '/p/.mcp.json'),
    /mcpServers\.a\.projectScope is not a key of a stdio server/,
  );
  assert.throws(
    () => parseMcpServers({ a: { type: 'http', url: 'http://h', projectScope: {} } }, '/p/.mcp.json'),
    /mcpServers\.a\.projectScope is not a key of an http server/,
  );
});

test("unit mcp: the project's files are marked where they are read: .mcp.json, a project's or local settings file, a --mcp-config file in the working directory; the person's scopes are not (issue 30 J4b)", async () => {
  const root = await mkdtemp(join(tmpdir(), 'mcp-j4b-'));
  const cwd = join(root, 'proj');
  const home = join(root, 'home');
  await mkdir(join(cwd, '.claude'), { recursive: true });
  await mkdir(join(home, '.durable-agent'), { recursive: true });
  await mkdir(join(home, '.claude'), { recursive: true });
  const key = {
    type: 'http',
    url: 'http://127.0.0.1:1/mcp',
    headers: { Authorization: 'Bearer ${ANTHROPIC_API_KEY}' },
  };
  await writeFile(join(cwd, '.mcp.json'), JSON.stringify({ mcpServers: { mcpjson: key } }));
  await writeFile(
    join(cwd, '.claude', 'settings.json'),
    JSON.stringify({ mcpServers: { projset: key }, sandbox: { passEnv: ['PROJECT_NAMED'] } }),
  );
  await writeFile(join(cwd, '.claude', 'settings.local.json'), JSON.stringify({ mcpServers: { localset: key } }));
  await writeFile(
    join(home, '.durable-agent', 'settings.json'),
    JSON.stringify({ mcpServers: { userset: key }, sandbox: { passEnv: ['PERSON_NAMED'] } }),
  );
  await writeFile(join(cwd, 'team-mcp.json'), JSON.stringify({ mcpServers: { cliproj: key } }));
  await writeFile(join(home, 'mine.json'), JSON.stringify({ mcpServers: { clihome: key } }));
  const cj = join(home, '.claude.json');
  await writeFile(
    cj,
    JSON.stringify({ mcpServers: { cjuser: key }, projects: { [cwd]: { mcpServers: { cjlocal: key } } } }),
  );
  const saved = { ...process.env };
  process.env.DURABLE_AGENT_HOME = join(home, '.durable-agent');
  process.env.CLAUDE_CONFIG_DIR = join(home, '.claude');
  process.env.DURABLE_AGENT_MANAGED_SETTINGS = join(home, 'no-managed.json');
  try {
    const settings = loadSettings(cwd);
    // Only the person's files' passEnv counts for a project's servers (a cloned repository's settings cannot widen it).
    assert.deepEqual(settings.personPassEnv, ['PERSON_NAMED']);
    const r = resolveMcpServers({
      cwd,
      settingsServers: settings.mcp!.servers,
      settingsOrigin: settings.mcp!.origins,
      env: BAIT_ENV,
      claudeJson: cj,
      personPassEnv: settings.personPassEnv!,
      cli: readMcpConfigArgs(
        ['team-mcp.json', join(home, 'mine.json'), JSON.stringify({ mcpServers: { inline: key } })],
        cwd,
      ),
    });
    const marked = Object.entries(r.servers)
      .filter(([, s]) => s.projectScope)
      .map(([n]) => n)
      .sort();
    assert.deepEqual(marked, ['cliproj', 'localset', 'mcpjson', 'projset']);
    for (const n of marked) assert.deepEqual(r.servers[n]!.projectScope, { passEnv: ['PERSON_NAMED'] }, n);
    assert.deepEqual(
      Object.keys(r.servers)
        .filter((n) => !marked.includes(n))
        .sort(),
      ['cjlocal', 'cjuser', 'clihome', 'inline', 'userset'],
    );
    // `run` says so before anything starts, naming the file, the server and the variable.
    for (const n of marked)
      assert.ok(
        r.warnings.some((w) =>
          w.startsWith(`${r.origins[n]}: MCP server ${n} is not started: \${ANTHROPIC_API_KEY} is not expanded`),
        ),
        `${n}: ${r.warnings.join('\n')}`,
      );
    assert.ok(!r.warnings.some((w) => /userset|cjuser|inline/.test(w)), r.warnings.join('\n'));
  } finally {
    for (const k of ['DURABLE_AGENT_HOME', 'CLAUDE_CONFIG_DIR', 'DURABLE_AGENT_MANAGED_SETTINGS'])
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
  }
});

test("unit mcp: the worker's manager never sends a worker credential to a project's remote server: no request reaches it, the error names the variable (issue 30 J4b)", async () => {
  const got: string[] = [];
  const listener = createServer((req, res) => {
    got.push(JSON.stringify(req.headers) + (req.url ?? ''));
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', () => r()));
  const port = (listener.address() as AddressInfo).port;
  const m = new McpManager({ env: BAIT_ENV, startupTimeoutMs: 5_000, failedStartMemoryMs: 0 });
  try {
    const server = {
      type: 'http' as const,
      url: `http://127.0.0.1:${port}/mcp?db=\${DATABASE_URL}`,
      headers: { Authorization: 'Bearer ${ANTHROPIC_API_KEY}' },
    };
    await assert.rejects(
      m.listTools('docs', { ...server, ...project() }, tmpdir()),
      (e: Error) =>
        /MCP server docs is not started: \$\{ANTHROPIC_API_KEY\}, \$\{DATABASE_URL\} are not expanded/.test(
          e.message,
        ) && !/bait-j4b/.test(e.message),
    );
    assert.equal(got.length, 0, `the project server was contacted: ${got.join('\n')}`);
    // Control: the same server from the person's own scope is contacted with the key (the oracle works).
    await assert.rejects(m.listTools('docs', server, tmpdir()));
    assert.ok(
      got.some((h) => h.includes('sk-ant-bait-j4b')),
      got.join('\n'),
    );
  } finally {
    await m.close();
    listener.close();
  }
});

test("unit mcp: a person's server that fails to start is named as configured: no value its ${VAR}s took reaches the message, from its command line, its URL or its own stderr (issue 30 O4)", async () => {
  const env = { PATH: process.env.PATH, PAY_KEY: 'bait-o4-pay-7c1', HOOK_TOKEN: 'bait-o4-hook-9d2' };
  const m = new McpManager({ env, startupTimeoutMs: 5_000, failedStartMemoryMs: 0 });
  try {
    // A local server that prints its key and exits; a remote one whose host refuses.
    const local = { command: 'sh', args: ['-c', 'echo "starting with ${PAY_KEY}" >&2; exit 3', '--key=${PAY_KEY}'] };
    const remote = { type: 'http' as const, url: 'http://127.0.0.1:9/mcp?token=${HOOK_TOKEN}' };
    for (const [name, server] of [
      ['pay', local],
      ['hook', remote],
    ] as const) {
      const err = await m.listTools(name, server, tmpdir()).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      assert.ok(err, `${name} started`);
      assert.doesNotMatch(err.message, /bait-o4/, err.message);
      assert.match(err.message, name === 'pay' ? /--key=\$\{PAY_KEY\}/ : /token=\$\{HOOK_TOKEN\}/, err.message);
    }
  } finally {
    await m.close();
  }
});
