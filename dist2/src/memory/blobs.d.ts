import { type MemoryRef, type SessionMemory } from '../engine/memory';
import type { BlobStore } from '../stores/messageStore';
/** The session's memory: inline when small, else stored in `blobs` and carried by reference. */
export declare function sessionMemory(files: string[], text: string, blobs?: BlobStore, inlineMax?: number): Promise<SessionMemory>;
/**
 * The memory text of a reference; a missing or altered blob fails loudly with MEMORY_MISSING
 * (which the activity boundary makes non-retryable: waiting will not bring it back).
 */
export declare function loadMemoryText(blobs: BlobStore, memory: MemoryRef): Promise<string>;
