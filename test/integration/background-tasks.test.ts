// integration: background tasks (issue 19) on the real dev server. Bash `run_in_background` returns
// at once with the reference's text; the session runs the command as its own activity `task-<id>`,
// sleeps (status `waiting`) while only the task is pending, and the task's `<task-notification>`
// starts the next turn; the model Reads the output file (in `default` mode: the task directory is
// readable without asking). A failing command gives status failed with its exit code. TaskStop kills
// the task's process group and no notification follows. A worker SIGKILLed during a task: the
// session is told the task was lost (not re-run) and none of its processes is left.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { textResponse, toolUseResponse, type MessagesRequest } from '../../src/testing/fakeAnthropic';
import { sessionStatus } from '../../src/temporal/client';
import { auditJsonLines, buildAudit, formatAuditText, type AuditTask } from '../../src/audit';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { waitFor } from '../support/wait';
import { contentTexts, newUserMessages, processesWith } from '../support/sessionProbe';
import { killGroup, spawnWorker, type WorkerProc, workerProcessEnv } from '../support/workerProcs';
import { TAG_ENV, describe, killAll, newTag, waitUntilNoneTagged } from '../support/leftovers';

after(closeTestEnv);

/** The background commands end once the test creates `go` in the session's directory. */
const GATE = 'until [ -e go ]; do sleep 0.1; done; ';

/** Every text of the request's newest user messages: text blocks and tool_result contents. */
function lastUserTexts(req: MessagesRequest): string[] {
  return newUserMessages(req).flatMap((m) => contentTexts(m.content));
}
const joined = (req: MessagesRequest): string => lastUserTexts(req).join('\n');

const STARTED =
  /^Command running in background with ID: (b[a-z0-9]{8})\. Output is being written to: (\S+\.output)\. You will be notified when it completes\. To check interim output, use Read on that file path\.$/;

test(
  'integration: a background command outlives its turn, its notification (exit code) starts the next turn, Read gets its output; a failing one is reported failed',
  { timeout: 180_000 },
  async () => {
    // The output file is read after the session ended: kept (it goes with the session otherwise; integration/sessions-apart).
    process.env.DURABLE_AGENT_KEEP_SESSION_TEMP = '1';
    try {
      await withAgent({}, async ({ fake, start, client, workDir }) => {
        const seen: { started: Array<{ id: string; path: string }>; notifications: string[] } = {
          started: [],
          notifications: [],
        };
        fake.script((req) => {
          const text = joined(req);
          if (text.includes('build it'))
            return toolUseResponse([
              {
                id: 'toolu_bg_ok',
                name: 'Bash',
                input: { command: `${GATE}echo "built <ok> & done"`, run_in_background: true, description: 'Build' },
              },
              {
                id: 'toolu_bg_fail',
                name: 'Bash',
                input: { command: `${GATE}echo oops >&2; exit 3`, run_in_background: true },
              },
            ]);
          for (const t of lastUserTexts(req)) {
            const m = STARTED.exec(t);
            if (m) seen.started.push({ id: m[1]!, path: m[2]! });
          }
          if (text.includes('<task-notification>')) {
            seen.notifications.push(text);
            if (text.includes('toolu_bg_ok'))
              return toolUseResponse([{ id: 'toolu_read', name: 'Read', input: { file_path: seen.started[0]!.path } }]);
          }
          if (text.includes('built <ok> & done')) return textResponse('Read the build output.');
          return textResponse('Waiting for the tasks.');
        });
        const handle = await start({
          prompt: 'build it',
          tools: ['Bash', 'Read', 'TaskStop'],
          permissionMode: 'default',
        });
        const waiting = await waitFor(
          'the session to wait for its tasks',
          async () => {
            const s = await sessionStatus(client, handle.workflowId);
            return s.status === 'waiting' && s.phase === 'waiting_for_work' ? s : undefined;
          },
          60_000,
        );
        assert.match(waiting.waiting?.reason ?? '', /2 background tasks running/);
        assert.deepEqual(
          waiting.autonomy?.tasks.map((t) => [t.kind, t.state, t.description]),
          [
            ['local_bash', 'running', 'Build'],
            ['local_bash', 'running', `${GATE}echo oops >&2; exit 3`],
          ],
        );
        // Both were seen running: now they may end (a gate, not sleeps of 3 and 4 s the look had to beat).
        writeFileSync(join(workDir, 'go'), '');
        const result = await handle.result();
        assert.equal(result.status, 'completed', result.endReason);
        assert.equal(seen.started.length, 2, 'both calls answered with the reference text');
        const [ok, failed] = seen.started;
        assert.notEqual(ok!.id, failed!.id);
        const okNote = seen.notifications.find((n) => n.includes(ok!.id));
        assert.ok(okNote, 'the completed task was notified');
        assert.match(okNote, /<system-reminder>/);
        assert.ok(
          okNote.includes(
            `<task-notification>\n<task-id>${ok!.id}</task-id>\n<tool-use-id>toolu_bg_ok</tool-use-id>\n<output-file>${ok!.path}</output-file>\n<status>completed</status>\n<summary>Background command "Build" completed (exit code 0)</summary>\n</task-notification>`,
          ),
          okNote,
        );
        const failNote = seen.notifications.find((n) => n.includes(failed!.id));
        assert.ok(failNote, 'the failed task was notified');
        assert.ok(
          failNote.includes(
            `<status>failed</status>\n<summary>Background command "${GATE}echo oops &gt;&amp;2; exit 3" failed with exit code 3</summary>`,
          ),
          failNote,
        );
        assert.equal(readFileSync(failed!.path, 'utf8'), 'oops\n\n[exited with code 3]\n');
        const final = await sessionStatus(client, handle.workflowId);
        const tasks = final.autonomy?.tasks ?? [];
        assert.deepEqual(
          tasks.map((t) => [t.id, t.state, t.exitCode, t.outputBytes]),
          [
            [ok!.id, 'completed', 0, 'built <ok> & done\n'.length],
            [failed!.id, 'failed', 3, 'oops\n'.length],
          ],
        );
        assert.ok(
          tasks.every((t) => /^taskoutput-[0-9a-f]{64}$/.test(t.outputRef ?? '')),
          'outputs stored',
        );
        assert.ok(tasks.every((t) => t.command === undefined && t.endedAt! >= t.startedAt));
      });
    } finally {
      delete process.env.DURABLE_AGENT_KEEP_SESSION_TEMP;
    }
  },
);

