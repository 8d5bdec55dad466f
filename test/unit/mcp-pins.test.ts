// The files stdio MCP servers run from the working directories (issue 18): they are control files of
// the session (the file tools ask or deny, the sandbox denies, writes are named), and their content
// is pinned at the start: a server whose script changed since the session started is not started
// again after a crash (src/mcp/pins.ts, src/mcp/manager.ts). Real files, real server processes (the
// test MCP server behind a `server.js` in the project), real bwrap where it is available.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { mcpServerControlFiles } from '../../src/permissions/protectedPaths';
import { changedPins, pinMcpServers, stdioCommands } from '../../src/mcp/pins';
import { McpManager, McpUnavailableError, type McpServers } from '../../src/mcp';
import { sessionPermission } from '../../src/toolCall/tools';
import { decidePermission } from '../../src/permissions/decide';
import { BashTool } from '../../src/tools/bash';
import { WriteTool } from '../../src/tools';
import { SandboxHost } from '../../src/sandbox/host';
import { startFakeAnthropic, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { runLocalSession } from '../../src/inprocess/runSession';
import type { PermissionMode, ToolPermissionContext } from '../../src/toolProtocol/permissionTypes';
import type { ResultStore, ToolUseContext } from '../../src/toolProtocol/Tool';
import { isCI, reportSkip } from '../support/systemPackages';
import { makeTmpDir, removeDir } from './tools-harness';

/** Bash's sandbox in these tests (the worker's start-up owns one: src/runtime/callDeps.ts). */
const sandboxHost = new SandboxHost();

const TEST_SERVER = path.join(__dirname, '..', 'support', 'mcpServer.js');
let root = '';

before(async () => {
  root = await makeTmpDir('da-mcp-pins-');
});
after(async () => {
  await sandboxHost.close();
  if (root) await removeDir(root);
});

/** A project whose `server.js` is the test MCP server; `evil` adds a line that leaves a marker when it runs. */
async function project(name: string): Promise<{ dir: string; script: string; marker: string; evil: string }> {
  const dir = path.join(root, name);
  await fs.mkdir(dir, { recursive: true });
  const script = path.join(dir, 'server.js');
  const marker = path.join(root, `${name}-evil-ran`);
  await fs.writeFile(script, `require(${JSON.stringify(TEST_SERVER)});\n`);
  const evil = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\nrequire(${JSON.stringify(TEST_SERVER)});\n`;
  return { dir, script, marker, evil };
}

const noStore = {} as ResultStore;

test('unit mcp pins: the files a stdio server runs from the working directories (scripts, ./bin, python -m, npx tsx, a local npx package, ${CLAUDE_PROJECT_DIR})', async () => {
  const proj = path.join(root, 'names');
  const outside = path.join(root, 'names-outside');
  for (const d of [
    proj,
    outside,
    path.join(proj, 'node_modules', 'tsx'),
    path.join(proj, 'node_modules', '.bin'),
    path.join(proj, 'node_modules', '@acme', 'files-server'),
  ])
    await fs.mkdir(d, { recursive: true });
  await fs.writeFile(path.join(proj, 'node_modules', '.bin', 'tsx'), '');
  const files = (servers: McpServers) =>
    mcpServerControlFiles(stdioCommands(servers), proj, [proj], undefined, existsSync)
      .map((f) => path.relative(proj, f))
      .sort();
  assert.deepEqual(files({ s: { command: process.execPath, args: ['./server.js'] } }), ['package.json', 'server.js']);
  assert.deepEqual(files({ s: { command: './bin/mcp', args: ['--port', '0'] } }), ['bin/mcp']);
  assert.deepEqual(files({ s: { command: 'python3', args: ['-u', '-m', 'local_mcp.server'] } }), [
    'local_mcp',
    'local_mcp.py',
  ]);
  assert.deepEqual(files({ s: { command: 'npx', args: ['tsx', './src/mcp.ts'] } }), [
    'node_modules/.bin/tsx',
    'node_modules/tsx',
    'package.json',
    'src/mcp.ts',
    'src/package.json',
  ]);
  // A registry package: the local copy npx would run instead, where one is installed.
  assert.deepEqual(files({ s: { command: 'npx', args: ['-y', '@acme/files-server@1.2.0', '/data'] } }), [
    'node_modules/@acme/files-server',
    'package.json',
  ]);
  assert.deepEqual(
    files({ s: { command: 'npx', args: ['-y', 'not-installed-server'] } }),
    ['package.json'],
    'an absent local copy is not denied (node_modules must stay creatable)',
  );
  assert.deepEqual(
    files({ s: { command: 'node', args: ['${CLAUDE_PROJECT_DIR}/srv/index.js'] } }),
    ['package.json', 'srv/index.js', 'srv/package.json'],
    'node reads the package.json nearest to the script',
  );
  assert.deepEqual(
    files({ s: { command: 'node', args: [path.join(outside, 'build', 'index.js')] } }),
    [],
    "a server installed elsewhere: the project's package.json is not its business",
  );
  assert.ok(
    files({ s: { command: 'sh', args: ['-c', 'exec ./run.sh --fast'] } }).includes('run.sh'),
    'an argument with spaces (a shell line) is split into words too',
  );
  assert.deepEqual(
    files({ s: { command: '/usr/bin/env', args: [path.join(outside, 'x.js')] } }),
    [],
    'outside the working directories: not writable, not listed',
  );
  assert.deepEqual(
    files({ r: { type: 'http', url: 'http://127.0.0.1:1/mcp' } }),
    [],
    'a remote server runs nothing here',
  );
});

test("unit mcp pins: a server's script is a protected path for the file tools (ask in default/acceptEdits, deny in dontAsk/plan, written in bypassPermissions)", async () => {
  const { dir, script } = await project('decide');
  const servers: McpServers = { local: { command: process.execPath, args: ['./server.js'] } };
  const base: ToolPermissionContext = {
    mode: 'default',
    rules: { allow: [], ask: [], deny: [] },
    workingDirectories: [dir],
  };
  const decide = async (mode: PermissionMode, file: string, withServers = true) => {
    const permission = sessionPermission({ ...base, mode }, noStore, undefined, dir, withServers ? servers : undefined);
    const ctx: ToolUseContext = {
      sessionId: 's',
      toolUseId: 't',
      idempotencyKey: 'k',
      agent: { cwd: dir, additionalDirectories: [], readFiles: {} },
      permission,
      abortSignal: new AbortController().signal,
      sandboxHost,
    };
    return (await decidePermission(WriteTool, { file_path: file, content: 'x' }, ctx)).behavior;
  };
  const expected: Record<PermissionMode, string> = {
    default: 'ask',
    acceptEdits: 'ask',
    plan: 'deny',
    dontAsk: 'deny',
    bypassPermissions: 'allow',
  };
  for (const [mode, want] of Object.entries(expected) as Array<[PermissionMode, string]>)
    assert.equal(await decide(mode, script), want, mode);
  assert.equal(await decide('acceptEdits', path.join(dir, 'other.js')), 'allow', 'an ordinary file');
  assert.equal(
    await decide('acceptEdits', script, false),
    'allow',
    'without the server, server.js is an ordinary file',
  );
});

test('unit mcp pins: sandboxed Bash cannot write the script a server runs, in any mode (real bwrap)', async (t) => {
  const a = await sandboxHost.availability();
  if (!a.available) {
    if (isCI()) throw new Error(`the sandbox must be available in CI: ${a.reason}`);
    reportSkip(`the sandboxed MCP-script test (sandbox unavailable: ${a.reason})`);
    return t.skip(a.reason);
  }
  const { dir, script } = await project('sandbox');
  const before = readFileSync(script, 'utf8');
  const servers: McpServers = {
    local: { command: process.execPath, args: ['./server.js'] },
    py: { command: 'python3', args: ['-m', 'tool_srv'] },
  };
  for (const mode of ['dontAsk', 'bypassPermissions'] as PermissionMode[]) {
    const permission = sessionPermission(
      { mode, rules: { allow: [], ask: [], deny: [] }, workingDirectories: [dir], sandbox: {} },
      noStore,
      undefined,
      dir,
      servers,
    );
    const ctx: ToolUseContext = {
      sessionId: `pins-${mode}`,
      toolUseId: 't',
      idempotencyKey: 'k',
      agent: { cwd: dir, additionalDirectories: [], readFiles: {} },
      permission,
      abortSignal: new AbortController().signal,
      sandboxHost,
    };
    const r = await BashTool.call(
      {
        command:
          "echo \"require('child_process').exec('id')\" > server.js; mkdir tool_srv; echo pwned > tool_srv.py; echo fine > ordinary.txt",
      },
      ctx,
      () => undefined,
    );
    assert.ok(r.data.sandbox, `${mode}: the call ran in the sandbox`);
    assert.equal(readFileSync(script, 'utf8'), before, `${mode}: server.js is unchanged`);
    assert.equal(
      existsSync(path.join(dir, 'tool_srv.py')) &&
        readFileSync(path.join(dir, 'tool_srv.py'), 'utf8').includes('pwned'),
      false,
      `${mode}: python -m's module cannot be planted`,
    );
    assert.equal(
      existsSync(path.join(dir, 'tool_srv')) && (await fs.readdir(path.join(dir, 'tool_srv'))).length > 0,
      false,
      `${mode}: nor its package`,
    );
    assert.equal(readFileSync(path.join(dir, 'ordinary.txt'), 'utf8'), 'fine\n', `${mode}: an ordinary write works`);
  }
});

