// integration: interrupts and approvals on the real dev server.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastToolResults, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { approveToolUse, denyToolUse, interruptSession, sendMessage, sessionStatus } from '../../src/temporal/client';
import { turnProgressQuery } from '../../src/temporal/workflows/definitions';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { waitFor } from '../support/wait';

after(closeTestEnv);

/** Running (not a zombie): a killed process whose parent has not reaped it yet runs no more. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Whether any live process is in process group `pgid` (read from /proc: no pgrep needed). */
function groupRunning(pgid: number): boolean {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after "(comm)": state ppid pgrp …
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z') return true;
  }
  return false;
}

test('integration: interrupt during [Read, Read] [Bash 30 s]: reads keep results, Bash is interrupted and its process group dies', async () => {
  await withAgent({}, async ({ fake, start, workDir, client }) => {
    await writeFile(join(workDir, 'a.txt'), 'alpha\n');
    await writeFile(join(workDir, 'b.txt'), 'beta\n');
    const pidFile = join(workDir, 'bash.pid');
    fake.enqueue(
      toolUseResponse([
        { id: 'toolu_ra', name: 'Read', input: { file_path: join(workDir, 'a.txt') } },
        { id: 'toolu_rb', name: 'Read', input: { file_path: join(workDir, 'b.txt') } },
        { id: 'toolu_sh', name: 'Bash', input: { command: `echo $$ > ${pidFile}; sleep 30; echo finished` } },
      ]),
      textResponse('Stopped as asked.'),
    );
    // Unsandboxed: `$$` must be a host pid to watch the group die (inside the sandbox's pid namespace
    // it is not); the sandboxed process tree's death on abort is tested in unit/sandbox-bash.
    const handle = await start({ prompt: 'read and wait', sandbox: { enabled: false } });
    const turn = client.workflow.getHandle(`${handle.workflowId}/turn-1`);
    await waitFor('Bash to run', async () =>
      (await turn.query(turnProgressQuery)).running.some((r) => r.toolUseId === 'toolu_sh'),
    );
    const pid = await waitFor(
      'the pid file',
      async () => Number((await readFile(pidFile, 'utf8').catch(() => '')).trim()) || undefined,
    );
    assert.ok(running(pid));
    const t0 = Date.now();
    await interruptSession(client, handle.workflowId);
    // Killed, not ended on its own: the group is gone well before its 30 s sleep would end. How fast
    // is for a benchmark (the log line), not an assertion a loaded machine could trip.
    await waitFor('the Bash process group to die', async () => !running(pid) && !groupRunning(pid), 20_000, 20);
    console.log(`[interrupt] Bash's process group gone ${Date.now() - t0} ms after the interrupt`);

    const status = await waitFor('the session to wait for a message', async () => {
      const s = await sessionStatus(client, handle.workflowId);
      return s.status === 'interrupted' && s.phase === 'waiting_for_message' ? s : undefined;
    });
    assert.deepEqual(
      status.lastTurn?.records.map((r) => [r.toolUseId, r.status]),
      [
        ['toolu_ra', 'ok'],
        ['toolu_rb', 'ok'],
        ['toolu_sh', 'interrupted'],
      ],
    );
    await sendMessage(client, handle.workflowId, 'never mind, stop');
    const result = await handle.result();
    assert.equal(result.status, 'completed');
    // The model saw the protocol complete: both reads' real results and the Bash interruption.
    const second = fake.messageRequests()[1];
    assert.ok(second);
    const msgs = second.messages;
    const toolResultMsg = msgs[msgs.length - 2];
    assert.ok(toolResultMsg && Array.isArray(toolResultMsg.content));
    const blocks = toolResultMsg.content as Array<{
      type: string;
      tool_use_id: string;
      is_error?: boolean;
      content: unknown;
    }>;
    assert.deepEqual(
      blocks.map((b) => [b.tool_use_id, b.is_error === true]),
      [
        ['toolu_ra', false],
        ['toolu_rb', false],
        ['toolu_sh', true],
      ],
    );
    assert.match(JSON.stringify(blocks[0]?.content), /alpha/);
    assert.match(JSON.stringify(blocks[2]?.content), /[Ii]nterrupt/);
    // The follow-up, as its own user message (a text block carrying the prompt-cache breakpoint).
    assert.deepEqual(msgs[msgs.length - 1], {
      role: 'user',
      content: [{ type: 'text', text: 'never mind, stop', cache_control: { type: 'ephemeral' } }],
    });
    fake.assertDone();
  });
});

