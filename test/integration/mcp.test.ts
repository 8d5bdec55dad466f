// integration: MCP servers from npm (server-everything, server-filesystem) and a small SDK server
// (test/support/mcpServer.ts) as real processes: the worker's connections (start, reuse, crash and
// restart, timeouts, streamable HTTP), and sessions on the real dev server calling MCP tools.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import Anthropic from '@anthropic-ai/sdk';
import { startFakeAnthropic, textResponse, toolUseResponse, lastToolResults } from '../../src/testing/fakeAnthropic';
import { runLocalSession } from '../../src/inprocess/runSession';
import { McpManager, McpUnavailableError, parseMcpServers, type McpServers } from '../../src/mcp';
import { createServer as createNetServer } from 'node:net';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { cli } from '../support/cli';
import { waitFor } from '../support/wait';
import { interruptSession, sendMessage, sessionStatus } from '../../src/temporal/client';
import { turnProgressQuery } from '../../src/temporal/workflows/definitions';

after(closeTestEnv);

const EventType = temporal.api.enums.v1.EventType;
const everything = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const filesystem = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const testServer = join(__dirname, '..', 'support', 'mcpServer.js');
const text = (r: { content: Array<{ type: string; text?: unknown }> }) =>
  r.content.map((c) => String(c.text ?? '')).join('');

test('integration mcp: the worker owns connections: npm servers over stdio, reuse, crash and restart, start failures and timeouts', async () => {
  const work = await mkdtemp(join(tmpdir(), 'mcp-fs-'));
  await writeFile(join(work, 'hello.txt'), 'hello from the filesystem server\n');
  const m = new McpManager({ startupTimeoutMs: 20_000, toolTimeoutMs: 20_000 });
  try {
    const ev = { command: process.execPath, args: [everything] };
    const tools = await m.listTools('everything', ev, work);
    assert.ok(
      tools.some((t) => t.name === 'echo' && t.annotations?.readOnlyHint === true),
      JSON.stringify(tools.map((t) => t.name)),
    );
    assert.equal(text(await m.callTool('everything', ev, work, 'echo', { message: 'hi' })), 'Echo: hi');
    assert.match(text(await m.callTool('everything', ev, work, 'get-sum', { a: 2, b: 3 })), /5/);
    assert.equal(m.started, 1, 'one server process for the list and both calls');

    const fs = { command: process.execPath, args: [filesystem, work] };
    assert.match(
      text(await m.callTool('fs', fs, work, 'read_text_file', { path: join(work, 'hello.txt') })),
      /hello from the filesystem server/,
    );
    const outside = await m.callTool('fs', fs, work, 'read_text_file', { path: '/etc/hostname' });
    assert.equal(
      outside.isError,
      true,
      'the server refuses paths outside its allowed directory: isError comes through',
    );

    // A server that dies mid-call: an McpUnavailableError saying so, then the next call starts it again.
    const ts = { command: process.execPath, args: [testServer] };
    const pid1 = text(await m.callTool('test', ts, work, 'pid', {}));
    await assert.rejects(
      m.callTool('test', ts, work, 'crash', {}),
      (e: Error) => e instanceof McpUnavailableError && /MCP server test is gone/.test(e.message),
    );
    const pid2 = text(await m.callTool('test', ts, work, 'pid', {}));
    assert.notEqual(pid1, pid2, 'a new server process answers after the crash');

    // A server that cannot start, and one that never answers initialize: errors, never a hang.
    const broken = { command: process.execPath, args: ['-e', 'process.exit(2)'] };
    await assert.rejects(m.listTools('broken', broken, work), /MCP server broken failed to start/);
    const startedBefore = m.started;
    await assert.rejects(m.callTool('broken', broken, work, 'x', {}), /MCP server broken failed to start/);
    assert.equal(
      m.started,
      startedBefore,
      'a failed start is remembered for a moment: no second start within the same turn',
    );
    const slow = new McpManager({ startupTimeoutMs: 1_000 });
    await assert.rejects(
      slow.listTools('mute', { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] }, work),
      /MCP server mute failed to start.*(within 1000 ms|timed out)/i,
    );
    await slow.close();
    await assert.rejects(m.listTools('nocmd', { command: '/nonexistent/mcp-server' }, work), /failed to start/);
    // A missing environment variable: named, before anything starts.
    await assert.rejects(
      m.listTools('env', { command: '${MCP_TEST_UNSET_CMD}' }, work),
      /missing environment variable MCP_TEST_UNSET_CMD/,
    );
  } finally {
    await m.close();
  }
  assert.equal(m.openConnections, 0);
  await assert.rejects(
    m.listTools('everything', { command: process.execPath, args: [everything] }, work),
    /shutting down/,
  );
});

