// unit: the build id an unversioned worker records in every workflow and activity task event (issue
// 33, src/temporal/worker.ts `shortBuildId`): short, one per bundle, the same for the same bundle.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shortBuildId } from '../../src/temporal/worker';

test('a build id is 16 characters, the same for one bundle and different for another', () => {
  const a = shortBuildId('export const x = 1;');
  assert.match(a, /^da\+[a-z2-7]{13}$/);
  assert.equal(shortBuildId('export const x = 1;'), a);
  assert.notEqual(shortBuildId('export const x = 2;'), a);
  const ids = new Set(Array.from({ length: 2000 }, (_, i) => shortBuildId(`bundle ${i}`)));
  assert.equal(ids.size, 2000);
});
