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
exports.auditJsonLines = exports.formatAuditText = exports.buildAudit = exports.TemporalUnavailableError = exports.connectClient = exports.loadConnectionConfig = exports.InvalidSessionInputError = exports.checkSessionInput = exports.sessionInputProblems = exports.DEFAULT_MODEL = exports.BUILTIN_TOOL_NAMES = exports.ApprovalRejectedError = exports.SessionEndedError = exports.SessionNotFoundError = exports.denyToolUse = exports.approveToolUse = exports.sendMessage = exports.interruptSession = exports.sessionResult = exports.sessionStatus = exports.sessionHandle = exports.sessionInput = exports.startSession = void 0;
// `durable-agent/client`: starting and steering sessions and reading their audit, from any
// process that talks to the Temporal server. Loads @temporalio/client, never @temporalio/worker.
__exportStar(require("./workflow"), exports);
var client_1 = require("../client");
Object.defineProperty(exports, "startSession", { enumerable: true, get: function () { return client_1.startSession; } });
Object.defineProperty(exports, "sessionInput", { enumerable: true, get: function () { return client_1.sessionInput; } });
Object.defineProperty(exports, "sessionHandle", { enumerable: true, get: function () { return client_1.sessionHandle; } });
Object.defineProperty(exports, "sessionStatus", { enumerable: true, get: function () { return client_1.sessionStatus; } });
Object.defineProperty(exports, "sessionResult", { enumerable: true, get: function () { return client_1.sessionResult; } });
Object.defineProperty(exports, "interruptSession", { enumerable: true, get: function () { return client_1.interruptSession; } });
Object.defineProperty(exports, "sendMessage", { enumerable: true, get: function () { return client_1.sendMessage; } });
Object.defineProperty(exports, "approveToolUse", { enumerable: true, get: function () { return client_1.approveToolUse; } });
Object.defineProperty(exports, "denyToolUse", { enumerable: true, get: function () { return client_1.denyToolUse; } });
Object.defineProperty(exports, "SessionNotFoundError", { enumerable: true, get: function () { return client_1.SessionNotFoundError; } });
Object.defineProperty(exports, "SessionEndedError", { enumerable: true, get: function () { return client_1.SessionEndedError; } });
Object.defineProperty(exports, "ApprovalRejectedError", { enumerable: true, get: function () { return client_1.ApprovalRejectedError; } });
Object.defineProperty(exports, "BUILTIN_TOOL_NAMES", { enumerable: true, get: function () { return client_1.BUILTIN_TOOL_NAMES; } });
Object.defineProperty(exports, "DEFAULT_MODEL", { enumerable: true, get: function () { return client_1.DEFAULT_MODEL; } });
var sessionInput_1 = require("../sessionInput");
Object.defineProperty(exports, "sessionInputProblems", { enumerable: true, get: function () { return sessionInput_1.sessionInputProblems; } });
Object.defineProperty(exports, "checkSessionInput", { enumerable: true, get: function () { return sessionInput_1.checkSessionInput; } });
Object.defineProperty(exports, "InvalidSessionInputError", { enumerable: true, get: function () { return sessionInput_1.InvalidSessionInputError; } });
var connection_1 = require("../temporal/connection");
Object.defineProperty(exports, "loadConnectionConfig", { enumerable: true, get: function () { return connection_1.loadConnectionConfig; } });
Object.defineProperty(exports, "connectClient", { enumerable: true, get: function () { return connection_1.connectClient; } });
Object.defineProperty(exports, "TemporalUnavailableError", { enumerable: true, get: function () { return connection_1.TemporalUnavailableError; } });
var audit_1 = require("../audit");
Object.defineProperty(exports, "buildAudit", { enumerable: true, get: function () { return audit_1.buildAudit; } });
Object.defineProperty(exports, "formatAuditText", { enumerable: true, get: function () { return audit_1.formatAuditText; } });
Object.defineProperty(exports, "auditJsonLines", { enumerable: true, get: function () { return audit_1.auditJsonLines; } });
//# sourceMappingURL=client.js.map