// unit: a tool call waits out a store outage (src/runtime/storeWait.ts). Found by
// `npm run test:faults` (disk faults): a non-idempotent call that ran while the store was full or
// read-only failed its activity when recording the result; the retry found it 'started' and
// reported an unknown outcome — or, once the attempts ran out, "Error calling tool" — for a call
// that had completed. Real files and the real activity code; the store fails like a full disk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgentActivities } from '../../src/temporal/activities';
import { LocalBlobStore, type BlobStore } from '../../src/stores/messageStore';
import { ExecutionLedger } from '../../src/stores/executionLedger';
import { isStoreOutage, waitForStore } from '../../src/runtime/storeWait';
import { initialContext } from '../../src/core/context';
import type { CallRuntime } from '../../src/runtime/runtime';
import { TEST_TOOLS } from '../support/testTools';
import { waitFor } from '../support/wait';

/** A local store whose puts fail with ENOSPC while `full` is set (or, once, from when `fillWhen()` holds). */
class FillableStore implements BlobStore {
  full = false;
  failedPuts = 0;
  fillWhen?: () => boolean;
  constructor(private readonly inner: BlobStore) {}
  async put(key: string, data: string): Promise<void> {
    if (this.fillWhen?.()) {
      this.fillWhen = undefined;
      this.full = true;
    }
    if (this.full) {
      this.failedPuts++;
      throw Object.assign(new Error(`ENOSPC: no space left on device, open '${key}.tmp'`), { code: 'ENOSPC' });
    }
    return this.inner.put(key, data);
  }
  get(key: string): Promise<string | undefined> {
    return this.inner.get(key);
  }
}

function runtime(heartbeats: unknown[]): CallRuntime {
  return {
    signal: new AbortController().signal,
    heartbeat: (d) => heartbeats.push(d),
    attempt: 1,
    callKey: 'wf/tool-x',
    warn: () => undefined,
  };
}

test('unit: a non-idempotent call that ran while the store was full records its result once the store is back (not unknown, not an error)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'da-storewait-'));
  const storeDir = join(dir, 'store');
  const store = new FillableStore(new LocalBlobStore(join(storeDir, 'blobs')));
  const { runToolCall } = createAgentActivities({
    storeDir,
    blobStore: store,
    tools: TEST_TOOLS,
    replaceBuiltins: true,
  });
  const ledgerFile = join(dir, 'count.log');
  const heartbeats: unknown[] = [];
  // The disk fills while the call runs (after its 'started' entry, before its result): from the first
  // put after the tool's side effect, an event rather than a guess at how long the start takes.
  store.fillWhen = () => existsSync(ledgerFile);
  const call = runToolCall(
    {
      session: {
        sessionId: 's1',
        toolNames: ['AppendSlow'],
        permission: { mode: 'bypassPermissions', rules: { allow: [], ask: [], deny: [] }, workingDirectories: [dir] },
      },
      block: {
        type: 'tool_use',
        id: 'toolu_disk_1',
        name: 'AppendSlow',
        input: { file: ledgerFile, text: 'toolu_disk_1', delayMs: 300, idempotent: false },
      },
      context: initialContext(dir),
    },
    runtime(heartbeats),
  );
  await waitFor('the result to be tried while the store is full', async () => store.failedPuts >= 1, 30_000, 20);
  assert.equal(store.fillWhen, undefined, 'the store filled after the side effect');
  store.full = false;
  const r = await call;
  assert.equal(r.kind, 'done');
  assert.equal(r.kind === 'done' && r.record.status, 'ok');
  assert.equal(await readFile(ledgerFile, 'utf8'), 'toolu_disk_1\n', 'the call ran once');
  const entry = await new ExecutionLedger(store).get('s1', 'toolu_disk_1');
  assert.equal(entry?.state, 'completed');
  assert.equal(entry?.record?.status, 'ok');
  assert.ok(
    heartbeats.some((h) => /ENOSPC/.test(String((h as { waitingForStore?: string }).waitingForStore))),
    'the wait is visible in the heartbeat details',
  );
});

test('unit: store waits — I/O errors are waited out, permanent errors and cancellation are not', async () => {
  assert.equal(isStoreOutage(Object.assign(new Error('x'), { code: 'EROFS' })), true);
  assert.equal(isStoreOutage(Object.assign(new Error('x'), { transient: true })), true);
  assert.equal(isStoreOutage(new SyntaxError('Unexpected token')), false);
  const ctx = { signal: new AbortController().signal, heartbeat: () => undefined, warn: () => undefined };
  let n = 0;
  const v = await waitForStore(
    'op',
    async () => (++n < 3 ? Promise.reject(Object.assign(new Error('EIO'), { code: 'EIO' })) : 'ok'),
    ctx,
    { firstDelayMs: 5 },
  );
  assert.deepEqual([v, n], ['ok', 3]);
  await assert.rejects(
    waitForStore('op', () => Promise.reject(new SyntaxError('bad record')), ctx),
    SyntaxError,
  );
  await assert.rejects(
    waitForStore('op', () => Promise.reject(Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' })), ctx, {
      maxWaitMs: 30,
      firstDelayMs: 5,
    }),
    /ENOSPC/,
  );
  const aborted = new AbortController();
  aborted.abort(new Error('cancelled'));
  await assert.rejects(
    waitForStore('op', () => Promise.reject(Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' })), {
      ...ctx,
      signal: aborted.signal,
    }),
    /ENOSPC/,
  );
});
