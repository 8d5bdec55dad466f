// unit: the object screen's hash of one loose object (src/sandbox/looseObjects.ts, red team s, S9):
// git's own id for a well-formed object; a header that lies about the size, or says more than
// MAX_OBJECT, stops the inflation at once; what is past the pass's inflate budget or deadline is
// left unverified (`over`: the screen removes it); the event loop stays free while a bomb inflates.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { deflateSync } from 'node:zlib';
import { MAX_OBJECT, looseObjectId, type Budget } from '../../src/sandbox/looseObjects';

const dir = mkdtempSync(path.join(tmpdir(), 'da-loose-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const file = (raw: Buffer) => {
  const p = path.join(dir, `o${++n}`);
  writeFileSync(p, deflateSync(raw));
  return p;
};
const budget = (bytes = 1 << 30, ms = 60_000): Budget => ({ bytes, deadline: Date.now() + ms });

test('a well-formed blob hashes to git’s own id, and its inflated bytes are taken from the budget', async () => {
  const body = Buffer.from('#!/bin/sh\necho hi\n');
  const p = file(Buffer.concat([Buffer.from(`blob ${body.length}\0`), body]));
  writeFileSync(path.join(dir, 'body'), body);
  const id = execFileSync('git', ['hash-object', path.join(dir, 'body')], { encoding: 'utf8' }).trim();
  const b = budget(1000);
  assert.deepEqual(await looseObjectId(p, 'sha1', b), { id });
  assert.equal(b.bytes, 1000 - body.length - `blob ${body.length}\0`.length);
});

test('a header that says less than the body, more than MAX_OBJECT, or no object type is no object', async () => {
  const lie = file(Buffer.concat([Buffer.from('blob 3\0'), Buffer.alloc(1 << 20)]));
  const b = budget();
  assert.deepEqual(await looseObjectId(lie, 'sha1', b), { bad: true });
  const huge = file(Buffer.concat([Buffer.from(`blob ${MAX_OBJECT + 1}\0`), Buffer.alloc(1 << 20)]));
  assert.deepEqual(await looseObjectId(huge, 'sha1', b), { bad: true });
  assert.deepEqual(await looseObjectId(file(Buffer.from('exec 3\0abc')), 'sha1', b), { bad: true });
  assert.deepEqual(await looseObjectId(path.join(dir, 'missing'), 'sha1', b), { bad: true });
  // Both stopped within their first chunks: far less than the MiB each holds was inflated.
  assert.ok((1 << 30) - b.bytes < 1 << 19, `${(1 << 30) - b.bytes} bytes inflated`);
});

test('an object bigger than what the budget has left, or past the deadline, is left unverified', async () => {
  const size = 64 << 20;
  const bomb = file(Buffer.concat([Buffer.from(`blob ${size}\0`), Buffer.alloc(size)]));
  assert.deepEqual(await looseObjectId(bomb, 'sha1', budget(1 << 20)), { over: true });
  assert.deepEqual(await looseObjectId(bomb, 'sha1', budget(1 << 30, -1)), { over: true });
  // With budget enough, it is hashed, and a timer keeps firing meanwhile (no synchronous inflate).
  let ticks = 0;
  let worst = 0;
  let last = Date.now();
  const timer = setInterval(() => {
    const now = Date.now();
    worst = Math.max(worst, now - last);
    last = now;
    ticks++;
  }, 5);
  const r = await looseObjectId(bomb, 'sha1', budget());
  clearInterval(timer);
  assert.ok('id' in r);
  assert.ok(ticks > 0 && worst < 1_000, `ticks ${ticks}, worst gap ${worst} ms`);
});