test(
  'integration: TaskStop kills a background task (process gone, no notification); an unknown id is an error',
  { timeout: 120_000, skip: process.platform !== 'linux' ? 'needs /proc' : false },
  async () => {
    const marker = `${4000 + Math.floor(Math.random() * 5000)}.25`;
    await withAgent({}, async ({ fake, start, client }) => {
      let taskId = '';
      const texts: string[] = [];
      fake.script((req) => {
        const text = joined(req);
        texts.push(text);
        if (text.includes('serve it'))
          return toolUseResponse([
            { id: 'toolu_srv', name: 'Bash', input: { command: `sleep ${marker}`, run_in_background: true } },
          ]);
        const m = /with ID: (b[a-z0-9]{8})\./.exec(text);
        if (m) {
          taskId = m[1]!;
          return toolUseResponse([{ id: 'toolu_nope', name: 'TaskStop', input: { task_id: 'bnotthere' } }]);
        }
        if (text.includes('No task found'))
          return toolUseResponse([{ id: 'toolu_stop', name: 'TaskStop', input: { shell_id: taskId } }]);
        return textResponse('Stopped.');
      });
      const handle = await start({
        prompt: 'serve it',
        tools: ['Bash', 'TaskStop'],
        toolHeartbeatTimeoutMs: 5_000,
      });
      await waitFor('the task to run', async () => processesWith(`sleep ${marker}`).length > 0 || undefined, 60_000);
      const result = await handle.result();
      assert.equal(result.status, 'completed', result.endReason);
      // A validation error, in the reference's <tool_use_error> tags as every tool's (docs/tools.md).
      assert.equal(texts[2], '<tool_use_error>No task found with ID: bnotthere</tool_use_error>');
      const nope = (fake.requests[2]!.body as MessagesRequest).messages.at(-1)!.content as Array<{
        type: string;
        tool_use_id?: string;
        is_error?: boolean;
      }>;
      assert.equal(nope.find((b) => b.tool_use_id === 'toolu_nope')?.is_error, true);
      assert.deepEqual(JSON.parse(texts[3] ?? '{}'), {
        message: `Successfully stopped task: ${taskId} (sleep ${marker})`,
        task_id: taskId,
        task_type: 'local_bash',
        command: `sleep ${marker}`,
      });
      assert.equal(fake.requests.length, 4, 'no notification turn after the stop');
      assert.ok(!texts.some((t) => t.includes('<task-notification>')));
      await waitFor('the process to be gone', async () => processesWith(`sleep ${marker}`).length === 0, 20_000).catch(
        () => undefined,
      );
      assert.deepEqual(processesWith(`sleep ${marker}`), []);
      const s = await sessionStatus(client, handle.workflowId);
      assert.deepEqual(
        // Killed by the cancellation (a heartbeat timeout would have set an error).
        s.autonomy?.tasks.map((t) => [t.id, t.state, t.stopRequested, t.error]),
        [[taskId, 'killed', true, undefined]],
      );
    });
  },
);

