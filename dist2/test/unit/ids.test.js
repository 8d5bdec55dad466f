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
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the names sessions leave in histories are defined once (src/engine/ids.ts) and used by the
// workflows and the audit alike: the definitions carry them, the ids round-trip, and the audit
// holds no hand-written copy of an activity id, activity type, signal name or turn-id pattern.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const ids_1 = require("../../src/engine/ids");
const defs = __importStar(require("../../src/workflows/definitions"));
const modelStep_1 = require("../../src/workflows/modelStep");
const srcRoot = (0, node_path_1.join)(__dirname, '..', '..', '..', 'src');
(0, node_test_1.test)('unit: signal, query and update definitions carry the shared names', () => {
    strict_1.default.equal(defs.interruptSignal.name, ids_1.SIGNALS.interrupt);
    strict_1.default.equal(defs.sendMessageSignal.name, ids_1.SIGNALS.sendMessage);
    strict_1.default.equal(defs.turnInterruptSignal.name, ids_1.SIGNALS.turnInterrupt);
    strict_1.default.equal(defs.turnApprovalSignal.name, ids_1.SIGNALS.turnApproval);
    strict_1.default.equal(defs.outageSignal.name, ids_1.SIGNALS.outage);
    strict_1.default.equal(defs.statusQuery.name, ids_1.QUERIES.status);
    strict_1.default.equal(defs.turnProgressQuery.name, ids_1.QUERIES.turnProgress);
    strict_1.default.equal(defs.approveUpdate.name, ids_1.UPDATES.approve);
    strict_1.default.equal(defs.denyUpdate.name, ids_1.UPDATES.deny);
});
(0, node_test_1.test)('unit: turn workflow ids and activity ids round-trip, and keep the recorded shapes', () => {
    strict_1.default.equal((0, ids_1.turnWorkflowId)('s-1', 7), 's-1/turn-7');
    strict_1.default.equal((0, ids_1.turnOfWorkflowId)('s-1', 's-1/turn-7'), 7);
    strict_1.default.equal((0, ids_1.turnOfWorkflowId)('s-1', 's-1/agent-toolu_1'), undefined);
    strict_1.default.equal((0, ids_1.turnOfWorkflowId)('s-1', 's-1/turn-7x'), undefined);
    strict_1.default.equal((0, ids_1.turnOfWorkflowId)('s', 's-1/turn-7'), undefined, 'another session with a longer id is not ours');
    strict_1.default.equal((0, ids_1.sessionOfTurnWorkflowId)('s-1/agent-toolu_1/turn-2'), 's-1/agent-toolu_1');
    // The shapes recorded in test/fixtures/histories (changing one breaks replay and the audit of running sessions).
    strict_1.default.equal((0, modelStep_1.modelActivityId)(3, 1, 0), 'model-3');
    strict_1.default.equal((0, modelStep_1.modelActivityId)(3, 2, 0), 'model-3-attempt-2');
    strict_1.default.equal((0, modelStep_1.modelActivityId)(3, 1, 1), 'model-3-2');
    strict_1.default.equal(ids_1.activityIds.tool('toolu_a', 'approve'), 'tool-toolu_a-approve');
    strict_1.default.equal(ids_1.activityIds.attempt(ids_1.activityIds.append(4), 3), 'append-4-attempt-3');
    strict_1.default.equal(ids_1.activityIds.attempt(ids_1.activityIds.readFiles(4), 1), 'read-files-4');
    strict_1.default.deepEqual((0, ids_1.toolCallActivityIds)('x'), [
        'tool-x',
        'tool-x-approve',
        'tool-x-deny',
        'agent-pre-x',
        'agent-pre-x-approve',
        'agent-pre-x-deny',
        'agent-post-x',
    ]);
    strict_1.default.equal((0, ids_1.decidedByActivityId)('agent-pre-x-deny'), 'deny');
    strict_1.default.equal((0, ids_1.decidedByActivityId)('tool-x'), undefined);
    for (const [key, value] of Object.entries(ids_1.ACTIVITY_TYPES))
        strict_1.default.equal(key, value);
});
(0, node_test_1.test)('unit: the audit has no hand-written activity ids, activity types, signal names or turn-id pattern', () => {
    const dir = (0, node_path_1.join)(srcRoot, 'audit');
    const literals = [...Object.values(ids_1.ACTIVITY_TYPES), ...Object.values(ids_1.SIGNALS)].map((n) => `'${n}'`);
    const patterns = [/['`](tool|agent-pre|agent-post|agent|model|compact|append|read-files)-/, /\/turn-/, /turn-\\d/];
    const bad = [];
    for (const f of (0, node_fs_1.readdirSync)(dir).filter((n) => n.endsWith('.ts'))) {
        const text = (0, node_fs_1.readFileSync)((0, node_path_1.join)(dir, f), 'utf8')
            .split('\n')
            .filter((l) => !/^\s*(\/\/|\*|\/\*\*)/.test(l)) // comments may name them
            .join('\n');
        for (const l of literals)
            if (text.includes(l))
                bad.push(`${f}: ${l}`);
        for (const p of patterns)
            if (p.test(text))
                bad.push(`${f}: ${p}`);
    }
    strict_1.default.deepEqual(bad, []);
});
//# sourceMappingURL=ids.test.js.map