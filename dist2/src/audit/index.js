"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.gapLine = exports.formatDecision = exports.formatAuditText = exports.auditJsonLines = exports.auditEntries = exports.failureText = exports.buildAudit = void 0;
// The audit trail of a session, rebuilt from its Temporal histories: the session's runs
// (session.ts), each turn (turn.ts, toolCalls.ts), read and decoded by history.ts.
var session_1 = require("./session");
Object.defineProperty(exports, "buildAudit", { enumerable: true, get: function () { return session_1.buildAudit; } });
var history_1 = require("./history");
Object.defineProperty(exports, "failureText", { enumerable: true, get: function () { return history_1.failureText; } });
var format_1 = require("./format");
Object.defineProperty(exports, "auditEntries", { enumerable: true, get: function () { return format_1.auditEntries; } });
Object.defineProperty(exports, "auditJsonLines", { enumerable: true, get: function () { return format_1.auditJsonLines; } });
Object.defineProperty(exports, "formatAuditText", { enumerable: true, get: function () { return format_1.formatAuditText; } });
Object.defineProperty(exports, "formatDecision", { enumerable: true, get: function () { return format_1.formatDecision; } });
Object.defineProperty(exports, "gapLine", { enumerable: true, get: function () { return format_1.gapLine; } });
//# sourceMappingURL=index.js.map