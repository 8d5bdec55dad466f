// integration: encrypted payloads on the real dev server (docs/encryption.md). A session run by a
// worker and a CLI with DURABLE_AGENT_ENCRYPTION_KEY_FILE leaves only ciphertext in Temporal — the
// raw history bytes (fetched with no codec) hold none of the prompt, the file the tool read or the
// answer, and every payload says binary/encrypted — and in the blob store; `status`, `audit` and
// `transcript` read it in plain text with the key, and without it fail with the key's id. Rotation:
// old sessions read with the old and new keys, new ones are written with the new key.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { startSession } from '../../src/temporal/client';
import { encryptionCodecs, ENCRYPTED_ENCODING, KEY_ID_METADATA } from '../../src/temporal/service/codec';
import { parseKey, type EncryptionSetting } from '../../src/encryption/keys';
import { isEncryptedBlob } from '../../src/stores/encryptedBlobStore';
import { closeTestEnv, uniqueWorkflowId } from '../support/temporal';
import { withAgent } from '../support/agent';
import { cli } from '../support/cli';
import { waitFor } from '../support/wait';

after(closeTestEnv);

type History = temporal.api.history.v1.IHistory;

const newKey = (): string => randomBytes(32).toString('base64');
const idOf = (key: string): string => parseKey(key, 'test').id;

async function keyFile(...keys: string[]): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'da-keys-')), 'keys');
  await writeFile(file, `${keys.join('\n')}\n`, { mode: 0o600 });
  return file;
}

function codecClient(env: TestWorkflowEnvironment, encryption: EncryptionSetting): Client {
  return new Client({
    connection: env.connection,
    namespace: env.namespace ?? 'default',
    dataConverter: { payloadCodecs: encryptionCodecs(encryption) },
  });
}

/** The history as the server stores it (the raw client: no codec). */
async function rawHistory(env: TestWorkflowEnvironment, workflowId: string): Promise<History> {
  return env.client.workflow.getHandle(workflowId).fetchHistory();
}

/** Every payload of a history but its search attributes (never encoded): { path, encoding, keyId }. */
function payloadsOf(node: unknown, path = '', out: Array<{ path: string; encoding: string; keyId: string }> = []) {
  if (node === null || typeof node !== 'object' || ArrayBuffer.isView(node)) return out;
  const o = node as Record<string, unknown>;
  const metadata = o['metadata'] as Record<string, Uint8Array> | undefined;
  if (metadata && typeof metadata === 'object' && metadata['encoding'] instanceof Uint8Array && 'data' in o) {
    const text = (b: Uint8Array | undefined) => (b ? Buffer.from(b).toString('utf8') : '');
    out.push({ path, encoding: text(metadata['encoding']), keyId: text(metadata[KEY_ID_METADATA]) });
    return out;
  }
  for (const [k, v] of Object.entries(o)) {
    // Search attributes are never encoded. A marker's bookkeeping is the SDK core's own, not ours: a
    // patch marker's `patch-data` (the patch id), a local activity marker's `data` (its seq, activity
    // id and type, times); the local activity's `result` is ours, and encrypted.
    if (
      k === 'searchAttributes' ||
      (path.endsWith('markerRecordedEventAttributes.details') && (k === 'patch-data' || k === 'data'))
    )
      continue;
    payloadsOf(v, `${path}.${k}`, out);
  }
  return out;
}

async function blobFiles(storeDir: string): Promise<string[]> {
  const root = join(storeDir, 'blobs');
  const out: string[] = [];
  for (const d of await readdir(root))
    for (const f of await readdir(join(root, d))) out.push(await readFile(join(root, d, f), 'utf8'));
  return out;
}

