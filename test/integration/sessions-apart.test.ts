// integration: sessions apart on the real dev server (issue 30, class 5). A session's temp directory
// (its commands' TMPDIR, with its background tasks' output files) and its Bash spool directory are
// removed by the worker when the session ends — the session workflow's `sessionEnded` sink, no
// command in history — for a completed session (after a background task ran) and for a cancelled
// one whose foreground command was still running — and NOT at continue-as-new: a file the first run
// left in $TMPDIR is read by a command of the next run. Oracles on the file system: the directory each
// command reported as its TMPDIR, and the spool directory beside it.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { waitFor } from '../support/wait';
import { sessionRuns } from '../support/history';

after(closeTestEnv);

test(
  'integration: a session’s temp and spool directories are gone after it completes (a background task ran) and after it is cancelled mid-command',
  { timeout: 180_000 },
  async () => {
    await withAgent({}, async ({ fake, start, client, workDir }) => {
      const said = join(workDir, 'tmpdir-done.txt');
      fake.script((req) => {
        const text = JSON.stringify(req.messages);
        if (text.includes('<task-notification>')) return textResponse('The task is done.');
        if (text.includes('toolu_fg_done')) return textResponse('Waiting for the task.');
        if (text.includes('make files'))
          return toolUseResponse([
            {
              id: 'toolu_fg_done',
              name: 'Bash',
              input: { command: `echo x > "$TMPDIR/scratch"; printf %s "$TMPDIR" > ${said}` },
            },
            { id: 'toolu_bg_done', name: 'Bash', input: { command: 'sleep 1; echo bg', run_in_background: true } },
          ]);
        if (text.includes('run long'))
          return toolUseResponse([
            {
              id: 'toolu_long',
              name: 'Bash',
              input: {
                command: `printf %s "$TMPDIR" > ${join(workDir, 'tmpdir-long.txt')}; sleep 60`,
                timeout: 120_000,
              },
            },
          ]);
        return textResponse('ok');
      });
      const done = await start({ prompt: 'make files', tools: ['Bash'] });
      const result = await done.result();
      assert.equal(result.status, 'completed', result.endReason);
      const tmp = readFileSync(said, 'utf8');
      assert.match(tmp, /\/durable-agent-sandbox\/[0-9a-f]{16}$/);
      await waitFor('the completed session’s directories to go', async () =>
        !existsSync(tmp) && !existsSync(`${tmp}.s`) ? true : undefined,
      );

      const long = await start({ prompt: 'run long', tools: ['Bash'] });
      const longSaid = join(workDir, 'tmpdir-long.txt');
      const longTmp = await waitFor('the long command to start', async () =>
        existsSync(longSaid) && readFileSync(longSaid, 'utf8') ? readFileSync(longSaid, 'utf8') : undefined,
      );
      assert.ok(existsSync(longTmp), 'the running session’s temp dir exists');
      assert.ok(existsSync(`${longTmp}.s`), 'its live spool exists');
      await client.workflow.getHandle(long.workflowId).cancel();
      await long.result().catch(() => undefined);
      await waitFor(
        'the cancelled session’s directories to go',
        async () => (!existsSync(longTmp) && !existsSync(`${longTmp}.s`) ? true : undefined),
        60_000,
      );
    });
  },
);

test(
  'integration: continue-as-new keeps the session’s temp directory (the next run reads what the first left there); the end removes it',
  { timeout: 180_000 },
  async () => {
    await withAgent({}, async ({ fake, start, client, workDir }) => {
      const said = join(workDir, 'tmpdir-can.txt');
      const seen = join(workDir, 'seen-after-can.txt');
      fake.script((req) => {
        const turn = req.messages.filter((m) => m.role === 'assistant').length + 1;
        if (turn === 1)
          return toolUseResponse([
            {
              id: 'toolu_keep',
              name: 'Bash',
              input: { command: `echo LEFT-BY-RUN-1 > "$TMPDIR/keep"; printf %s "$TMPDIR" > ${said}` },
            },
          ]);
        if (turn === 2)
          return toolUseResponse([
            { id: 'toolu_read', name: 'Bash', input: { command: `cat "$TMPDIR/keep" > ${seen}` } },
          ]);
        return textResponse('done');
      });
      // A tiny history budget: the session continues-as-new after every turn; a turn child per model
      // step, so that there is a session boundary (and a new run) between the two Bash calls.
      const handle = await start({
        prompt: 'leave a file',
        tools: ['Bash'],
        maxHistoryBytesPerRun: 1,
        maxStepsPerTurn: 1,
      });
      const result = await handle.result();
      assert.equal(result.status, 'completed', result.endReason);
      const runs = await sessionRuns(
        client,
        handle.workflowId,
        (handle as unknown as WorkflowHandleWithFirstExecutionRunId).firstExecutionRunId,
      );
      assert.ok(runs.length >= 2, `continued as new (${runs.length} runs)`);
      assert.equal(readFileSync(seen, 'utf8'), 'LEFT-BY-RUN-1\n', 'the later run found the first run’s file');
      const tmp = readFileSync(said, 'utf8');
      await waitFor('the ended session’s directories to go', async () =>
        !existsSync(tmp) && !existsSync(`${tmp}.s`) ? true : undefined,
      );
    });
  },
);
