// unit: the read-file state kept out of workflow payloads: a base in the store plus a turn's
// entries (reduced on an empty map) merges to what the reducer gives on the whole context.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyContextModifiers, initialContext, type ContextModifier } from '../../src/core/context';
import { mergeReadFiles } from '../../src/stores/readFilesStore';

/** Random reads and writes of three files; a file's mtime never goes back (a clock only moves forward). */
function randomMods(rand: () => number, n: number, clock: { now: number }): ContextModifier[] {
  const paths = ['/w/a', '/w/b', '/w/c'];
  return Array.from({ length: n }, () => {
    const path = paths[Math.floor(rand() * paths.length)] as string;
    if (rand() < 0.3) clock.now++;
    const mtimeMs = clock.now;
    return rand() < 0.25
      ? { type: 'fileWritten', path, mtimeMs }
      : { type: 'fileRead', path, mtimeMs, partial: rand() < 0.5 };
  });
}

test('mergeReadFiles(base, turn entries) equals the reducer over the whole session, for random sequences', () => {
  let seed = 42;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
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

// The ReadFilesStore-on-a-store test runs over both BlobStore implementations in stores.test.ts.
