// integration: control files smuggled through a checkout (issue 30, class 3; docs/security.md
// "Checkouts"), end to end through the command line on the real dev server, Bash in the real OS
// sandbox. A `dontAsk` session in the MAIN checkout, allowed only Bash, cannot write
// `.claude/settings.json`; with git plumbing it builds a commit that adds one with a SessionStart
// hook and moves `worktree-x` and `main` to it — which the ref screen puts back (red team x, X1). The
// same plumbing outside the sandbox (a branch from elsewhere: a teammate's push the person fetched)
// moves them for the checkout check. The person's later `run --worktree x` (the moved
// branch) and `run --worktree y` (a new branch from the moved main) check it out: each names the
// file, starts nothing and exits 1 — the hook does not run (its marker, outside the project, is
// absent). The control: with --trust-checkout the session starts and the planted hook runs (the
// marker appears), so the oracle sees a hook that runs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
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
import { waitFor } from '../support/wait';
import { startSession } from '../../src/temporal/client';
import { CheckoutNotTrustedError } from '../../src/sessionInput';
import { lastUserText } from '../../src/testing/fakeAnthropic';

const sandboxHost = new SandboxHost();
let skip: string | false = false;
before(async () => {
  skip = await sandboxSkip(sandboxHost, 'the checkout control end-to-end test');
  await sandboxHost.close();
});
after(closeTestEnv);

const repo = (): Promise<string> => gitRepo('da-co-repo-');

/** Sandboxed Bash's plumbing: a commit on HEAD that adds `.claude/settings.json` (a SessionStart hook touching `marker`), and `refs` moved to it. */
function plantCommand(marker: string, refs: string[]): string {
  return `echo '{}' > .claude/settings.json; echo direct=$?; ${plumbing(marker, refs)}`;
}

/** The plumbing of plantCommand alone (outside the sandbox it would not write the file itself). */
function plumbing(marker: string, refs: string[]): string {
  const settings = JSON.stringify({
    hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `touch ${marker}` }] }] },
  });
  return (
    `b=$(printf '%s' '${settings}' | git hash-object -w --stdin) && ` +
    `s=$(printf "100644 blob $b\\tsettings.json\\n" | git mktree) && ` +
    `t=$( (git ls-tree HEAD; printf "040000 tree $s\\t.claude\\n") | git mktree) && ` +
    `c=$(git -c user.name=a -c user.email=a@example.com commit-tree -m tidy -p HEAD $t) && ` +
    refs.map((r) => `git update-ref ${r} $c`).join(' && ') +
    ' && echo planted'
  );
}