test('integration mcp: streamable HTTP with ${VAR:-default} expansion in the url', async () => {
  const portFile = join(await mkdtemp(join(tmpdir(), 'mcp-http-')), 'port');
  const child: ChildProcess = spawn(process.execPath, [testServer, 'http', portFile], { stdio: 'ignore' });
  const m = new McpManager({ env: { MCP_TEST_HOST: '127.0.0.1' } });
  try {
    let port = '';
    port = await waitFor(
      'the HTTP server to write its port',
      () => readFile(portFile, 'utf8').catch(() => ''),
      60_000,
      50,
    ).catch(() => '');
    assert.ok(port, 'the HTTP server wrote its port');
    const cfg = { type: 'http' as const, url: `http://\${MCP_TEST_HOST}:\${MCP_TEST_PORT:-${port}}/mcp` };
    const tools = await m.listTools('web', cfg, tmpdir());
    assert.ok(tools.some((t) => t.name === 'ping'));
    assert.equal(text(await m.callTool('web', cfg, tmpdir(), 'ping', { message: 'over http' })), 'pong over http');
  } finally {
    await m.close();
    child.kill();
  }
});

test('integration mcp: the reference\'s other server forms: type "sse" (server-everything over HTTP+SSE) and a server\'s own "timeout"', async () => {
  const port = await new Promise<number>((resolve) => {
    const srv = createNetServer().listen(0, '127.0.0.1', () => {
      const p = (srv.address() as { port: number }).port;
      srv.close(() => resolve(p));
    });
  });
  const child: ChildProcess = spawn(process.execPath, [everything, 'sse'], {
    env: { ...process.env, PORT: String(port) },
    stdio: 'ignore',
  });
  const m = new McpManager({ startupTimeoutMs: 20_000, env: { MCP_TEST_PORT: String(port) } });
  try {
    const [cfg] = Object.values(
      parseMcpServers({ ev: { type: 'sse', url: 'http://127.0.0.1:${MCP_TEST_PORT}/sse' } }, '.mcp.json'),
    );
    // Until the server listens (its start-up is slow on a loaded machine).
    const tools = await waitFor(
      'the SSE server to list its tools',
      async () => {
        const listed = await m.listTools('ev', cfg!, tmpdir()).catch(() => undefined);
        if (!listed) await m.close(false);
        return listed;
      },
      60_000,
    ).catch(() => undefined);
    assert.ok(
      tools?.some((t) => t.name === 'echo'),
      'tools listed over SSE',
    );
    assert.equal(text(await m.callTool('ev', cfg!, tmpdir(), 'echo', { message: 'over sse' })), 'Echo: over sse');
    // `timeout` (ms) bounds a call of that server, whatever MCP_TOOL_TIMEOUT says.
    const ts = { command: process.execPath, args: [testServer], timeout: 1000 };
    assert.equal(m.callTimeoutMs(ts), 1000);
    // The rejection is the proof that the call gave up before the server answered (an answer would
    // resolve it); no clock reading, which a loaded machine (the server's start-up) could stretch.
    await assert.rejects(
      m.callTool('slow', ts, tmpdir(), 'wait', { ms: 5000, tag: 't' }),
      /MCP server slow did not answer the call of wait within 1000 ms/,
    );
  } finally {
    await m.close();
    child.kill();
  }
});