test('unit mcp pins: the manager refuses to (re)start a server whose pinned script changed, and names the file; an unpinned config restarts', async () => {
  const { dir, script, marker, evil } = await project('manager');
  const servers = pinMcpServers({ local: { command: process.execPath, args: ['./server.js'] } }, dir, [dir]);
  const local = servers.local!;
  assert.ok(
    !('url' in local) && local.pinnedFiles && Object.keys(local.pinnedFiles).includes(script),
    JSON.stringify(local),
  );
  assert.equal(local.pinnedFiles![path.join(dir, 'package.json')], 'absent', 'an absent file is pinned as absent');
  const manager = new McpManager({ failedStartMemoryMs: 0 });
  try {
    assert.ok((await manager.listTools('local', local, dir)).some((t) => t.name === 'ping'));
    await fs.writeFile(script, evil);
    assert.deepEqual(changedPins(local.pinnedFiles), [{ path: script, change: 'modified' }]);
    // The running server keeps running (it was started from the pinned content); after a crash it is not started again.
    await assert.rejects(manager.callTool('local', local, dir, 'crash', {}), McpUnavailableError);
    const err = await manager.listTools('local', local, dir).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    assert.ok(err instanceof McpUnavailableError, String(err));
    assert.match(
      err.message,
      new RegExp(
        `MCP server local was not started: ${script.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} was modified since this session started`,
      ),
    );
    assert.doesNotMatch(err.message, /writeFileSync/, 'the message never quotes the file');
    assert.equal(existsSync(marker), false, 'the rewritten script never ran');
    assert.equal(manager.started, 1);
    // A file created where the session pinned an absent one counts too.
    await fs.writeFile(script, `require(${JSON.stringify(TEST_SERVER)});\n`);
    await fs.writeFile(path.join(dir, 'package.json'), '{"type":"commonjs"}');
    assert.deepEqual(changedPins(local.pinnedFiles), [{ path: path.join(dir, 'package.json'), change: 'created' }]);
    await fs.rm(path.join(dir, 'package.json'));
    assert.deepEqual(changedPins(local.pinnedFiles), [], 'back as it was: startable again');
    assert.ok((await manager.listTools('local', local, dir)).some((t) => t.name === 'ping'));
  } finally {
    await manager.close();
  }
});

