// integration: `run --worktree` (issue 19, deliverable 4) through the command line on the real dev
// server: two unattended sessions on one repository, each in its own worktree, write the same
// relative path at the same time and run Bash there; each sees only its own file, the main checkout
// is untouched, and a second run with the same name reuses the worktree. Bad flags end with one line.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { lastToolResults, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { toolResultText } from '../../src/core/apiMessages';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { cli } from '../support/cli';
import { gitRepo } from '../support/gitRepo';

after(closeTestEnv);

const repo = (): Promise<string> => gitRepo('da-wt-repo-');

test('cli: two sessions in two worktrees of one repository write the same path without touching each other', async () => {
  await withAgent({}, async ({ fake, taskQueue, storeDir }) => {
    const root = await repo();
    const home = await mkdtemp(join(tmpdir(), 'da-home-'));
    const env = {
      TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
      DURABLE_AGENT_TASK_QUEUE: taskQueue,
      DURABLE_AGENT_HOME: home,
      DURABLE_AGENT_STORE_DIR: storeDir,
      HOME: home,
    };
    // The model answers each session from its own working directory (named in the system prompt).
    fake.script((req) => {
      const dir = /The working directory is ([^;.\s]+(?:\.[^;.\s]+)*)[;.]/.exec(JSON.stringify(req.system))?.[1];
      const name = dir?.split('/').pop() ?? 'unknown';
      const results = lastToolResults(req);
      if (results.length === 0)
        return toolUseResponse([
          { id: `toolu_w_${name}`, name: 'Write', input: { file_path: 'shared.txt', content: `written by ${name}\n` } },
        ]);
      if (results[0]?.tool_use_id === `toolu_w_${name}`)
        return toolUseResponse([
          {
            id: `toolu_b_${name}`,
            name: 'Bash',
            input: {
              command: `pwd; git branch --show-current; cat shared.txt; git add shared.txt && git commit -qm 'from ${name}'`,
            },
          },
        ]);
      return textResponse(`done in ${name}`);
    });
    const run = (name: string) =>
      cli(
        [
          'run',
          '--cwd',
          root,
          '--model',
          'claude-test',
          '--permission-mode',
          'acceptEdits',
          '--worktree',
          name,
          'write',
          'the',
          'shared',
          'file',
        ],
        env,
        120_000,
      );
    const [a, b] = await Promise.all([run('alpha'), run('beta')]);
    for (const [name, r] of [
      ['alpha', a],
      ['beta', b],
    ] as const) {
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, new RegExp(`created worktree \\.claude/worktrees/${name} on branch worktree-${name}`));
      const wt = join(root, '.claude', 'worktrees', name);
      assert.equal(await readFile(join(wt, 'shared.txt'), 'utf8'), `written by ${name}\n`);
      // Bash ran in the worktree, on its branch, and saw its own file.
      const bash = fake
        .messageRequests()
        .flatMap((q) => lastToolResults(q))
        .find((x) => x.tool_use_id === `toolu_b_${name}`);
      assert.ok(bash, `the Bash result of ${name}`);
      assert.notEqual(bash.is_error, true);
      assert.equal(toolResultText(bash as never).trim(), `${wt}\nworktree-${name}\nwritten by ${name}`);
    }
    // Each session committed on its own branch (its command's git wrote to the worktree's shadow, the
    // worker brought the branch in after: src/sandbox/worktreeGit.ts); the main checkout has no
    // shared.txt and main did not move; git knows both worktrees, each a plain worktree again.
    for (const name of ['alpha', 'beta']) {
      assert.equal(
        execFileSync('git', ['log', '-1', '--format=%s', `worktree-${name}`], { cwd: root, encoding: 'utf8' }).trim(),
        `from ${name}`,
      );
      assert.equal(await readFile(join(root, '.git', 'worktrees', name, 'commondir'), 'utf8'), '../..\n');
    }
    assert.equal(
      execFileSync('git', ['log', '-1', '--format=%s', 'main'], { cwd: root, encoding: 'utf8' }).trim(),
      'init',
    );
    assert.equal(existsSync(join(root, 'shared.txt')), false);
    const list = execFileSync('git', ['worktree', 'list', '--porcelain'], { cwd: root, encoding: 'utf8' });
    assert.match(list, /worktrees\/alpha\nHEAD [0-9a-f]+\nbranch refs\/heads\/worktree-alpha/);
    assert.match(list, /worktrees\/beta\nHEAD [0-9a-f]+\nbranch refs\/heads\/worktree-beta/);

    // The same name again: the worktree (and what the first session left there) is reused.
    const again = await run('alpha');
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /reusing worktree \.claude\/worktrees\/alpha on branch worktree-alpha/);
  });
});

