import assert from 'node:assert/strict';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  BashTool,
  BASH_BACKGROUND_DEFAULT_TIMEOUT_MS,
  BASH_BACKGROUND_MAX_TIMEOUT_MS,
  BASH_DEFAULT_TIMEOUT_MS,
  BASH_MAX_TIMEOUT_MS,
  backgroundTaskId,
  backgroundTimeout,
  clampTimeout,
  runBackgroundCommand,
} from '../../src/tools/bash';
import { sessionTasksPath } from '../../src/sandbox/host';
import { exitCodeOneIsBenign, isReadOnlyCommand, standaloneCd } from '../../src/tools/bash/command';
import { loadShellParser } from '../../src/permissions/bashParser';
import { makeContext, makeTmpDir, removeDir, ToolSession, writeTree } from './tools-harness';
import { waitFor } from '../support/wait';

let dir: string;
before(async () => {
  assert.equal(await loadShellParser(), true);
  dir = await makeTmpDir();
  await writeTree(dir, { 'a.txt': 'one\n', 'b.txt': 'two\n', 'sub/c.txt': 'x\n' });
});
after(() => removeDir(dir));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls (a SIGKILL is delivered when the process is next scheduled: on a loaded machine, a while). */
async function waitGone(pids: number[], ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (pids.every((p) => !alive(p))) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return pids.every((p) => !alive(p));
}

