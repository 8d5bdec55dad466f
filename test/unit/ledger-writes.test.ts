// unit: the execution ledger's writes per tool call (issue 33: each is a store write of worker CPU).
// A non-idempotent call is marked 'started' before its side effect and 'completed' after (two
// writes: a lost attempt of it must answer `unknown_outcome`, never run again); an idempotent call
// writes only 'completed' (a lost attempt of it runs again either way), and its record counts the
// activity's attempts, so a retry still says it may have run before (core/turnSteps.ts,
// core/session.ts read `attempts > 1`). Real files, the real activity code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgentActivities } from '../../src/temporal/activities';
import { LocalBlobStore, type BlobStore } from '../../src/stores/messageStore';
import { ExecutionLedger } from '../../src/stores/executionLedger';
import { initialContext } from '../../src/core/context';
import type { CallRuntime } from '../../src/runtime/runtime';
import { TEST_TOOLS } from '../support/testTools';

/** A local store that logs every ledger put with the side-effect file's content at that moment. */
class LoggingStore implements BlobStore {
  readonly ledgerPuts: Array<{ state: string; sideEffects: string }> = [];
  constructor(
    private readonly inner: BlobStore,
    private readonly sideEffectFile: string,
  ) {}
  async put(key: string, data: string): Promise<void> {
    if (key.startsWith('ledger-'))
      this.ledgerPuts.push({
        state: (JSON.parse(data) as { state: string }).state,
        sideEffects: await readFile(this.sideEffectFile, 'utf8').catch(() => ''),
      });
    return this.inner.put(key, data);
  }
  get(key: string): Promise<string | undefined> {
    return this.inner.get(key);
  }
}

async function oneCall(idempotent: boolean, attempt: number) {
  const dir = await mkdtemp(join(tmpdir(), 'da-ledger-writes-'));
  const storeDir = join(dir, 'store');
  const sideEffects = join(dir, 'ran.log');
  const store = new LoggingStore(new LocalBlobStore(join(storeDir, 'blobs')), sideEffects);
  const { runToolCall } = createAgentActivities({
    storeDir,
    blobStore: store,
    tools: TEST_TOOLS,
    replaceBuiltins: true,
  });
  const rt: CallRuntime = {
    signal: new AbortController().signal,
    heartbeat: () => undefined,
    attempt,
    callKey: 'wf/tool-1',
    warn: () => undefined,
  };
  const r = await runToolCall(
    {
      session: {
        sessionId: 's1',
        toolNames: ['AppendSlow'],
        permission: { mode: 'bypassPermissions', rules: { allow: [], ask: [], deny: [] }, workingDirectories: [dir] },
      },
      block: {
        type: 'tool_use',
        id: 'toolu_w1',
        name: 'AppendSlow',
        input: { file: sideEffects, text: 'x', idempotent },
      },
      context: initialContext(dir),
    },
    rt,
  );
  assert.equal(r.kind, 'done');
  const entry = await new ExecutionLedger(store).get('s1', 'toolu_w1');
  return { store, record: r.kind === 'done' ? r.record : undefined, entry };
}

test("unit: a non-idempotent call writes 'started' before its side effect, then 'completed'", async () => {
  const { store, record, entry } = await oneCall(false, 1);
  assert.deepEqual(store.ledgerPuts, [
    { state: 'started', sideEffects: '' },
    { state: 'completed', sideEffects: 'x\n' },
  ]);
  assert.equal(entry?.state, 'completed');
  assert.equal(record?.attempts, 1);
});

test("unit: an idempotent call writes only 'completed'; a retried attempt's record counts the activity's attempts", async () => {
  const first = await oneCall(true, 1);
  assert.deepEqual(first.store.ledgerPuts, [{ state: 'completed', sideEffects: 'x\n' }]);
  assert.equal(first.entry?.state, 'completed');
  assert.equal(first.record?.status, 'ok');
  assert.equal(first.record?.attempts, 1);
  // Attempt 3 of the activity (the first two lost with their workers, nothing in the ledger).
  const retried = await oneCall(true, 3);
  assert.deepEqual(retried.store.ledgerPuts, [{ state: 'completed', sideEffects: 'x\n' }]);
  assert.equal(retried.record?.attempts, 3);
});
