import type { ToolResultBlockParam } from '../engine/messages';
import { type BlobStore } from './messageStore';
export declare class PayloadStore {
    private readonly blobs;
    constructor(blobs: BlobStore);
    putToolResult(block: ToolResultBlockParam): Promise<string>;
    /** A background task's whole output (the audit shows its hash and size): `taskoutput-<sha256>`. */
    putTaskOutput(text: string): Promise<string>;
    getToolResult(ref: string): Promise<ToolResultBlockParam>;
}
