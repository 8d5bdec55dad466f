// integration: the audit is never silently incomplete. With a payload codec configured on the
// worker and the client (a scrambling codec, as an encryption codec would be), the audit decodes
// with the client's own data converter; audited by a client without the codec, every payload it
// cannot read is an explicit "undecodable" gap in the text and JSON output. A turn whose history
// was deleted is a "history unavailable" gap, not a turn that silently never happened.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@temporalio/client';
import { textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { auditJsonLines, buildAudit, formatAuditText, type AuditEntry } from '../../src/audit';
import { startSession } from '../../src/temporal/client';
import { turnWorkflowId } from '../../src/core/ids';
import { ScramblingCodec } from '../support/codec';
import { closeTestEnv, uniqueWorkflowId } from '../support/temporal';
import { withAgent } from '../support/agent';
import { waitFor } from '../support/wait';
import { cli } from '../support/cli';

after(closeTestEnv);

const jsonEntries = (text: string): AuditEntry[] =>
  text
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as AuditEntry);

// The second test waits for the server's background deletion of a history: the tests run side by
// side, each on its own fake API, task queue and worker (issue 32).
describe('audit gaps', { concurrency: true }, () => {
  test('integration: the audit decodes with the client’s codec, and reports every payload a client without it cannot read', async () => {
    const codec = new ScramblingCodec();
    await withAgent(
      { worker: { workerOptions: { dataConverter: { payloadCodecs: [codec] } } } },
      async ({ env, fake, taskQueue, workDir }) => {
        await writeFile(join(workDir, 'a.txt'), 'secret contents\n');
        fake.enqueue(
          toolUseResponse([{ id: 'toolu_read', name: 'Read', input: { file_path: join(workDir, 'a.txt') } }]),
          textResponse('Read it.'),
        );
        const withCodec = new Client({
          connection: env.connection,
          namespace: env.namespace ?? 'default',
          dataConverter: { payloadCodecs: [codec] },
        });
        const handle = await startSession(withCodec, {
          id: uniqueWorkflowId('codec'),
          taskQueue,
          prompt: 'read a.txt',
          cwd: workDir,
          tools: ['Read'],
          permissionMode: 'bypassPermissions',
          model: { model: 'claude-test', maxTokens: 1024 },
        });
        const result = await handle.result();
        assert.equal(result.status, 'completed');

        // The client that has the codec: a complete audit, read through the codec.
        const before = codec.decoded;
        const full = await buildAudit(withCodec, handle.workflowId);
        assert.ok(codec.decoded > before, 'the audit decoded through the client’s codec');
        assert.equal(full.gaps, undefined, JSON.stringify(full.gaps));
        assert.equal(full.session.prompt, 'read a.txt');
        assert.equal(full.session.status, 'completed');
        assert.deepEqual(
          full.toolCalls.map((c) => [c.toolUseId, c.tool, c.status]),
          [['toolu_read', 'Read', 'ok']],
        );
        assert.match(full.toolCalls[0]?.resultPreview ?? '', /secret contents/);
        assert.doesNotMatch(formatAuditText(full), /INCOMPLETE/);

        // A client without the codec (the default converter): the same session, every unreadable payload a gap.
        const plain = await buildAudit(env.client, handle.workflowId);
        assert.ok(plain.gaps && plain.gaps.length > 0, 'gaps are reported');
        assert.equal(plain.session.gaps, plain.gaps.length);
        assert.ok(
          plain.gaps.every((g) => g.what === 'payload'),
          JSON.stringify(plain.gaps),
        );
        const fields = new Set(plain.gaps.map((g) => g.field));
        for (const f of ['session input', 'turn input', 'activity input', 'activity result'])
          assert.ok(fields.has(f), `a gap for the ${f}: ${[...fields].join(', ')}`);
        const turnInput = plain.gaps.find((g) => g.field === 'turn input');
        assert.equal(turnInput?.workflowId, turnWorkflowId(handle.workflowId, 1));
        assert.equal(turnInput?.eventType, 'WORKFLOW_EXECUTION_STARTED');
        assert.match(turnInput?.error ?? '', /encoding/i);
        // What can be read from history alone is still there: the call's id and status come from its events.
        assert.equal(plain.session.prompt, '');
        const text = formatAuditText(plain);
        assert.match(text, new RegExp(`INCOMPLETE: ${plain.gaps.length} parts of the history could not be read`));
        assert.match(text, /undecodable turn input: .*\/turn-1 .*event 1 WORKFLOW_EXECUTION_STARTED/);
        const lines = jsonEntries(auditJsonLines(plain));
        assert.equal(lines[0]?.kind, 'session');
        assert.deepEqual(
          lines.slice(1, 1 + plain.gaps.length).map((l) => l.kind),
          plain.gaps.map(() => 'gap'),
        );

        // `ls` (a client without the codec) lists the session with a note instead of failing on its memo.
        const ls = await cli(['ls', '--json', '--limit', '1000'], {
          TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
        });
        assert.equal(ls.code, 0, ls.stderr);
        const row = ls.stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { id: string; status: string; prompt: string })
          .find((r) => r.id === handle.workflowId);
        assert.equal(row?.status, 'completed');
        assert.match(row?.prompt ?? '', /^\(memo unreadable by this client: .*encoding/i);
        // Leave no undecodable session behind for other tests' listings.
        for (const workflowId of [
          handle.workflowId,
          turnWorkflowId(handle.workflowId, 1),
          turnWorkflowId(handle.workflowId, 2),
        ]) {
          await env.client.workflowService
            .deleteWorkflowExecution({ namespace: env.namespace ?? 'default', workflowExecution: { workflowId } })
            .catch(() => undefined);
        }
      },
    );
  });

  test(
    'integration: a turn whose history cannot be fetched is a gap in the audit, not a missing turn',
    { timeout: 300_000 },
    async () => {
      await withAgent({}, async ({ env, fake, start, workDir, client }) => {
        await writeFile(join(workDir, 'b.txt'), 'bee\n');
        fake.enqueue(
          toolUseResponse([{ id: 'toolu_one', name: 'Read', input: { file_path: join(workDir, 'b.txt') } }]),
          toolUseResponse([{ id: 'toolu_two', name: 'Read', input: { file_path: join(workDir, 'b.txt') } }]),
          textResponse('Done.'),
        );
        // One model step per turn child: turn 1's child goes, turn 2's (toolu_two) stays readable (by
        // default one child would run all three steps and both calls would go with it).
        const handle = await start({ prompt: 'read b twice', tools: ['Read'], maxStepsPerTurn: 1 });
        await handle.result();
        const complete = await buildAudit(client, handle.workflowId);
        assert.equal(complete.gaps, undefined);
        assert.deepEqual(
          complete.toolCalls.map((c) => c.toolUseId),
          ['toolu_one', 'toolu_two'],
        );

        // Turn 1's history goes (deleted, as retention or an operator would).
        const turn1 = turnWorkflowId(handle.workflowId, 1);
        await env.client.workflowService.deleteWorkflowExecution({
          namespace: env.namespace ?? 'default',
          workflowExecution: { workflowId: turn1 },
        });
        // Deletion is a background task on the server: under load it can take a while.
        await waitFor(
          'turn 1 to be deleted',
          async () =>
            await client.workflow
              .getHandle(turn1)
              .fetchHistory()
              .then(
                () => false,
                () => true,
              ),
          180_000,
          500,
        );

        const audit = await buildAudit(client, handle.workflowId);
        assert.equal(audit.session.turns, 3, 'the session still knows it ran three turns');
        assert.deepEqual(
          audit.toolCalls.map((c) => c.toolUseId),
          ['toolu_two'],
        );
        assert.equal(audit.gaps?.length, 1, JSON.stringify(audit.gaps));
        const gap = audit.gaps?.[0];
        assert.equal(gap?.what, 'history');
        assert.equal(gap?.workflowId, turn1);
        assert.equal(gap?.turn, 1);
        assert.match(gap?.missing ?? '', /turn 1/);
        const text = formatAuditText(audit);
        assert.match(text, /INCOMPLETE: 1 part of the history could not be read/);
        assert.match(text, new RegExp(`history unavailable: ${turn1.replace(/[/.-]/g, '\\$&')}`));
        const lines = jsonEntries(auditJsonLines(audit));
        assert.deepEqual(
          lines.slice(0, 2).map((l) => l.kind),
          ['session', 'gap'],
        );
      });
    },
  );
});
