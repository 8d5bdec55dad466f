"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.errorCodeOf = exports.ERROR_CODES = exports.DurableAgentError = exports.initialContext = exports.applyContextModifiers = exports.applyContextModifier = exports.toolsToAPISchemas = exports.toolToAPISchema = exports.PERMISSION_MODES = exports.DEFAULT_MAX_RESULT_SIZE_CHARS = exports.buildTool = void 0;
// `durable-agent/tools`: what a tool author needs — the Tool protocol, permission types, the
// engine's data (context modifiers, messages, records) and the library's errors. Safe anywhere:
// it loads no Temporal package and no node-only module (test/unit/entries.test.ts checks that).
var Tool_1 = require("../tools/Tool");
Object.defineProperty(exports, "buildTool", { enumerable: true, get: function () { return Tool_1.buildTool; } });
Object.defineProperty(exports, "DEFAULT_MAX_RESULT_SIZE_CHARS", { enumerable: true, get: function () { return Tool_1.DEFAULT_MAX_RESULT_SIZE_CHARS; } });
var permissionTypes_1 = require("../tools/permissionTypes");
Object.defineProperty(exports, "PERMISSION_MODES", { enumerable: true, get: function () { return permissionTypes_1.PERMISSION_MODES; } });
var apiSchema_1 = require("../tools/apiSchema");
Object.defineProperty(exports, "toolToAPISchema", { enumerable: true, get: function () { return apiSchema_1.toolToAPISchema; } });
Object.defineProperty(exports, "toolsToAPISchemas", { enumerable: true, get: function () { return apiSchema_1.toolsToAPISchemas; } });
var context_1 = require("../engine/context");
Object.defineProperty(exports, "applyContextModifier", { enumerable: true, get: function () { return context_1.applyContextModifier; } });
Object.defineProperty(exports, "applyContextModifiers", { enumerable: true, get: function () { return context_1.applyContextModifiers; } });
Object.defineProperty(exports, "initialContext", { enumerable: true, get: function () { return context_1.initialContext; } });
var errors_1 = require("../engine/errors");
Object.defineProperty(exports, "DurableAgentError", { enumerable: true, get: function () { return errors_1.DurableAgentError; } });
Object.defineProperty(exports, "ERROR_CODES", { enumerable: true, get: function () { return errors_1.ERROR_CODES; } });
Object.defineProperty(exports, "errorCodeOf", { enumerable: true, get: function () { return errors_1.errorCodeOf; } });
//# sourceMappingURL=tools.js.map