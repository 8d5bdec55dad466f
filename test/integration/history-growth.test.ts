// integration: a long session's transcript grows past the 2 MB payload limit while no run's
// history does. The transcript lives in the message store (workflows carry only its head hash),
// so each turn adds about the same number of history bytes at turn 5 as at the last, and the
// session continues-as-new at a turn boundary when a run's history grows too large.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { lastToolResults, textResponse, toolUseResponse, type MessagesRequest } from '../../src/testing/fakeAnthropic';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { fmtBytes, sessionBytesPerTurn, sessionRuns, turnBytes } from '../support/history';
import { statusQuery } from '../../src/temporal/workflows/definitions';

after(closeTestEnv);

const MiB = 1024 * 1024;
const READS_PER_TURN = 3;
const FILE_BYTES = 10 * 1024;
// The long session: 40 turns of 25 KB files make the same 3.3 MiB transcript as 100 turns of 10 KB
// did, at less than half the CPU (each request carries the whole transcript; issue 32).
const LONG_FILE_BYTES = 25 * 1024;

const pad = (n: number): string => String(n).padStart(3, '0');
const toolUseId = (turn: number, k: number): string => `toolu_t${pad(turn)}_${k}`;

/** `turns × READS_PER_TURN` distinct files of `bytes` (80-byte lines) (random content: nothing dedupes), same path length each. */
async function makeFiles(dir: string, turns: number, bytes = FILE_BYTES): Promise<(turn: number, k: number) => string> {
  const path = (turn: number, k: number): string => join(dir, 'files', `t${pad(turn)}-${k}.txt`);
  await mkdir(join(dir, 'files'));
  const lines = bytes / 80;
  for (let turn = 1; turn <= turns; turn++) {
    for (let k = 0; k < READS_PER_TURN; k++) {
      const body: string[] = [];
      for (let i = 0; i < lines; i++)
        body.push(
          `${`t${pad(turn)}-${k} line ${String(i).padStart(3, '0')} `}${randomBytes(32).toString('hex')}`.slice(0, 79),
        );
      await writeFile(path(turn, k), `${body.join('\n')}\n`);
    }
  }
  return path;
}

/** Turns 1..turns each read that turn's files; the next request ends with text. */
function readScript(turns: number, fileOf: (turn: number, k: number) => string) {
  return (req: MessagesRequest) => {
    const turn = req.messages.filter((m) => m.role === 'assistant').length + 1;
    if (turn > turns) return textResponse(`Read all ${turns * READS_PER_TURN} files.`);
    return toolUseResponse(
      Array.from({ length: READS_PER_TURN }, (_, k) => ({
        id: toolUseId(turn, k),
        name: 'Read',
        input: { file_path: fileOf(turn, k) },
      })),
    );
  };
}

/** The last request holds every tool_result of the session, in order, with the files' contents (their last lines). */
function assertWholeTranscript(last: MessagesRequest, turns: number, bytes = FILE_BYTES): number {
  const lastLine = String(bytes / 80 - 1).padStart(3, '0');
  const results = last.messages.flatMap((m) =>
    m.role === 'user' && Array.isArray(m.content) ? m.content.filter((b) => b.type === 'tool_result') : [],
  );
  const expected = Array.from({ length: turns }, (_, t) =>
    Array.from({ length: READS_PER_TURN }, (_, k) => toolUseId(t + 1, k)),
  ).flat();
  assert.deepEqual(
    results.map((r) => r.tool_use_id),
    expected,
  );
  results.forEach((r, i) => {
    assert.notEqual(r.is_error, true, JSON.stringify(r).slice(0, 300));
    const turn = Math.floor(i / READS_PER_TURN) + 1;
    assert.match(JSON.stringify(r.content), new RegExp(`t${pad(turn)}-${i % READS_PER_TURN} line ${lastLine} `));
  });
  return Buffer.byteLength(JSON.stringify(last.messages));
}

