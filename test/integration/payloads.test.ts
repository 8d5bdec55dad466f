// integration: payloads by reference (invariant 11). One turn with 40 Reads whose results are
// ~100,000 characters each, one turn with 40 Writes whose inputs are 100,000 characters each:
// both complete on the real dev server, the model still gets every result and every file holds
// what was written, and no event of the session's or any turn's history is above 512 KiB.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { textResponse, toolUseResponse, type MessagesRequest } from '../../src/testing/fakeAnthropic';
import { runLocalSession } from '../../src/inprocess/runSession';
import { closeTestEnv } from '../support/temporal';
import { fakeAnthropicFactory, withAgent } from '../support/agent';
import { eventBytes, fmtBytes, sessionRuns, turnChildIds } from '../support/history';

after(closeTestEnv);

const CALLS = 40;
const CHARS = 100_000;
const MAX_EVENT = 512 * 1024;
const EventType = temporal.api.enums.v1.EventType;

/** 40 distinct files whose Read output (numbered lines) is just under Read's 100,000-character budget. */
async function makeFiles(dir: string): Promise<string[]> {
  const paths: string[] = [];
  for (let k = 0; k < CALLS; k++) {
    const lines: string[] = [];
    for (let i = 0; i < 1000; i++)
      lines.push(`f${k} line ${String(i).padStart(4, '0')} `.padEnd(91, String.fromCharCode(97 + (k % 26))));
    const path = join(dir, `big-${k}.txt`);
    await writeFile(path, `${lines.join('\n')}\n`);
    paths.push(path);
  }
  return paths;
}

const body = (k: number): string => `written ${k} `.padEnd(CHARS, String.fromCharCode(65 + (k % 26)));

function script(dir: string, files: string[]) {
  return (req: MessagesRequest) => {
    const turn = req.messages.filter((m) => m.role === 'assistant').length + 1;
    if (turn === 1)
      return toolUseResponse(files.map((f, k) => ({ id: `toolu_read_${k}`, name: 'Read', input: { file_path: f } })));
    if (turn === 2) {
      return toolUseResponse(
        Array.from({ length: CALLS }, (_, k) => ({
          id: `toolu_write_${k}`,
          name: 'Write',
          input: { file_path: join(dir, `out-${k}.txt`), content: body(k) },
        })),
      );
    }
    return textResponse('done');
  };
}

/** Every tool_result of turn 1 reached the model whole, in block order. */
function assertReadResults(req: MessagesRequest): void {
  const user = req.messages[2];
  assert.ok(user && user.role === 'user' && Array.isArray(user.content));
  const results = user.content.filter((b) => b.type === 'tool_result');
  assert.deepEqual(
    results.map((r) => r.tool_use_id),
    Array.from({ length: CALLS }, (_, k) => `toolu_read_${k}`),
  );
  results.forEach((r, k) => {
    const text = JSON.stringify(r.content);
    assert.notEqual(r.is_error, true, text.slice(0, 300));
    assert.ok(text.length > 95_000, `result ${k} has ${text.length} characters`);
    assert.match(text, new RegExp(`f${k} line 0999 `));
  });
}

test('integration: 40 tool results and 40 tool inputs of 100,000 characters in one turn each; no history event above 512 KiB', async () => {
  await withAgent(
    { fake: { textChunkSize: 4000, jsonChunkSize: 64 * 1024 } },
    async ({ fake, start, workDir, client }) => {
      const files = await makeFiles(workDir);
      fake.script(script(workDir, files));
      // 4 M characters in one turn: a model whose window holds them (else the session would clear and compact, see context-window.test).
      const handle = await start({
        prompt: 'read the big files, then write the outputs',
        tools: ['Read', 'Write'],
        maxTurns: 5,
        contextManagement: { contextWindow: 10_000_000 },
      });
      const result = await handle.result();
      assert.equal(result.status, 'completed', result.endReason);
      assert.equal(result.turns, 3);
      fake.assertDone();
      const requests = fake.messageRequests();
      assert.equal(requests.length, 3);
      assertReadResults(requests[1] as MessagesRequest);
      const writes = (requests[2] as MessagesRequest).messages[4];
      assert.ok(writes && Array.isArray(writes.content));
      for (const r of writes.content)
        assert.ok(r.type === 'tool_result' && r.is_error !== true, JSON.stringify(r).slice(0, 300));
      for (let k = 0; k < CALLS; k++) assert.equal(await readFile(join(workDir, `out-${k}.txt`), 'utf8'), body(k));

      // Every event of every run of the session and of every turn.
      const runs = await sessionRuns(
        client,
        handle.workflowId,
        (handle as WorkflowHandleWithFirstExecutionRunId).firstExecutionRunId,
      );
      const histories = runs.map((r, i) => ({ name: `session run ${i + 1}`, history: r.history }));
      for (const childId of turnChildIds(runs)) {
        histories.push({
          name: childId.slice(childId.lastIndexOf('/') + 1),
          history: await client.workflow.getHandle(childId).fetchHistory(),
        });
      }
      let largest = { name: '', type: '', bytes: 0 };
      for (const { name, history } of histories) {
        for (const e of history.events ?? []) {
          const bytes = eventBytes(e);
          if (bytes > largest.bytes) largest = { name, type: EventType[e.eventType ?? 0] ?? '?', bytes };
          assert.ok(
            bytes <= MAX_EVENT,
            `${name}: event ${e.eventId} (${EventType[e.eventType ?? 0]}) is ${fmtBytes(bytes)}`,
          );
        }
      }
      const total = histories.reduce((n, h) => n + (h.history.events ?? []).reduce((m, e) => m + eventBytes(e), 0), 0);
      console.log(
        `[payloads] ${CALLS} × ${CHARS} chars of results and of inputs: largest event ${fmtBytes(largest.bytes)} (${largest.name}, ${largest.type}); all histories ${fmtBytes(total)}`,
      );
    },
  );
});

test('integration: the in-process runner takes the same by-reference path (the model gets the whole results)', async () => {
  await withAgent({ noWorker: true }, async ({ fake, workDir, storeDir }) => {
    const files = (await makeFiles(workDir)).slice(0, 3);
    fake.script((req) => {
      const turn = req.messages.filter((m) => m.role === 'assistant').length + 1;
      if (turn === 1)
        return toolUseResponse(files.map((f, k) => ({ id: `toolu_read_${k}`, name: 'Read', input: { file_path: f } })));
      return textResponse('done');
    });
    const result = await runLocalSession(
      {
        prompt: 'read',
        cwd: workDir,
        tools: ['Read'],
        permissionMode: 'bypassPermissions',
        model: { model: 'claude-test', maxTokens: 1024 },
      },
      { storeDir, anthropic: fakeAnthropicFactory(fake) },
    );
    assert.equal(result.status, 'completed', result.endReason);
    // The records carry previews and references; the transcript got the whole blocks.
    for (const r of result.records) {
      assert.match(r.resultRef ?? '', /^toolresult-/);
      assert.ok(JSON.stringify(r.result.content).length < 2000);
    }
    const user = (fake.messageRequests()[1] as MessagesRequest).messages[2];
    assert.ok(user && Array.isArray(user.content));
    user.content.forEach((r, k) => assert.match(JSON.stringify(r), new RegExp(`f${k} line 0999 `)));
  });
});