test(
  'integration encryption: a session run with a key leaves only ciphertext in history and in the store; status, audit and transcript read it with the key and name the key without it',
  { timeout: 180_000 },
  async () => {
    const key = newKey();
    const keys = await keyFile(key);
    const tag = randomUUID().slice(0, 8);
    const PROMPT = `PROMPT-${tag} read the launch codes`;
    const FILE = `FILE-${tag} 0000-1111`;
    const ANSWER = `ANSWER-${tag} they are 0000-1111`;
    await withAgent(
      { worker: { encryption: { keyFile: keys } } },
      async ({ env, fake, taskQueue, workDir, storeDir }) => {
        await writeFile(join(workDir, 'codes.txt'), `${FILE}\n`);
        fake.enqueue(
          toolUseResponse([{ id: 'toolu_enc_read', name: 'Read', input: { file_path: join(workDir, 'codes.txt') } }]),
          textResponse(ANSWER),
        );
        const cliEnv = {
          TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
          DURABLE_AGENT_TASK_QUEUE: taskQueue,
          DURABLE_AGENT_STORE_DIR: storeDir,
          DURABLE_AGENT_ENCRYPTION_KEY_FILE: keys,
        };
        // Started by the CLI (its client encrypts the input), run by the worker (which encrypts the rest).
        const run = await cli(
          ['-p', PROMPT, '--output-format', 'json', '--cwd', workDir, '--model', 'claude-test', '--allow', 'Read'],
          cliEnv,
          90_000,
        );
        assert.equal(run.code, 0, run.stderr + run.stdout);
        const out = JSON.parse(run.stdout.trim()) as { session_id: string; result: string };
        assert.equal(out.result, ANSWER);
        const id = out.session_id;

        // The server's copy: the session and both turns (one turn child of two model steps, issue 33), raw.
        for (const wf of [id, `${id}/turn-1`]) {
          const history = await rawHistory(env, wf);
          const bytes = Buffer.from(temporal.api.history.v1.History.encode(history).finish());
          for (const secret of [`PROMPT-${tag}`, `FILE-${tag}`, `ANSWER-${tag}`, 'launch codes', 'codes.txt'])
            assert.ok(!bytes.includes(secret), `${wf}: "${secret}" in the raw history`);
          const payloads = payloadsOf(history);
          assert.ok(payloads.length >= 3, `${wf}: ${payloads.length} payloads`);
          for (const p of payloads) {
            assert.equal(p.encoding, ENCRYPTED_ENCODING, `${wf} ${p.path}`);
            assert.equal(p.keyId, idOf(key), `${wf} ${p.path}`);
          }
        }
        // The blob store: transcript nodes, the tool result, settings — ciphertext only.
        const blobs = await blobFiles(storeDir);
        assert.ok(blobs.length >= 3, `${blobs.length} blobs`);
        for (const b of blobs) {
          assert.ok(isEncryptedBlob(b), b.slice(0, 60));
          assert.ok(!b.includes(tag), 'no secret in a blob');
        }

        // The CLI's readers, with the key: plain text.
        const status = await cli(['status', id, '--json'], cliEnv);
        assert.equal(status.code, 0, status.stderr);
        assert.equal((JSON.parse(status.stdout) as { status: string }).status, 'completed');
        assert.match(status.stdout, new RegExp(`ANSWER-${tag}`));
        const audit = await cli(['audit', id], cliEnv, 60_000);
        assert.equal(audit.code, 0, audit.stderr);
        assert.doesNotMatch(audit.stdout, /INCOMPLETE/, audit.stdout);
        // The Read's path, decoded (the table cuts a long temp path, so its head is what shows).
        const readPath = join(workDir, 'codes.txt').slice(0, 30).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        assert.match(audit.stdout, new RegExp(`Read ${readPath}`));
        assert.match(audit.stdout, new RegExp(`FILE-${tag}`), 'the tool result preview');
        // `ls` decodes each session's memo (the prompt), from the list the server keeps.
        const listed = await waitFor(
          'the session in `ls`',
          async () => {
            const ls = await cli(['ls', '--json'], cliEnv);
            return ls.stdout.includes(id) ? ls : undefined;
          },
          30_000,
        );
        assert.match(listed.stdout, new RegExp(`PROMPT-${tag} read the launch codes`));
        const transcript = await cli(['transcript', id], cliEnv);
        assert.equal(transcript.code, 0, transcript.stderr);
        for (const s of [`PROMPT-${tag}`, `FILE-${tag}`, `ANSWER-${tag}`])
          assert.match(transcript.stdout, new RegExp(s));

        // Without the key: one line naming the key it needs.
        const noKey = { ...cliEnv, DURABLE_AGENT_ENCRYPTION_KEY_FILE: undefined };
        const lost = await cli(['status', id], noKey);
        assert.equal(lost.code, 1);
        assert.equal(
          lost.stderr,
          `durable-agent: a payload is encrypted with key ${idOf(key)} and this process has no encryption key: set DURABLE_AGENT_ENCRYPTION_KEY_FILE to a file holding that key\n`,
        );
        // `ls` goes on, with a note for the memo it cannot read.
        const lsNoKey = await cli(['ls', '--json'], noKey);
        assert.equal(lsNoKey.code, 0, lsNoKey.stderr);
        assert.match(
          lsNoKey.stdout,
          new RegExp(`"id":"${id}"[^}]*memo unreadable by this client: a payload is encrypted with key ${idOf(key)}`),
        );
        assert.doesNotMatch(lsNoKey.stdout, new RegExp(`PROMPT-${tag}`));
        // The audit describes the session first (its memo is encrypted too): the same line, nothing printed.
        const noAudit = await cli(['audit', id], noKey, 60_000);
        assert.equal(noAudit.code, 1);
        assert.equal(noAudit.stderr, lost.stderr);
        assert.equal(noAudit.stdout, '');
        // Another key only: the error names both the needed key and the ones it has.
        const otherKey = newKey();
        const wrong = await cli(['transcript', id], {
          ...cliEnv,
          DURABLE_AGENT_ENCRYPTION_KEY_FILE: await keyFile(otherKey),
        });
        assert.equal(wrong.code, 1);
        assert.match(
          wrong.stderr,
          new RegExp(
            `encrypted with key ${idOf(key)}, which is not among this process's keys \\(${idOf(otherKey)}, from`,
          ),
        );
        // Bad key material: one line, what is wrong and where.
        const badFile = await keyFile('c2hvcnQ=');
        const bad = await cli(['status', id], { ...cliEnv, DURABLE_AGENT_ENCRYPTION_KEY_FILE: badFile });
        assert.equal(bad.code, 1);
        assert.equal(
          bad.stderr,
          `durable-agent: ${badFile} line 1: 5 bytes, an AES-256 key is 32 (make one with: openssl rand -base64 32)\n`,
        );
      },
    );
  },
);

