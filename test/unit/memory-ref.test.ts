// unit: memory (CLAUDE.md) by reference — stored once, content-addressed; loaded with its hash
// checked; put before the first message's text exactly as the inline reminder is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstMessage, MEMORY_INLINE_MAX_CHARS, memoryRefOf, withMemoryText } from '../../src/core/memoryReminder';
import { loadMemoryText, sessionMemory } from '../../src/claudeMd/blobs';
import { LocalBlobStore } from '../../src/stores/messageStore';

test('unit: a small memory stays inline; a large one is stored once and carried as { ref, sha256, chars }', async () => {
  const blobs = new LocalBlobStore(await mkdtemp(join(tmpdir(), 'da-mem-')));
  const small = await sessionMemory(['/p/CLAUDE.md'], '<system-reminder>small</system-reminder>', blobs);
  assert.equal(small.text, '<system-reminder>small</system-reminder>');
  assert.equal(memoryRefOf(small), undefined);
  const text = `<system-reminder>${'x'.repeat(MEMORY_INLINE_MAX_CHARS)}</system-reminder>`;
  const big = await sessionMemory(['/p/CLAUDE.md'], text, blobs);
  assert.equal(big.text, undefined);
  assert.match(big.ref ?? '', /^memory-[0-9a-f]{64}$/);
  assert.equal(big.chars, text.length);
  const ref = memoryRefOf(big)!;
  assert.equal(await loadMemoryText(blobs, ref), text);
  // The same message as the inline path produces.
  const [first, second] = withMemoryText(
    [
      { role: 'user', content: 'do it' },
      { role: 'user', content: 'more' },
    ],
    text,
  );
  assert.equal(first!.content, firstMessage('do it', { files: [], text, sha256: big.sha256 }));
  assert.equal(second!.content, 'more');
  // Without a store: inline, whatever the size (the session input's own limit applies).
  assert.equal((await sessionMemory([], text)).text, text);
});

test('unit: a missing or altered memory blob fails loudly, naming the store settings', async () => {
  const blobs = new LocalBlobStore(await mkdtemp(join(tmpdir(), 'da-mem-')));
  const ref = { ref: `memory-${'0'.repeat(64)}`, sha256: '0'.repeat(64), chars: 10 };
  await assert.rejects(loadMemoryText(blobs, ref), /DURABLE_AGENT_STORE_DIR/);
  await blobs.put(ref.ref, 'tampered');
  await assert.rejects(loadMemoryText(blobs, ref), /does not match its sha256/);
});
