"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
Object.defineProperty(exports, "__esModule", { value: true });
exports.LocalResultStore = void 0;
exports.resultFileName = resultFileName;
// Local result store for large tool results (invariant 7): `<dir>/<tool_use_id>.txt`.
const node_crypto_1 = require("node:crypto");
const node_fs_1 = require("node:fs");
const path = __importStar(require("node:path"));
/**
 * File name for a tool_use_id. Ids made of `[A-Za-z0-9_-]` (all real Anthropic ids) map to
 * themselves; anything else is replaced and suffixed with a hash of the original id, so that two
 * different ids never share a file and nothing can escape the directory.
 */
function resultFileName(toolUseId) {
    const safe = toolUseId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 100);
    if (safe === toolUseId && safe.length > 0)
        return `${safe}.txt`;
    const hash = (0, node_crypto_1.createHash)('sha256').update(toolUseId).digest('hex').slice(0, 16);
    return `${safe || 'id'}-${hash}.txt`;
}
class LocalResultStore {
    dir;
    constructor(dir) {
        this.dir = path.resolve(dir);
    }
    /** Stores `content` whole; idempotent: the same id always gives the same path (rewritten atomically). */
    async put(toolUseId, content) {
        await node_fs_1.promises.mkdir(this.dir, { recursive: true });
        const file = path.join(this.dir, resultFileName(toolUseId));
        try {
            if ((await node_fs_1.promises.readFile(file, 'utf8')) === content)
                return file;
        }
        catch {
            // not there yet
        }
        const tmp = `${file}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`;
        try {
            await node_fs_1.promises.writeFile(tmp, content, 'utf8');
            await node_fs_1.promises.rename(tmp, file);
        }
        catch (e) {
            await node_fs_1.promises.rm(tmp, { force: true }).catch(() => undefined);
            throw e;
        }
        return file;
    }
}
exports.LocalResultStore = LocalResultStore;
//# sourceMappingURL=resultStore.js.map