// unit: the command-hook keys of the reference's schema (checked against Claude Code 2.1.197):
// `if` (a permission rule selecting the calls), `args` (exec form), `async` (background), `shell`;
// what is rejected at load (invalid matcher regex, `if` outside tool events, asyncRewake,
// powershell) and what loads with a warning naming the file and key (`once`, typos).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { loadSettings } from '../../src/cli/settings';
import { hookConfigWarnings, normalizeHooksConfig, runPreToolUseHooks } from '../../src/hooks';
import { runToolPipeline } from '../../src/toolCall/pipeline';
import { makeEnv, tempDir, use } from './pipelineFixtures';

const hook = (extra: Record<string, unknown>, event = 'PreToolUse') => ({
  hooks: { [event]: [{ matcher: 'WriteFile', hooks: [{ type: 'command', command: 'true', ...extra }] }] },
});

test('unit: hook keys rejected at load name the key', () => {
  assert.throws(
    () => normalizeHooksConfig({ hooks: { PreToolUse: [{ matcher: '(Bash', hooks: [] }] } }),
    /hooks\.PreToolUse\[0\]\.matcher "\(Bash" is not a valid regular expression/,
  );
  assert.throws(
    () => normalizeHooksConfig(hook({ if: 'Bash(git *)' }, 'Stop')),
    /hooks\.Stop\[0\]\.hooks\[0\]\.if applies to tool events only/,
  );
  assert.throws(
    () => normalizeHooksConfig(hook({ if: 'Bash(git *' })),
    /hooks\.PreToolUse\[0\]\.hooks\[0\]\.if "Bash\(git \*" is not a permission rule/,
  );
  assert.throws(() => normalizeHooksConfig(hook({ args: 'x' })), /\.args must be an array of strings/);
  assert.throws(() => normalizeHooksConfig(hook({ shell: 'powershell' })), /\.shell "powershell" is not supported/);
  assert.throws(() => normalizeHooksConfig(hook({ asyncRewake: true })), /\.asyncRewake is not supported/);
  assert.throws(() => normalizeHooksConfig(hook({ async: 'yes' })), /\.async must be true or false/);
  // Stop/UserPromptSubmit ignore a matcher, so an odd one there is no error.
  assert.doesNotThrow(() => normalizeHooksConfig({ hooks: { Stop: [{ matcher: '(x', hooks: [] }] } }));
  const ok = normalizeHooksConfig(
    hook({ if: 'WriteFile(src/**)', args: ['a'], shell: 'bash', async: true, statusMessage: 'checking' }),
  );
  assert.deepEqual(ok.PreToolUse?.[0]?.hooks[0], {
    type: 'command',
    command: 'true',
    args: ['a'],
    if: 'WriteFile(src/**)',
    shell: 'bash',
    async: true,
  });
});

test('unit: once, typos and extra matcher keys load with a warning naming the file and key', async () => {
  assert.deepEqual(hookConfigWarnings(hook({ once: true, timout: 5 })), [
    ['hooks.PreToolUse[0].hooks[0].once', 'is not supported by durable-agent: the hook runs every time'],
    ['hooks.PreToolUse[0].hooks[0].timout', 'is not a command hook key; it is ignored'],
  ]);
  const dir = await tempDir('hook-keys-');
  const file = path.join(dir, 'settings.json');
  await fs.writeFile(
    file,
    JSON.stringify({
      hooks: {
        PostToolUse: [
          { matcher: 'Edit', description: 'fmt', hooks: [{ type: 'command', command: 'true', once: true }] },
        ],
      },
    }),
  );
  const eff = loadSettings(dir, [file]);
  assert.ok(
    eff.warnings.some((w) => w.includes(file) && w.includes('hooks.PostToolUse[0].description')),
    eff.warnings.join('\n'),
  );
  assert.ok(
    eff.warnings.some((w) => w.includes(file) && w.includes('hooks.PostToolUse[0].hooks[0].once')),
    eff.warnings.join('\n'),
  );
  await fs.writeFile(
    file,
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'B[', hooks: [{ type: 'command', command: 'true' }] }] } }),
  );
  assert.throws(
    () => loadSettings(dir, [file]),
    (e: Error) => e.message.includes(file) && /matcher "B\[" is not a valid regular expression/.test(e.message),
  );
});

test('unit: a hook with `if` runs only for the calls its permission rule matches', async () => {
  const cwd = await tempDir('hook-if-');
  const log = path.join(cwd, 'ran.log');
  const hooks = {
    PreToolUse: [
      {
        matcher: 'WriteFile',
        hooks: [
          {
            type: 'command',
            if: 'WriteFile(src/**)',
            command: `cat >> '${log}'; echo '' >> '${log}'; echo 'no writes under src' >&2; exit 2`,
          },
        ],
      },
    ],
  };
  const env = makeEnv(cwd, { mode: 'bypassPermissions', hooks: hooks as never });
  const blocked = await runToolPipeline(use('WriteFile', { file_path: 'src/a.ts', content: 'x' }), env);
  const allowed = await runToolPipeline(use('WriteFile', { file_path: 'b.md', content: 'y' }), env);
  assert.equal(blocked.status, 'denied');
  assert.equal(allowed.status, 'ok');
  const lines = (await fs.readFile(log, 'utf8')).trim().split('\n');
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, /src\/a\.ts/);
});

test('unit: args runs the executable without a shell; async does not wait and its answer is ignored', async () => {
  const cwd = await tempDir('hook-args-');
  const script = path.join(cwd, 'h.sh');
  await fs.writeFile(script, '#!/bin/sh\nprintf "%s|" "$@" > "$CLAUDE_PROJECT_DIR/args.txt"\n');
  await fs.chmod(script, 0o755);
  const input = {
    session_id: 's',
    cwd,
    permission_mode: 'default' as const,
    tool_name: 'Bash',
    tool_input: {},
    tool_use_id: 't',
  };
  await runPreToolUseHooks(input, {
    projectDir: cwd,
    config: normalizeHooksConfig({
      PreToolUse: [{ hooks: [{ type: 'command', command: script, args: ['a b', '$HOME', '; rm -rf x'] }] }],
    }),
  });
  assert.equal(await fs.readFile(path.join(cwd, 'args.txt'), 'utf8'), 'a b|$HOME|; rm -rf x|');

  const marker = path.join(cwd, 'async-done');
  const gate = path.join(cwd, 'async-gate');
  const r = await runPreToolUseHooks(input, {
    projectDir: cwd,
    config: normalizeHooksConfig({
      PreToolUse: [
        {
          hooks: [
            {
              type: 'command',
              async: true,
              // Ends only when the test opens the gate: a call that waited for it would never return.
              command: `while [ ! -e '${gate}' ]; do sleep 0.05; done; touch '${marker}'; echo no >&2; exit 2`,
            },
          ],
        },
      ],
    }),
  });
  assert.ok(!existsSync(marker), 'an async hook is not waited for');
  assert.equal(r.block, undefined);
  assert.equal(r.runs[0]?.async, true);
  await fs.writeFile(gate, '');
  for (let i = 0; i < 300 && !existsSync(marker); i++) await new Promise((res) => setTimeout(res, 100));
  assert.ok(existsSync(marker), 'the async hook ran to its end in the background');
});