test('integration mcp: a server that hangs at start-up costs MCP_TIMEOUT once: later listings answer at once and retry in the background', async () => {
  const m = new McpManager({ startupTimeoutMs: 1_000, failedStartMemoryMs: 0 });
  const mute = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] };
  try {
    await assert.rejects(m.listTools('mute', mute, tmpdir(), true), /MCP server mute failed to start/);
    assert.equal(m.startsInFlight, 0);
    // The next turn's listing: the same error at once, while a new start runs in the background.
    await assert.rejects(m.listTools('mute', mute, tmpdir(), true), /MCP server mute failed to start/);
    assert.equal(m.startsInFlight, 1, 'answered before the retry finished');
    assert.equal(m.started, 2);
    // A call waits for a start (bounded by the start-up timeout).
    await assert.rejects(m.callTool('mute', mute, tmpdir(), 'x', {}), /MCP server mute failed to start/);
    assert.equal(m.startsInFlight, 0);
  } finally {
    await m.close();
  }
});

test('integration mcp: a server that adds a tool (notifications/tools/list_changed): the next listing has it, on the same process', async () => {
  const m = new McpManager({ startupTimeoutMs: 20_000 });
  try {
    const ts = { command: process.execPath, args: [testServer] };
    const before = await m.listTools('t', ts, tmpdir());
    assert.ok(!before.some((t) => t.name === 'grown'));
    assert.equal(text(await m.callTool('t', ts, tmpdir(), 'grow', {})), 'grew');
    await waitFor('tools/list_changed', async () => m.listChanges > 0, 30_000);
    const after = await m.listTools('t', ts, tmpdir());
    assert.ok(
      after.some((t) => t.name === 'grown' && t.annotations?.readOnlyHint === true),
      JSON.stringify(after.map((t) => t.name)),
    );
    assert.equal(text(await m.callTool('t', ts, tmpdir(), 'grown', {})), 'grown here');
    assert.equal(m.started, 1, 'no restart was needed');
  } finally {
    await m.close();
  }
});