test('integration: an ask waits durably across a worker restart; approve runs it, deny returns the rejection to the model', async () => {
  await withAgent({ noWorker: true }, async ({ fake, start, workDir, client, startWorker }) => {
    let worker = await startWorker();
    fake.enqueue(
      toolUseResponse([
        { id: 'toolu_w1', name: 'Write', input: { file_path: join(workDir, 'approved.txt'), content: 'yes\n' } },
      ]),
      toolUseResponse([
        { id: 'toolu_w2', name: 'Write', input: { file_path: join(workDir, 'denied.txt'), content: 'no\n' } },
      ]),
      textResponse('ok'),
    );
    const handle = await start({ prompt: 'write two files', permissionMode: 'default' });
    const pending = await waitFor('an approval request', async () => {
      const s = await sessionStatus(client, handle.workflowId);
      return s.pendingApprovals.length === 1 ? s : undefined;
    });
    assert.equal(pending.status, 'awaiting_approval');
    assert.equal(pending.pendingApprovals[0]?.toolUseId, 'toolu_w1');
    // The worker goes away while the call waits; a new one takes over.
    await worker.stop();
    worker = await startWorker();
    // (Queries need a worker, so the status is read again only once the new one runs.)
    assert.equal((await sessionStatus(client, handle.workflowId)).pendingApprovals[0]?.toolUseId, 'toolu_w1');
    // Approving something that is not pending is refused.
    await assert.rejects(approveToolUse(client, handle.workflowId, 'toolu_nope'), /not waiting for approval/);
    await approveToolUse(client, handle.workflowId, 'toolu_w1', 'ann@example');
    await waitFor(
      'the second approval',
      async () => (await sessionStatus(client, handle.workflowId)).pendingApprovals[0]?.toolUseId === 'toolu_w2',
    );
    await denyToolUse(client, handle.workflowId, undefined, 'not that one');
    const result = await handle.result();
    await worker.stop();
    assert.equal(result.status, 'completed');
    assert.equal(await readFile(join(workDir, 'approved.txt'), 'utf8'), 'yes\n');
    await assert.rejects(readFile(join(workDir, 'denied.txt'), 'utf8'));
    const third = fake.messageRequests()[2];
    assert.ok(third);
    const [rejection] = lastToolResults(third);
    assert.equal(rejection?.is_error, true);
    assert.match(JSON.stringify(rejection?.content), /doesn't want to proceed/);
    assert.match(JSON.stringify(rejection?.content), /not that one/);
  });
});

test('integration: dontAsk mode denies at once, and an approval timeout denies with a reason', async () => {
  await withAgent({}, async ({ fake, start, workDir }) => {
    fake.enqueue(
      toolUseResponse([{ id: 'toolu_d1', name: 'Write', input: { file_path: join(workDir, 'x.txt'), content: 'x' } }]),
      textResponse('fine'),
    );
    const r1 = await (await start({ prompt: 'write', permissionMode: 'dontAsk' })).result();
    assert.equal(r1.status, 'completed');
    const [denied] = lastToolResults(fake.messageRequests()[1]!);
    assert.equal(denied?.is_error, true);

    fake.enqueue(
      toolUseResponse([{ id: 'toolu_t1', name: 'Write', input: { file_path: join(workDir, 'y.txt'), content: 'y' } }]),
      textResponse('fine'),
    );
    const r2 = await (await start({ prompt: 'write', permissionMode: 'default', approvalTimeoutMs: 1500 })).result();
    assert.equal(r2.status, 'completed');
    const [timedOut] = lastToolResults(fake.messageRequests()[3]!);
    assert.equal(timedOut?.is_error, true);
    assert.match(JSON.stringify(timedOut?.content), /No approval arrived/);
    await assert.rejects(readFile(join(workDir, 'y.txt'), 'utf8'));
  });
});

test('integration: in a parallel batch, a Read that asks holds back the calls after it until approved', async () => {
  await withAgent({}, async ({ fake, start, workDir, client }) => {
    await writeFile(join(workDir, 'a.txt'), 'a\n');
    await writeFile(join(workDir, 'b.txt'), 'b\n');
    const outside = await mkdtemp(join(tmpdir(), 'da-outside-'));
    await writeFile(join(outside, 'o.txt'), 'outside\n');
    fake.enqueue(
      toolUseResponse([
        { id: 'toolu_pa', name: 'Read', input: { file_path: join(workDir, 'a.txt') } },
        { id: 'toolu_po', name: 'Read', input: { file_path: join(outside, 'o.txt') } },
        { id: 'toolu_pb', name: 'Read', input: { file_path: join(workDir, 'b.txt') } },
      ]),
      textResponse('read all three'),
    );
    const handle = await start({ prompt: 'read', permissionMode: 'default' });
    await waitFor(
      'the outside Read to ask',
      async () => (await sessionStatus(client, handle.workflowId)).pendingApprovals[0]?.toolUseId === 'toolu_po',
    );
    await approveToolUse(client, handle.workflowId, 'toolu_po', 'dana');
    assert.equal((await handle.result()).status, 'completed');
    const results = lastToolResults(fake.messageRequests()[1]!);
    assert.deepEqual(
      results.map((r) => [r.tool_use_id, r.is_error === true]),
      [
        ['toolu_pa', false],
        ['toolu_po', false],
        ['toolu_pb', false],
      ],
    );
    // In the turn's history: a ran before the approval; b was scheduled only after it.
    const events = (await client.workflow.getHandle(`${handle.workflowId}/turn-1`).fetchHistory()).events ?? [];
    const idx = (pred: (e: (typeof events)[number]) => boolean) => events.findIndex(pred);
    const approvalAt = idx((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'turnApproval');
    const scheduled = (id: string) => idx((e) => e.activityTaskScheduledEventAttributes?.activityId === id);
    assert.ok(approvalAt > 0);
    assert.ok(scheduled('tool-toolu_pa') < approvalAt);
    assert.ok(scheduled('tool-toolu_pb') > approvalAt, 'b waited for the decision on o');
  });
});
