"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: MCP configuration (parsing, approval, env expansion), tool names, permission rules on
// MCP tools, tools built from listed definitions (schema, annotations, result mapping).
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const mcp_1 = require("../../src/mcp");
const rules_1 = require("../../src/permissions/rules");
const decide_1 = require("../../src/permissions/decide");
const toolPool_1 = require("../../src/permissions/toolPool");
const apiSchema_1 = require("../../src/tools/apiSchema");
const settings_1 = require("../../src/cli/settings");
const toolResponse_1 = require("../../src/hooks/toolResponse");
const messages_1 = require("../../src/pipeline/messages");
const cliConfig_1 = require("../../src/mcp/cliConfig");
const cli_1 = require("../support/cli");
(0, node_test_1.test)('unit mcp: parseMcpServers accepts stdio and http, rejects the rest naming file and key', () => {
    const ok = (0, mcp_1.parseMcpServers)({
        a: { command: 'node', args: ['x'], env: { K: 'v' } },
        b: { type: 'http', url: 'http://h/mcp', headers: { Authorization: 'Bearer ${T}' } },
        c: { type: 'stdio', command: 'c' },
    }, '/p/.mcp.json');
    strict_1.default.deepEqual(Object.keys(ok), ['a', 'b', 'c']);
    strict_1.default.equal(ok.b?.type, 'http');
    // The reference's other forms: "streamable-http" is http, "sse" is the legacy transport, names
    // are free text (normalised in tool names), timeout and alwaysLoad are server keys.
    const ref = (0, mcp_1.parseMcpServers)({
        'my.server': { type: 'streamable-http', url: 'http://h/mcp', timeout: 5000 },
        'sp ace': { type: 'sse', url: 'http://h/sse', headers: { A: 'b' } },
        s: { command: 'x', alwaysLoad: true, timeout: 2000 },
    }, '/p/.mcp.json');
    strict_1.default.deepEqual(ref, {
        'my.server': { type: 'http', url: 'http://h/mcp', timeout: 5000 },
        'sp ace': { type: 'sse', url: 'http://h/sse', headers: { A: 'b' } },
        s: { command: 'x', timeout: 2000 },
    });
    const bad = [
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
        strict_1.default.throws(() => (0, mcp_1.parseMcpServers)(raw, '/p/.mcp.json'), (e) => e instanceof mcp_1.McpConfigError && re.test(e.message), JSON.stringify(raw));
});
(0, node_test_1.test)('unit mcp: ${VAR} and ${VAR:-default} expand in command, args, env, url and headers; a missing variable is named', () => {
    const env = { HOME_DIR: '/home/u', TOKEN: 'abc' };
    const missing = [];
    strict_1.default.equal((0, mcp_1.expandEnvString)('${HOME_DIR}/x ${NOPE:-def} ${TOKEN}', env, missing), '/home/u/x def abc');
    strict_1.default.deepEqual(missing, []);
    strict_1.default.equal((0, mcp_1.expandEnvString)('${EMPTY:-}', {}, missing), '');
    strict_1.default.equal((0, mcp_1.expandEnvString)('$TOKEN and $' + '{ not a var}', env, missing), '$TOKEN and ${ not a var}', 'only ${NAME} forms expand');
    const s = (0, mcp_1.expandMcpServer)('s', { command: '${HOME_DIR}/bin', args: ['--t=${TOKEN}', '${X:-1}'], env: { A: '${TOKEN}' } }, env);
    strict_1.default.deepEqual(s, { command: '/home/u/bin', args: ['--t=abc', '1'], env: { A: 'abc' } });
    const h = (0, mcp_1.expandMcpServer)('h', { type: 'http', url: 'http://${HOST:-localhost}:1/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } }, env);
    strict_1.default.deepEqual(h, { type: 'http', url: 'http://localhost:1/mcp', headers: { Authorization: 'Bearer abc' } });
    strict_1.default.throws(() => (0, mcp_1.expandMcpServer)('gh', { command: 'x', env: { T: '${GH_TOKEN}', U: '${OTHER}' } }, {}), /MCP server gh: missing environment variables GH_TOKEN, OTHER/);
});
(0, node_test_1.test)('unit mcp: tool names, servers of names, and the reference rule shapes', () => {
    strict_1.default.equal((0, mcp_1.mcpToolName)('everything', 'echo'), 'mcp__everything__echo');
    strict_1.default.equal((0, mcp_1.mcpToolName)('my.server', 'get-env x'), 'mcp__my_server__get-env_x');
    strict_1.default.deepEqual((0, mcp_1.mcpServerOf)('mcp__fs__read_file', ['fs', 'everything']), { server: 'fs', tool: 'read_file' });
    strict_1.default.deepEqual((0, mcp_1.mcpServerOf)('mcp__a__b__c', ['a', 'a__b']), { server: 'a__b', tool: 'c' });
    strict_1.default.equal((0, mcp_1.mcpServerOf)('mcp__zzz__x', ['fs']), undefined);
    strict_1.default.equal((0, mcp_1.mcpServerOf)('Read', ['fs']), undefined);
    // mcp__server, mcp__server__*, mcp__server__tool
    strict_1.default.equal((0, mcp_1.mcpRuleCoversTool)('mcp__fs', 'mcp__fs__read_file'), true);
    strict_1.default.equal((0, mcp_1.mcpRuleCoversTool)('mcp__fs__*', 'mcp__fs__read_file'), true);
    strict_1.default.equal((0, mcp_1.mcpRuleCoversTool)('mcp__fs__read_file', 'mcp__fs__read_file'), true);
    strict_1.default.equal((0, mcp_1.mcpRuleCoversTool)('mcp__fs__write_file', 'mcp__fs__read_file'), false);
    strict_1.default.equal((0, mcp_1.mcpRuleCoversTool)('mcp__f', 'mcp__fs__read_file'), false, 'a server prefix is not a server');
    strict_1.default.equal((0, mcp_1.mcpRuleCoversTool)('mcp__*', 'mcp__fs__read_file'), false, 'in an allow rule, mcp__* covers nothing');
    // Deny and ask rules match `*` anywhere as a glob over the whole name (the reference 2.1.197).
    strict_1.default.equal((0, mcp_1.mcpRuleCoversTool)('mcp__*', 'mcp__fs__read_file', true), true);
    strict_1.default.equal((0, mcp_1.mcpRuleCoversTool)('mcp__fs__read_*', 'mcp__fs__read_file', true), true);
    strict_1.default.equal((0, mcp_1.mcpRuleCoversTool)('mcp__fs__read_*', 'mcp__fs__write_file', true), false);
    strict_1.default.equal((0, mcp_1.mcpRuleCoversTool)('mcp__*__write_file', 'mcp__fs__write_file', true), true);
    strict_1.default.equal((0, mcp_1.mcpRuleCoversTool)('mcp__f.__*', 'mcp__fs__write_file', true), false, 'only * is special');
    strict_1.default.equal((0, mcp_1.mcpRuleCoversTool)('mcp__fs', 'mcp__fsx__a'), false);
    strict_1.default.equal((0, mcp_1.mcpRuleCoversTool)('Read', 'mcp__fs__read_file'), false);
    // Wildcard MCP names parse as rules.
    strict_1.default.equal((0, rules_1.parseRule)('mcp__fs__*').toolName, 'mcp__fs__*');
    strict_1.default.deepEqual((0, rules_1.validatePermissionRules)({ allow: ['mcp__fs__*', 'mcp__fs'], ask: ['mcp__fs__get-*'], deny: ['mcp__*'] }), []);
});
const listed = (name, annotations) => ({
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
const site = { manager: new mcp_1.McpManager(), server: 'srv', config: { command: 'none' }, cwd: '/tmp' };
const ctx = (rules, mode = 'default') => ({
    sessionId: 's',
    toolUseId: 't',
    idempotencyKey: 's/t',
    agent: { cwd: '/tmp', additionalDirectories: [], readFiles: {} },
    permission: {
        mode,
        rules: { allow: rules.allow ?? [], ask: rules.ask ?? [], deny: rules.deny ?? [] },
        workingDirectories: ['/tmp'],
    },
    abortSignal: new AbortController().signal,
});
(0, node_test_1.test)('unit mcp: annotations decide safety and idempotency; unannotated is unsafe and not idempotent', () => {
    const ro = (0, mcp_1.mcpTool)(site, listed('get', { readOnlyHint: true }));
    const idem = (0, mcp_1.mcpTool)(site, listed('put', { idempotentHint: true }));
    const bare = (0, mcp_1.mcpTool)(site, listed('rm'));
    strict_1.default.equal(ro.name, 'mcp__srv__get');
    strict_1.default.deepEqual([ro.isReadOnly({}), ro.isConcurrencySafe({}), ro.isIdempotent({})], [true, true, true]);
    strict_1.default.deepEqual([idem.isReadOnly({}), idem.isConcurrencySafe({}), idem.isIdempotent({})], [false, false, true]);
    strict_1.default.deepEqual([bare.isReadOnly({}), bare.isConcurrencySafe({}), bare.isIdempotent({})], [false, false, false]);
});
(0, node_test_1.test)('unit mcp: the server JSON Schema is the API input_schema and the validator', async () => {
    const t = (0, mcp_1.mcpTool)(site, listed('get', { readOnlyHint: true }));
    const api = await (0, apiSchema_1.toolToAPISchema)(t);
    strict_1.default.deepEqual(api, { name: 'mcp__srv__get', description: 'get tool', input_schema: listed('get').inputSchema });
    strict_1.default.equal(t.inputSchema.safeParse({ message: 'x' }).success, true);
    const bad = t.inputSchema.safeParse({ message: 3 });
    strict_1.default.equal(bad.success, false);
    strict_1.default.match(JSON.stringify(bad.error?.issues), /string/);
    strict_1.default.equal(t.inputSchema.safeParse({ message: 'x', extra: 1 }).success, false, 'additionalProperties: false holds');
    strict_1.default.equal(t.inputSchema.safeParse('x').success, false);
});
(0, node_test_1.test)('unit mcp: rules on MCP tools: deny by server, by wildcard, by tool; allow by server; pool drops blanket-denied servers', async () => {
    const put = (0, mcp_1.mcpTool)(site, listed('put'));
    const get = (0, mcp_1.mcpTool)(site, listed('get', { readOnlyHint: true }));
    const decide = (tool, rules, mode) => (0, decide_1.decidePermission)(tool, { message: 'x' }, ctx(rules, mode));
    strict_1.default.equal((await decide(put, {})).behavior, 'ask', 'an unannotated MCP tool asks in default mode');
    strict_1.default.equal((await decide(get, {})).behavior, 'allow', 'a readOnlyHint tool runs in default mode');
    strict_1.default.equal((await decide(put, { allow: ['mcp__srv'] })).behavior, 'allow');
    strict_1.default.equal((await decide(put, { allow: ['mcp__srv__*'] })).behavior, 'allow');
    strict_1.default.equal((await decide(put, { allow: ['mcp__srv__get'] })).behavior, 'ask');
    strict_1.default.equal((await decide(get, { deny: ['mcp__srv'] }, 'bypassPermissions')).behavior, 'deny');
    strict_1.default.equal((await decide(get, { deny: ['mcp__srv__*'] }, 'bypassPermissions')).behavior, 'deny');
    const d = await decide(get, { deny: ['mcp__srv__get'] }, 'bypassPermissions');
    strict_1.default.equal(d.behavior, 'deny');
    strict_1.default.match(d.message, /mcp__srv__get has been denied by the rule mcp__srv__get/);
    strict_1.default.equal((await decide(get, { deny: ['mcp__srv__put'] }, 'bypassPermissions')).behavior, 'allow');
    strict_1.default.equal((await decide(get, { ask: ['mcp__srv'] })).behavior, 'ask');
    const perms = (deny) => ({
        mode: 'default',
        rules: { allow: [], ask: [], deny },
        workingDirectories: [],
    });
    strict_1.default.deepEqual((0, toolPool_1.createToolPool)([], perms(['mcp__srv__*']), { userTools: [put, get] }).map((t) => t.name), []);
    strict_1.default.deepEqual((0, toolPool_1.createToolPool)([], perms(['mcp__srv__put']), { userTools: [put, get] }).map((t) => t.name), ['mcp__srv__get']);
    strict_1.default.deepEqual((0, toolPool_1.createToolPool)([], perms(['mcp__other']), { userTools: [put, get] }).length, 2);
    // Globs in deny/ask rules, as the reference 2.1.197: deny mcp__* takes every MCP tool out, a tool glob some.
    strict_1.default.deepEqual((0, toolPool_1.createToolPool)([], perms(['mcp__*']), { userTools: [put, get] }).map((t) => t.name), []);
    strict_1.default.deepEqual((0, toolPool_1.createToolPool)([], perms(['mcp__srv__g*']), { userTools: [put, get] }).map((t) => t.name), ['mcp__srv__put']);
    strict_1.default.equal((await decide(get, { deny: ['mcp__*'] }, 'bypassPermissions')).behavior, 'deny');
    strict_1.default.equal((await decide(get, { ask: ['mcp__srv__g*'] })).behavior, 'ask');
    strict_1.default.equal((await decide(put, { allow: ['mcp__*'] })).behavior, 'ask', 'an allow rule takes no glob but mcp__server__*');
});
(0, node_test_1.test)("unit mcp: results in the reference's words: text, resources and links; structuredContent as JSON; isError as text; the same value is the PostToolUse tool_response", () => {
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
    const b = (0, mcp_1.mcpResultBlock)(data, 'toolu_1', 'my.srv');
    strict_1.default.equal(b.is_error, undefined);
    const texts = b.content.map((c) => c.text);
    strict_1.default.equal(texts.length, 5, 'an unknown item type gives nothing, as in the reference');
    strict_1.default.equal(texts[0], 'hello');
    strict_1.default.equal(texts[1], '[Image could not be processed: its bytes are not image/png]');
    strict_1.default.equal(texts[2], '[Resource link: x] file:///x (the x)');
    strict_1.default.equal(texts[3], '[Resource from my.srv at mem://n] note');
    strict_1.default.match(texts[4], /^\[Resource from my\.srv at mem:\/\/b\] Binary content \(application\/octet-stream, 3 bytes\)/);
    strict_1.default.deepEqual((0, toolResponse_1.hookToolResponse)('mcp__my_srv__t', data, {}), b.content, 'tool_response is what the model gets');
    // isError: the text alone (the reference's tool_result and PostToolUseFailure error).
    strict_1.default.deepEqual((0, mcp_1.mcpResultBlock)({ content: [{ type: 'text', text: 'bad' }], isError: true }, 'toolu_2'), {
        type: 'tool_result',
        tool_use_id: 'toolu_2',
        content: 'bad',
        is_error: true,
    });
    // structuredContent: its JSON, the text content left out (the text is a copy of it by the spec).
    const sc = { content: [{ type: 'text', text: '{"a": 1}' }], structuredContent: { a: 1 } };
    strict_1.default.equal((0, mcp_1.mcpResultBlock)(sc, 't').content, '{"a":1}');
    strict_1.default.equal((0, toolResponse_1.hookToolResponse)('mcp__s__t', sc, {}), '{"a":1}');
    strict_1.default.deepEqual((0, mcp_1.mcpResultBlock)({ content: [{ type: 'resource_link', uri: 'u', name: 'n' }], structuredContent: { a: 1 } }, 't')
        .content, [
        { type: 'text', text: '[Resource link: n] u' },
        { type: 'text', text: '{"a":1}' },
    ]);
    strict_1.default.deepEqual((0, mcp_1.mcpResultBlock)({ content: [] }, 't').content, '(no content)');
    // A real PNG (and one inside a resource) reaches the model as an image block, as in the reference;
    // an unsupported type, audio and an oversized image are notices.
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(16)]).toString('base64');
    const img = (0, mcp_1.mcpResultBlock)({
        content: [
            { type: 'text', text: 'look' },
            { type: 'image', data: png, mimeType: 'image/png' },
            { type: 'resource', resource: { uri: 'mem://i', blob: png, mimeType: 'image/png' } },
            { type: 'image', data: png, mimeType: 'image/tiff' },
            { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
            { type: 'image', data: 'iVBORw0KGgo' + 'A'.repeat(mcp_1.MCP_IMAGE_MAX_CHARS), mimeType: 'image/png' },
        ],
    }, 't', 'ev');
    strict_1.default.ok((0, messages_1.isValidBlock)(img), 'the pipeline takes the block');
    const parts = img.content;
    strict_1.default.deepEqual(parts[1], { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } });
    strict_1.default.deepEqual(parts.slice(2, 4), [
        { type: 'text', text: '[Resource from ev at mem://i] ' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
    ]);
    strict_1.default.match(parts[4].text, /^Binary content \(image\/tiff, 24 bytes\) not shown: only PNG, JPEG, GIF and WebP/);
    strict_1.default.match(parts[5].text, /^\[Audio from ev\] Binary content \(audio\/wav, 3 bytes\)/);
    strict_1.default.match(parts[6].text, /larger than the 5 MB the model takes/);
    strict_1.default.equal(parts.length, 7);
});
(0, node_test_1.test)("unit mcp: .mcp.json servers run unless disabled, as in the reference's unattended mode (claude -p); settings servers always; messages name the file", async () => {
    const dir = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'mcp-cfg-'));
    await (0, promises_1.writeFile)((0, node_path_1.join)(dir, '.mcp.json'), JSON.stringify({
        mcpServers: {
            a: { command: 'a' },
            b: { command: 'b', env: { T: '${MCP_TEST_UNSET_VAR}' } },
            c: { command: 'c' },
        },
    }));
    // Nothing approved: `claude -p` starts a server still pending approval, and so does run.
    const none = (0, mcp_1.resolveMcpServers)({ cwd: dir });
    strict_1.default.deepEqual(Object.keys(none.servers), ['a', 'b', 'c']);
    strict_1.default.deepEqual(none.warnings, []);
    const some = (0, mcp_1.resolveMcpServers)({
        cwd: dir,
        approval: { enabledMcpjsonServers: ['a', 'zz'], enableAllProjectMcpServers: false },
        settingsServers: { s: { command: 's' } },
        env: {},
    });
    strict_1.default.deepEqual(Object.keys(some.servers).sort(), ['a', 'b', 'c', 's']);
    strict_1.default.ok(some.warnings.some((w) => /enabledMcpjsonServers names zz/.test(w)));
    const all = (0, mcp_1.resolveMcpServers)({
        cwd: dir,
        approval: { enableAllProjectMcpServers: true, disabledMcpjsonServers: ['c'] },
        env: {},
    });
    strict_1.default.deepEqual(Object.keys(all.servers).sort(), ['a', 'b']);
    strict_1.default.ok(all.warnings.some((w) => /mcpServers\.c is disabled \(disabledMcpjsonServers\)/.test(w)));
    strict_1.default.ok(all.warnings.some((w) => /missing environment variable MCP_TEST_UNSET_VAR/.test(w)), all.warnings.join('\n'));
    strict_1.default.equal(all.origins.a, (0, node_path_1.join)(dir, '.mcp.json'));
    // A malformed .mcp.json is an error naming the file.
    await (0, promises_1.writeFile)((0, node_path_1.join)(dir, '.mcp.json'), JSON.stringify({ mcpServers: { a: { command: 1 } } }));
    strict_1.default.throws(() => (0, mcp_1.resolveMcpServers)({ cwd: dir }), /\.mcp\.json: mcpServers\.a\.command/);
    await (0, promises_1.writeFile)((0, node_path_1.join)(dir, '.mcp.json'), JSON.stringify({ servers: {} }));
    strict_1.default.throws(() => (0, mcp_1.resolveMcpServers)({ cwd: dir }), /servers is not a key of \.mcp\.json/);
});
(0, node_test_1.test)('unit mcp: settings files carry mcpServers and the approval keys (merged, validated)', async () => {
    const dir = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'mcp-set-'));
    const merged = (0, mcp_1.mergeMcpSettings)((0, mcp_1.mergeMcpSettings)(undefined, { mcpServers: { a: { command: 'a1' } }, enabledMcpjsonServers: ['x'] }, 'u.json'), { mcpServers: { a: { command: 'a2' } }, enabledMcpjsonServers: ['y'], enableAllProjectMcpServers: false }, 'p.json');
    strict_1.default.deepEqual(merged, {
        servers: { a: { command: 'a2' } },
        origins: { a: 'p.json' },
        approval: { enabledMcpjsonServers: ['x', 'y'], enableAllProjectMcpServers: false },
    });
    strict_1.default.throws(() => (0, mcp_1.mergeMcpSettings)(undefined, { enableAllProjectMcpServers: 'yes' }, 'p.json'), /p\.json: enableAllProjectMcpServers must be true or false/);
    await (0, promises_1.mkdir)((0, node_path_1.join)(dir, '.durable-agent'));
    const file = (0, node_path_1.join)(dir, '.durable-agent', 'settings.json');
    await (0, promises_1.writeFile)(file, JSON.stringify({ mcpServers: { s: { command: 'node' } }, enableAllProjectMcpServers: true }));
    const eff = (0, settings_1.loadSettings)(dir, [file]);
    strict_1.default.deepEqual(eff.mcp?.servers, { s: { command: 'node' } });
    strict_1.default.equal(eff.mcp?.approval.enableAllProjectMcpServers, true);
    strict_1.default.deepEqual(eff.warnings, []);
    await (0, promises_1.writeFile)(file, JSON.stringify({ mcpServers: { s: { type: 'ws', url: 'ws://x' } } }));
    strict_1.default.throws(() => (0, settings_1.loadSettings)(dir, [file]), /settings\.json: mcpServers\.s\.type "ws" is not supported/);
});
(0, node_test_1.test)('unit mcp: allowedMcpServers / deniedMcpServers by name, command line and URL; deny wins; malformed entries are errors', async () => {
    const dir = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'mcp-allow-'));
    const servers = {
        gh: { type: 'http', url: 'https://api.github.example/mcp' },
        fs: { command: 'npx', args: ['-y', 'server-filesystem', '.'] },
        ev: { command: 'node', args: ['everything.js'] },
    };
    const run = (approval) => (0, mcp_1.resolveMcpServers)({
        cwd: dir,
        settingsServers: servers,
        approval: (0, mcp_1.mergeMcpSettings)(undefined, approval, 's.json').approval,
    });
    strict_1.default.deepEqual(Object.keys(run({ deniedMcpServers: [{ serverName: 'gh' }] }).servers), ['fs', 'ev']);
    strict_1.default.deepEqual(Object.keys(run({ deniedMcpServers: [{ serverUrl: 'https://*.github.example/*' }] }).servers), [
        'fs',
        'ev',
    ]);
    strict_1.default.deepEqual(Object.keys(run({ deniedMcpServers: [{ serverCommand: ['npx', '-y', 'server-filesystem', '.'] }] }).servers), ['gh', 'ev']);
    const allowed = run({
        allowedMcpServers: [{ serverName: 'ev' }, { serverUrl: 'https://api.github.example/*' }],
        deniedMcpServers: [{ serverName: 'ev' }],
    });
    strict_1.default.deepEqual(Object.keys(allowed.servers), ['gh'], 'deny wins over allow');
    strict_1.default.ok(allowed.warnings.some((w) => /settings: mcpServers\.fs is not in allowedMcpServers; not started/.test(w)), allowed.warnings.join('\n'));
    strict_1.default.ok(allowed.warnings.some((w) => /mcpServers\.ev is blocked by deniedMcpServers/.test(w)));
    strict_1.default.deepEqual(Object.keys(run({ allowedMcpServers: [] }).servers), [], 'an empty allowlist allows nothing');
    strict_1.default.throws(() => (0, mcp_1.mergeMcpSettings)(undefined, { deniedMcpServers: [{ serverName: 'a', serverUrl: 'b' }] }, 's.json'), /s\.json: deniedMcpServers\[0\] must be exactly one of/);
    strict_1.default.throws(() => (0, mcp_1.mergeMcpSettings)(undefined, { allowedMcpServers: 'gh' }, 's.json'), /s\.json: allowedMcpServers must be a list/);
});
(0, node_test_1.test)('unit mcp: ~/.claude.json user and local scopes as the reference reads them; scope precedence; normalised names in approvals', async () => {
    const root = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'mcp-claudejson-'));
    const repo = (0, node_path_1.join)(root, 'repo');
    const cwd = (0, node_path_1.join)(repo, 'pkg');
    await (0, promises_1.mkdir)((0, node_path_1.join)(repo, '.git'), { recursive: true });
    await (0, promises_1.mkdir)(cwd, { recursive: true });
    strict_1.default.equal((0, mcp_1.claudeJsonProjectKey)(cwd), repo, 'the project key is the git root');
    strict_1.default.equal((0, mcp_1.claudeJsonPath)({ CLAUDE_CONFIG_DIR: '/cfg' }), '/cfg/.claude.json');
    const cj = (0, node_path_1.join)(root, '.claude.json');
    await (0, promises_1.writeFile)(cj, JSON.stringify({
        numStartups: 3,
        mcpServers: { u: { command: 'user-u' }, both: { command: 'user-both' } },
        projects: {
            [repo]: { allowedTools: [], mcpServers: { l: { command: 'local-l' }, both: { command: 'local-both' } } },
            '/elsewhere': { mcpServers: { x: { command: 'x' } } },
        },
    }));
    await (0, promises_1.writeFile)((0, node_path_1.join)(cwd, '.mcp.json'), JSON.stringify({
        mcpServers: { 'my.srv': { command: 'proj' }, u: { command: 'proj-u' }, both: { command: 'proj-both' } },
    }));
    const r = (0, mcp_1.resolveMcpServers)({ cwd, claudeJson: cj, approval: { enabledMcpjsonServers: ['my_srv', 'u', 'both'] } });
    strict_1.default.deepEqual(r.servers, {
        u: { command: 'proj-u' },
        both: { command: 'local-both' },
        'my.srv': { command: 'proj' },
        l: { command: 'local-l' },
    }, 'user < project < local');
    strict_1.default.equal(r.origins.l, cj);
    strict_1.default.equal(r.origins['my.srv'], (0, node_path_1.join)(cwd, '.mcp.json'));
    strict_1.default.ok(!r.warnings.some((w) => /my_srv/.test(w)), r.warnings.join('\n'));
    // Without the path, ~/.claude.json is not read (tests never see the machine's own file).
    strict_1.default.deepEqual(Object.keys((0, mcp_1.resolveMcpServers)({ cwd, approval: { enableAllProjectMcpServers: true } }).servers).sort(), ['both', 'my.srv', 'u']);
    // disabledMcpjsonServers compares normalised names too; settings servers beat every scope.
    const d = (0, mcp_1.resolveMcpServers)({
        cwd,
        claudeJson: cj,
        approval: { enableAllProjectMcpServers: true, disabledMcpjsonServers: ['my srv'] },
        settingsServers: { l: { command: 'settings-l' } },
    });
    strict_1.default.equal(d.servers['my.srv'], undefined);
    strict_1.default.deepEqual(d.servers.l, { command: 'settings-l' });
    // Two names of one scope that name their tools alike: an error naming both.
    await (0, promises_1.writeFile)((0, node_path_1.join)(cwd, '.mcp.json'), JSON.stringify({ mcpServers: { 'a.b': { command: 'x' }, a_b: { command: 'y' } } }));
    strict_1.default.throws(() => (0, mcp_1.resolveMcpServers)({ cwd, approval: { enableAllProjectMcpServers: true } }), /MCP servers "a\.b" .* and "a_b" .* both name their tools mcp__a_b__/);
    // A malformed ~/.claude.json server is an error naming the file and the key.
    await (0, promises_1.writeFile)(cj, JSON.stringify({ projects: { [repo]: { mcpServers: { bad: { type: 'http' } } } } }));
    await (0, promises_1.writeFile)((0, node_path_1.join)(cwd, '.mcp.json'), '{}');
    strict_1.default.throws(() => (0, mcp_1.resolveMcpServers)({ cwd, claudeJson: cj }), (e) => e.message.includes(`${cj}: projects["${repo}"].mcpServers.bad.url must be a non-empty string`));
    await (0, promises_1.writeFile)(cj, '{ not json');
    strict_1.default.throws(() => (0, mcp_1.resolveMcpServers)({ cwd, claudeJson: cj }), /\.claude\.json is not valid JSON/);
});
(0, node_test_1.test)('unit mcp: --mcp-config files and JSON strings win over every scope; --strict-mcp-config keeps only them; bad values name the flag', async () => {
    const dir = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'mcp-cliconfig-'));
    await (0, promises_1.writeFile)((0, node_path_1.join)(dir, '.mcp.json'), JSON.stringify({ mcpServers: { p: { command: 'proj' }, both: { command: 'proj-both' } } }));
    await (0, promises_1.writeFile)((0, node_path_1.join)(dir, 'extra.json'), JSON.stringify({ mcpServers: { both: { command: 'file-both' }, f: { type: 'sse', url: 'http://h/sse' } } }));
    const cli = (0, cliConfig_1.readMcpConfigArgs)(['extra.json', '{"mcpServers":{"j":{"command":"json"}}}'], dir);
    strict_1.default.deepEqual(Object.keys(cli.servers), ['both', 'f', 'j']);
    strict_1.default.equal(cli.origins.both, `--mcp-config ${(0, node_path_1.join)(dir, 'extra.json')}`);
    strict_1.default.equal(cli.origins.j, '--mcp-config <json>');
    const merged = (0, mcp_1.resolveMcpServers)({
        cwd: dir,
        approval: { enableAllProjectMcpServers: true },
        settingsServers: { s: { command: 's' } },
        cli,
    });
    strict_1.default.deepEqual(merged.servers.both, { command: 'file-both' }, '--mcp-config wins');
    strict_1.default.deepEqual(Object.keys(merged.servers).sort(), ['both', 'f', 'j', 'p', 's']);
    const strict = (0, mcp_1.resolveMcpServers)({
        cwd: dir,
        approval: { enableAllProjectMcpServers: true, enabledMcpjsonServers: ['p'] },
        settingsServers: { s: { command: 's' } },
        cli: { ...cli, strict: true },
    });
    strict_1.default.deepEqual(Object.keys(strict.servers).sort(), ['both', 'f', 'j']);
    strict_1.default.deepEqual(strict.warnings, []);
    strict_1.default.throws(() => (0, cliConfig_1.readMcpConfigArgs)(['missing.json'], dir), /--mcp-config .*missing\.json: no such file/);
    strict_1.default.throws(() => (0, cliConfig_1.readMcpConfigArgs)(['{"mcpServers": '], dir), /--mcp-config <json> is not valid JSON/);
    strict_1.default.throws(() => (0, cliConfig_1.readMcpConfigArgs)(['{"servers": {}}'], dir), /--mcp-config <json>: servers is not a key of an MCP config/);
    strict_1.default.throws(() => (0, cliConfig_1.readMcpConfigArgs)(['{"mcpServers": {"x": {"command": ""}}}'], dir), /--mcp-config <json>: mcpServers\.x\.command must be a non-empty string/);
    // Through the CLI: a bad --mcp-config is a one-line message and a non-zero exit, before any connection.
    const r = await (0, cli_1.cli)(['run', '--cwd', dir, '--mcp-config', 'missing.json', 'hello'], {
        TEMPORAL_ADDRESS: '127.0.0.1:1',
    });
    strict_1.default.notEqual(r.code, 0);
    strict_1.default.match(r.stderr.trim(), /^durable-agent: .*--mcp-config .*missing\.json: no such file$/);
});
(0, node_test_1.test)('unit mcp: .mcp.json files from the working directory up are merged as the reference does (the closest wins), each server naming its file', async () => {
    const root = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'mcp-nested-'));
    const sub = (0, node_path_1.join)(root, 'packages', 'app');
    await (0, promises_1.mkdir)(sub, { recursive: true });
    await (0, promises_1.writeFile)((0, node_path_1.join)(root, '.mcp.json'), JSON.stringify({ mcpServers: { top: { command: 'top' }, both: { command: 'top-both' } } }));
    await (0, promises_1.writeFile)((0, node_path_1.join)(sub, '.mcp.json'), JSON.stringify({ mcpServers: { both: { command: 'sub-both' }, near: { command: 'near' } } }));
    const r = (0, mcp_1.resolveMcpServers)({ cwd: sub, approval: { disabledMcpjsonServers: ['near'] } });
    strict_1.default.deepEqual(r.servers, { top: { command: 'top' }, both: { command: 'sub-both' } });
    strict_1.default.equal(r.origins.top, (0, node_path_1.join)(root, '.mcp.json'));
    strict_1.default.equal(r.origins.both, (0, node_path_1.join)(sub, '.mcp.json'));
    strict_1.default.ok(r.warnings.some((w) => w.startsWith(`${(0, node_path_1.join)(sub, '.mcp.json')}: mcpServers.near is disabled`)), r.warnings.join('\n'));
    // From a directory without its own file, the parent's servers still come.
    await (0, promises_1.mkdir)((0, node_path_1.join)(root, 'docs'));
    strict_1.default.deepEqual(Object.keys((0, mcp_1.resolveMcpServers)({ cwd: (0, node_path_1.join)(root, 'docs'), approval: { enableAllProjectMcpServers: true } }).servers).sort(), ['both', 'top']);
    // A malformed parent file is an error naming it.
    await (0, promises_1.writeFile)((0, node_path_1.join)(root, '.mcp.json'), '{');
    strict_1.default.throws(() => (0, mcp_1.resolveMcpServers)({ cwd: sub }), (e) => e.message.startsWith(`${(0, node_path_1.join)(root, '.mcp.json')} is not valid JSON`));
    // Where it goes wrong, as for settings files: line and column (a trailing comma on line 3).
    await (0, promises_1.writeFile)((0, node_path_1.join)(root, '.mcp.json'), '{\n  "mcpServers": {\n    "a": {"command": "x"},\n  }\n}');
    strict_1.default.throws(() => (0, mcp_1.resolveMcpServers)({ cwd: sub }), (e) => e.message.startsWith(`${(0, node_path_1.join)(root, '.mcp.json')} is not valid JSON at line 4 column 3:`) &&
        /trailing commas/.test(e.message), 'line and column');
});
//# sourceMappingURL=mcp.test.js.map