test('cli: a hook planted on worktree-x and main with git plumbing from the main checkout is put back; the same branches from elsewhere do not run it in run --worktree', async (t) => {
  if (skip) return t.skip(skip);
  await withAgent({}, async ({ fake, taskQueue, storeDir }) => {
    const root = await repo();
    const home = await mkdtemp(join(tmpdir(), 'da-home-'));
    // The hook writes into the project it runs in (the worktree): a place its sandbox lets it write,
    // so that "absent" means it did not run, not that it could not write.
    const marker = (name: string) => join(root, '.claude', 'worktrees', name, 'pwned');
    const env = {
      TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
      DURABLE_AGENT_TASK_QUEUE: taskQueue,
      DURABLE_AGENT_HOME: home,
      DURABLE_AGENT_STORE_DIR: storeDir,
      HOME: home,
    };
    const settings = JSON.stringify({
      hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'echo ran > "$CLAUDE_PROJECT_DIR/pwned"' }] }] },
    });
    const plumbed =
      `b=$(printf '%s' '${settings}' | git hash-object -w --stdin) && ` +
      `s=$(printf "100644 blob $b\\tsettings.json\\n" | git mktree) && ` +
      `t=$( (git ls-tree HEAD; printf "040000 tree $s\\t.claude\\n") | git mktree) && ` +
      `c=$(git -c user.name=a -c user.email=a@example.com commit-tree -m tidy -p HEAD $t) && ` +
      `git branch worktree-x && git update-ref refs/heads/worktree-x $c && git update-ref refs/heads/main $c && echo planted`;
    const plant = `echo '{}' > .claude/settings.json; echo direct=$?; ${plumbed}`;
    fake.script((req) => {
      const results = lastToolResults(req);
      const system = JSON.stringify(req.system);
      if (!system.includes('.claude/worktrees/') && results.length === 0)
        return toolUseResponse([{ id: 'toolu_plant', name: 'Bash', input: { command: plant } }]);
      return textResponse('done');
    });
    const run = (...args: string[]) =>
      cli(['run', '--cwd', root, '--model', 'claude-test', ...args, 'tidy', 'up'], env, 120_000);

    // The planting session: dontAsk, only Bash allowed, sandboxed.
    const first = await run('--permission-mode', 'dontAsk', '--allow', 'Bash');
    assert.equal(first.code, 0, first.stderr);
    const bash = fake
      .messageRequests()
      .flatMap((q) => lastToolResults(q))
      .find((r) => r.tool_use_id === 'toolu_plant');
    assert.ok(bash, 'the Bash call ran');
    const said = toolResultText(bash as never);
    assert.match(said, /direct=1/, `the sandbox refused the file itself: ${said}`);
    assert.match(said, /planted/, said);
    const git = (...a: string[]) => execFileSync('git', a, { cwd: root, encoding: 'utf8' }).trim();
    // The ref screen put both back (red team x, X1): the new branch removed, main where it was.
    assert.match(said, /worktree-x named a commit that changes .* a protected file/, said);
    assert.equal(git('branch', '--list', 'worktree-x'), '', 'the sandboxed plant was put back');
    assert.throws(() => git('show', 'main:.claude/settings.json'), 'main was put back');
    // The same branches from elsewhere (a teammate's push the person fetched): the checkout check's case.
    execFileSync('sh', ['-c', plumbed], { cwd: root, stdio: 'ignore' });
    assert.equal(git('rev-parse', 'worktree-x'), git('rev-parse', 'main'), 'both refs moved');
    assert.match(git('show', 'main:.claude/settings.json'), /SessionStart/);
    assert.equal(existsSync(join(root, '.claude', 'settings.json')), false, 'nothing on disk in the main checkout');

    // The person's next runs in worktrees: the moved branch, and a new branch from the moved main.
    const requestsBefore = fake.messageRequests().length;
    for (const name of ['x', 'y']) {
      const r = await run('--permission-mode', 'dontAsk', '--worktree', name);
      assert.equal(r.code, 1, `${name}: ${r.stderr}`);
      assert.match(
        r.stderr,
        new RegExp(
          `⚠ \\.claude/settings\\.json created by the checkout of branch worktree-${name} at [0-9a-f]{12} \\(.* UTC, run --worktree\\): the main checkout ${root} does not have it`,
        ),
        r.stderr,
      );
      assert.match(r.stderr, /nothing was started: .* run again with --trust-checkout/);
      // The file is really there: it is the checkout's, not loaded.
      assert.match(
        await readFile(join(root, '.claude', 'worktrees', name, '.claude', 'settings.json'), 'utf8'),
        /echo ran/,
      );
      assert.equal(existsSync(marker(name)), false, `${name}: the planted SessionStart hook ran`);
    }
    assert.equal(fake.messageRequests().length, requestsBefore, 'no session started');

    // Again: still refused (the check holds until a session there has started with the person's consent).
    const again = await run('--worktree', 'x');
    assert.equal(again.code, 1, again.stderr);
    assert.match(again.stderr, /reusing worktree .* on branch worktree-x/);
    assert.match(again.stderr, /⚠ \.claude\/settings\.json created by the checkout of branch worktree-x/);
    assert.equal(existsSync(marker('x')), false);

    // The control: the person trusts them — the session starts and loads the planted hook, which runs.
    const trusted = await run('--permission-mode', 'dontAsk', '--worktree', 'x', '--trust-checkout');
    assert.equal(trusted.code, 0, trusted.stderr);
    assert.match(trusted.stderr, /⚠ \.claude\/settings\.json created by the checkout of branch worktree-x/);
    assert.equal(existsSync(marker('x')), true, `the control: a trusted checkout's hook runs\n${trusted.stderr}`);
  });
});

