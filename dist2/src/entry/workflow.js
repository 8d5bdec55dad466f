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
var __exportStar = (this && this.__exportStar) || function(m, exports) {
    for (var p in m) if (p !== "default" && !Object.prototype.hasOwnProperty.call(exports, p)) __createBinding(exports, m, p);
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.END_REASONS = exports.oneLinePreview = exports.denyUpdate = exports.approveUpdate = exports.sendMessageSignal = exports.interruptSignal = exports.statusQuery = exports.STATUS_SEARCH_ATTRIBUTE = exports.TASK_QUEUE_DEFAULT = void 0;
// `durable-agent/workflow`: the workflows' definitions — signal, query and update definitions,
// session input/status/result types, the session loop's end reasons — plus everything in
// `durable-agent/tools`. Workflow-safe: it loads only @temporalio/workflow and pure modules, never
// @temporalio/worker or @temporalio/client (test/unit/entries.test.ts checks that). The workflow
// code itself is bundled by the worker (`workflowsPath` in `durable-agent/worker`).
__exportStar(require("./tools"), exports);
var definitions_1 = require("../workflows/definitions");
Object.defineProperty(exports, "TASK_QUEUE_DEFAULT", { enumerable: true, get: function () { return definitions_1.TASK_QUEUE_DEFAULT; } });
Object.defineProperty(exports, "STATUS_SEARCH_ATTRIBUTE", { enumerable: true, get: function () { return definitions_1.STATUS_SEARCH_ATTRIBUTE; } });
Object.defineProperty(exports, "statusQuery", { enumerable: true, get: function () { return definitions_1.statusQuery; } });
Object.defineProperty(exports, "interruptSignal", { enumerable: true, get: function () { return definitions_1.interruptSignal; } });
Object.defineProperty(exports, "sendMessageSignal", { enumerable: true, get: function () { return definitions_1.sendMessageSignal; } });
Object.defineProperty(exports, "approveUpdate", { enumerable: true, get: function () { return definitions_1.approveUpdate; } });
Object.defineProperty(exports, "denyUpdate", { enumerable: true, get: function () { return definitions_1.denyUpdate; } });
Object.defineProperty(exports, "oneLinePreview", { enumerable: true, get: function () { return definitions_1.oneLinePreview; } });
var session_1 = require("../engine/session");
Object.defineProperty(exports, "END_REASONS", { enumerable: true, get: function () { return session_1.END_REASONS; } });
//# sourceMappingURL=workflow.js.map