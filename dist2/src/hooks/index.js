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
exports.writeTranscriptFile = exports.transcriptPathFor = exports.transcriptLines = exports.matchQueryOf = exports.runSessionEventHooks = exports.runPreCompactHooks = exports.parseHookStdout = exports.runPostToolUseFailureHooks = exports.runPostToolUseHooks = exports.runPreToolUseHooks = exports.runShellCommand = exports.hooksFor = exports.isValidMatcher = exports.matcherMatches = exports.hookConfigWarnings = exports.normalizeHooksConfig = void 0;
__exportStar(require("./types"), exports);
var config_1 = require("./config");
Object.defineProperty(exports, "normalizeHooksConfig", { enumerable: true, get: function () { return config_1.normalizeHooksConfig; } });
Object.defineProperty(exports, "hookConfigWarnings", { enumerable: true, get: function () { return config_1.hookConfigWarnings; } });
Object.defineProperty(exports, "matcherMatches", { enumerable: true, get: function () { return config_1.matcherMatches; } });
Object.defineProperty(exports, "isValidMatcher", { enumerable: true, get: function () { return config_1.isValidMatcher; } });
Object.defineProperty(exports, "hooksFor", { enumerable: true, get: function () { return config_1.hooksFor; } });
var command_1 = require("./command");
Object.defineProperty(exports, "runShellCommand", { enumerable: true, get: function () { return command_1.runShellCommand; } });
var run_1 = require("./run");
Object.defineProperty(exports, "runPreToolUseHooks", { enumerable: true, get: function () { return run_1.runPreToolUseHooks; } });
Object.defineProperty(exports, "runPostToolUseHooks", { enumerable: true, get: function () { return run_1.runPostToolUseHooks; } });
Object.defineProperty(exports, "runPostToolUseFailureHooks", { enumerable: true, get: function () { return run_1.runPostToolUseFailureHooks; } });
Object.defineProperty(exports, "parseHookStdout", { enumerable: true, get: function () { return run_1.parseHookStdout; } });
var preCompact_1 = require("./preCompact");
Object.defineProperty(exports, "runPreCompactHooks", { enumerable: true, get: function () { return preCompact_1.runPreCompactHooks; } });
var session_1 = require("./session");
Object.defineProperty(exports, "runSessionEventHooks", { enumerable: true, get: function () { return session_1.runSessionEventHooks; } });
Object.defineProperty(exports, "matchQueryOf", { enumerable: true, get: function () { return session_1.matchQueryOf; } });
var transcript_1 = require("./transcript");
Object.defineProperty(exports, "transcriptLines", { enumerable: true, get: function () { return transcript_1.transcriptLines; } });
Object.defineProperty(exports, "transcriptPathFor", { enumerable: true, get: function () { return transcript_1.transcriptPathFor; } });
Object.defineProperty(exports, "writeTranscriptFile", { enumerable: true, get: function () { return transcript_1.writeTranscriptFile; } });
//# sourceMappingURL=index.js.map