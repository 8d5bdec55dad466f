// integration: CLAUDE.md files a Claude Code user has, through `durable-agent run` on the real dev
// server, loaded as the reference (Claude Code 2.1.197) loads them: .claude/rules, frontmatter
// and HTML comments dropped, a project file's import outside the project not followed (and said
// so), a path-conditional rule reported; `run` and `status` list what was loaded.
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

test('integration: `run` loads .claude/rules, drops frontmatter and HTML comments, does not follow a project import out of the project; `run` and `status` list the files', async () => {
  await withAgent({}, async ({ fake, taskQueue, workDir }) => {
    const home = await fs.mkdtemp(join(tmpdir(), 'da-memory-home-'));
    const env = {
      TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
      DURABLE_AGENT_TASK_QUEUE: taskQueue,
      HOME: home,
      CLAUDE_CONFIG_DIR: join(home, '.claude'),
      DURABLE_AGENT_HOME: join(home, '.durable-agent'),
      DURABLE_AGENT_MANAGED_SETTINGS: join(home, 'no-managed-settings.json'),
      DURABLE_AGENT_MANAGED_MEMORY: join(home, 'no-managed-CLAUDE.md'),
    };
    const userMd = await put(join(home, '.claude', 'CLAUDE.md'), 'User: answer in English. @~/notes/tone.md');
    const tone = await put(join(home, 'notes', 'tone.md'), 'Tone: terse (TONE-11).');
    await put(join(home, 'secrets.md'), 'SECRET-TOKEN-42');
    const claudeMd = await put(
      join(workDir, 'CLAUDE.md'),
      '# Project\nCodeword PAPAYA-5.\n<!-- maintainers: keep this short -->\nAlso @~/secrets.md\n',
    );
    const rule = await put(
      join(workDir, '.claude', 'rules', 'style.md'),
      '---\ndescription: code style\n---\nStyle rule GUAVA-8.\n',
    );
    const cond = await put(
      join(workDir, '.claude', 'rules', 'ts.md'),
      '---\npaths:\n  - "src/**/*.ts"\n---\nTS rule LIME-2.\n',
    );
    fake.enqueue(textResponse('done'));
    const run = await cli(['run', '--cwd', workDir, 'go'], env, 90_000);
    assert.equal(run.code, 0, run.stderr);
    const id = /session (\S+) started/.exec(run.stdout)?.[1] as string;
    const files = [userMd, tone, claudeMd, rule];
    assert.ok(run.stdout.includes(`memory: ${files.join(', ')}`), run.stdout);
    assert.ok(
      run.stderr.includes(`warning: ${claudeMd}: @import ~/secrets.md is outside the working directory`),
      run.stderr,
    );
    assert.ok(run.stderr.includes(`warning: ${cond}: a rule with paths: in its frontmatter`), run.stderr);

    const first = fake.messageRequests()[0] as unknown as { messages: Array<{ content: unknown }> };
    const text = JSON.stringify(first.messages[0]?.content);
    for (const piece of [
      'TONE-11',
      'PAPAYA-5',
      'GUAVA-8',
      `Contents of ${tone} (user's private global instructions for all projects)`,
      `Contents of ${rule} (project instructions, checked into the codebase)`,
    ]) {
      assert.ok(text.includes(piece), `${piece} in ${text}`);
    }
    for (const absent of ['SECRET-TOKEN-42', 'LIME-2', 'maintainers: keep this short', 'description: code style'])
      assert.ok(!text.includes(absent), `${absent} must not reach the model`);

    const st = await cli(['status', id], env);
    assert.equal(st.code, 0, st.stderr);
    assert.ok(st.stdout.includes(`memory    ${files.join(', ')}`), st.stdout);
    await fs.rm(home, { recursive: true, force: true });
  });
});
