// unit: the in-process runner's store (issue 21.8): without a storeDir a session writes into a
// temporary directory of its own, removed when it ends, never into the user's store
// ($DURABLE_AGENT_HOME/store); a subagent's child session writes into its parent's store, so that
// the parent finds the child's large result there; an explicit storeDir is kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import { lastToolResults, startFakeAnthropic, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { startLocalSession } from '../../src/inprocess/runSession';
import { buildTool } from '../../src/toolProtocol/Tool';

/** A tool whose result is over its size limit: the pipeline persists it to the session's result store. */
const BigOut = buildTool({
  name: 'BigOut',
  inputSchema: z.strictObject({ lines: z.number() }),
  maxResultSizeChars: 200,
  prompt: () => 'Prints numbered lines.',
  summary: (i) => `BigOut ${i.lines}`,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  async call(i) {
    return { data: Array.from({ length: i.lines }, (_, n) => `line ${n + 1}`).join('\n') };
  },
  mapToolResultToToolResultBlockParam: (data: string, toolUseId) => ({
    type: 'tool_result',
    tool_use_id: toolUseId,
    content: data,
  }),
});

/** Runs `body` with the user's data directory pointed at an empty temp dir and no store configured. */
async function withUserHome<T>(body: (home: string) => Promise<T>): Promise<T> {
  const home = await mkdtemp(join(tmpdir(), 'da-user-home-'));
  const keys = ['DURABLE_AGENT_HOME', 'DURABLE_AGENT_STORE_DIR', 'DURABLE_AGENT_STORE', 'DURABLE_AGENT_BLOB_STORE'];
  const saved = keys.map((k) => process.env[k]);
  process.env.DURABLE_AGENT_HOME = home;
  for (const k of keys.slice(1)) delete process.env[k];
  try {
    return await body(home);
  } finally {
    keys.forEach((k, i) => (saved[i] === undefined ? delete process.env[k] : (process.env[k] = saved[i])));
  }
}

const SAVED = /Full output saved to: (\S+)/;

test('unit: local store — no storeDir: a temporary store (the child writes into it, the parent reads its result there), removed at the end; the user store untouched', async () => {
  await withUserHome(async (home) => {
    const fake = await startFakeAnthropic();
    try {
      const work = await mkdtemp(join(tmpdir(), 'da-local-store-work-'));
      await writeFile(join(work, 'a.txt'), 'hello\n');
      fake.script((req) => {
        const child = JSON.stringify(req.system ?? '').includes('on behalf of another agent');
        if (child) {
          if (req.messages.length === 1)
            return toolUseResponse([{ id: 'toolu_c_big', name: 'BigOut', input: { lines: 400 } }]);
          const saved = JSON.stringify(lastToolResults(req)[0]?.content).match(SAVED)?.[1];
          return textResponse(`SAVED=${saved}`);
        }
        if (req.messages.length === 1)
          return toolUseResponse([
            {
              id: 'toolu_p_agent',
              name: 'Agent',
              input: { description: 'print', prompt: 'print 400 lines', run_in_background: false },
            },
          ]);
        if (req.messages.length === 3) {
          const path = JSON.stringify(lastToolResults(req)[0]?.content).match(/SAVED=([^\s"\\]+)/)?.[1];
          return toolUseResponse([{ id: 'toolu_p_read', name: 'Read', input: { file_path: path, offset: 399 } }]);
        }
        return textResponse('done');
      });
      let seenDuring: string[] = [];
      const s = startLocalSession(
        {
          prompt: 'delegate',
          cwd: work,
          tools: ['Read', 'Agent', 'BigOut'],
          permissionMode: 'bypassPermissions',
          model: { model: 'claude-test', maxTokens: 256 },
          onTurn: () => (seenDuring = readdirSync(s.storeDir)),
        },
        { tools: [BigOut], anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) },
      );
      assert.ok(s.storeDir.startsWith(tmpdir()), s.storeDir);
      const r = await s.result;
      assert.equal(r.status, 'completed', r.endReason);
      // The child's large result was persisted under the parent's store, and the parent's Read found it.
      const reqs = fake.messageRequests().filter((q) => !JSON.stringify(q.system ?? '').includes('on behalf of'));
      const agentResult = JSON.stringify(lastToolResults(reqs[1]!)[0]?.content);
      const saved = agentResult.match(/SAVED=([^\s"\\]+)/)?.[1];
      assert.ok(saved?.startsWith(join(s.storeDir, 'results')), agentResult);
      const readResult = lastToolResults(reqs[2]!)[0]!;
      assert.notEqual(readResult.is_error, true, JSON.stringify(readResult));
      assert.match(JSON.stringify(readResult.content), /line 400/);
      assert.ok(seenDuring.includes('blobs') && seenDuring.includes('results'), seenDuring.join(','));
      // Gone at the end; nothing in the user's data directory but the record of the directories
      // sessions wrote, where no program is looked up (src/hostProcess/programs.ts, M9).
      assert.equal(existsSync(s.storeDir), false);
      assert.deepEqual(
        (await readdir(home)).filter((f) => f !== 'session-directories.json'),
        [],
      );
    } finally {
      await fake.close();
    }
  });
});

test('unit: local store — an explicit storeDir is kept after the end, with the transcript in it; the user store untouched', async () => {
  await withUserHome(async (home) => {
    const fake = await startFakeAnthropic();
    try {
      const work = await mkdtemp(join(tmpdir(), 'da-local-store-work-'));
      const store = await mkdtemp(join(tmpdir(), 'da-local-store-own-'));
      fake.enqueue(textResponse('hi'));
      const s = startLocalSession(
        { prompt: 'hello', cwd: work, tools: ['Read'], model: { model: 'claude-test', maxTokens: 64 } },
        { storeDir: store, anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) },
      );
      assert.equal(s.storeDir, store);
      const r = await s.result;
      assert.equal(r.status, 'completed', r.endReason);
      assert.ok((await readdir(join(store, 'blobs'))).length > 0, 'the transcript stays in the caller store');
      assert.deepEqual(await readdir(home), []);
    } finally {
      await fake.close();
    }
  });
});

test('unit: local store — a bad input throws at start and leaves no temporary store behind', async () => {
  const own = await mkdtemp(join(tmpdir(), 'da-local-store-tmp-'));
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = own; // os.tmpdir() reads it: this test's temp dirs only
  try {
    assert.throws(() => startLocalSession({ prompt: '', cwd: '/tmp' }), /prompt/);
    assert.deepEqual(readdirSync(own), []);
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
});
