// integration: the audit trail rebuilt from Temporal history alone — one session with a parallel
// batch, an approval, a denial, an interrupt and a streaming fallback; and a session that
// continued-as-new, whose audit covers every run's turns.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { overloadedError, textResponse, toolUseResponse, type MessagesRequest } from '../../src/testing/fakeAnthropic';
import { approveToolUse, denyToolUse, interruptSession, sendMessage, sessionStatus } from '../../src/temporal/client';
import { turnProgressQuery } from '../../src/temporal/workflows/definitions';
import {
  auditJsonLines,
  buildAudit,
  formatAuditText,
  type AuditModelCall,
  type AuditSession,
  type AuditToolCall,
} from '../../src/audit';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { waitFor } from '../support/wait';

after(closeTestEnv);

function parseLines(text: string): Array<AuditSession | AuditModelCall | AuditToolCall> {
  assert.ok(text.endsWith('\n'));
  return text
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as AuditSession | AuditModelCall | AuditToolCall);
}

test('integration: the audit lists every tool and model call with status, decision source, approvals, interrupts and fallback', async () => {
  await withAgent({}, async ({ fake, start, workDir, client }) => {
    await mkdir(join(workDir, 'src'));
    await writeFile(join(workDir, 'src', 'auth.ts'), 'export const timeout = 10;\n');
    await writeFile(join(workDir, 'notes.txt'), 'notes\n');
    fake.enqueue(
      // Turn 1: a concurrent batch; Grep of the directory is allowed by the default mode (read-only, inside cwd), Read by the allow rule.
      toolUseResponse([
        { id: 'toolu_grep', name: 'Grep', input: { pattern: 'timeout', path: 'src' } },
        { id: 'toolu_read', name: 'Read', input: { file_path: join(workDir, 'src', 'auth.ts') } },
      ]),
      // Turn 2: a Write asks (default mode); alice approves it.
      toolUseResponse([
        { id: 'toolu_w_ok', name: 'Write', input: { file_path: join(workDir, 'approved.txt'), content: 'yes\n' } },
      ]),
      // Turn 3: a second Write asks; it is denied.
      toolUseResponse([
        { id: 'toolu_w_no', name: 'Write', input: { file_path: join(workDir, 'denied.txt'), content: 'no\n' } },
      ]),
      // Turn 4: Bash (allowed by rule) is interrupted while it sleeps; the Read after it never starts.
      toolUseResponse([
        { id: 'toolu_sleep', name: 'Bash', input: { command: 'sleep 30' } },
        { id: 'toolu_after', name: 'Read', input: { file_path: join(workDir, 'notes.txt') } },
      ]),
      // Turn 5 (after the follow-up message): the stream drops mid-way; the non-streamed fallback answers.
      {
        ...toolUseResponse([{ id: 'toolu_glob', name: 'Glob', input: { pattern: '*.txt' } }], {
          text: 'Listing the files.',
        }),
        dropAfterEvents: 6,
      },
      toolUseResponse([{ id: 'toolu_glob', name: 'Glob', input: { pattern: '*.txt' } }], {
        text: 'Listing the files.',
      }),
      textResponse('All done.'),
    );
    const handle = await start({
      prompt: 'audit me',
      permissionMode: 'default',
      rules: { allow: ['Read(./src/*.ts)', 'Bash(sleep:*)'], ask: [], deny: [] },
    });
    const id = handle.workflowId;
    const pendingId = async (): Promise<string | undefined> =>
      (await sessionStatus(client, id)).pendingApprovals[0]?.toolUseId;

    await waitFor('the first approval request', async () => (await pendingId()) === 'toolu_w_ok');
    // While it waits, the audit of the live session says so.
    const live = await buildAudit(client, id);
    assert.equal(live.session.status, 'awaiting_approval');
    assert.equal(live.toolCalls.find((c) => c.toolUseId === 'toolu_w_ok')?.status, 'awaiting_approval');
    await approveToolUse(client, id, 'toolu_w_ok', 'alice@example');
    await waitFor('the second approval request', async () => (await pendingId()) === 'toolu_w_no');
    await denyToolUse(client, id, 'toolu_w_no', 'not this one');

    // Step 4 runs in the session's current turn child (issue 33: a child runs several model steps).
    await waitFor('Bash to run', async () => {
      const child = (await sessionStatus(client, id)).currentTurnWorkflowId;
      if (!child) return false;
      return (await client.workflow.getHandle(child).query(turnProgressQuery)).running.some(
        (r) => r.toolUseId === 'toolu_sleep',
      );
    });
    // The audit reads the call as running once its activity started (not the moment the turn lists it).
    const running = await waitFor('the audit to show the sleep running', async () => {
      const a = await buildAudit(client, id);
      return a.toolCalls.find((c) => c.toolUseId === 'toolu_sleep')?.status === 'running' ? a : undefined;
    });
    assert.deepEqual(
      running.toolCalls.filter((c) => c.turn === 4).map((c) => [c.toolUseId, c.status]),
      [
        ['toolu_sleep', 'running'],
        ['toolu_after', 'pending'],
      ],
    );
    // Batches of a running turn come from the descriptions the model call made (signals, result).
    assert.deepEqual(
      running.toolCalls.filter((c) => c.turn === 4).map((c) => [c.batch, c.concurrent]),
      [
        [0, false],
        [1, true],
      ],
    );
    await interruptSession(client, id, 'bob@example');
    await waitFor(
      'the session to wait for a message',
      async () => (await sessionStatus(client, id)).phase === 'waiting_for_message',
    );
    assert.equal((await buildAudit(client, id)).session.status, 'interrupted');
    await sendMessage(client, id, 'carry on');
    const result = await handle.result();
    assert.equal(result.status, 'completed');
    fake.assertDone();

    const report = await buildAudit(client, id);
    if (process.env.AUDIT_PRINT) console.log(`${formatAuditText(report)}\n${auditJsonLines(report)}`);
    const entries = parseLines(auditJsonLines(report));
    const session = entries[0] as AuditSession;
    assert.equal(session.kind, 'session');
    assert.equal(session.prompt, 'audit me');
    assert.equal(session.status, 'completed');
    assert.equal(session.runs, 1);
    assert.equal(session.turns, 6);
    assert.deepEqual(session.usage, result.usage);
    assert.deepEqual(
      session.messages.map((m) => m.text),
      ['carry on'],
    );
    assert.equal(session.interrupts[0]?.by, 'bob@example');

    const tools = entries.filter((e): e is AuditToolCall => e.kind === 'tool_call');
    const models = entries.filter((e): e is AuditModelCall => e.kind === 'model_call');
    // Every tool call, once each.
    assert.deepEqual(tools.map((c) => c.toolUseId).sort(), [
      'toolu_after',
      'toolu_glob',
      'toolu_grep',
      'toolu_read',
      'toolu_sleep',
      'toolu_w_no',
      'toolu_w_ok',
    ]);
    const call = (toolUseId: string): AuditToolCall => {
      const c = tools.find((t) => t.toolUseId === toolUseId);
      assert.ok(c, toolUseId);
      return c;
    };
    // The parallel batch.
    const grep = call('toolu_grep');
    const read = call('toolu_read');
    assert.deepEqual(
      [grep.turn, grep.status, grep.decision?.source, grep.decision?.detail, grep.decision?.behavior],
      [1, 'ok', 'mode', 'default', 'allow'],
    );
    assert.deepEqual(
      [read.turn, read.status, read.decision?.source, read.decision?.detail],
      [1, 'ok', 'rule', 'Read(./src/*.ts)'],
    );
    assert.deepEqual([grep.batch, grep.concurrent, read.batch, read.concurrent], [0, true, 0, true]);
    assert.equal(grep.tool, 'Grep');
    assert.deepEqual(grep.input, { pattern: 'timeout', path: 'src' });
    assert.match(read.resultPreview, /timeout = 10/);
    assert.ok(read.resultPreview.length <= 200);
    assert.equal(read.attempts, 1);
    assert.ok(read.startedAt && read.endedAt && read.startedAt <= read.endedAt);
    // The approval.
    const ok = call('toolu_w_ok');
    assert.equal(ok.status, 'ok');
    assert.deepEqual(ok.decision, { behavior: 'allow', source: 'human', by: 'alice@example' });
    assert.equal(ok.approval?.resolution, 'approve');
    assert.equal(ok.approval?.by, 'alice@example');
    assert.deepEqual(
      [ok.approval?.asked.behavior, ok.approval?.asked.source, ok.approval?.asked.detail],
      ['ask', 'mode', 'default'],
    );
    assert.deepEqual(
      ok.activities.map((a) => [a.activityId, a.result]),
      [
        ['tool-toolu_w_ok', 'ask'],
        ['tool-toolu_w_ok-approve', 'done'],
      ],
    );
    // The denial.
    const no = call('toolu_w_no');
    assert.equal(no.status, 'denied');
    assert.deepEqual(
      [no.decision?.behavior, no.decision?.source, no.decision?.reason],
      ['deny', 'human', 'not this one'],
    );
    assert.equal(no.approval?.resolution, 'deny');
    assert.match(no.resultPreview, /doesn't want to proceed/);
    // The interrupt: the running Bash, and the Read that never started (no activity).
    const sleep = call('toolu_sleep');
    assert.equal(sleep.status, 'interrupted');
    assert.ok(sleep.activities[0]?.cancelRequestedAt, 'the interrupt cancelled the activity');
    assert.deepEqual([sleep.decision?.source, sleep.decision?.detail], ['rule', 'Bash(sleep:*)']);
    assert.ok(sleep.endedAt, 'the interrupted call has an end time');
    const after4 = call('toolu_after');
    assert.equal(after4.status, 'interrupted');
    assert.deepEqual(after4.activities, []);
    assert.match(after4.resultPreview, /not started/);
    assert.deepEqual([sleep.batch, sleep.concurrent, after4.batch], [0, false, 1]);
    // The fallback turn's tool ran once and its model call keeps the tombstone.
    const glob = call('toolu_glob');
    assert.deepEqual([glob.turn, glob.status, glob.decision?.source], [5, 'ok', 'mode']);
    const m5 = models.find((m) => m.turn === 5);
    assert.ok(m5);
    assert.equal(m5.fallback, true);
    assert.equal(m5.tombstones.length, 1);
    assert.ok(m5.tombstones[0]?.error);
    assert.ok(m5.tombstones[0]?.eventsReceived && m5.tombstones[0].eventsReceived >= 1);
    assert.equal(m5.status, 'ok');
    assert.deepEqual(m5.toolUseIds, ['toolu_glob']);
    // One model call per turn, each with usage; none other fell back.
    assert.deepEqual(
      models.map((m) => m.turn),
      [1, 2, 3, 4, 5, 6],
    );
    assert.ok(models.every((m) => m.usage && m.model === 'claude-test' && m.attempts === 1));
    assert.deepEqual(
      models.filter((m) => m.fallback).map((m) => m.turn),
      [5],
    );
    // Time order.
    const times = entries
      .slice(1)
      .flatMap((e) => ((e as AuditToolCall).startedAt ? [(e as AuditToolCall).startedAt as string] : []));
    assert.deepEqual([...times].sort(), times);

    const text = formatAuditText(report);
    assert.match(text, /toolu_w_ok .*allow \[human: alice@example\].* ok .*ask→approve/);
    assert.match(text, /toolu_sleep .* interrupted/);
    assert.match(text, /FALLBACK/);
  });
});

test('integration: the audit of a session that continued-as-new covers every run; a retried 529 shows its attempts', async () => {
  const TURNS = 8;
  await withAgent({}, async ({ fake, start, workDir, client }) => {
    for (let i = 1; i <= TURNS; i++) await writeFile(join(workDir, `f${i}.txt`), `file ${i}\n`);
    fake.enqueue({ ...overloadedError(), retryAfterMs: 50 } as never);
    fake.script((req: MessagesRequest) => {
      const turn = req.messages.filter((m) => m.role === 'assistant').length + 1;
      if (turn > TURNS) return textResponse('Read them all.');
      return toolUseResponse([
        { id: `toolu_f${turn}`, name: 'Read', input: { file_path: join(workDir, `f${turn}.txt`) } },
      ]);
    });
    // Two model steps per turn child (issue 33): the audit reads each child's steps as turns.
    const handle = await start({
      prompt: 'read the files',
      tools: ['Read'],
      maxHistoryBytesPerRun: 10_000,
      maxStepsPerTurn: 2,
    });
    const result = await handle.result();
    assert.equal(result.status, 'completed', result.endReason);

    const report = await buildAudit(client, handle.workflowId);
    assert.ok(report.session.runs >= 2, `runs: ${report.session.runs}`);
    assert.equal(report.session.runIds.length, report.session.runs);
    assert.equal(report.session.turns, TURNS + 1);
    assert.equal(report.session.prompt, 'read the files');
    assert.equal(report.session.status, 'completed');
    assert.deepEqual(
      report.toolCalls.map((c) => [c.turn, c.toolUseId, c.status, c.decision?.source]),
      Array.from({ length: TURNS }, (_, i) => [i + 1, `toolu_f${i + 1}`, 'ok', 'mode']),
    );
    assert.ok(new Set(report.toolCalls.map((c) => c.run)).size >= 2, 'the calls come from more than one run');
    assert.deepEqual(
      report.modelCalls.map((m) => m.turn),
      Array.from({ length: TURNS + 1 }, (_, i) => i + 1),
    );
    const first = report.modelCalls[0];
    assert.ok(first);
    assert.equal(first.attempts, 2);
    assert.match(first.failures.join(' '), /529/);
    assert.deepEqual(report.session.usage, result.usage);
    const lines = parseLines(auditJsonLines(report));
    assert.equal(lines.filter((l) => l.kind === 'tool_call').length, TURNS);
    assert.equal(lines.filter((l) => l.kind === 'model_call').length, TURNS + 1);
  });
});
