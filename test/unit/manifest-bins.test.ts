// unit (red team m, M14): a durable-agent bin that a command adds to a package.json is removed; one
// that was there stays, and the rest of the command's edit is kept. Real files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { isWatchedManifest, manifestBins, undoManifestBins } from '../../src/sandbox/manifestBins';

const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-manifest-')));
let n = 0;
function manifest(json: unknown): string {
  const dir = path.join(root, `p${++n}`);
  mkdirSync(dir);
  const f = path.join(dir, 'package.json');
  writeFileSync(f, JSON.stringify(json));
  return f;
}
const json = (f: string) => JSON.parse(readFileSync(f, 'utf8')) as Record<string, unknown>;

test('manifest bins: every form npx reads as a durable-agent bin is found', () => {
  const forms = [
    { name: 'app', bin: { 'durable-agent': 'x.js' } },
    { name: 'app', bin: { './tools/durable-agent': 'x.js' } },
    { name: 'durable-agent', bin: 'x.js' },
    { name: '@evil/durable-agent', bin: 'x.js' },
  ];
  for (const j of forms)
    assert.notEqual(
      manifestBins([manifest(j)])
        .values()
        .next().value?.bin,
      '',
      JSON.stringify(j),
    );
  const withDir = manifest({ name: 'app', directories: { bin: 'tools' } });
  mkdirSync(path.join(path.dirname(withDir), 'tools'));
  assert.equal(manifestBins([withDir]).get(withDir)?.bin, '');
  writeFileSync(path.join(path.dirname(withDir), 'tools', 'durable-agent'), '#!/bin/sh\n');
  assert.match(manifestBins([withDir]).get(withDir)!.bin, /directories\.bin/);
  for (const j of [{ name: 'app', bin: { other: 'x.js' } }, { name: 'app', bin: 'x.js' }, { name: 'durable-agent-x' }])
    assert.equal(
      manifestBins([manifest(j)])
        .values()
        .next().value?.bin,
      '',
      JSON.stringify(j),
    );
  assert.equal(isWatchedManifest('/p/node_modules/x', 'package.json'), false);
  assert.equal(isWatchedManifest('/p/packages/x', 'package.json'), true);
});

test('manifest bins: a new or changed durable-agent bin is removed, the rest kept; one that was there stays', () => {
  const f = manifest({ name: 'app', version: '1.0.0' });
  const before = manifestBins([f]);
  writeFileSync(
    f,
    JSON.stringify({ name: 'app', version: '1.0.1', bin: { 'durable-agent': 'cli.js', app: 'app.js' } }),
  );
  const notes = undoManifestBins([f], before);
  assert.equal(notes.length, 1, notes.join('\n'));
  assert.deepEqual(json(f), { name: 'app', version: '1.0.1', bin: { app: 'app.js' } });

  // durable-agent's own checkout: its bin was there; an unrelated edit keeps it.
  const own = manifest({ name: 'durable-agent', bin: { 'durable-agent': 'dist/src/cli/main.js' } });
  const ownBefore = manifestBins([own]);
  writeFileSync(own, JSON.stringify({ name: 'durable-agent', bin: { 'durable-agent': 'dist/src/cli/main.js' }, x: 1 }));
  assert.deepEqual(undoManifestBins([own], ownBefore), []);
  // …but repointed, it is removed.
  writeFileSync(own, JSON.stringify({ name: 'durable-agent', bin: { 'durable-agent': 'evil.js' } }));
  assert.equal(undoManifestBins([own], ownBefore).length, 1);
  assert.equal(json(own).bin && (json(own).bin as Record<string, unknown>)['durable-agent'], undefined);

  // A package.json made a symlink to a manifest elsewhere: the link is removed, the target untouched.
  const outside = path.join(root, 'outside.json');
  writeFileSync(outside, JSON.stringify({ name: 'durable-agent', bin: 'x.js' }));
  const dir = path.join(root, 'linked');
  mkdirSync(dir);
  const linked = path.join(dir, 'package.json');
  symlinkSync(outside, linked);
  assert.equal(undoManifestBins([linked], new Map()).length, 1);
  assert.equal(existsSync(linked), false);
  assert.deepEqual(json(outside), { name: 'durable-agent', bin: 'x.js' });
});
