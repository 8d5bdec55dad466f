"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ExecutionLedger = void 0;
const messageStore_1 = require("./messageStore");
class ExecutionLedger {
    blobs;
    constructor(blobs) {
        this.blobs = blobs;
    }
    key(sessionId, toolUseId) {
        return `ledger-${(0, messageStore_1.hashOf)(`${sessionId}\u0000${toolUseId}`)}`;
    }
    async get(sessionId, toolUseId) {
        const data = await this.blobs.get(this.key(sessionId, toolUseId));
        return data === undefined ? undefined : JSON.parse(data);
    }
    async put(sessionId, toolUseId, entry) {
        await this.blobs.put(this.key(sessionId, toolUseId), JSON.stringify(entry));
    }
}
exports.ExecutionLedger = ExecutionLedger;
//# sourceMappingURL=executionLedger.js.map