describe('Bash: running commands', () => {
  it('runs in cwd; stdout and stderr merged in order', async () => {
    const s = new ToolSession(dir);
    const r = await s.run(BashTool, { command: 'pwd; echo out1; echo err1 >&2; echo out2; echo err2 1>&2' });
    assert.equal(r.isError, false);
    assert.equal(r.text, `${dir}\nout1\nerr1\nout2\nerr2`);
    assert.equal(r.data.exitCode, 0);
  });

  it('no output', async () => {
    const r = await new ToolSession(dir).run(BashTool, { command: 'true' });
    assert.equal(r.text, '(Bash completed with no output)');
  });

  it('non-zero exit codes are errors with "Exit code N"', async () => {
    const s = new ToolSession(dir);
    const r = await s.run(BashTool, { command: 'echo boom; exit 3' });
    assert.equal(r.isError, true);
    assert.equal(r.text, 'boom\nExit code 3');
    assert.equal(r.data.exitCode, 3);
    assert.equal((await s.run(BashTool, { command: 'false' })).isError, true);
    const grep2 = await s.run(BashTool, { command: 'grep x no-such-file' });
    assert.equal(grep2.isError, true);
    assert.match(grep2.text, /Exit code 2$/);
  });

  it('exit code 1 is not a failure for grep, find, diff, test, [, git diff', async () => {
    const s = new ToolSession(dir);
    for (const command of [
      'grep nomatch a.txt',
      'diff a.txt b.txt',
      'test -f nope.txt',
      '[ -d nope ]',
      'cat a.txt | grep -c zzz',
    ]) {
      const r = await s.run(BashTool, { command });
      assert.equal(r.data.exitCode, 1, command);
      assert.equal(r.isError, false, command);
      assert.match(r.text, /Exit code 1$/, command);
    }
    assert.equal(exitCodeOneIsBenign('git diff --exit-code'), true);
    assert.equal(exitCodeOneIsBenign('git -C sub diff --quiet'), true);
    assert.equal(exitCodeOneIsBenign('rg foo'), true);
    assert.equal(exitCodeOneIsBenign('find . -name x'), true);
    assert.equal(exitCodeOneIsBenign('grep x y | wc -l'), false);
    assert.equal(exitCodeOneIsBenign('npm test'), false);
    assert.equal(exitCodeOneIsBenign('git status'), false);
  });

  it('keeps the full output in data (the pipeline persists what exceeds 30000 chars)', async () => {
    const r = await new ToolSession(dir).run(BashTool, { command: "head -c 100000 /dev/zero | tr '\\0' a" });
    assert.equal(r.data.output.length, 100_000);
    assert.equal(BashTool.maxResultSizeChars, 30_000);
  });

  it('timeout: default 120 s, clamped to 600 s, kills and reports the output so far', async () => {
    assert.equal(clampTimeout(undefined), BASH_DEFAULT_TIMEOUT_MS);
    assert.equal(clampTimeout(5_000), 5_000);
    assert.equal(clampTimeout(10_000_000), BASH_MAX_TIMEOUT_MS);
    assert.equal(BASH_MAX_TIMEOUT_MS, 600_000);
    assert.equal(BashTool.inputSchema.safeParse({ command: 'x', timeout: 10_000_000 }).success, true);
    const started = Date.now();
    const r = await new ToolSession(dir).run(BashTool, { command: 'echo started; sleep 30', timeout: 300 });
    // Not a speed check: the call ended at its timeout instead of waiting for the 30 s sleep.
    assert.ok(Date.now() - started < 20_000, 'did not wait for the sleep');
    assert.equal(r.data.timedOut, true);
    assert.equal(r.isError, true);
    assert.match(r.text, /^started\nCommand timed out after 300 ms; its process group was killed\./);
  });

  it('reports progress at most every ~500 ms with the output so far', async () => {
    const r = await new ToolSession(dir).run(BashTool, {
      command: 'for i in 1 2 3 4; do echo tick $i; sleep 0.35; done',
    });
    assert.equal(r.isError, false);
    assert.ok(r.progress.length >= 1, 'at least one progress event');
    const withOutput = r.progress.filter((p) => typeof p.output === 'string');
    assert.match(String(withOutput[0]?.output), /^tick 1\n/);
    for (const p of r.progress) assert.equal(typeof p.elapsedMs, 'number');
    // The throttle's contract, read from the tool's own clock (not from how long the test took,
    // which a loaded machine stretches): consecutive reports are at least ~500 ms apart.
    const times = r.progress.map((p) => p.elapsedMs as number);
    for (let i = 1; i < times.length; i++)
      assert.ok((times[i] as number) - (times[i - 1] as number) >= 400, `reports ${times.join(', ')} ms`);
  });

  it('progress output is the last ~4 KB', async () => {
    const r = await new ToolSession(dir).run(BashTool, { command: "head -c 20000 /dev/zero | tr '\\0' b; sleep 0.7" });
    const p = r.progress.find((x) => typeof x.output === 'string');
    assert.ok(p);
    assert.equal(String(p.output).length, 4096);
  });

  it('abort kills the whole process group and returns the output so far', async () => {
    const ac = new AbortController();
    const s = new ToolSession(dir);
    const ready = path.join(dir, 'abort-group.ready');
    const run = s.run(
      BashTool,
      { command: `sleep 30 & echo $!; sleep 30 & echo $!; echo $$; touch ${ready}; wait` },
      { signal: ac.signal },
    );
    // Interrupt once the shell has started its children and printed their pids.
    await waitFor('the shell to start its children', async () => existsSync(ready));
    ac.abort();
    const r = await run;
    assert.equal(r.data.interrupted, true);
    assert.equal(r.isError, true);
    assert.match(r.text, /Command was aborted \(interrupted\); its process group was killed\./);
    const pids = String(r.data.output)
      .trim()
      .split('\n')
      .map(Number)
      .filter((n) => n > 0);
    assert.equal(pids.length, 3, `three pids in ${JSON.stringify(r.data.output)}`);
    assert.ok(await waitGone(pids), `processes still alive: ${pids.filter(alive).join(',')}`);
  });

  it('children that ignore SIGTERM get SIGKILL after the grace period', async () => {
    const ac = new AbortController();
    const ready = path.join(dir, 'grace.ready');
    const run = new ToolSession(dir).run(
      BashTool,
      { command: `trap '' TERM; sleep 30 & echo $!; touch ${ready}; wait` },
      { signal: ac.signal },
    );
    // Interrupt once the trap is set and the child started (an abort before would meet a plain shell).
    await waitFor('the shell to set its trap and start its child', async () => existsSync(ready));
    const t0 = Date.now();
    ac.abort();
    const r = await run;
    const pid = Number(String(r.data.output).trim());
    assert.ok(pid > 0);
    assert.ok(Date.now() - t0 >= 900, 'waited for the grace period');
    assert.ok(await waitGone([pid]));
  });

  it('background children do not hold the call open', async () => {
    const t0 = Date.now();
    const r = await new ToolSession(dir).run(BashTool, { command: 'sleep 30 & echo $!' });
    // Not a speed check: the call returned without waiting for its 30 s background child.
    assert.ok(Date.now() - t0 < 20_000, 'the call waited for its background child');
    const pid = Number(String(r.data.output).trim());
    if (pid > 0 && alive(pid)) process.kill(pid, 'SIGKILL');
  });

  it('run_in_background runs nothing itself: the reference text, an empty output file, a taskStarted record', async () => {
    const s = new ToolSession(dir);
    const r = await s.run(
      BashTool,
      {
        command: 'touch bg-ran; sleep 1',
        run_in_background: true,
        description: 'Touch it',
        timeout: 5 * 3600_000,
      },
      { backgroundTasks: true },
    );
    const toolUseId = (r.block as { tool_use_id: string }).tool_use_id;
    const id = backgroundTaskId('test-session', toolUseId);
    assert.match(id, /^b[a-z0-9]{8}$/);
    const file = path.join(sessionTasksPath('test-session'), `${id}.output`);
    assert.equal(
      r.text,
      `Command running in background with ID: ${id}. Output is being written to: ${file}. You will be notified when it completes. To check interim output, use Read on that file path.`,
    );
    assert.equal(r.isError, false);
    assert.equal(await fs.readFile(file, 'utf8'), '');
    await assert.rejects(fs.stat(path.join(dir, 'bg-ran')), 'nothing ran in the call');
    const task = s.agent.autonomy?.tasks[0];
    assert.deepEqual(
      { ...task, startedAt: 0 },
      {
        id,
        kind: 'local_bash',
        toolUseId,
        description: 'Touch it',
        startedAt: 0,
        timeoutMs: BASH_BACKGROUND_MAX_TIMEOUT_MS,
        outputPath: file,
        state: 'running',
        command: 'touch bg-ran; sleep 1',
        cwd: dir,
      },
    );
    assert.equal(backgroundTimeout(undefined), BASH_BACKGROUND_DEFAULT_TIMEOUT_MS);
    assert.equal(backgroundTimeout(1500.2), 1501);
  });

  it('run_in_background is refused where no scheduler runs background tasks (a bare pipeline call)', async () => {
    const r = await new ToolSession(dir).run(BashTool, { command: 'touch bg-ran', run_in_background: true });
    assert.equal(r.isError, true);
    assert.match(r.invalid ?? '', /run_in_background needs a session to run the task/);
    await assert.rejects(fs.stat(path.join(dir, 'bg-ran')), 'nothing ran');
  });

  it('runBackgroundCommand writes stdout and stderr to the output file; an abort kills its process group', async () => {
    const s = new ToolSession(dir);
    const out = path.join(await makeTmpDir(), 'task.output');
    const sizes: number[] = [];
    const ac = new AbortController();
    const tctx = makeContext(s.agent, ac.signal, [dir]);
    const done = await runBackgroundCommand(
      { command: 'echo one; echo two >&2; exit 4', timeoutMs: 10_000, outputPath: out },
      tctx,
      (n) => sizes.push(n),
    );
    assert.deepEqual([done.exitCode, done.timedOut, done.interrupted, done.outputBytes], [4, false, false, 8]);
    // The reference's last line, written (and the whole file read back) through the run's descriptor.
    assert.equal(await fs.readFile(out, 'utf8'), 'one\ntwo\n\n[exited with code 4]\n');
    assert.equal(done.output, 'one\ntwo\n\n[exited with code 4]\n');
    const t0 = Date.now();
    const running = runBackgroundCommand(
      { command: 'echo $$ > bg.pid; sleep 30', timeoutMs: 60_000, outputPath: out },
      tctx,
      () => undefined,
    );
    const pidFile = path.join(dir, 'bg.pid');
    await waitFor(
      'the background command to write its pid',
      async () => (await fs.stat(pidFile).catch(() => undefined))?.size,
    );
    const pid = Number((await fs.readFile(pidFile, 'utf8')).trim());
    ac.abort();
    const stopped = await running;
    assert.equal(stopped.interrupted, true);
    // Not a speed check: the abort ended the command instead of its 30 s sleep.
    assert.ok(Date.now() - t0 < 25_000, 'the abort did not end the command');
    assert.ok(await waitGone([pid]), 'the process group is gone');
  });

  it('an already aborted call does not run the command', async () => {
    const ac = new AbortController();
    ac.abort();
    const r = await new ToolSession(dir).run(BashTool, { command: 'touch should-not-exist' }, { signal: ac.signal });
    assert.equal(r.data.interrupted, true);
    await assert.rejects(fs.stat(path.join(dir, 'should-not-exist')));
  });
});