test('cli: run --worktree with a bad name or outside a repository ends with one line and starts nothing', async () => {
  const plain = await mkdtemp(join(tmpdir(), 'da-wt-plain-'));
  const root = await repo();
  const env = { TEMPORAL_ADDRESS: '127.0.0.1:1' };
  const bad = await cli(['run', '--cwd', root, '--worktree', '../escape', 'do', 'it'], env);
  assert.notEqual(bad.code, 0);
  assert.match(
    bad.stderr,
    /--worktree: Invalid worktree name "\.\.\/escape": must not contain "\." or "\.\." path segments/,
  );
  assert.equal(bad.stderr.trim().split('\n').length, 1, bad.stderr);
  assert.equal(existsSync(join(root, '.claude')), false);
  const spaced = await cli(['run', '--cwd', root, '--worktree', 'fix the bug', 'now'], env);
  assert.notEqual(spaced.code, 0);
  assert.match(spaced.stderr, /put the prompt before --worktree/);
  const outside = await cli(['run', '--cwd', plain, '--worktree', 'x', 'do', 'it'], env);
  assert.notEqual(outside.code, 0);
  assert.match(outside.stderr, /--worktree: Cannot create a worktree: .* is not in a git repository/);
  assert.equal(outside.stderr.trim().split('\n').length, 1, outside.stderr);
});

test('integration: EnterWorktree mid-session moves every later call (Write, sandboxed Bash commit) into the worktree until ExitWorktree', async () => {
  await withAgent({}, async ({ fake, start }) => {
    const root = await repo();
    const wt = join(root, '.claude', 'worktrees', 'mid');
    fake.enqueue(
      toolUseResponse([{ id: 'toolu_mid_enter', name: 'EnterWorktree', input: { name: 'mid' } }]),
      toolUseResponse([{ id: 'toolu_mid_write', name: 'Write', input: { file_path: 'w.txt', content: 'in wt\n' } }]),
      toolUseResponse([
        {
          id: 'toolu_mid_bash',
          name: 'Bash',
          input: { command: "pwd; git add w.txt && git commit -qm 'mid work' && git branch --show-current" },
        },
      ]),
      toolUseResponse([{ id: 'toolu_mid_exit', name: 'ExitWorktree', input: { action: 'keep' } }]),
      toolUseResponse([{ id: 'toolu_mid_back', name: 'Write', input: { file_path: 'back.txt', content: 'main\n' } }]),
      textResponse('done'),
    );
    const result = await (
      await start({ prompt: 'work in a worktree', cwd: root, permissionMode: 'bypassPermissions' })
    ).result();
    assert.equal(result.status, 'completed');
    const results = new Map(
      fake
        .messageRequests()
        .flatMap((q) => lastToolResults(q))
        .map((r) => [r.tool_use_id, r] as const),
    );
    assert.match(
      toolResultText(results.get('toolu_mid_enter') as never),
      /^Created worktree at “.*\/\.claude\/worktrees\/mid” on branch “worktree-mid”/,
    );
    assert.equal(await readFile(join(wt, 'w.txt'), 'utf8'), 'in wt\n');
    const bash = results.get('toolu_mid_bash');
    assert.notEqual(bash?.is_error, true, toolResultText(bash as never));
    assert.equal(toolResultText(bash as never).trim(), `${wt}\nworktree-mid`);
    assert.equal(
      execFileSync('git', ['log', '-1', '--format=%s', 'worktree-mid'], { cwd: root, encoding: 'utf8' }).trim(),
      'mid work',
    );
    assert.match(
      toolResultText(results.get('toolu_mid_exit') as never),
      /^Exited worktree\. Your work is preserved at/,
    );
    // After ExitWorktree a relative path is the main checkout's again.
    assert.equal(await readFile(join(root, 'back.txt'), 'utf8'), 'main\n');
    assert.equal(existsSync(join(root, 'w.txt')), false);
    assert.equal(existsSync(join(wt, 'back.txt')), false);
  });
});
