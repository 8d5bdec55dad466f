import type { FileReadState } from '../engine/context';
import { type BlobStore } from './messageStore';
export type ReadFiles = Record<string, FileReadState>;
/**
 * `base` with `delta` (this turn's entries, reduced from an empty map) on top, by the engine
 * reducer's rule: a partial read never downgrades a full read of the same content. Equal to
 * reducing the whole session's modifiers as long as a file's mtime never goes back (the one
 * difference: full read at t, then in one turn a partial read at t' ≠ t and one at t again).
 */
export declare function mergeReadFiles(base: ReadFiles, delta: ReadFiles): ReadFiles;
export declare class ReadFilesStore {
    private readonly blobs;
    private readonly cacheLimit;
    private cache;
    constructor(blobs: BlobStore, cacheLimit?: number);
    /** Stores `base` merged with `delta`; returns its reference. Idempotent: same content, same key. */
    put(base: string | null, delta: ReadFiles): Promise<string | null>;
    get(ref: string | null | undefined): Promise<ReadFiles>;
    private remember;
}
