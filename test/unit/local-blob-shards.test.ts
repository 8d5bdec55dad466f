// unit: the local blob store makes a key's shard directory once (no mkdir before every put, issue
// 33), and makes it again when it went away under the store (removed by hand, a pruned store).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalBlobStore } from '../../src/stores/messageStore';

test('unit: LocalBlobStore puts into a shard directory removed after its first put', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'da-shards-'));
  try {
    const store = new LocalBlobStore(dir);
    await store.put('ab-one', 'first');
    assert.equal(await store.get('ab-one'), 'first');
    await rm(join(dir, 'ab'), { recursive: true });
    assert.equal(await store.get('ab-one'), undefined);
    await store.put('ab-two', 'second');
    assert.equal(await store.get('ab-two'), 'second');
    await store.put('ab-one', 'first');
    assert.deepEqual((await readdir(join(dir, 'ab'))).sort(), ['ab-one', 'ab-two'], 'no temp file left');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