test(
  'integration: audit: a finished task and a stopped one, each a row with its command, state, times, exit, output size and where its output is',
  { timeout: 120_000 },
  async () => {
    const marker = `${4000 + Math.floor(Math.random() * 5000)}.75`;
    await withAgent({}, async ({ fake, start, client }) => {
      let serverId = '';
      fake.script((req) => {
        const text = joined(req);
        if (text.includes('check and serve'))
          return toolUseResponse([
            {
              id: 'toolu_aud_ok',
              name: 'Bash',
              input: { command: 'echo checked; exit 0', run_in_background: true, description: 'Quick check' },
            },
            { id: 'toolu_aud_srv', name: 'Bash', input: { command: `sleep ${marker}`, run_in_background: true } },
          ]);
        const started = [...text.matchAll(/with ID: (b[a-z0-9]{8})\./g)].map((m) => m[1]!);
        if (started.length === 2) serverId = started[1]!;
        // The quick check's notification: now stop the server.
        if (text.includes('<task-notification>') && text.includes('toolu_aud_ok'))
          return toolUseResponse([{ id: 'toolu_aud_stop', name: 'TaskStop', input: { task_id: serverId } }]);
        if (text.includes('Successfully stopped task')) return textResponse('Checked, server stopped.');
        return textResponse('Waiting.');
      });
      const handle = await start({ prompt: 'check and serve', tools: ['Bash', 'TaskStop'] });
      const result = await handle.result();
      assert.equal(result.status, 'completed', result.endReason);
      assert.match(serverId, /^b[a-z0-9]{8}$/);

      const report = await buildAudit(client, handle.workflowId);
      const text = formatAuditText(report);
      if (process.env.AUDIT_PRINT) console.log(text);
      assert.equal(report.session.tasks, 2);
      assert.equal(report.gaps, undefined);
      const status = await sessionStatus(client, handle.workflowId);
      const okRecord = status.autonomy!.tasks.find((t) => t.toolUseId === 'toolu_aud_ok')!;
      const tasks = report.tasks ?? [];
      assert.deepEqual(
        tasks.map((t) => [t.activityId, t.taskKind, t.tool, t.turn, t.toolUseId, t.command, t.state, t.exitCode]),
        [
          [`task-${okRecord.id}`, 'local_bash', 'Bash', 1, 'toolu_aud_ok', 'echo checked; exit 0', 'completed', 0],
          [`task-${serverId}`, 'local_bash', 'Bash', 1, 'toolu_aud_srv', `sleep ${marker}`, 'killed', null],
        ],
      );
      const [ok, srv] = tasks as [AuditTask, AuditTask];
      // The audit agrees with the session's own record of the task (status).
      assert.equal(ok.outputBytes, 'checked\n'.length);
      assert.equal(ok.outputRef, okRecord.outputRef);
      assert.equal(ok.outputFile, okRecord.outputPath);
      assert.equal(ok.description, 'Quick check');
      assert.equal(srv.stoppedBy, 'TaskStop toolu_aud_stop');
      assert.match(srv.outputFile ?? '', new RegExp(`/tasks/${serverId}\\.output$`));
      for (const t of tasks) {
        assert.ok(t.startedAt && t.endedAt && t.startedAt <= t.endedAt, JSON.stringify(t));
        assert.equal(t.attempts, 1);
      }
      assert.ok(srv.endedAt! > ok.endedAt!, 'the server ran until the stop');
      // Text: one row each, with the command, the state and the output's places.
      const okRow = text.split('\n').find((l) => l.includes(`task-${ok.taskId}`));
      const srvRow = text.split('\n').find((l) => l.includes(`task-${serverId}`));
      assert.ok(okRow && srvRow, text);
      assert.match(okRow, /local_bash: Quick check \(\$ echo checked; exit 0\)/);
      assert.match(
        okRow,
        / completed .*exit 0, 8 B output, sandboxed, file \S+\.output, stored taskoutput-[0-9a-f]{64}/,
      );
      assert.match(
        srvRow,
        new RegExp(
          `local_bash: \\$ sleep ${marker.replace('.', '\\.')} .* killed .*stopped by TaskStop toolu_aud_stop`,
        ),
      );
      assert.match(text, /2 background tasks/);
      // JSON lines: the same rows, kind "task".
      const json = auditJsonLines(report)
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as { kind: string; taskId?: string; state?: string });
      assert.deepEqual(
        json.filter((e) => e.kind === 'task').map((e) => [e.taskId, e.state]),
        [
          [ok.taskId, 'completed'],
          [serverId, 'killed'],
        ],
      );
    });
  },
);

