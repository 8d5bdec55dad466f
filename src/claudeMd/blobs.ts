// Memory (CLAUDE.md) by reference (invariant 11): a large reminder text is stored once in the blob
// store, content-addressed, and sessions carry `{ ref, sha256, chars }`; the model activity loads
// it when the first message enters the transcript (src/runtime/model.ts), checking the hash.
import { createHash } from 'node:crypto';
import { MEMORY_INLINE_MAX_CHARS, memoryBlobKey, type MemoryRef, type SessionMemory } from '../core/memoryReminder';
import { DurableAgentError } from '../core/errors';
import type { BlobStore } from '../stores/messageStore';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The session's memory: inline when small, else stored in `blobs` and carried by reference. */
export async function sessionMemory(
  files: string[],
  text: string,
  blobs?: BlobStore,
  inlineMax = MEMORY_INLINE_MAX_CHARS,
): Promise<SessionMemory> {
  const hash = sha256(text);
  if (!blobs || text.length <= inlineMax) return { files, text, sha256: hash };
  const ref = memoryBlobKey(hash);
  if ((await blobs.get(ref)) === undefined) await blobs.put(ref, text);
  return { files, sha256: hash, ref, chars: text.length };
}

/**
 * The memory text of a reference; a missing or altered blob fails loudly with MEMORY_MISSING
 * (which the activity boundary makes non-retryable: waiting will not bring it back).
 */
export async function loadMemoryText(blobs: BlobStore, memory: MemoryRef): Promise<string> {
  const text = await blobs.get(memory.ref);
  if (text === undefined) {
    throw new DurableAgentError(
      'MEMORY_MISSING',
      `the session's memory (CLAUDE.md, ${memory.chars} characters) is stored by reference as ${memory.ref}, but the worker's store does not have it: start sessions with the same store as the worker (DURABLE_AGENT_STORE_DIR / DURABLE_AGENT_BLOB_STORE)`,
    );
  }
  if (sha256(text) !== memory.sha256)
    throw new DurableAgentError(
      'MEMORY_MISSING',
      `the stored memory ${memory.ref} does not match its sha256 ${memory.sha256}`,
    );
  return text;
}