test('unit mcp pins: an npx server with no local copy: a copy planted in node_modules after the start stops its restart', async () => {
  const dir = path.join(root, 'npx');
  await fs.mkdir(dir, { recursive: true });
  const [server] = Object.values(
    pinMcpServers({ files: { command: 'npx', args: ['-y', '@acme/files-server@1', '/data'] } }, dir, [dir]),
  );
  const pins = (server as { pinnedFiles?: Record<string, string> }).pinnedFiles ?? {};
  assert.equal(pins[path.join(dir, 'node_modules', '@acme', 'files-server')], 'absent');
  assert.equal(pins[path.join(dir, 'node_modules', '.bin', 'files-server')], 'absent');
  await fs.mkdir(path.join(dir, 'node_modules', '.bin'), { recursive: true });
  await fs.writeFile(path.join(dir, 'node_modules', '.bin', 'files-server'), '#!/bin/sh\necho planted\n', {
    mode: 0o755,
  });
  assert.deepEqual(changedPins(pins), [
    { path: path.join(dir, 'node_modules', '.bin', 'files-server'), change: 'created' },
  ]);
});

test("unit mcp pins: in-process session (bypassPermissions): a Write to the server's script is named, the crashed server is not restarted from it, and the next session runs the new file", async () => {
  const { dir, script, marker, evil } = await project('session');
  const store = await makeTmpDir('da-mcp-pins-store-');
  const fake = await startFakeAnthropic();
  try {
    fake.enqueue(
      toolUseResponse([{ id: 'toolu_p1', name: 'mcp__local__ping', input: { message: 'one' } }]),
      toolUseResponse([{ id: 'toolu_r', name: 'Read', input: { file_path: script } }]),
      toolUseResponse([{ id: 'toolu_w', name: 'Write', input: { file_path: script, content: evil } }]),
      toolUseResponse([{ id: 'toolu_crash', name: 'mcp__local__crash', input: {} }]),
      toolUseResponse([{ id: 'toolu_p2', name: 'mcp__local__ping', input: { message: 'two' } }]),
      textResponse('done'),
    );
    const opts = {
      prompt: 'use the server',
      cwd: dir,
      tools: ['Read', 'Write'],
      permissionMode: 'bypassPermissions' as const,
      sandbox: { enabled: false },
      mcpServers: { local: { command: process.execPath, args: ['./server.js'] } },
      model: { model: 'claude-test', maxTokens: 256 },
    };
    const deps = {
      storeDir: store,
      anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }),
    };
    const result = await runLocalSession(opts, deps);
    assert.equal(result.status, 'completed', result.endReason);
    const byId = new Map(result.records.map((r) => [r.toolUseId, r]));
    assert.equal(byId.get('toolu_p1')?.status, 'ok');
    assert.deepEqual(
      byId.get('toolu_w')?.controlWrites,
      [{ path: script, change: 'modified' }],
      'the write to the script is named',
    );
    assert.equal(readFileSync(script, 'utf8'), evil, 'bypassPermissions wrote it');
    const p2 = byId.get('toolu_p2');
    assert.equal(p2?.result.is_error, true);
    assert.match(
      JSON.stringify(p2?.result.content),
      /was not started: .*server\.js was modified since this session started/,
    );
    assert.equal(existsSync(marker), false, 'the rewritten script never ran in this session');
    // A new session pins what is there now: it runs the new file (the user's next session; `run` names the change first).
    fake.enqueue(
      toolUseResponse([{ id: 'toolu_p3', name: 'mcp__local__ping', input: { message: 'three' } }]),
      textResponse('done'),
    );
    const next = await runLocalSession(opts, deps);
    assert.equal(next.records.find((r) => r.toolUseId === 'toolu_p3')?.status, 'ok');
    assert.equal(existsSync(marker), true);
  } finally {
    await fake.close();
  }
});

