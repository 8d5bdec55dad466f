// integration (red team, issue 30 round 4, second pass): a planted branch that DELETES the project's
// shared settings file, end to end through the command line on the real dev server, Bash in the real
// OS sandbox. The main checkout's tracked `.claude/settings.json` denies `Bash(touch:*)`. A `dontAsk`
// session there, allowed only Bash, builds with git plumbing a commit without `.claude` and moves
// `worktree-x` to it. The person's later `run --worktree x` checks it out: before the fix nothing was
// named (a missing file was never named) and the session there ran `touch` — the deny rule was gone.
// Now the deletion is named, nothing starts, exit 1. The control: with --trust-checkout the session
// starts without the rule and the `touch` runs (its file appears in the worktree).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { lastToolResults, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { toolResultText } from '../../src/core/apiMessages';
import { SandboxHost } from '../../src/sandbox/host';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { cli } from '../support/cli';
import { sandboxSkip } from '../support/systemPackages';
import { gitRepo } from '../support/gitRepo';

const sandboxHost = new SandboxHost();
let skip: string | false = false;
before(async () => {
  skip = await sandboxSkip(sandboxHost, 'the red team (b) end-to-end test');
  await sandboxHost.close();
});
after(closeTestEnv);

test('cli: a planted branch deleting the tracked .claude/settings.json (its deny rules) is refused by run --worktree', async (t) => {
  if (skip) return t.skip(skip);
  await withAgent({}, async ({ fake, taskQueue, storeDir }) => {
    const root = await gitRepo('da-r30b-repo-');
    const git = (...a: string[]) => execFileSync('git', a, { cwd: root, encoding: 'utf8' }).trim();
    mkdirSync(join(root, '.claude'));
    writeFileSync(join(root, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: ['Bash(touch:*)'] } }));
    git('add', '.claude/settings.json');
    git('commit', '-qm', 'settings');
    const home = await mkdtemp(join(tmpdir(), 'da-home-'));
    const env = {
      TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
      DURABLE_AGENT_TASK_QUEUE: taskQueue,
      DURABLE_AGENT_HOME: home,
      DURABLE_AGENT_STORE_DIR: storeDir,
      HOME: home,
    };
    const plant =
      `t=$(git ls-tree HEAD | grep -v -e '\\.claude$' | git mktree) && ` +
      `c=$(git -c user.name=a -c user.email=a@example.com commit-tree -m tidy -p HEAD $t) && ` +
      `git branch worktree-x && git update-ref refs/heads/worktree-x $c && echo planted`;
    fake.script((req) => {
      const results = lastToolResults(req);
      const system = JSON.stringify(req.system);
      if (results.length > 0) return textResponse('done');
      if (!system.includes('.claude/worktrees/'))
        return toolUseResponse([{ id: 'toolu_plant', name: 'Bash', input: { command: plant } }]);
      return toolUseResponse([{ id: 'toolu_touch', name: 'Bash', input: { command: 'touch pwned-by-bash' } }]);
    });
    const run = (...args: string[]) =>
      cli(['run', '--cwd', root, '--model', 'claude-test', ...args, 'tidy', 'up'], env, 120_000);

    const first = await run('--permission-mode', 'dontAsk', '--allow', 'Bash');
    assert.equal(first.code, 0, first.stderr);
    const planted = fake
      .messageRequests()
      .flatMap((q) => lastToolResults(q))
      .find((r) => r.tool_use_id === 'toolu_plant');
    assert.ok(planted, 'the Bash call ran');
    assert.match(toolResultText(planted as never), /planted/);
    // The ref screen removed the new branch (red team x, X1: a commit removing a protected path).
    assert.equal(git('branch', '--list', 'worktree-x'), '', 'the sandboxed plant was put back');
    // The same branch from elsewhere (a teammate's push the person fetched): the checkout check's case.
    execFileSync('sh', ['-c', plant], { cwd: root, stdio: 'ignore' });
    assert.equal(git('ls-tree', 'worktree-x', '.claude'), '', 'the branch has no .claude');

    const wt = join(root, '.claude', 'worktrees', 'x');
    const requestsBefore = fake.messageRequests().length;
    const refused = await run('--permission-mode', 'dontAsk', '--allow', 'Bash', '--worktree', 'x');
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /⚠ \.claude\/settings\.json deleted by the checkout of branch worktree-x/);
    assert.match(refused.stderr, /nothing was started/);
    assert.equal(fake.messageRequests().length, requestsBefore, 'no session started');
    assert.equal(existsSync(join(wt, 'pwned-by-bash')), false);

    // The control: trusted, the session starts without the deny rule, and the touch runs.
    const trusted = await run('--permission-mode', 'dontAsk', '--allow', 'Bash', '--worktree', 'x', '--trust-checkout');
    assert.equal(trusted.code, 0, trusted.stderr);
    assert.equal(existsSync(join(wt, 'pwned-by-bash')), true, `the control: the rule is gone there\n${trusted.stderr}`);
  });
});
