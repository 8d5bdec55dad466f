import { DurableAgentError } from '../engine/errors';
import type { Message } from '../engine/messages';
/** Pluggable blob storage: a local directory by default; a shared volume or an object store for multi-host. */
export interface BlobStore {
    put(key: string, data: string): Promise<void>;
    get(key: string): Promise<string | undefined>;
}
/**
 * A blob the caller holds a reference to is not in this worker's store. On one host this means
 * the store lost data; with several hosts it nearly always means the workers do not share a store
 * (each has its own directory): the message says so, and how to fix it, instead of failing vaguely.
 */
export declare class MissingBlobError extends DurableAgentError {
    readonly key: string;
    constructor(what: string, key: string, store: BlobStore);
}
export declare class LocalBlobStore implements BlobStore {
    readonly dir: string;
    constructor(dir: string);
    toString(): string;
    private path;
    put(key: string, data: string): Promise<void>;
    get(key: string): Promise<string | undefined>;
}
export interface TranscriptNode {
    prev: string | null;
    messages: Message[];
}
export declare function hashOf(data: string): string;
export declare class TranscriptStore {
    readonly blobs: BlobStore;
    private readonly cacheLimit;
    private cache;
    private nodes;
    constructor(blobs: BlobStore, cacheLimit?: number);
    /**
     * The messages of the one node `key` (not the chain before it). A model call appends its
     * assistant message as a node of its own, so tool activities find their full tool_use blocks
     * here by the model call's head (workflow history carries only previews of the inputs).
     */
    nodeMessages(key: string): Promise<Message[]>;
    /** Appends messages after `head`; returns the new head. Idempotent: same input, same hash. */
    append(head: string | null, messages: readonly Message[]): Promise<string | null>;
    /** The whole conversation up to `head`, oldest first. */
    load(head: string | null): Promise<Message[]>;
    private remember;
}