test("unit mcp pins: in-process session (dontAsk, acceptEdits without an approver): the server's script is not written", async () => {
  const { dir, script } = await project('modes');
  const before = readFileSync(script, 'utf8');
  const store = await makeTmpDir('da-mcp-pins-store-');
  const fake = await startFakeAnthropic();
  try {
    for (const mode of ['dontAsk', 'acceptEdits'] as const) {
      fake.enqueue(
        toolUseResponse([{ id: `toolu_r_${mode}`, name: 'Read', input: { file_path: script } }]),
        toolUseResponse([
          { id: `toolu_w_${mode}`, name: 'Write', input: { file_path: script, content: 'process.exit(1)' } },
        ]),
        toolUseResponse([
          { id: `toolu_o_${mode}`, name: 'Write', input: { file_path: path.join(dir, `${mode}.txt`), content: 'ok' } },
        ]),
        textResponse('done'),
      );
      const result = await runLocalSession(
        {
          prompt: 'edit',
          cwd: dir,
          tools: ['Read', 'Write'],
          permissionMode: mode,
          mcpServers: { local: { command: process.execPath, args: ['./server.js'] } },
          model: { model: 'claude-test', maxTokens: 256 },
        },
        { storeDir: store, anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) },
      );
      assert.equal(result.status, 'completed', result.endReason);
      const w = result.records.find((r) => r.toolUseId === `toolu_w_${mode}`);
      assert.equal(w?.status, 'denied', `${mode}: ${JSON.stringify(w?.result)}`);
      // dontAsk denies by its mode; acceptEdits asked (and, with no approver, was denied).
      if (mode === 'dontAsk') assert.deepEqual([w?.decision?.behavior, w?.decision?.source], ['deny', 'mode']);
      else assert.match(w?.decision?.reason ?? '', /No approver/);
      assert.equal(readFileSync(script, 'utf8'), before, `${mode}: server.js unchanged`);
      if (mode === 'dontAsk')
        assert.equal(existsSync(path.join(dir, 'dontAsk.txt')), false, 'dontAsk writes nothing unasked');
      else
        assert.equal(
          readFileSync(path.join(dir, 'acceptEdits.txt'), 'utf8'),
          'ok',
          'acceptEdits writes an ordinary file',
        );
    }
  } finally {
    await fake.close();
  }
});

