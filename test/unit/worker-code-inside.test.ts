// workerCodeInside (src/hostProcess/workerCode.ts) keeps its answers per set of directory forms
// (issue 33: every tool call asks it twice). Each call still works out the directories' real paths,
// so a working directory that is a symlink repointed between two calls gets the answer for where it
// points now, never the remembered one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ownPackageRoot, workerCodeInside } from '../../src/hostProcess/workerCode';

const root = ownPackageRoot();

test("workerCodeInside: the checkout holds the worker's package.json and dist; an empty directory holds none; asked again, the same", () => {
  assert.ok(root, 'the tests run from a durable-agent checkout');
  const empty = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-wci-')));
  try {
    const inRoot = workerCodeInside([root]);
    assert.ok(inRoot.includes(path.join(root, 'package.json')), inRoot.slice(0, 5).join(', '));
    assert.ok(inRoot.includes(path.join(root, 'dist')));
    assert.deepEqual(workerCodeInside([empty]), []);
    assert.deepEqual(workerCodeInside([root]), inRoot);
    assert.deepEqual(workerCodeInside([empty, root]), inRoot);
    // A caller changing its copy does not change the next answer.
    workerCodeInside([root]).length = 0;
    assert.deepEqual(workerCodeInside([root]), inRoot);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});

test('workerCodeInside: a directory that is a symlink, repointed between two calls, is answered for its new target', () => {
  assert.ok(root);
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-wci-')));
  try {
    const link = path.join(base, 'project');
    symlinkSync(base, link);
    assert.deepEqual(workerCodeInside([link]), []);
    rmSync(link);
    symlinkSync(root, link);
    const now = workerCodeInside([link]);
    assert.ok(now.includes(path.join(root, 'dist')), `after repointing: ${now.slice(0, 5).join(', ')}`);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