describe('Bash: standalone cd', () => {
  it('changes the session cwd with a setCwd modifier', async () => {
    const s = new ToolSession(dir);
    const r = await s.run(BashTool, { command: 'cd sub' });
    assert.equal(r.isError, false);
    assert.equal(r.text, `Working directory is now ${path.join(dir, 'sub')}`);
    assert.equal(s.agent.cwd, path.join(dir, 'sub'));
    assert.equal((await s.run(BashTool, { command: 'pwd' })).text, path.join(dir, 'sub'));
    await s.run(BashTool, { command: 'cd ..' });
    assert.equal(s.agent.cwd, dir);
  });

  it('refuses directories outside the working directories, and missing ones', async () => {
    const s = new ToolSession(dir);
    const r = await s.run(BashTool, { command: 'cd /' });
    assert.equal(r.isError, true);
    assert.match(r.text, /outside the session's working directories/);
    assert.equal(s.agent.cwd, dir);
    const missing = await s.run(BashTool, { command: 'cd nope' });
    assert.equal(missing.isError, true);
    assert.match(missing.text, /No such file or directory/);
  });

  it('cd inside a compound command does not persist', async () => {
    const s = new ToolSession(dir);
    const r = await s.run(BashTool, { command: 'cd sub && pwd' });
    assert.equal(r.text, path.join(dir, 'sub'));
    assert.equal(s.agent.cwd, dir);
    assert.equal(standaloneCd('cd sub && pwd'), undefined);
    assert.deepEqual(standaloneCd('cd "my dir"'), { target: 'my dir' });
  });
});

describe('Bash: read-only classification', () => {
  const readOnly = [
    'ls',
    'ls -la src',
    'cat a.txt',
    'head -n 5 a.txt && tail -n 2 b.txt',
    'grep -rn "foo" src | wc -l',
    'rg foo src',
    "find . -name '*.ts' -type f",
    'wc -l a.txt; pwd',
    'stat a.txt',
    'du -sh .',
    'diff a.txt b.txt',
    'echo hello',
    'echo $HOME',
    'which node',
    'file a.txt',
    'tree src',
    'git status',
    'git log --oneline -5',
    'git diff HEAD~1 -- src',
    'git show HEAD:src/a.ts',
    'git branch',
    'git branch -a',
    'git -C sub status',
    'git --no-pager log',
    'cd src && ls',
    'ls 2>/dev/null',
    'ls 2>&1 | head',
    'cat < a.txt',
    'ls # just a comment',
  ];
  const notReadOnly = [
    'rm -rf /',
    'npm test',
    'echo hi > a.txt',
    'echo hi >> a.txt',
    'cat a.txt | tee b.txt',
    'ls && rm a.txt',
    'ls; touch x',
    'find . -delete',
    "find . -name '*.tmp' -exec rm {} \\;",
    'find . -fprint out.txt',
    'echo $(rm a.txt)',
    'echo `rm a.txt`',
    'echo "$(rm a.txt)"',
    'cat <(ls)',
    '(ls)',
    'sleep 1 &',
    'FOO=bar ls',
    'git commit -m x',
    'git branch newbranch',
    'git branch -D main',
    'git -c core.pager=evil log',
    'git diff --output=x.patch',
    'git stash',
    'git tag v1',
    'sort -o out.txt a.txt',
    'tree -o out.txt',
    'rg --pre ./evil foo',
    'find . $OPTS',
    'find . -name *.ts',
    'sed -i s/a/b/ a.txt',
    'xargs rm',
    '/bin/ls',
    'ls "unterminated',
    'cat <<EOF\nhi\nEOF',
    '',
  ];
  for (const command of readOnly) {
    it(`read-only: ${JSON.stringify(command)}`, () => {
      assert.equal(isReadOnlyCommand(command), true);
      assert.equal(BashTool.isReadOnly({ command }), true);
      assert.equal(BashTool.isConcurrencySafe({ command }), true);
    });
  }
  for (const command of notReadOnly) {
    it(`not read-only: ${JSON.stringify(command)}`, () => {
      assert.equal(isReadOnlyCommand(command), false);
      if (command !== '') {
        assert.equal(BashTool.isReadOnly({ command }), false);
        assert.equal(BashTool.isConcurrencySafe({ command }), false);
        assert.equal(BashTool.isIdempotent({ command }), false);
      }
    });
  }
  it('a standalone cd is read-only but not concurrency-safe (it changes the cwd)', () => {
    assert.equal(BashTool.isReadOnly({ command: 'cd src' }), true);
    assert.equal(BashTool.isConcurrencySafe({ command: 'cd src' }), false);
  });
  it('declarations', () => {
    assert.equal(BashTool.getRuleContent?.({ command: 'npm run test:unit' }), 'npm run test:unit');
    assert.equal(BashTool.getPath, undefined);
    assert.equal(BashTool.summary({ command: 'npm test' }), 'Bash: npm test');
    assert.equal(BashTool.summary({ command: 'a\nb' }), 'Bash: a…');
  });
});
