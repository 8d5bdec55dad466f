"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.turnWorkflow = exports.sessionWorkflow = void 0;
// Workflow entry point for the worker's bundle: only sandbox-safe exports live here.
var session_1 = require("./session");
Object.defineProperty(exports, "sessionWorkflow", { enumerable: true, get: function () { return session_1.sessionWorkflow; } });
var turn_1 = require("./turn");
Object.defineProperty(exports, "turnWorkflow", { enumerable: true, get: function () { return turn_1.turnWorkflow; } });
//# sourceMappingURL=index.js.map