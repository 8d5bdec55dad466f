// unit: Monitor (issue 19) — its schema is the reference's; `ws` and a missing or hidden-character
// command are refused in validateInput (is_error, clear text); timeout_ms is 1000..3600000 with a
// default of 300000; the call records a `monitor` task with a taskStarted modifier and answers with
// the reference's first sentence; its permissions are Bash's for its command (Bash rules, the shell
// analysis, a blanket Bash deny) plus its own Monitor rules.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { MonitorTool, monitorTaskId } from '../../src/tools/monitor';
import { BashTool } from '../../src/tools/bash';
import { toolToAPISchema } from '../../src/toolProtocol/apiSchema';
import { decidePermissionSync } from '../../src/permissions/decide';
import { ruleMatches } from '../../src/permissions/matcher';
import { createToolPool } from '../../src/permissions/toolPool';
import { loadShellParser } from '../../src/permissions/bashParser';
import { stripDescriptions } from '../reference/schemas';
import { sessionTasksPath } from '../../src/sandbox/host';
import { ToolSession } from './tools-harness';

before(async () => {
  assert.equal(await loadShellParser(), true);
});

function referenceSchema(): unknown {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    try {
      const file = path.join(dir, 'test', 'fixtures', 'reference-tools', '2.1.328', 'Monitor.json');
      const { $schema: _s, ...rest } = (
        JSON.parse(readFileSync(file, 'utf8')) as { input_schema: Record<string, unknown> }
      ).input_schema;
      return rest;
    } catch (e) {
      if (path.dirname(dir) === dir) throw e;
    }
  }
}

test('unit: Monitor input schema equals the reference 2.1.328 schema (descriptions stripped)', async () => {
  const ours = (await toolToAPISchema(MonitorTool)).input_schema;
  assert.deepEqual(stripDescriptions(ours), stripDescriptions(referenceSchema()));
  // timeout_ms: a default in the schema, bounds 1000..3600000 enforced by the schema.
  assert.equal(MonitorTool.inputSchema.parse({ description: 'd', command: 'x' }).timeout_ms, 300_000);
  assert.equal(MonitorTool.inputSchema.safeParse({ description: 'd', command: 'x', timeout_ms: 999 }).success, false);
  assert.equal(
    MonitorTool.inputSchema.safeParse({ description: 'd', command: 'x', timeout_ms: 3_600_001 }).success,
    false,
  );
  assert.equal(MonitorTool.inputSchema.safeParse({ description: 'd', command: 'x', extra: 1 }).success, false);
});

test('unit: Monitor refuses ws, a missing, empty or hidden-character command, an empty description', async () => {
  const s = new ToolSession('/tmp');
  const ws = await s.run(MonitorTool, { description: 'feed', timeout_ms: 5000, ws: { url: 'wss://example.com/x' } });
  assert.equal(ws.isError, true);
  assert.match(ws.invalid ?? ws.text, /`ws` \(WebSocket\) source is not supported here.*`command`/);
  const none = await s.run(MonitorTool, { description: 'x', timeout_ms: 5000 });
  assert.match(none.invalid ?? none.text, /needs a `command`/);
  const empty = await s.run(MonitorTool, { description: 'x', timeout_ms: 5000, command: '  ' });
  assert.match(empty.invalid ?? empty.text, /must not be empty/);
  const hidden = await s.run(MonitorTool, { description: 'x', timeout_ms: 5000, command: 'tail -f log\u202e' });
  assert.match(hidden.invalid ?? hidden.text, /control characters/);
  const noDescription = await s.run(MonitorTool, { description: ' ', timeout_ms: 5000, command: 'tail -f log' });
  assert.match(noDescription.invalid ?? noDescription.text, /`description` must not be empty/);
  assert.equal(s.agent.autonomy, undefined, 'nothing was recorded');
});

test('unit: Monitor is refused where the scheduler runs no background tasks (the in-process runner)', async () => {
  const s = new ToolSession('/tmp');
  const r = await s.run(MonitorTool, { description: 'build', command: 'tail -f build.log' });
  assert.equal(r.isError, true);
  assert.match(r.invalid ?? '', /^Monitor needs the durable runner: this session runs in process/);
  assert.equal(s.agent.autonomy, undefined, 'nothing was recorded');
});

