// unit: PostToolUseFailure (a failed call fires it instead of PostToolUse, as the reference does)
// and the hooks' tool_input (the reference's observable input: absolute paths, defaults filled in).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { toolResultText } from '../../src/core/apiMessages';
import { runToolPipeline } from '../../src/toolCall/pipeline';
import type { HooksConfig } from '../../src/hooks';
import { BashTool, EditTool, ReadTool } from '../../src/tools';
import { FAKE_TOOLS, makeEnv, script, tempDir, use } from './pipelineFixtures';

let cwd = '';
before(async () => {
  cwd = await tempDir('hooks-failure-');
});
after(async () => {
  await fs.rm(cwd, { recursive: true, force: true });
});

const capture = async (name: string, out: string, reply = ''): Promise<string> =>
  script(cwd, name, `cat > '${out}'${reply ? `; printf '%s' '${reply}'` : ''}`);
const read = async (p: string): Promise<Record<string, unknown>> =>
  JSON.parse(await fs.readFile(p, 'utf8')) as Record<string, unknown>;
const exists = (p: string): Promise<boolean> =>
  fs.access(p).then(
    () => true,
    () => false,
  );

test('unit: a Bash call that exits non-zero fires PostToolUseFailure (error, is_interrupt) and no PostToolUse; its context reaches the model', async () => {
  const post = path.join(cwd, 'post.json');
  const fail = path.join(cwd, 'fail.json');
  const hooks: HooksConfig = {
    PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: await capture('post.sh', post) }] }],
    PostToolUseFailure: [
      {
        matcher: 'Bash',
        hooks: [
          {
            type: 'command',
            command: await capture(
              'fail.sh',
              fail,
              JSON.stringify({
                hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: 'check the build log' },
              }),
            ),
          },
        ],
      },
    ],
  };
  const o = await runToolPipeline(
    use('Bash', { command: 'echo out; exit 3' }, 'toolu_fail'),
    makeEnv(cwd, { hooks, tools: [BashTool], mode: 'bypassPermissions' }),
  );
  assert.equal(o.status, 'error');
  assert.equal(await exists(post), false, 'PostToolUse did not run');
  const input = await read(fail);
  assert.equal(input.hook_event_name, 'PostToolUseFailure');
  assert.equal(input.tool_use_id, 'toolu_fail');
  assert.deepEqual(input.tool_input, { command: 'echo out; exit 3' });
  assert.match(String(input.error), /out[\s\S]*Exit code 3/);
  assert.equal(input.is_interrupt, false);
  assert.equal(typeof input.duration_ms, 'number');
  assert.match(toolResultText(o.result!), /PostToolUseFailure hook additional context: check the build log/);
  assert.deepEqual(
    o.hookRuns?.map((r) => r.event),
    ['PostToolUseFailure'],
  );
});

test('unit: a call that throws fires PostToolUseFailure; a successful one fires PostToolUse only', async () => {
  const fail = path.join(cwd, 'fail2.json');
  const post = path.join(cwd, 'post2.json');
  const hooks: HooksConfig = {
    PostToolUse: [{ hooks: [{ type: 'command', command: await capture('post2.sh', post) }] }],
    PostToolUseFailure: [{ hooks: [{ type: 'command', command: await capture('fail2.sh', fail) }] }],
  };
  const thrown = await runToolPipeline(
    use('Thrower', {}),
    makeEnv(cwd, { hooks, tools: FAKE_TOOLS, mode: 'bypassPermissions' }),
  );
  assert.equal(thrown.status, 'error');
  assert.match(String((await read(fail)).error), /disk on fire/);
  assert.equal(await exists(post), false);
  await fs.rm(fail);
  const ok = await runToolPipeline(
    use('Echo', { text: 'a' }),
    makeEnv(cwd, { hooks, tools: FAKE_TOOLS, mode: 'bypassPermissions' }),
  );
  assert.equal(ok.status, 'ok');
  assert.equal((await read(post)).hook_event_name, 'PostToolUse');
  assert.equal(await exists(fail), false);
});

test('unit: a check that fails before the call (validateInput) fires neither PreToolUse nor PostToolUseFailure (the seed)', async () => {
  const any = path.join(cwd, 'any.json');
  const cmd = await capture('any.sh', any);
  const hooks: HooksConfig = {
    PreToolUse: [{ hooks: [{ type: 'command', command: cmd }] }],
    PostToolUseFailure: [{ hooks: [{ type: 'command', command: cmd }] }],
  };
  const o = await runToolPipeline(
    use('Read', { file_path: 'missing.txt' }),
    makeEnv(cwd, { hooks, tools: [ReadTool], mode: 'bypassPermissions' }),
  );
  assert.equal(o.status, 'error');
  assert.equal(o.failure?.stage, 'validate');
  assert.equal(await exists(any), false);
});

test("unit: hooks see the reference's observable tool_input: absolute file_path, Edit's replace_all filled in; the call keeps the model's input", async () => {
  await fs.writeFile(path.join(cwd, 'a.txt'), 'timeout = 10\n');
  const cmd = await script(cwd, 'pre.sh', `f=$(mktemp '${cwd}/pre-XXXXXX'); cat > "$f"`);
  const hooks: HooksConfig = { PreToolUse: [{ hooks: [{ type: 'command', command: cmd }] }] };
  const env = makeEnv(cwd, { hooks, tools: [ReadTool, EditTool], mode: 'bypassPermissions' });
  const r = await runToolPipeline(use('Read', { file_path: 'a.txt' }), env);
  assert.equal(r.status, 'ok');
  assert.deepEqual(r.input, { file_path: 'a.txt' }, 'the call and the record keep the input as given');
  const e = await runToolPipeline(use('Edit', { file_path: 'made.txt', old_string: '', new_string: 'made\n' }), env);
  assert.equal(e.status, 'ok', toolResultText(e.result!));
  const seen: Array<Record<string, unknown>> = [];
  for (const f of await fs.readdir(cwd)) if (/^pre-[A-Za-z0-9]{6}$/.test(f)) seen.push(await read(path.join(cwd, f)));
  const inputs = seen.map((s) => JSON.stringify(s.tool_input)).sort();
  assert.deepEqual(
    inputs,
    [
      JSON.stringify({ file_path: path.join(cwd, 'a.txt') }),
      JSON.stringify({
        file_path: path.join(cwd, 'made.txt'),
        old_string: '',
        new_string: 'made\n',
        replace_all: false,
      }),
    ].sort(),
  );
});
