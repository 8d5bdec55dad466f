// unit: the read-file state kept out of workflow payloads: a base in the store plus a turn's
// entries (reduced on an empty map) merges to what the reducer gives on the whole context.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyContextModifiers, initialContext, type ContextModifier } from '../../src/engine/context';
import { LocalBlobStore } from '../../src/stores/messageStore';
import { mergeReadFiles, ReadFilesStore } from '../../src/stores/readFilesStore';

/** Random reads and writes of three files; a file's mtime never goes back (a clock only moves forward). */
function randomMods(rand: () => number, n: number, clock: { now: number }): ContextModifier[] {
  const paths = ['/w/a', '/w/b', '/w/c'];
  return Array.from({ length: n }, () => {
    const path = paths[Math.floor(rand() * paths.length)] as string;
    if (rand() < 0.3) clock.now++;
    const mtimeMs = clock.now;
    return rand() < 0.25 ? { type: 'fileWritten', path, mtimeMs } : { type: 'fileRead', path, mtimeMs, partial: rand() < 0.5 };
  });
}

test('mergeReadFiles(base, turn entries) equals the reducer over the whole session, for random sequences', () => {
  let seed = 42;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let i = 0; i < 2000; i++) {
    const clock = { now: 1 };
    const before = randomMods(rand, Math.floor(rand() * 6), clock);
    const during = randomMods(rand, Math.floor(rand() * 6), clock);
    const whole = applyContextModifiers(initialContext('/w'), [...before, ...during]).readFiles;
    const base = applyContextModifiers(initialContext('/w'), before).readFiles;
    const delta = applyContextModifiers(initialContext('/w'), during).readFiles;
    assert.deepEqual(mergeReadFiles(base, delta), whole, JSON.stringify({ before, during }));
  }
});

test('ReadFilesStore: content-addressed, chained by reference, survives a new store instance', async () => {
  const blobs = new LocalBlobStore(await mkdtemp(join(tmpdir(), 'da-rf-')));
  const store = new ReadFilesStore(blobs);
  assert.equal(await store.put(null, {}), null);
  const r1 = await store.put(null, { '/w/a': { mtimeMs: 1, partial: false } });
  assert.match(r1 ?? '', /^readfiles-[0-9a-f]{64}$/);
  assert.equal(await store.put(null, { '/w/a': { mtimeMs: 1, partial: false } }), r1);
  const r2 = await store.put(r1, { '/w/b': { mtimeMs: 2, partial: true }, '/w/a': { mtimeMs: 1, partial: true } });
  assert.equal(await store.put(r2, {}), r2);
  assert.deepEqual(await new ReadFilesStore(blobs).get(r2), { '/w/a': { mtimeMs: 1, partial: false }, '/w/b': { mtimeMs: 2, partial: true } });
  await assert.rejects(new ReadFilesStore(blobs).get(`readfiles-${'0'.repeat(64)}`), /missing/);
});
