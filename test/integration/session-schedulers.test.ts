// integration: one session step, two schedulers. The same scripted session — an approval, an
// interrupt of a running tool, a follow-up message — runs in-process and on the real Temporal dev
// server; their transcripts, the requests the model saw, and their end reasons must be the same.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { access, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  startFakeAnthropic,
  textResponse,
  toolUseResponse,
  type FakeAnthropicServer,
} from '../../src/testing/fakeAnthropic';
import {
  BUILTIN_TOOL_NAMES,
  approveToolUse,
  interruptSession,
  sendMessage,
  sessionStatus,
  type SessionOptions,
} from '../../src/temporal/client';
import { startLocalSession } from '../../src/inprocess/runSession';
import { LocalBlobStore, TranscriptStore } from '../../src/stores/messageStore';
import type { Message } from '../../src/core/apiMessages';
import { closeTestEnv } from '../support/temporal';
import { fakeAnthropicFactory, withAgent } from '../support/agent';
import { TEST_TOOLS } from '../support/testTools';
import { waitFor } from '../support/wait';

after(closeTestEnv);

function script(fake: FakeAnthropicServer, work: string): void {
  fake.enqueue(
    toolUseResponse([
      { id: 'toolu_w', name: 'Write', input: { file_path: join(work, 'approved.txt'), content: 'yes\n' } },
    ]),
    toolUseResponse([
      {
        id: 'toolu_slow',
        name: 'AppendSlow',
        input: { file: join(work, 'started.txt'), text: 'started', delayMs: 120_000 },
      },
    ]),
    textResponse('Stopped, then carried on as asked.'),
  );
}

const options = (work: string): Partial<SessionOptions> & { prompt: string } => ({
  prompt: 'write a file, then wait',
  cwd: work,
  tools: [...BUILTIN_TOOL_NAMES, 'AppendSlow'],
  permissionMode: 'default',
  rules: { allow: ['AppendSlow'], ask: [], deny: [] },
  model: { model: 'claude-test', maxTokens: 1024 },
});

/** Paths differ between the two runs: compare with the working directory replaced. */
const normalize = (value: unknown, work: string): unknown =>
  JSON.parse(JSON.stringify(value).split(work).join('<work>'));

async function transcript(storeDir: string, head: string | null): Promise<Message[]> {
  return new TranscriptStore(new LocalBlobStore(join(storeDir, 'blobs'))).load(head);
}

interface Run {
  status: string;
  endReason: string;
  turns: number;
  transcript: unknown;
  requests: unknown;
}

test('integration: the same session (approval, interrupt, follow-up) in-process and on Temporal: same transcript, requests and end', async () => {
  // In-process.
  const local = await (async (): Promise<Run> => {
    const fake = await startFakeAnthropic();
    const work = await mkdtemp(join(tmpdir(), 'da-sched-local-'));
    const storeDir = await mkdtemp(join(tmpdir(), 'da-sched-local-store-'));
    try {
      script(fake, work);
      const asked: string[] = [];
      const session = startLocalSession(
        {
          ...options(work),
          onAsk: async (a) => {
            asked.push(a.toolUseId);
            return { decision: 'approve', source: 'human', by: 'tester' };
          },
        },
        { tools: TEST_TOOLS, storeDir, anthropic: fakeAnthropicFactory(fake) },
      );
      await waitFor('the slow tool to start', async () => access(join(work, 'started.txt')).then(() => true));
      session.interrupt();
      await waitFor(
        'the session to wait for a follow-up',
        async () => session.status().phase === 'waiting_for_message',
      );
      assert.equal(session.status().status, 'interrupted');
      session.send('carry on');
      const r = await session.result;
      assert.deepEqual(asked, ['toolu_w']);
      fake.assertDone();
      return {
        status: r.status,
        endReason: r.endReason,
        turns: r.turns,
        transcript: normalize(await transcript(storeDir, r.head), work),
        requests: normalize(fake.messageRequests(), work),
      };
    } finally {
      await fake.close();
    }
  })();

  // On the Temporal dev server.
  const temporal = await withAgent(
    { worker: { tools: TEST_TOOLS } },
    async ({ fake, start, workDir, client, storeDir }): Promise<Run> => {
      script(fake, workDir);
      const handle = await start(options(workDir));
      const id = handle.workflowId;
      await waitFor(
        'the approval request',
        async () => (await sessionStatus(client, id)).pendingApprovals[0]?.toolUseId === 'toolu_w',
      );
      await approveToolUse(client, id, 'toolu_w', 'tester');
      await waitFor('the slow tool to start', async () => access(join(workDir, 'started.txt')).then(() => true));
      await interruptSession(client, id);
      await waitFor(
        'the session to wait for a follow-up',
        async () => (await sessionStatus(client, id)).phase === 'waiting_for_message',
      );
      assert.equal((await sessionStatus(client, id)).status, 'interrupted');
      await sendMessage(client, id, 'carry on');
      const r = await handle.result();
      fake.assertDone();
      return {
        status: r.status,
        endReason: r.endReason,
        turns: r.turns,
        transcript: normalize(await transcript(storeDir, r.head), workDir),
        requests: normalize(fake.messageRequests(), workDir),
      };
    },
  );

  assert.equal(local.status, 'completed');
  assert.equal(local.endReason, 'the model ended its turn');
  assert.equal(local.turns, 3);
  assert.deepEqual(
    { ...temporal, transcript: undefined, requests: undefined },
    { ...local, transcript: undefined, requests: undefined },
  );
  assert.deepEqual(temporal.requests, local.requests, 'the model saw the same requests');
  assert.deepEqual(temporal.transcript, local.transcript, 'the stored transcripts are the same');
  // And they are what the scenario says: an approved write, an interrupted tool, the follow-up.
  const msgs = local.transcript as Array<{ role: string; content: unknown }>;
  const text = JSON.stringify(msgs);
  assert.match(text, /"tool_use_id":"toolu_w","content":"[^"]*approved\.txt/);
  assert.match(text, /"tool_use_id":"toolu_slow"[^}]*Interrupted by user/);
  assert.deepEqual(msgs[msgs.length - 2], { role: 'user', content: 'carry on' });
});
