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
exports.resolveTemporalCli = exports.startDevServer = exports.TemporalUnavailableError = exports.connectWorker = exports.loadConnectionConfig = exports.TASK_QUEUE_DEFAULT = exports.END_REASONS = exports.startLocalSession = exports.runLocalSession = exports.TranscriptStore = exports.LocalBlobStore = exports.loadShellParser = exports.describeToolUse = exports.runToolPipeline = exports.createSearchIssuesTool = exports.LocalResultStore = exports.findToolByName = exports.createToolPool = exports.BUILTIN_TOOLS = exports.defaultStoreDir = exports.workflowsPath = exports.bundleAgentWorkflows = exports.createAgentActivities = exports.createAgentWorker = void 0;
// `durable-agent/worker`: where tools run — the worker (activities, workflow bundle), the
// built-in tools and the pool, the one tool pipeline, the stores, the in-process runner and the
// local dev server. Node only; loads @temporalio/worker.
__exportStar(require("./tools"), exports);
var worker_1 = require("../worker");
Object.defineProperty(exports, "createAgentWorker", { enumerable: true, get: function () { return worker_1.createAgentWorker; } });
Object.defineProperty(exports, "createAgentActivities", { enumerable: true, get: function () { return worker_1.createAgentActivities; } });
Object.defineProperty(exports, "bundleAgentWorkflows", { enumerable: true, get: function () { return worker_1.bundleAgentWorkflows; } });
Object.defineProperty(exports, "workflowsPath", { enumerable: true, get: function () { return worker_1.workflowsPath; } });
Object.defineProperty(exports, "defaultStoreDir", { enumerable: true, get: function () { return worker_1.defaultStoreDir; } });
var builtin_1 = require("../tools/builtin");
Object.defineProperty(exports, "BUILTIN_TOOLS", { enumerable: true, get: function () { return builtin_1.BUILTIN_TOOLS; } });
var toolPool_1 = require("../permissions/toolPool");
Object.defineProperty(exports, "createToolPool", { enumerable: true, get: function () { return toolPool_1.createToolPool; } });
var pool_1 = require("../tools/pool");
Object.defineProperty(exports, "findToolByName", { enumerable: true, get: function () { return pool_1.findToolByName; } });
var resultStore_1 = require("../tools/resultStore");
Object.defineProperty(exports, "LocalResultStore", { enumerable: true, get: function () { return resultStore_1.LocalResultStore; } });
var searchIssues_1 = require("../tools/examples/searchIssues");
Object.defineProperty(exports, "createSearchIssuesTool", { enumerable: true, get: function () { return searchIssues_1.createSearchIssuesTool; } });
var pipeline_1 = require("../pipeline");
Object.defineProperty(exports, "runToolPipeline", { enumerable: true, get: function () { return pipeline_1.runToolPipeline; } });
Object.defineProperty(exports, "describeToolUse", { enumerable: true, get: function () { return pipeline_1.describeToolUse; } });
/** Bash's declarations need the shell parser: await this before calling them outside the pipeline. */
var bashParser_1 = require("../permissions/bashParser");
Object.defineProperty(exports, "loadShellParser", { enumerable: true, get: function () { return bashParser_1.loadShellParser; } });
var messageStore_1 = require("../stores/messageStore");
Object.defineProperty(exports, "LocalBlobStore", { enumerable: true, get: function () { return messageStore_1.LocalBlobStore; } });
Object.defineProperty(exports, "TranscriptStore", { enumerable: true, get: function () { return messageStore_1.TranscriptStore; } });
var runSession_1 = require("../local/runSession");
Object.defineProperty(exports, "runLocalSession", { enumerable: true, get: function () { return runSession_1.runLocalSession; } });
Object.defineProperty(exports, "startLocalSession", { enumerable: true, get: function () { return runSession_1.startLocalSession; } });
var session_1 = require("../engine/session");
Object.defineProperty(exports, "END_REASONS", { enumerable: true, get: function () { return session_1.END_REASONS; } });
var definitions_1 = require("../workflows/definitions");
Object.defineProperty(exports, "TASK_QUEUE_DEFAULT", { enumerable: true, get: function () { return definitions_1.TASK_QUEUE_DEFAULT; } });
var connection_1 = require("../temporal/connection");
Object.defineProperty(exports, "loadConnectionConfig", { enumerable: true, get: function () { return connection_1.loadConnectionConfig; } });
Object.defineProperty(exports, "connectWorker", { enumerable: true, get: function () { return connection_1.connectWorker; } });
Object.defineProperty(exports, "TemporalUnavailableError", { enumerable: true, get: function () { return connection_1.TemporalUnavailableError; } });
var devServer_1 = require("../temporal/devServer");
Object.defineProperty(exports, "startDevServer", { enumerable: true, get: function () { return devServer_1.startDevServer; } });
var cli_1 = require("../temporal/cli");
Object.defineProperty(exports, "resolveTemporalCli", { enumerable: true, get: function () { return cli_1.resolveTemporalCli; } });
//# sourceMappingURL=worker.js.map