test('integration: 40 turns × 3 Reads of 25 KB: transcript > 3 MB, every run < 4 MiB, bytes per turn flat', async () => {
  const TURNS = 40;
  await withAgent({ fake: { textChunkSize: 200, jsonChunkSize: 200 } }, async ({ fake, start, workDir, client }) => {
    const fileOf = await makeFiles(workDir, TURNS, LONG_FILE_BYTES);
    fake.script(readScript(TURNS, fileOf));
    const t0 = Date.now();
    // A model whose window holds the whole transcript: no clearing or compaction (context-window.test covers those).
    const handle = await start({
      prompt: 'read every file, three per turn',
      tools: ['Read'],
      maxTurns: TURNS + 10,
      // One turn child per model step: this test measures what each step adds to the session's
      // history (bytes per `turn-<n>` child), which needs a child per step (issue 33's default
      // runs up to 50 steps in one child, and the session sees only one child per 50 steps).
      maxStepsPerTurn: 1,
      contextManagement: { contextWindow: 10_000_000 },
    });
    const result = await handle.result();
    const seconds = (Date.now() - t0) / 1000;
    assert.equal(result.status, 'completed', result.endReason);
    assert.equal(result.turns, TURNS + 1);
    fake.assertDone();

    const requests = fake.messageRequests();
    assert.equal(requests.length, TURNS + 1);
    const transcriptBytes = assertWholeTranscript(
      requests[requests.length - 1] as MessagesRequest,
      TURNS,
      LONG_FILE_BYTES,
    );
    assert.ok(transcriptBytes > 3 * MiB, `the model got ${fmtBytes(transcriptBytes)}; expected > 3 MiB`);

    const runs = await sessionRuns(
      client,
      handle.workflowId,
      (handle as WorkflowHandleWithFirstExecutionRunId).firstExecutionRunId,
    );
    const [t5, tLast] = await turnBytes(client, handle.workflowId, runs, [5, TURNS]);
    assert.ok(t5 && tLast);
    const maxRun = Math.max(...runs.map((r) => r.bytes));
    const diff = Math.abs(tLast.total - t5.total) / t5.total;
    console.log(
      `[history] ${TURNS + 1} turns in ${seconds.toFixed(1)} s (${((seconds * 1000) / (TURNS + 1)).toFixed(0)} ms/turn); ` +
        `last request's transcript ${fmtBytes(transcriptBytes)}; ` +
        `${runs.length} session run(s): ${runs.map((r) => `${fmtBytes(r.bytes)}/${r.events} events`).join(', ')}; max ${fmtBytes(maxRun)}`,
    );
    for (const t of [t5, tLast]) {
      console.log(
        `[history] turn ${t.turn} (run ${t.run + 1}): ${t.total} B = session ${t.sessionBytes} B + turn child ${t.childBytes} B`,
      );
    }
    console.log(`[history] bytes per turn differ by ${(diff * 100).toFixed(1)} % between turn 5 and turn ${TURNS}`);
    assert.ok(maxRun < 4 * MiB, `a session run's history is ${fmtBytes(maxRun)}`);
    assert.ok(diff < 0.2, `turn 5: ${t5.total} B, turn ${TURNS}: ${tLast.total} B`);
  });
});

test('integration: with a small maxHistoryBytesPerRun the session continues-as-new several times; the model still gets the whole transcript; read state survives', async () => {
  const TURNS = 30;
  const LIMIT = 32 * 1024;
  await withAgent({ fake: { textChunkSize: 200, jsonChunkSize: 200 } }, async ({ fake, start, workDir, client }) => {
    const fileOf = await makeFiles(workDir, TURNS);
    const reads = readScript(TURNS, fileOf);
    // Then an Edit of a file read in the first run: the read-file state crosses continue-as-new.
    const edited = fileOf(1, 0);
    fake.script((req) => {
      const turn = req.messages.filter((m) => m.role === 'assistant').length + 1;
      if (turn === TURNS + 1)
        return toolUseResponse([
          {
            id: 'toolu_edit',
            name: 'Edit',
            input: { file_path: edited, old_string: 't001-0 line 000 ', new_string: 'EDITED line 000 ' },
          },
        ]);
      if (turn === TURNS + 2) return textResponse('done');
      return reads(req);
    });
    const t0 = Date.now();
    const handle = await start({
      prompt: 'read every file, three per turn',
      tools: ['Read', 'Edit'],
      maxTurns: TURNS + 10,
      maxHistoryBytesPerRun: LIMIT,
      // One turn child per model step, so each step adds to the session's history and the session
      // continues-as-new at step boundaries (with multi-step children it would barely grow).
      maxStepsPerTurn: 1,
      contextManagement: { contextWindow: 10_000_000 },
    });
    const result = await handle.result();
    const seconds = (Date.now() - t0) / 1000;
    assert.equal(result.status, 'completed', result.endReason);
    assert.equal(result.turns, TURNS + 2);
    fake.assertDone();
    const requests = fake.messageRequests();
    assert.equal(requests.length, TURNS + 2);
    const transcriptBytes = assertWholeTranscript(requests[TURNS] as MessagesRequest, TURNS);
    const [editResult] = lastToolResults(requests[TURNS + 1] as MessagesRequest);
    assert.equal(editResult?.tool_use_id, 'toolu_edit');
    assert.notEqual(editResult?.is_error, true, JSON.stringify(editResult));
    assert.match(await readFile(edited, 'utf8'), /^EDITED line 000 /);

    const runs = await sessionRuns(
      client,
      handle.workflowId,
      (handle as WorkflowHandleWithFirstExecutionRunId).firstExecutionRunId,
    );
    console.log(
      `[history] maxHistoryBytesPerRun ${fmtBytes(LIMIT)}: ${TURNS + 2} turns in ${seconds.toFixed(1)} s, ${runs.length} runs: ` +
        `${runs.map((r) => fmtBytes(r.bytes)).join(', ')}; last request's transcript ${fmtBytes(transcriptBytes)}`,
    );
    assert.ok(runs.length >= 3, `${runs.length} run(s)`);
    // Every turn ran exactly once, in order, across the runs; the carried state counts the runs and calls.
    const perTurn = sessionBytesPerTurn(runs, handle.workflowId);
    assert.deepEqual(
      [...perTurn.keys()],
      Array.from({ length: TURNS + 2 }, (_, i) => i + 1),
    );
    const runOfTurn = [...perTurn.values()].map((t) => t.run);
    assert.deepEqual(
      runOfTurn,
      [...runOfTurn].sort((a, b) => a - b),
    );
    // Each run stops at the first turn boundary past the limit: no run is much bigger than limit + one turn.
    for (const r of runs) assert.ok(r.bytes < LIMIT + 16 * 1024, `a run of ${fmtBytes(r.bytes)}`);
    const status = await handle.query(statusQuery);
    assert.equal(status.runs, runs.length - 1);
    assert.equal(status.toolCalls, TURNS * READS_PER_TURN + 1);
  });
});