test('integration mcp: a session calls MCP tools on the dev server: results, deny rules, a crashed server, batching by annotations', async () => {
  const manager = new McpManager({ startupTimeoutMs: 20_000, toolTimeoutMs: 20_000 });
  await withAgent({ worker: { mcp: manager } }, async ({ fake, start, workDir, client }) => {
    await writeFile(join(workDir, 'notes.txt'), 'durable notes\n');
    const mcpServers: McpServers = {
      everything: { command: process.execPath, args: [everything] },
      fs: { command: process.execPath, args: [filesystem, '.'] },
      test: { command: process.execPath, args: [testServer] },
    };
    fake.enqueue(
      toolUseResponse([
        { id: 'toolu_echo', name: 'mcp__everything__echo', input: { message: 'durable' } },
        { id: 'toolu_read', name: 'mcp__fs__read_text_file', input: { path: join(workDir, 'notes.txt') } },
        { id: 'toolu_w1', name: 'mcp__test__wait', input: { ms: 300, tag: 'a' } },
        { id: 'toolu_w2', name: 'mcp__test__wait', input: { ms: 300, tag: 'b' } },
      ]),
      toolUseResponse([
        { id: 'toolu_sum', name: 'mcp__everything__get-sum', input: { a: 1, b: 2 } },
        { id: 'toolu_badin', name: 'mcp__everything__echo', input: { message: 42 } },
        { id: 'toolu_fail', name: 'mcp__test__fail', input: {} },
        { id: 'toolu_img', name: 'mcp__test__image', input: {} },
        { id: 'toolu_big', name: 'mcp__test__big', input: { n: 150_000 } },
        { id: 'toolu_hooked', name: 'mcp__test__pid', input: {} },
      ]),
      toolUseResponse([{ id: 'toolu_crash', name: 'mcp__test__crash', input: {} }]),
      toolUseResponse([{ id: 'toolu_ping', name: 'mcp__test__ping', input: { message: 'again' } }]),
      textResponse('done'),
    );
    const handle = await start({
      prompt: 'use the MCP tools',
      permissionMode: 'default',
      // Batching by annotations as such (the batch's calls scheduled together); streamed early starts: integration/streaming-tools.
      streamingToolExecution: false,
      mcpServers,
      rules: { allow: ['mcp__test'], ask: [], deny: ['mcp__everything__get-sum'] },
      hooks: {
        PreToolUse: [
          { matcher: 'mcp__test__pid', hooks: [{ type: 'command', command: 'echo "no pids today" >&2; exit 2' }] },
        ],
      },
    });
    const result = await handle.result();
    assert.equal(result.status, 'completed', result.endReason);
    assert.equal(result.turns, 5);
    fake.assertDone();
    const reqs = fake.messageRequests();

    // The model was offered the MCP tools with the servers' schemas, minus the denied one.
    const offered = (reqs[0]?.tools ?? []) as Array<{
      name: string;
      input_schema: { properties?: Record<string, unknown> };
    }>;
    const names = offered.map((t) => t.name);
    for (const n of [
      'mcp__everything__echo',
      'mcp__fs__read_text_file',
      'mcp__test__ping',
      'mcp__test__crash',
      'Read',
      'Bash',
    ])
      assert.ok(names.includes(n), n);
    assert.ok(!names.includes('mcp__everything__get-sum'), 'a denied MCP tool is not offered');
    assert.ok(offered.find((t) => t.name === 'mcp__everything__echo')?.input_schema.properties?.message);

    const [echo, read, w1, w2] = lastToolResults(reqs[1]!);
    assert.equal(JSON.stringify(echo?.content).includes('Echo: durable'), true, JSON.stringify(echo));
    assert.equal(echo?.is_error, undefined);
    assert.match(JSON.stringify(read?.content), /durable notes/);
    assert.match(JSON.stringify(w1?.content), /waited a/);
    assert.match(JSON.stringify(w2?.content), /waited b/);

    const [sum, badin, fail, img, big, hooked] = lastToolResults(reqs[2]!);
    // The size policy: stored whole, a preview inline.
    assert.match(JSON.stringify(big?.content), /<persisted-output>[\s\S]*Full output saved to: /);
    assert.ok(JSON.stringify(big?.content).length < 10_000);
    // PreToolUse hooks match MCP tool names.
    assert.equal(hooked?.is_error, true);
    assert.match(JSON.stringify(hooked?.content), /no pids today/);
    assert.equal(sum?.is_error, true);
    assert.match(JSON.stringify(sum?.content), /No such tool available: mcp__everything__get-sum/);
    assert.equal(badin?.is_error, true, 'the server schema validates the input');
    assert.match(JSON.stringify(badin?.content), /InputValidationError|string/);
    assert.equal(fail?.is_error, true, "the server's isError becomes is_error");
    assert.match(JSON.stringify(fail?.content), /the thing failed/);
    assert.match(
      JSON.stringify(img?.content),
      /\[Image could not be processed: its bytes are not image\/png\]/,
      'bytes that are not a PNG never reach the API',
    );
    assert.match(JSON.stringify(img?.content), /embedded note/);

    const [crash] = lastToolResults(reqs[3]!);
    assert.equal(crash?.is_error, true);
    assert.match(JSON.stringify(crash?.content), /MCP server test is gone/);
    const [ping] = lastToolResults(reqs[4]!);
    assert.equal(ping?.is_error, undefined, JSON.stringify(ping));
    assert.match(JSON.stringify(ping?.content), /pong again/, 'the session continued on a restarted server');

    // readOnlyHint tools ran as one concurrent batch: the four calls of turn 1 were scheduled together.
    const history = await client.workflow.getHandle(`${handle.workflowId}/turn-1`).fetchHistory();
    const scheduled: string[][] = [[]];
    for (const e of history.events ?? []) {
      if (e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)
        scheduled[scheduled.length - 1]!.push(e.activityTaskScheduledEventAttributes?.activityId ?? '');
      if (e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED && scheduled[scheduled.length - 1]!.length > 0)
        scheduled.push([]);
    }
    const batch = scheduled.find((g) => g.includes('tool-toolu_w1'));
    assert.ok(
      batch?.includes('tool-toolu_w2') && batch.includes('tool-toolu_echo') && batch.includes('tool-toolu_read'),
      JSON.stringify(scheduled),
    );
    // The crash (unannotated) ran alone in its turn; the same connections served the whole session.
    assert.ok(manager.started <= 4, `servers started: ${manager.started} (3 servers + 1 restart)`);

    // A second session with the same config gets its own servers: each runs in its session's sandbox
    // (a host server, sandbox.mcpServers "host", is shared: unit/mcp-sandbox).
    const before = manager.started;
    fake.enqueue(
      toolUseResponse([{ id: 'toolu_e2', name: 'mcp__everything__echo', input: { message: 'second' } }]),
      textResponse('ok'),
    );
    const r2 = await (await start({ prompt: 'again', mcpServers, permissionMode: 'default' })).result();
    assert.equal(r2.status, 'completed');
    assert.match(JSON.stringify(lastToolResults(fake.messageRequests().at(-1)!)[0]?.content), /Echo: second/);
    assert.equal(manager.started, before + 3, "the second session's own three server processes");
  });
  assert.equal(manager.openConnections, 0, 'the worker closed its connections on shutdown');
});

