// integration: a Claude Code user's real settings files through `durable-agent run` on the real
// dev server: a ~/.claude/settings.json full of UI keys (and `"model": "sonnet"`) runs (one note, no flood), behaviour keys
// are warned with the file and key, `~/` additionalDirectories reach the session, claudeMdExcludes
// keeps a CLAUDE.md from the model; malformed JSON and a missing --add-dir stop `run` with one
// line naming the file (line and column) or the flag, before anything starts.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { textResponse } from '../../src/testing/fakeAnthropic';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { cli } from '../support/cli';

after(async () => {
  await closeTestEnv();
});

async function put(path: string, content: string): Promise<string> {
  await fs.mkdir(join(path, '..'), { recursive: true });
  await fs.writeFile(path, content);
  return path;
}

test('integration: `run` with a real-world ~/.claude/settings.json: UI keys one note, behaviour keys warned, ~/ directories and claudeMdExcludes honoured; malformed JSON and a missing --add-dir stop it', async () => {
  await withAgent({}, async ({ fake, taskQueue, workDir }) => {
    const home = await fs.mkdtemp(join(tmpdir(), 'da-settings-home-'));
    const env = {
      TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
      DURABLE_AGENT_TASK_QUEUE: taskQueue,
      HOME: home,
      CLAUDE_CONFIG_DIR: join(home, '.claude'),
      DURABLE_AGENT_HOME: join(home, '.durable-agent'),
      DURABLE_AGENT_MANAGED_SETTINGS: join(home, 'no-managed-settings.json'),
      DURABLE_AGENT_MANAGED_MEMORY: join(home, 'no-managed-CLAUDE.md'),
    };
    await fs.mkdir(join(home, 'shared-lib'), { recursive: true });
    // Saved by an editor that writes a byte-order mark.
    const user = await put(
      join(home, '.claude', 'settings.json'),
      '\ufeff' +
        JSON.stringify({
          $schema: 'https://json.schemastore.org/claude-code-settings.json',
          model: 'sonnet',
          cleanupPeriodDays: 30,
          statusLine: { type: 'command', command: '~/.claude/statusline.sh' },
          spinnerTipsEnabled: false,
          theme: 'dark',
          includeCoAuthoredBy: false,
          env: { NODE_ENV: 'test' },
          permissions: { additionalDirectories: ['~/shared-lib'] },
          claudeMdExcludes: ['**/vendor/CLAUDE.md'],
        }),
    );
    await put(join(workDir, '.claude', 'settings.local.json'), '');
    await put(join(workDir, 'CLAUDE.md'), 'Project memory BANANA-1.\n@vendor/CLAUDE.md\n');
    await put(join(workDir, 'vendor', 'CLAUDE.md'), 'Vendored memory CHERRY-2.\n');
    fake.enqueue(textResponse('done'));
    const run = await cli(['run', '--cwd', workDir, 'go'], env, 90_000);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(run.stdout.includes(`settings: ${user}, ${join(workDir, '.claude', 'settings.local.json')}`), run.stdout);
    assert.ok(run.stdout.includes(`memory: ${join(workDir, 'CLAUDE.md')}\n`), run.stdout);
    const lines = run.stderr.trim().split('\n');
    assert.deepEqual(
      lines.filter((l) => l.startsWith('durable-agent: note:')),
      [
        `durable-agent: note: ${user}: cleanupPeriodDays, statusLine, spinnerTipsEnabled, theme only shape Claude Code's interactive terminal, login, updates or local housekeeping; durable-agent has none of these (ignored)`,
      ],
    );
    const warned = lines
      .filter((l) => l.startsWith('durable-agent: warning:'))
      .map((l) => l.slice(`durable-agent: warning: ${user}: `.length).split(' is ')[0]);
    assert.deepEqual(warned, ['includeCoAuthoredBy', 'env (NODE_ENV)']);
    const first = fake.messageRequests()[0] as unknown as {
      model: string;
      system?: unknown;
      messages: Array<{ content: unknown }>;
    };
    assert.match(first.model, /^claude-sonnet-/, '"model": "sonnet" (what /model writes) is a model id on the wire');
    assert.match(
      JSON.stringify(first.system),
      new RegExp(join(home, 'shared-lib').replace(/[.]/g, '\\.')),
      'the ~/ directory is a working directory of the session',
    );
    const text = JSON.stringify(first.messages[0]?.content);
    assert.ok(text.includes('BANANA-1') && !text.includes('CHERRY-2'), text);

    // The JSON forms say which files were loaded too.
    fake.enqueue(textResponse('again'));
    const detached = await cli(['run', '--detach', '--json', '--cwd', workDir, 'go'], env, 30_000);
    assert.equal(detached.code, 0, detached.stderr);
    const d = JSON.parse(detached.stdout) as { session: string; settings: string[]; memory: string[]; cwd: string };
    assert.deepEqual(
      [d.cwd, d.settings, d.memory],
      [workDir, [user, join(workDir, '.claude', 'settings.local.json')], [join(workDir, 'CLAUDE.md')]],
    );
    assert.ok(d.session);

    // A trailing comma in the shared file: one line naming it, with line and column; nothing starts.
    const shared = await put(
      join(workDir, '.claude', 'settings.json'),
      '{\n  "permissions": {\n    "deny": ["Bash(rm:*)",]\n  }\n}\n',
    );
    const bad = await cli(['run', '--cwd', workDir, 'go'], env, 30_000);
    assert.notEqual(bad.code, 0);
    assert.match(
      bad.stderr,
      new RegExp(`durable-agent: .*${shared.replace(/[.]/g, '\\.')} is not valid JSON at line 3 column 27`),
    );
    await fs.rm(shared);
    const missing = await cli(['run', '--cwd', workDir, '--add-dir', join(home, 'nope'), 'go'], env, 30_000);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr.trim(), new RegExp(`--add-dir ${join(home, 'nope')} does not exist$`));

    await fs.rm(home, { recursive: true, force: true });
  });
});
