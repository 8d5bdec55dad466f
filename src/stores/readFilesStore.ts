// The session's read-file state (`AgentContext.readFiles`), kept OUTSIDE workflow payloads like the
// transcript: it grows with every file the session reads, and carrying it in every turn's input,
// result and tool activity input made each turn's history grow with the session's age.
// Workflows carry a reference (content hash) to the state at the start of the turn, plus the
// entries added during the turn (applied by the engine's reducer, in block order); tool
// activities merge the two, and the turn stores the merged state at its end.
import type { FileReadState } from '../core/context';
import { CONTENT_HASH, contentHashOf, getVerified, MissingBlobError, type BlobStore } from './messageStore';

const READ_FILES_REF = new RegExp(`^readfiles-${CONTENT_HASH}$`);

export type ReadFiles = Record<string, FileReadState>;

/**
 * `base` with `delta` (this turn's entries, reduced from an empty map) on top, by the engine
 * reducer's rule: a partial read never downgrades a full read of the same content. Equal to
 * reducing the whole session's modifiers as long as a file's mtime never goes back (the one
 * difference: full read at t, then in one turn a partial read at t' ≠ t and one at t again).
 */
export function mergeReadFiles(base: ReadFiles, delta: ReadFiles): ReadFiles {
  const out: ReadFiles = { ...base };
  for (const [path, entry] of Object.entries(delta)) {
    const prev = base[path];
    const partial = entry.partial && !(prev && !prev.partial && prev.mtimeMs === entry.mtimeMs);
    out[path] = { mtimeMs: entry.mtimeMs, partial };
  }
  return out;
}

export class ReadFilesStore {
  private cache = new Map<string, ReadFiles>();
  constructor(
    private readonly blobs: BlobStore,
    private readonly cacheLimit = 32,
  ) {}

  /** Stores `base` merged with `delta`; returns its reference. Idempotent: same content, same key. */
  async put(base: string | null, delta: ReadFiles): Promise<string | null> {
    if (Object.keys(delta).length === 0) return base;
    const merged = mergeReadFiles(await this.get(base), delta);
    const sorted: ReadFiles = {};
    for (const k of Object.keys(merged).sort()) sorted[k] = merged[k] as FileReadState;
    const data = JSON.stringify(sorted);
    const key = `readfiles-${contentHashOf(data)}`;
    if ((await this.blobs.get(key)) === undefined) await this.blobs.put(key, data);
    this.remember(key, sorted);
    return key;
  }

  async get(ref: string | null | undefined): Promise<ReadFiles> {
    if (!ref) return {};
    const hit = this.cache.get(ref);
    if (hit) return hit;
    if (!READ_FILES_REF.test(ref)) throw new Error(`not a read-file state reference: ${ref}`);
    const data = await getVerified(this.blobs, ref, ref.slice('readfiles-'.length), 'read-file state');
    if (data === undefined) throw new MissingBlobError('read-file state', ref, this.blobs);
    const parsed = JSON.parse(data) as ReadFiles;
    this.remember(ref, parsed);
    return parsed;
  }

  private remember(key: string, value: ReadFiles): void {
    this.cache.delete(key);
    this.cache.set(key, value);
    if (this.cache.size > this.cacheLimit) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
  }
}