test('integration mcp: a server that fails to start: its tools are not offered and a call is an is_error result saying why', async () => {
  await withAgent({ worker: { mcp: new McpManager({ startupTimeoutMs: 2_000 }) } }, async ({ fake, start }) => {
    fake.enqueue(toolUseResponse([{ id: 'toolu_x', name: 'mcp__dead__anything', input: {} }]), textResponse('ok'));
    const result = await (
      await start({ prompt: 'x', mcpServers: { dead: { command: process.execPath, args: ['-e', 'process.exit(1)'] } } })
    ).result();
    assert.equal(result.status, 'completed');
    const offered = (fake.messageRequests()[0]?.tools ?? []).map((t) => (t as { name: string }).name);
    assert.ok(!offered.some((n) => n.startsWith('mcp__')));
    const [r] = lastToolResults(fake.messageRequests()[1]!);
    assert.equal(r?.is_error, true);
    assert.match(JSON.stringify(r?.content), /MCP server dead is unavailable: MCP server dead failed to start/);
  });
});

test('integration mcp: durable-agent run reads .mcp.json and ~/.claude.json, starts the servers (unapproved too, as claude -p), warns about the disabled one, and the calls return their results', async () => {
  await withAgent({}, async ({ fake, taskQueue, workDir }) => {
    const home = await mkdtemp(join(tmpdir(), 'mcp-home-'));
    await writeFile(
      join(workDir, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          everything: { command: process.execPath, args: [everything] },
          other: { command: '${MCP_TEST_OTHER_CMD:-nothing}' },
        },
      }),
    );
    await mkdir(join(workDir, '.durable-agent'));
    // No approval for everything: as `claude -p`, run starts a .mcp.json server unless it is disabled.
    await writeFile(
      join(workDir, '.durable-agent', 'settings.json'),
      JSON.stringify({ disabledMcpjsonServers: ['other'] }),
    );
    // A user-scope server where `claude mcp add -s user` keeps it ($CLAUDE_CONFIG_DIR/.claude.json), its name with a dot.
    const claudeDir = await mkdtemp(join(tmpdir(), 'mcp-claude-config-'));
    await writeFile(
      join(claudeDir, '.claude.json'),
      JSON.stringify({ numStartups: 1, mcpServers: { 'user.ev': { command: process.execPath, args: [everything] } } }),
    );
    fake.enqueue(
      toolUseResponse([
        { id: 'toolu_cli_echo', name: 'mcp__everything__echo', input: { message: 'from the cli' } },
        { id: 'toolu_cli_sum', name: 'mcp__user_ev__get-sum', input: { a: 20, b: 22 } },
      ]),
      textResponse('echoed'),
    );
    const env = {
      TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
      DURABLE_AGENT_TASK_QUEUE: taskQueue,
      DURABLE_AGENT_HOME: home,
      CLAUDE_CONFIG_DIR: claudeDir,
    };
    const r = await cli(
      ['run', '--cwd', workDir, '--model', 'claude-test', '--permission-mode', 'default', 'echo', 'something'],
      env,
      120_000,
    );
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.match(r.stderr, /\.mcp\.json: mcpServers\.other is disabled \(disabledMcpjsonServers\); not started/);
    assert.match(r.stdout, /MCP servers: user\.ev \(.*\.claude\.json\), everything \(.*\.mcp\.json\)/);
    fake.assertDone();
    const [res, sum] = lastToolResults(fake.messageRequests()[1]!);
    assert.equal(res?.is_error, undefined, JSON.stringify(res));
    assert.match(JSON.stringify(res?.content), /Echo: from the cli/);
    assert.equal(sum?.is_error, undefined, JSON.stringify(sum));
    assert.match(JSON.stringify(sum?.content), /42/);
    const offered = (fake.messageRequests()[0]?.tools ?? []).map((t) => (t as { name: string }).name);
    assert.ok(offered.includes('mcp__everything__echo') && !offered.some((n) => n.startsWith('mcp__other__')));
  });
});

