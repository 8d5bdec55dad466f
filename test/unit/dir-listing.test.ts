// unit: a directory's kept listing (src/permissions/dirListing.ts, issue 32) answers as readdirSync
// does: an entry added, removed or renamed shows at once, on a directory listed while it was
// changing and on one whose listing is kept (still for the settle time).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { directoryNames } from '../../src/permissions/dirListing';

const sorted = (names: readonly string[]) => [...names].sort();

test('unit: directoryNames follows every change of the directory, fresh or kept', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'da-dir-listing-'));
  try {
    const same = () => assert.deepEqual(sorted(directoryNames(dir)), sorted(readdirSync(dir)));
    writeFileSync(path.join(dir, 'krb5cc_0_a'), '');
    same(); // changed just now: listed, not kept
    writeFileSync(path.join(dir, 'krb5cc_0_b'), '');
    same();
    // Still for longer than the settle time: the listing is kept, and each change still shows.
    await new Promise((r) => setTimeout(r, 2_200));
    same();
    same();
    writeFileSync(path.join(dir, 'krb5cc_0_c'), '');
    same();
    await new Promise((r) => setTimeout(r, 2_200));
    same();
    renameSync(path.join(dir, 'krb5cc_0_a'), path.join(dir, 'krb5cc_0_z'));
    same();
    rmSync(path.join(dir, 'krb5cc_0_b'));
    same();
    assert.deepEqual(sorted(directoryNames(dir)), ['krb5cc_0_c', 'krb5cc_0_z']);
    assert.throws(() => directoryNames(path.join(dir, 'absent')), /ENOENT/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
