// integration: the durable-agent command line, as a user runs it: real processes, the real dev
// server, a worker in this process, the fake Messages API.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { sessionStatus } from '../../src/temporal/client';
import { closeTestEnv, getTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { cli } from '../support/cli';
import { waitFor } from '../support/wait';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';

after(closeTestEnv);

function oneLineError(r: { code: number | null; stderr: string }, pattern: RegExp): void {
  assert.notEqual(r.code, 0, 'non-zero exit');
  const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
  assert.equal(lines.length, 1, `one line on stderr, got: ${JSON.stringify(r.stderr)}`);
  assert.match(lines[0] as string, pattern);
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
}

test('cli: bad input gets a one-line message and a non-zero exit', async () => {
  const env = await getTestEnv();
  const addr = process.env.TEMPORAL_TEST_ADDRESS ?? env.connection.options.address;
  oneLineError(await cli(['bogus']), /unknown command 'bogus'/);
  oneLineError(await cli(['run', '--bogus', 'x']), /unknown option '--bogus'/);
  oneLineError(await cli(['run']), /missing required argument 'prompt'/);
  oneLineError(await cli(['run', '--permission-mode', 'yolo', 'x']), /yolo.*invalid|Allowed choices/i);
  oneLineError(await cli(['run', '--max-turns', 'zero', 'x']), /--max-turns must be a positive whole number/);
  oneLineError(
    await cli(['status', 'some-id', '--address', '127.0.0.1:1']),
    /Cannot reach Temporal at 127\.0\.0\.1:1.*durable-agent dev/,
  );
  oneLineError(
    await cli(['status', 'no-such-session-xyz'], { TEMPORAL_ADDRESS: addr }),
    /No session with id no-such-session-xyz/,
  );
  oneLineError(
    await cli(['approve', 'no-such-session-xyz'], { TEMPORAL_ADDRESS: addr }),
    /No session with id no-such-session-xyz/,
  );
  oneLineError(
    await cli(['audit', 'no-such-session-xyz'], { TEMPORAL_ADDRESS: addr }),
    /No session with id no-such-session-xyz/,
  );
  // `dev` on a port something else holds: refused up front (never "ready" against a foreign server).
  const blocker = createServer();
  await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
  const busy = (blocker.address() as { port: number }).port;
  try {
    oneLineError(
      await cli([
        'dev',
        '--db',
        join(tmpdir(), `da-busy-${busy}.db`),
        '--port',
        String(busy),
        '--ui-port',
        String(busy + 1),
      ]),
      new RegExp(`port ${busy} on 127\\.0\\.0\\.1 \\(gRPC\\) is already in use`),
    );
  } finally {
    blocker.close();
  }
  const help = await cli(['run', '--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /--permission-mode/);
});

test('cli: run --detach, status, approve (not pending → one-line error), audit --json, ls', async () => {
  await withAgent({}, async ({ fake, taskQueue, workDir, client }) => {
    const addr = process.env.TEMPORAL_TEST_ADDRESS as string;
    const env = { TEMPORAL_ADDRESS: addr, DURABLE_AGENT_TASK_QUEUE: taskQueue };
    fake.enqueue(
      toolUseResponse([
        { id: 'toolu_cli_w', name: 'Write', input: { file_path: join(workDir, 'out.txt'), content: 'hi\n' } },
      ]),
      textResponse('wrote it'),
    );
    const started = await cli(
      ['run', '--detach', '--json', '--cwd', workDir, '--model', 'claude-test', 'write', 'a', 'file'],
      env,
    );
    assert.equal(started.code, 0, started.stderr);
    const id = (JSON.parse(started.stdout) as { session: string }).session;
    await waitFor('the Write to ask', async () => (await sessionStatus(client, id)).pendingApprovals.length > 0);
    const st = await cli(['status', id, '--json'], env);
    assert.equal(st.code, 0, st.stderr);
    assert.equal((JSON.parse(st.stdout) as { status: string }).status, 'awaiting_approval');
    oneLineError(
      await cli(['approve', id, 'toolu_not_pending'], env),
      /toolu_not_pending is not waiting for approval \(pending: toolu_cli_w\)/,
    );
    const ok = await cli(['approve', id, '--by', 'carol'], env);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /approved toolu_cli_w/);
    const attach = await cli(['attach', id], env);
    assert.equal(attach.code, 0, attach.stderr);
    assert.match(attach.stdout, /session completed/);
    oneLineError(await cli(['approve', id], env), /not|nothing/i);
    const audit = await cli(['audit', id, '--json'], env);
    assert.equal(audit.code, 0, audit.stderr);
    const entries = audit.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const write = entries.find((e) => e.kind === 'tool_call' && e.toolUseId === 'toolu_cli_w') as
      { status: string; decision: { source: string; by?: string } } | undefined;
    assert.ok(write, audit.stdout);
    assert.equal(write.status, 'ok');
    assert.equal(write.decision.source, 'human');
    assert.equal(write.decision.by, 'carol');
    const ls = await cli(['ls', '--json', '--limit', '200'], env);
    assert.equal(ls.code, 0, ls.stderr);
    assert.ok(ls.stdout.split('\n').some((l) => l.includes(id)));
  });
});

test('cli: run follows a long tool with its progress (the heartbeat output) and exits 0', async () => {
  await withAgent({}, async ({ fake, taskQueue, workDir }) => {
    const env = { TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string, DURABLE_AGENT_TASK_QUEUE: taskQueue };
    fake.enqueue(
      toolUseResponse([
        {
          id: 'toolu_cli_long',
          name: 'Bash',
          input: { command: 'for i in 1 2 3 4 5 6 7 8 9; do echo step $i; sleep 1; done' },
        },
      ]),
      textResponse('counted'),
    );
    const r = await cli(
      [
        'run',
        '--json',
        '--cwd',
        workDir,
        '--permission-mode',
        'bypassPermissions',
        '--model',
        'claude-test',
        'count slowly',
      ],
      env,
      60_000,
    );
    assert.equal(r.code, 0, r.stderr);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string; output?: string; toolUseId?: string; status?: string });
    assert.deepEqual(
      Object.keys(events[0] ?? {}),
      ['session', 'event', 'cwd', 'settings', 'memory'],
      'the first line says which files were loaded',
    );
    assert.equal(events[0]?.event, 'started');
    const progress = events.filter((e) => e.event === 'tool_progress' && e.toolUseId === 'toolu_cli_long');
    assert.ok(progress.length >= 1, r.stdout);
    assert.ok(
      progress.some((e) => /^step \d$/.test(e.output ?? '')),
      JSON.stringify(progress),
    );
    assert.ok(events.some((e) => e.event === 'tool_done' && e.toolUseId === 'toolu_cli_long' && e.status === 'ok'));
    assert.equal(events[events.length - 1]?.event, 'ended');
  });
});