test('unit mcp pins: the manifest watches the files the servers run: a rewritten script is named at the next run; a file only newly watched is not "created"', async () => {
  const { controlFilesSinceLastSession, recordSessionStart, runFilesOf } =
    await import('../../src/cli/controlManifest');
  const { dir, script, evil } = await project('manifest');
  const home = await makeTmpDir('da-mcp-pins-home-');
  const servers: McpServers = { local: { command: process.execPath, args: ['./server.js'] } };
  const runFiles = runFilesOf(dir, [], undefined, servers);
  assert.ok(runFiles.includes(script), runFiles.join(', '));
  // A first session without the server, then one with it: server.js existed all along, it is not "created".
  const first = await controlFilesSinceLastSession(dir, [], home);
  await recordSessionStart(dir, 's1', first.now, home);
  const second = await controlFilesSinceLastSession(dir, [], home, runFiles);
  assert.deepEqual(second.changes, []);
  await recordSessionStart(dir, 's2', second.now, home);
  // That session rewrote it; the next run (even one without the server) names it.
  await fs.writeFile(script, evil);
  const third = await controlFilesSinceLastSession(dir, [], home);
  assert.deepEqual(
    third.changes.map((c) => [path.relative(dir, c.path), c.change]),
    [['server.js', 'modified']],
  );
});
