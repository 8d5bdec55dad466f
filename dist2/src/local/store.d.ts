import type { AgentDepsOptions } from '../workerDeps';
export interface LocalStore {
    /** The worker options with the store filled in: pass these to a child session. */
    worker: AgentDepsOptions;
    /** The store's directory (results, hook transcript files; blobs too unless the caller's blobStore holds them). */
    storeDir: string;
    /** True when the directory is this session's own temporary one. */
    temporary: boolean;
    /** Removes a temporary store (nothing for the caller's). */
    dispose(): Promise<void>;
}
export declare function localStore(worker: AgentDepsOptions): LocalStore;
/** A temporary store's removal when the session could not even start. */
export declare function disposeNow(store: LocalStore): void;