test(
  'integration: SIGKILL of the worker during a background task: the session is told the task was lost (not re-run), no process is left',
  { timeout: 240_000, skip: process.platform !== 'linux' ? 'needs /proc' : false },
  async () => {
    await withAgent({ noWorker: true }, async ({ env, fake, start, storeDir, taskQueue, workDir, client }) => {
      const baseEnv = await workerProcessEnv({ env, fake, storeDir, taskQueue });
      const workerEnv = (tag: string): NodeJS.ProcessEnv => ({ ...baseEnv, [TAG_ENV]: tag });
      const notes: string[] = [];
      fake.script((req) => {
        const text = joined(req);
        if (text.includes('long job'))
          return toolUseResponse([
            {
              id: 'toolu_long',
              name: 'Bash',
              input: {
                command: 'echo run >> runs.txt; sleep 600',
                run_in_background: true,
                description: 'Long job',
              },
            },
          ]);
        if (text.includes('<task-notification>')) {
          notes.push(text);
          return textResponse('The job was lost; I will look before running it again.');
        }
        return textResponse('Waiting for the job.');
      });
      const procs: WorkerProc[] = [];
      const tag1 = newTag();
      try {
        const worker1 = await spawnWorker('worker-1', workerEnv(tag1), procs);
        const handle = await start({
          prompt: 'run the long job',
          tools: ['Bash'],
          toolHeartbeatTimeoutMs: 3_000,
          sandbox: { passEnv: [TAG_ENV] },
        });
        await waitFor(
          'the command to run',
          async () => (readFileSync(join(workDir, 'runs.txt'), 'utf8').length > 0 ? true : undefined),
          60_000,
        );
        process.kill(worker1.child.pid!, 'SIGKILL');
        await worker1.exited;
        await spawnWorker('worker-2', workerEnv(newTag()), procs);
        const left = await waitUntilNoneTagged(tag1, 20_000);
        killAll(left);
        assert.deepEqual(left, [], `left behind by worker-1:\n${describe(left)}`);
        const result = await handle.result();
        assert.equal(result.status, 'completed', result.endReason);
        assert.equal(notes.length, 1, 'one notification');
        assert.match(notes[0]!, /<status>failed<\/status>/);
        assert.match(
          notes[0]!,
          /<summary>Background command "Long job" was lost: the worker running it died, its processes were killed, and it was NOT re-run/,
        );
        assert.equal(readFileSync(join(workDir, 'runs.txt'), 'utf8'), 'run\n', 'never re-run');
        const s = await sessionStatus(client, handle.workflowId);
        assert.equal(s.autonomy?.tasks[0]?.state, 'lost');
        assert.match(s.autonomy?.tasks[0]?.error ?? '', /HEARTBEAT|heartbeat/i);
        // The audit says the same: lost, why, never re-run (one attempt).
        const audited = (await buildAudit(client, handle.workflowId)).tasks ?? [];
        assert.deepEqual(
          audited.map((t) => [t.taskId, t.state, t.attempts, t.command]),
          [[s.autonomy?.tasks[0]?.id, 'lost', 1, 'echo run >> runs.txt; sleep 600']],
        );
        assert.match(audited[0]?.error ?? '', /heartbeat/i);
      } finally {
        for (const p of procs) killGroup(p);
        await Promise.all(procs.map((p) => p.exited));
      }
    });
  },
);
