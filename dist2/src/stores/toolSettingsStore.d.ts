import { type BlobStore } from './messageStore';
import type { StoredToolSettings } from '../calls/tools';
export declare class ToolSettingsStore {
    private readonly blobs;
    private readonly cacheLimit;
    private cache;
    constructor(blobs: BlobStore, cacheLimit?: number);
    /** Stores the settings; returns their key (`toolsettings-<sha256>`). Idempotent: same content, same key. */
    put(settings: StoredToolSettings): Promise<string>;
    get(key: string): Promise<StoredToolSettings>;
    private remember;
}