test('integration mcp: the in-process runner calls MCP tools the same way (batches by annotations, asks for unannotated tools)', async () => {
  const fake = await startFakeAnthropic();
  const work = await mkdtemp(join(tmpdir(), 'mcp-local-'));
  const store = await mkdtemp(join(tmpdir(), 'mcp-local-store-'));
  try {
    fake.enqueue(
      toolUseResponse([
        { id: 'toolu_lp1', name: 'mcp__test__ping', input: { message: 'one' } },
        { id: 'toolu_lp2', name: 'mcp__test__ping', input: { message: 'two' } },
        { id: 'toolu_lf', name: 'mcp__test__fail', input: {} },
      ]),
      textResponse('done'),
    );
    const asked: string[] = [];
    const result = await runLocalSession(
      {
        prompt: 'ping',
        cwd: work,
        permissionMode: 'default',
        model: { model: 'claude-test', maxTokens: 256 },
        mcpServers: { test: { command: process.execPath, args: [testServer] } },
        onAsk: async (a) => {
          asked.push(a.toolUseId);
          return { decision: 'approve', source: 'human', by: 'tester' };
        },
      },
      { storeDir: store, anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) },
    );
    assert.equal(result.status, 'completed', result.endReason);
    assert.deepEqual(asked, ['toolu_lf'], 'only the unannotated tool asks in default mode');
    assert.deepEqual(
      result.turnsDetail[0]?.batches.map((b) => [b.concurrencySafe, b.toolUseIds]),
      [
        [true, ['toolu_lp1', 'toolu_lp2']],
        [false, ['toolu_lf']],
      ],
    );
    const [p1, p2, f] = lastToolResults(fake.messageRequests()[1]!);
    assert.match(JSON.stringify(p1?.content), /pong one/);
    assert.match(JSON.stringify(p2?.content), /pong two/);
    assert.equal(f?.is_error, true);
  } finally {
    await fake.close();
  }
});

test('integration mcp: an interrupt cancels a running MCP call; the connection stays usable for the next call', async () => {
  const manager = new McpManager({ startupTimeoutMs: 20_000 });
  await withAgent({ worker: { mcp: manager } }, async ({ fake, start, client }) => {
    fake.enqueue(
      toolUseResponse([{ id: 'toolu_long', name: 'mcp__test__wait', input: { ms: 60_000, tag: 'long' } }]),
      toolUseResponse([{ id: 'toolu_after', name: 'mcp__test__ping', input: { message: 'after the interrupt' } }]),
      textResponse('done'),
    );
    const handle = await start({
      prompt: 'wait',
      mcpServers: { test: { command: process.execPath, args: [testServer] } },
    });
    const turn = client.workflow.getHandle(`${handle.workflowId}/turn-1`);
    await waitFor(
      'the MCP call to run',
      async () => (await turn.query(turnProgressQuery)).running.some((r) => r.toolUseId === 'toolu_long'),
      30_000,
    );
    await interruptSession(client, handle.workflowId);
    const status = await waitFor(
      'the session to wait for a message',
      async () => {
        const s = await sessionStatus(client, handle.workflowId);
        return s.status === 'interrupted' && s.phase === 'waiting_for_message' ? s : undefined;
      },
      30_000,
    );
    assert.deepEqual(
      status.lastTurn?.records.map((r) => [r.toolUseId, r.status]),
      [['toolu_long', 'interrupted']],
    );
    await sendMessage(client, handle.workflowId, 'ping instead');
    const result = await handle.result();
    assert.equal(result.status, 'completed', result.endReason);
    const [after] = lastToolResults(fake.messageRequests()[2]!);
    assert.match(JSON.stringify(after?.content), /pong after the interrupt/);
    assert.equal(manager.started, 1, 'the cancelled call did not cost the connection');
  });
});
