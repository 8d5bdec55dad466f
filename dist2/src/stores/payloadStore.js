"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PayloadStore = void 0;
const messageStore_1 = require("./messageStore");
class PayloadStore {
    blobs;
    constructor(blobs) {
        this.blobs = blobs;
    }
    async putToolResult(block) {
        const data = JSON.stringify(block);
        const key = `toolresult-${(0, messageStore_1.hashOf)(data)}`;
        if ((await this.blobs.get(key)) === undefined)
            await this.blobs.put(key, data);
        return key;
    }
    /** A background task's whole output (the audit shows its hash and size): `taskoutput-<sha256>`. */
    async putTaskOutput(text) {
        const key = `taskoutput-${(0, messageStore_1.hashOf)(text)}`;
        if ((await this.blobs.get(key)) === undefined)
            await this.blobs.put(key, text);
        return key;
    }
    async getToolResult(ref) {
        if (!/^toolresult-[0-9a-f]{64}$/.test(ref))
            throw new Error(`not a tool result reference: ${ref}`);
        const data = await this.blobs.get(ref);
        if (data === undefined)
            throw new messageStore_1.MissingBlobError('tool result', ref, this.blobs);
        return JSON.parse(data);
    }
}
exports.PayloadStore = PayloadStore;
//# sourceMappingURL=payloadStore.js.map