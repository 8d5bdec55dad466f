// integration: CLI bugs found in review (issue 13), each as a user meets it: real processes, the
// real dev server, the fake Messages API.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { sessionStatus } from '../../src/temporal/client';
import type { SessionInput } from '../../src/temporal/workflows/definitions';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { cli } from '../support/cli';
import { waitFor } from '../support/wait';

after(closeTestEnv);

async function startInput(client: Client, id: string): Promise<SessionInput & Record<string, unknown>> {
  const history = await client.workflow.getHandle(id).fetchHistory();
  const payload = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
  assert.ok(payload);
  return defaultPayloadConverter.fromPayload(payload as never);
}

test('cli: run honours DURABLE_AGENT_PERMISSION_MODE (a flag still wins); the workflow input carries no id or taskQueue', async () => {
  // No worker: only the start input is looked at.
  await withAgent({ noWorker: true }, async ({ taskQueue, workDir, client }) => {
    const env = {
      TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
      DURABLE_AGENT_TASK_QUEUE: taskQueue,
      DURABLE_AGENT_PERMISSION_MODE: 'dontAsk',
    };
    const byEnv = await cli(
      [
        'run',
        '--detach',
        '--json',
        '--cwd',
        workDir,
        '--model',
        'claude-test',
        '--id',
        `perm-env-${Date.now()}`,
        'do it',
      ],
      env,
    );
    assert.equal(byEnv.code, 0, byEnv.stderr);
    const byFlag = await cli(
      ['run', '--detach', '--json', '--cwd', workDir, '--model', 'claude-test', '--permission-mode', 'plan', 'do it'],
      env,
    );
    assert.equal(byFlag.code, 0, byFlag.stderr);
    for (const [r, mode] of [
      [byEnv, 'dontAsk'],
      [byFlag, 'plan'],
    ] as const) {
      const id = (JSON.parse(r.stdout) as { session: string }).session;
      const input = await startInput(client, id);
      assert.equal(input.permissionMode, mode);
      // The workflow id and task queue are the start options' business, not the input's.
      assert.equal('id' in input, false, JSON.stringify(Object.keys(input)));
      assert.equal('taskQueue' in input, false, JSON.stringify(Object.keys(input)));
      await client.workflow.getHandle(id).terminate('test done');
    }
  });
});

test('cli: send, interrupt, approve and deny act while no worker is up; approve says it is pending until a worker applies it', async () => {
  await withAgent({ noWorker: true }, async ({ fake, start, startWorker, workDir, taskQueue, client }) => {
    const env = {
      TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
      DURABLE_AGENT_TASK_QUEUE: taskQueue,
      DURABLE_AGENT_UPDATE_WAIT_MS: '1500',
    };
    fake.enqueue(
      toolUseResponse([
        { id: 'toolu_nw_write', name: 'Write', input: { file_path: join(workDir, 'out.txt'), content: 'hi\n' } },
      ]),
      textResponse('wrote it, and read your note'),
    );
    let worker = await startWorker();
    const handle = await start({ prompt: 'write a file', permissionMode: 'default' });
    await waitFor(
      'the Write to ask',
      async () => (await sessionStatus(client, handle.workflowId)).pendingApprovals.length > 0,
    );
    await worker.stop();

    // No worker now: a signal is accepted by the server alone.
    const sent = await cli(['send', handle.workflowId, 'a', 'note'], env);
    assert.equal(sent.code, 0, sent.stderr);
    assert.match(sent.stdout, /message sent to /);
    // An update needs a worker to be accepted: the CLI says what happened instead of failing or hanging.
    const approved = await cli(['approve', handle.workflowId, 'toolu_nw_write', '--by', 'dana'], env);
    assert.equal(approved.code, 0, approved.stderr);
    assert.match(approved.stdout, /approve of toolu_nw_write sent to .*no worker has taken it yet/);
    // deny of another id: pending as well (the worker's validator refuses it later; nothing breaks).
    const denied = await cli(['deny', handle.workflowId, 'toolu_other', '--reason', 'late'], env);
    assert.equal(denied.code, 0, denied.stderr);
    assert.match(denied.stdout, /no worker has taken it yet/);

    // A worker comes back: the approval is applied (first decision wins), the note is read.
    worker = await startWorker();
    try {
      const result = await handle.result();
      assert.equal(result.status, 'completed', result.endReason);
      fake.assertDone();
      // The approval was applied (the Write ran, its result is no error) and the note reached the model.
      const [request] = fake.messageRequests().slice(-1);
      const results =
        request?.messages.flatMap((m) =>
          Array.isArray(m.content) ? m.content.filter((b) => b.type === 'tool_result') : [],
        ) ?? [];
      assert.equal(results.length, 1);
      assert.notEqual(results[0]?.is_error, true, JSON.stringify(results[0]));
      assert.equal(await readFile(join(workDir, 'out.txt'), 'utf8'), 'hi\n');
      assert.match(JSON.stringify(request?.messages), /a note/);
    } finally {
      await worker.stop();
    }

    // interrupt with no worker: accepted by the server (the session has ended here, which is said).
    const second = await start({ prompt: 'wait', permissionMode: 'default' });
    const interrupted = await cli(['interrupt', second.workflowId], env);
    assert.equal(interrupted.code, 0, interrupted.stderr);
    assert.match(interrupted.stdout, /interrupt sent to /);
    const ended = await cli(['send', handle.workflowId, 'x'], env);
    assert.notEqual(ended.code, 0);
    assert.match(ended.stderr, /has ended \(completed\)/);
    await second.terminate('test done');
  });
});

test('cli: transcript reads the store the worker is configured with (DURABLE_AGENT_BLOB_STORE), not the default file store', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'da-custom-store-'));
  const modulePath = join(dir, 'store.js');
  // A store with its own layout: `<DA_CUSTOM_STORE_DIR>/<key>.blob`.
  await writeFile(
    modulePath,
    `const fs = require('node:fs'); const path = require('node:path');
     exports.createBlobStore = () => {
       const root = process.env.DA_CUSTOM_STORE_DIR; fs.mkdirSync(root, { recursive: true });
       return {
         async put(key, data) { fs.writeFileSync(path.join(root, key + '.blob'), data); },
         async get(key) { try { return fs.readFileSync(path.join(root, key + '.blob'), 'utf8'); } catch { return undefined; } },
       };
     };\n`,
  );
  const storeEnv = { DURABLE_AGENT_BLOB_STORE: modulePath, DA_CUSTOM_STORE_DIR: join(dir, 'blobs') };
  const saved = { ...process.env };
  Object.assign(process.env, storeEnv);
  try {
    await withAgent({}, async ({ fake, start, taskQueue }) => {
      fake.enqueue(textResponse('the custom store answer'));
      const handle = await start({ prompt: 'say something' });
      assert.equal((await handle.result()).status, 'completed');
      const env = {
        TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
        DURABLE_AGENT_TASK_QUEUE: taskQueue,
        ...storeEnv,
        DURABLE_AGENT_STORE_DIR: join(dir, 'not-this-one'),
      };
      const r = await cli(['transcript', handle.workflowId], env);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /user: say something/);
      assert.match(r.stdout, /assistant: the custom store answer/);
    });
  } finally {
    for (const k of Object.keys(storeEnv)) if (saved[k] === undefined) delete process.env[k];
  }
});
