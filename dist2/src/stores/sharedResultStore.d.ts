import type { ResultStore } from '../tools/Tool';
import { type BlobStore } from './messageStore';
export declare class SharedResultStore implements ResultStore {
    private readonly blobs;
    private readonly sessionId;
    private readonly sessionDir;
    readonly dir: string;
    private readonly local;
    constructor(dir: string, blobs: BlobStore, sessionId: string, sessionDir: string);
    private key;
    put(toolUseId: string, content: string): Promise<string>;
    /**
     * A path of this session's results (`…/results/<session>/<file>`, on any host's store root) that
     * is missing here but kept in the shared store is written back; true when it did. Anything else
     * (another session's results, an existing file, a result the store does not have) is left alone.
     */
    materialize(path: string): Promise<boolean>;
}
/** Paths in a tool input that may name a stored result: top-level file_path / path / notebook_path strings. */
export declare function inputPaths(input: unknown): string[];