test('unit: Monitor records a monitor task and answers with the task id and expiry', async () => {
  const s = new ToolSession('/tmp');
  const bg = { backgroundTasks: true };
  const r = await s.run(MonitorTool, { description: 'build errors', command: 'tail -f build.log | grep ERROR' }, bg);
  assert.equal(r.isError, false);
  const task = s.agent.autonomy?.tasks[0];
  assert.ok(task);
  assert.equal(task.kind, 'monitor');
  assert.equal(task.state, 'running');
  assert.equal(task.description, 'build errors');
  assert.equal(task.timeoutMs, 300_000);
  assert.match(task.id, /^b[a-z0-9]{8}$/);
  assert.deepEqual(r.data, { taskId: task.id, timeoutMs: 300_000, persistent: false });
  assert.ok(
    r.text.startsWith(
      `Monitor started (task ${task.id}, expires in 5m unless the source ends first; you get one notice at expiry — re-arm if you still need the watch).`,
    ),
    r.text,
  );
  // The task names its output file (stdout and stderr, as a background command's) and its command.
  assert.equal(task.outputPath, path.join(sessionTasksPath('test-session'), `${task.id}.output`));
  assert.equal(readFileSync(task.outputPath, 'utf8'), '');
  assert.equal(task.command, 'tail -f build.log | grep ERROR');
  assert.equal(task.cwd, '/tmp');
  const long = await s.run(MonitorTool, { description: 'long', command: 'x', timeout_ms: 3_600_000 }, bg);
  assert.match(long.text, /expires in 1h unless/);
  // The id is derived from the call: a retried call names the same task; another call another.
  assert.equal(monitorTaskId('s', 'toolu_1'), monitorTaskId('s', 'toolu_1'));
  assert.notEqual(monitorTaskId('s', 'toolu_1'), monitorTaskId('s', 'toolu_2'));
});

test("unit: Monitor's permissions are Bash's for its command, and its own rules apply", () => {
  const cwd = '/work/project';
  const env = { cwd, workingDirectories: [cwd] };
  const input = (command: string) => ({ description: 'd', timeout_ms: 5000, command });
  assert.equal(ruleMatches('Bash(npm test:*)', 'allow', MonitorTool, input('npm test -- --watch'), env), true);
  assert.equal(ruleMatches('Bash(npm test:*)', 'allow', MonitorTool, input('npm test && rm -rf /'), env), false);
  assert.equal(ruleMatches('Bash(rm:*)', 'deny', MonitorTool, input('tail -f x; rm -rf y'), env), true);
  assert.equal(ruleMatches('Monitor(tail:*)', 'allow', MonitorTool, input('tail -f log'), env), true);
  // Monitor rules do not cover Bash.
  assert.equal(ruleMatches('Monitor(tail:*)', 'allow', BashTool, { command: 'tail -f log' }, env), false);
  const decide = (command: string, rules: { allow?: string[]; deny?: string[] }, mode = 'default' as const) =>
    decidePermissionSync(
      MonitorTool,
      input(command),
      { mode, rules: { allow: rules.allow ?? [], ask: [], deny: rules.deny ?? [] }, workingDirectories: [cwd] },
      env,
    ).behavior;
  assert.equal(decide('npm run watch', {}), 'ask', 'a command that may write asks, as Bash');
  assert.equal(decide('npm run watch', { allow: ['Bash(npm run watch)'] }), 'allow');
  assert.equal(decide('npm run watch', { allow: ['Bash(npm run watch)'], deny: ['Bash(npm:*)'] }), 'deny');
  assert.equal(decide('cat log.txt', {}), 'allow', 'a read-only command inside the working directory, as Bash');
  // A blanket Bash deny takes Monitor out of the pool too; Bash and Monitor together are no name clash.
  const perms = (deny: string[]) => ({
    mode: 'default' as const,
    rules: { allow: [], ask: [], deny },
    workingDirectories: [cwd],
  });
  assert.deepEqual(
    createToolPool([BashTool, MonitorTool], perms([])).map((t) => t.name),
    ['Bash', 'Monitor'],
  );
  assert.deepEqual(
    createToolPool([BashTool, MonitorTool], perms(['Bash'])).map((t) => t.name),
    [],
  );
  assert.deepEqual(
    createToolPool([BashTool, MonitorTool], perms(['Monitor'])).map((t) => t.name),
    ['Bash'],
  );
});