test('cli and library: startSession and schedule add in a planted worktree refuse as run does; a firing after a new checkout is refused and pauses its schedule', async (t) => {
  if (skip) return t.skip(skip);
  await withAgent({}, async ({ fake, client, taskQueue, storeDir }) => {
    const root = await repo();
    const home = await mkdtemp(join(tmpdir(), 'da-home-'));
    const marker = join(await mkdtemp(join(tmpdir(), 'da-co-out-')), 'pwned');
    const env = {
      TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
      DURABLE_AGENT_TASK_QUEUE: taskQueue,
      DURABLE_AGENT_HOME: home,
      DURABLE_AGENT_STORE_DIR: storeDir,
      HOME: home,
    };
    fake.script((req) =>
      lastUserText(req).includes('plant it') && lastToolResults(req).length === 0
        ? toolUseResponse([
            {
              id: 'toolu_plant2',
              name: 'Bash',
              input: { command: plantCommand(marker, ['refs/heads/worktree-z', 'refs/heads/main']) },
            },
          ])
        : textResponse('done'),
    );
    const git = (...a: string[]) => execFileSync('git', a, { cwd: root, encoding: 'utf8' }).trim();
    const run = (...args: string[]) => cli(['run', '--cwd', root, '--model', 'claude-test', ...args], env, 120_000);
    const wtZ = join(root, '.claude', 'worktrees', 'z');
    const suffix = taskQueue.slice(-8);
    const sched = `co-nightly-${suffix}`;

    // Before any planting: a worktree z, a schedule there (nothing to name), and a firing that runs.
    const first = await run('--worktree', 'z', 'hello');
    assert.equal(first.code, 0, first.stderr);
    const add = await cli(
      ['schedule', 'add', '--id', sched, '--cwd', wtZ, '--model', 'claude-test', '0 3 * * *', 'nightly', 'job'],
      env,
    );
    assert.equal(add.code, 0, add.stderr);
    const firing = async (n: number): Promise<string> => {
      await client.schedule.getHandle(sched).trigger();
      return waitFor(`firing ${n}`, async () => {
        const recent = (await client.schedule.getHandle(sched).describe()).info.recentActions;
        return recent.length >= n ? recent[n - 1]!.action.workflow.workflowId : undefined;
      });
    };
    const nightlyRequests = () =>
      fake.messageRequests().filter((q) => JSON.stringify(q.messages).includes('nightly job')).length;
    const control = await firing(1);
    assert.equal(((await client.workflow.getHandle(control).result()) as { status: string }).status, 'completed');
    assert.equal(nightlyRequests(), 1, 'the control firing ran its session');

    // The planting session in the main checkout moves worktree-z and main with plumbing.
    const z = git('rev-parse', 'worktree-z');
    const plant = await run('--permission-mode', 'dontAsk', '--allow', 'Bash', 'plant it');
    assert.equal(plant.code, 0, plant.stderr);
    assert.equal(git('rev-parse', 'worktree-z'), z, 'the sandboxed plant was put back (red team x, X1)');
    // The same branch from elsewhere (a teammate's push the person fetched): the checkout check's case.
    execFileSync('sh', ['-c', plumbing(marker, ['refs/heads/worktree-z', 'refs/heads/main'])], {
      cwd: root,
      stdio: 'ignore',
    });
    assert.match(git('show', 'worktree-z:.claude/settings.json'), /SessionStart/);
    // The person makes z again (a new checkout, recorded after the schedule was created): run refuses.
    git('worktree', 'remove', '--force', wtZ);
    const again = await run('--worktree', 'z', 'hello');
    assert.equal(again.code, 1, again.stderr);
    const runLines = again.stderr.split('\n').filter((l) => l.startsWith('⚠'));
    assert.match(runLines.join('\n'), /^⚠ \.claude\/settings\.json created by the checkout of branch worktree-z /);

    // The library: a typed error naming the file and the option; nothing started.
    const before = fake.messageRequests().length;
    await assert.rejects(
      startSession(client, { prompt: 'library job', cwd: wtZ, taskQueue, model: { model: 'claude-test' } }),
      (err: unknown) => {
        assert.ok(err instanceof CheckoutNotTrustedError, String(err));
        assert.deepEqual(err.files, [join(wtZ, '.claude', 'settings.json')]);
        assert.deepEqual(err.lines, runLines, 'the same lines as run');
        assert.match(err.message, /trustCheckout: true/);
        return true;
      },
    );
    // schedule add: the same lines, nothing created.
    const add2 = await cli(['schedule', 'add', '--id', `${sched}-2`, '--cwd', wtZ, '0 3 * * *', 'x'], env);
    assert.equal(add2.code, 1, add2.stderr);
    assert.deepEqual(
      add2.stderr.split('\n').filter((l) => l.startsWith('⚠')),
      runLines,
    );
    assert.match(add2.stderr, /nothing was started: .* add the schedule again with --trust-checkout/);
    await assert.rejects(client.schedule.getHandle(`${sched}-2`).describe(), /not found/i);
    assert.equal(fake.messageRequests().length, before, 'no session started');

    // The schedule made before the checkout fires: refused on the worker before anything runs.
    const refused = await firing(2);
    await assert.rejects(client.workflow.getHandle(refused).result(), (err: unknown) => {
      const cause = (err as { cause?: { type?: string; message?: string } }).cause;
      assert.equal(cause?.type, 'CHECKOUT_NOT_TRUSTED', String(err));
      assert.match(cause?.message ?? '', /\.claude\/settings\.json created by the checkout of branch worktree-z/);
      return true;
    });
    assert.equal(nightlyRequests(), 1, 'the refused firing made no model call');
    const d = await client.schedule.getHandle(sched).describe();
    assert.equal(d.state.paused, true, 'the schedule is paused');
    assert.match(d.state.note ?? '', /a firing was refused.*\.claude\/settings\.json \(created\)/);
    const ls = await cli(['schedule', 'ls'], env);
    assert.match(ls.stdout, new RegExp(`${sched} .* paused \\(paused: a firing was refused`));
    // The library's control: trusted, it starts.
    const trusted = await startSession(client, {
      prompt: 'library job',
      cwd: wtZ,
      taskQueue,
      model: { model: 'claude-test' },
      trustCheckout: true,
    });
    assert.equal(((await trusted.result()) as { status: string }).status, 'completed');
    assert.equal(existsSync(marker), false, 'the planted hook never ran (no start path loaded the settings file)');
    await client.schedule.getHandle(sched).delete();
  });
});