test(
  'integration encryption: rotation — sessions written with the old key read with old+new; new sessions are written with the new key; a client with the new key only names the old one',
  { timeout: 180_000 },
  async () => {
    const [oldKey, newer] = [newKey(), newKey()];
    const oldOnly = await keyFile(oldKey);
    const rotated = await keyFile(newer, oldKey);
    await withAgent({ noWorker: true }, async ({ env, fake, taskQueue, workDir, startWorker, storeDir }) => {
      const start = (client: Client, prompt: string) =>
        startSession(client, {
          prompt,
          cwd: workDir,
          permissionMode: 'bypassPermissions',
          id: uniqueWorkflowId('enc-session'),
          taskQueue,
          model: { model: 'claude-test', maxTokens: 1024 },
        });
      fake.enqueue(textResponse('first, under the old key'));
      let worker = await startWorker({ encryption: { keyFile: oldOnly } });
      const first = await start(codecClient(env, { keyFile: oldOnly }), 'before the rotation');
      assert.equal((await first.result()).status, 'completed');
      await worker.stop();

      // The deploy: the new key first, the old one kept.
      fake.enqueue(textResponse('second, under the new key'));
      worker = await startWorker({ encryption: { keyFile: rotated } });
      try {
        const both = codecClient(env, { keyFile: rotated });
        const second = await start(both, 'after the rotation');
        assert.equal((await second.result()).status, 'completed');
        const keyIds = async (wf: string) => new Set(payloadsOf(await rawHistory(env, wf)).map((p) => p.keyId));
        assert.deepEqual(await keyIds(first.workflowId), new Set([idOf(oldKey)]));
        assert.deepEqual(await keyIds(`${first.workflowId}/turn-1`), new Set([idOf(oldKey)]));
        assert.deepEqual(await keyIds(second.workflowId), new Set([idOf(newer)]));
        assert.deepEqual(await keyIds(`${second.workflowId}/turn-1`), new Set([idOf(newer)]));
        // Both read with the rotated ring, the old one too.
        assert.equal((await both.workflow.getHandle(first.workflowId).result()).lastText, 'first, under the old key');
        assert.equal((await both.workflow.getHandle(second.workflowId).result()).lastText, 'second, under the new key');
        const cliEnv = {
          TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
          DURABLE_AGENT_STORE_DIR: storeDir,
          DURABLE_AGENT_ENCRYPTION_KEY_FILE: rotated,
        };
        const t = await cli(['transcript', first.workflowId], cliEnv);
        assert.equal(t.code, 0, t.stderr);
        assert.match(t.stdout, /first, under the old key/);
        // Blobs: the old session's under the old key, the new session's under the new key.
        const blobs = await blobFiles(storeDir);
        assert.ok(
          blobs.some((b) => b.includes(`:${idOf(oldKey)}:`)) && blobs.some((b) => b.includes(`:${idOf(newer)}:`)),
        );
        // The old key dropped too early: the old session names the key it needs.
        const newOnly = codecClient(env, { keys: [newer] });
        await assert.rejects(newOnly.workflow.getHandle(first.workflowId).result(), (e: Error) => {
          assert.match(
            e.message,
            new RegExp(`encrypted with key ${idOf(oldKey)}, which is not among this process's keys \\(${idOf(newer)},`),
          );
          return true;
        });
        assert.equal(
          (await newOnly.workflow.getHandle(second.workflowId).result()).lastText,
          'second, under the new key',
        );
      } finally {
        await worker.stop();
      }
    });
  },
);
