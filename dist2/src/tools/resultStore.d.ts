import type { ResultStore } from './Tool';
/**
 * File name for a tool_use_id. Ids made of `[A-Za-z0-9_-]` (all real Anthropic ids) map to
 * themselves; anything else is replaced and suffixed with a hash of the original id, so that two
 * different ids never share a file and nothing can escape the directory.
 */
export declare function resultFileName(toolUseId: string): string;
export declare class LocalResultStore implements ResultStore {
    readonly dir: string;
    constructor(dir: string);
    /** Stores `content` whole; idempotent: the same id always gives the same path (rewritten atomically). */
    put(toolUseId: string, content: string): Promise<string>;
}
