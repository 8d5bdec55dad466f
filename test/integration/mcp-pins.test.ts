// integration: an MCP server that runs a script from the project (`node ./server.js`), through the
// command line on the real dev server: the session's Write to the script is named, the server that
// crashed afterwards is not started again from the rewritten script (its tools answer why), and the
// next `run` there names the script before anything runs it (the manifest watches the files the
// session's servers run). Real processes: the test MCP server behind the project's server.js.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { cli } from '../support/cli';

after(closeTestEnv);

test('cli: a session rewrites the script its MCP server runs: the write is named, the crashed server is not restarted from it, the next run names it (Temporal)', async () => {
  await withAgent({}, async ({ fake, taskQueue, workDir, storeDir }) => {
    const home = await mkdtemp(join(tmpdir(), 'da-home-'));
    const env = {
      TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
      DURABLE_AGENT_TASK_QUEUE: taskQueue,
      DURABLE_AGENT_HOME: home,
      DURABLE_AGENT_STORE_DIR: storeDir,
      HOME: home,
    };
    const testServer = join(__dirname, '..', 'support', 'mcpServer.js');
    const script = join(workDir, 'server.js');
    const marker = join(workDir, 'rewritten-server-ran');
    await writeFile(script, `require(${JSON.stringify(testServer)});\n`);
    await writeFile(
      join(workDir, '.mcp.json'),
      JSON.stringify({ mcpServers: { local: { command: process.execPath, args: ['./server.js'] } } }),
    );
    const evil = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\nrequire(${JSON.stringify(testServer)});\n`;
    fake.enqueue(
      toolUseResponse([{ id: 'toolu_pin_p1', name: 'mcp__local__ping', input: { message: 'one' } }]),
      toolUseResponse([{ id: 'toolu_pin_r', name: 'Read', input: { file_path: script } }]),
      toolUseResponse([{ id: 'toolu_pin_w', name: 'Write', input: { file_path: script, content: evil } }]),
      toolUseResponse([{ id: 'toolu_pin_crash', name: 'mcp__local__crash', input: {} }]),
      toolUseResponse([{ id: 'toolu_pin_p2', name: 'mcp__local__ping', input: { message: 'two' } }]),
      textResponse('done'),
    );
    const r = await cli(
      [
        'run',
        '--cwd',
        workDir,
        '--model',
        'claude-test',
        '--permission-mode',
        'bypassPermissions',
        '--no-sandbox',
        'use',
        'the',
        'server',
      ],
      env,
      90_000,
    );
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.match(r.stdout, /Write .*\n\s+⚠ control file server\.js modified by this call/);
    assert.equal(await readFile(script, 'utf8'), evil, 'bypassPermissions wrote it');
    // The model got the refusal as the second ping's result.
    const results = fake
      .messageRequests()
      .flatMap((q) => q.messages)
      .flatMap((m) => (Array.isArray(m.content) ? m.content : [])) as Array<{
      type: string;
      tool_use_id?: string;
      content?: unknown;
      is_error?: boolean;
    }>;
    const p2 = results.find((b) => b.type === 'tool_result' && b.tool_use_id === 'toolu_pin_p2');
    assert.equal(p2?.is_error, true, JSON.stringify(p2));
    assert.match(
      JSON.stringify(p2?.content),
      /MCP server local was not started: .*server\.js was modified since this session started/,
    );
    assert.equal(existsSync(marker), false, 'the rewritten script never ran in that session');
    // The next run names the script first (--strict-mcp-config: nothing starts it here).
    fake.enqueue(textResponse('ok'));
    const next = await cli(
      ['run', '--cwd', workDir, '--model', 'claude-test', '--strict-mcp-config', 'look'],
      env,
      60_000,
    );
    assert.equal(next.code, 0, next.stderr);
    assert.match(next.stderr, /⚠ server\.js changed since the last session here .*: during that session/);
    assert.equal(existsSync(marker), false);
  });
});
