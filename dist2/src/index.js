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
// durable-agent's main entry: everything a program that runs workers and steers sessions needs.
// Narrower entries, by where code runs (package.json "exports"):
//   durable-agent/tools     the Tool protocol and the engine's data — no Temporal, no node-only code
//   durable-agent/workflow  + signal/query/update definitions and session types — workflow-safe
//   durable-agent/client    + starting and steering sessions, the audit — no @temporalio/worker
//   durable-agent/worker    + the worker, built-in tools, pipeline, stores, in-process runner
//   durable-agent/testing   the fake Messages API for tests and demos (never in a real worker)
// Workflow code itself is not exported: the worker bundles it from src/workflows.
__exportStar(require("./entry/client"), exports);
__exportStar(require("./entry/worker"), exports);
//# sourceMappingURL=index.js.map