test('cli: Ctrl-C detaches without killing the job; interrupt, send, transcript and cancel steer it', async () => {
  await withAgent({}, async ({ fake, taskQueue, workDir, storeDir, client }) => {
    const env = {
      TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
      DURABLE_AGENT_TASK_QUEUE: taskQueue,
      DURABLE_AGENT_STORE_DIR: storeDir,
    };
    fake.enqueue(
      toolUseResponse([{ id: 'toolu_cli_sleep', name: 'Bash', input: { command: 'sleep 30' } }], {
        text: 'Waiting a while.',
      }),
      textResponse('Stopped, as you said.'),
      toolUseResponse([{ id: 'toolu_cli_sleep2', name: 'Bash', input: { command: 'sleep 30' } }]),
    );
    // `run` in the foreground, then Ctrl-C: it detaches and says how to come back.
    const child = spawn(
      process.execPath,
      [
        join(__dirname, '..', '..', 'src', 'cli', 'main.js'),
        'run',
        '--cwd',
        workDir,
        '--permission-mode',
        'bypassPermissions',
        '--model',
        'claude-test',
        'wait',
      ],
      {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    await waitFor('the Bash call to start', async () => stdout.includes('sleep 30'));
    const id = /session (\S+) started/.exec(stdout)?.[1];
    assert.ok(id, stdout);
    child.kill('SIGINT');
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    assert.equal(code, 130);
    assert.match(stderr, /detached; the session keeps running/);
    assert.match(stderr, new RegExp(`durable-agent attach ${id}`));
    assert.equal((await sessionStatus(client, id)).status, 'running');

    const intr = await cli(['interrupt', id], env);
    assert.equal(intr.code, 0, intr.stderr);
    await waitFor(
      'the session to wait for a message',
      async () => (await sessionStatus(client, id)).phase === 'waiting_for_message',
    );
    const sent = await cli(['send', id, 'please', 'stop'], env);
    assert.equal(sent.code, 0, sent.stderr);
    await waitFor('the session to complete', async () => (await sessionStatus(client, id)).status === 'completed');
    const transcript = await cli(['transcript', id], env);
    assert.equal(transcript.code, 0, transcript.stderr);
    assert.match(transcript.stdout, /user: wait/);
    assert.match(transcript.stdout, /\[tool_use toolu_cli_sleep\] Bash/);
    assert.match(transcript.stdout, /\[tool_result toolu_cli_sleep error\] .*[Ii]nterrupt/);
    assert.match(transcript.stdout, /user: please stop/);
    assert.match(transcript.stdout, /assistant: Stopped, as you said\./);

    // cancel: a second session, cancelled while its tool runs.
    const started = await cli(
      [
        'run',
        '--detach',
        '--cwd',
        workDir,
        '--permission-mode',
        'bypassPermissions',
        '--model',
        'claude-test',
        'wait again',
      ],
      env,
    );
    const id2 = started.stdout.trim();
    await waitFor(
      'the second Bash call',
      async () => (await sessionStatus(client, id2)).currentTurnWorkflowId !== undefined && fake.remaining() === 0,
    );
    const cancelled = await cli(['cancel', id2], env);
    assert.equal(cancelled.code, 0, cancelled.stderr);
    const desc = await waitFor('the cancellation', async () => {
      const d = await client.workflow.getHandle(id2).describe();
      return d.status.name === 'CANCELLED' ? d : undefined;
    });
    assert.equal(desc.status.name, 'CANCELLED');
  });
});
