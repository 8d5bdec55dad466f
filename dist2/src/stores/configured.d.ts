import { type BlobStore } from './messageStore';
export declare function configuredBlobStore(opts: {
    storeDir: string;
    blobStore?: BlobStore;
    store?: string;
}): BlobStore;
/**
 * `postgres://…` / `postgresql://…` → the shared PostgreSQL store (`?table=name` picks the table);
 * `file:///dir` or an absolute path → files in that directory (one host). Anything else is refused.
 */
export declare function blobStoreFromUrl(url: string, storeDir: string): BlobStore;
/** One line saying where a store keeps its blobs (worker start-up, error messages). */
export declare function describeBlobStore(store: BlobStore): string;
