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
exports.ripgrepCommand = exports.compileJsRegex = void 0;
exports.isRipgrepAvailable = isRipgrepAvailable;
exports.chooseEngine = chooseEngine;
exports.runGrep = runGrep;
// The two Grep engines: ripgrep (when installed) and a JavaScript fallback. Both return the same
// structured hits; grep.ts sorts and formats them, so the model sees one output format.
// This file chooses the engine; grepRipgrep.ts and grepJs.ts are the engines, grepTypes.ts their data.
const node_child_process_1 = require("node:child_process");
const grepJs_1 = require("./grepJs");
const grepRipgrep_1 = require("./grepRipgrep");
__exportStar(require("./grepTypes"), exports);
var grepJs_2 = require("./grepJs");
Object.defineProperty(exports, "compileJsRegex", { enumerable: true, get: function () { return grepJs_2.compileJsRegex; } });
var grepRipgrep_2 = require("./grepRipgrep");
Object.defineProperty(exports, "ripgrepCommand", { enumerable: true, get: function () { return grepRipgrep_2.ripgrepCommand; } });
// ---------------------------------------------------------------------------------------------
// Engine choice
let rgAvailable;
function isRipgrepAvailable() {
    if (rgAvailable === undefined) {
        const r = (0, node_child_process_1.spawnSync)((0, grepRipgrep_1.ripgrepCommand)(), ['--version'], { stdio: 'ignore', timeout: 5000 });
        rgAvailable = r.status === 0;
    }
    return rgAvailable;
}
/** `DURABLE_AGENT_GREP_ENGINE=js` forces the fallback, `=rg` requires ripgrep; default: rg if installed. */
function chooseEngine() {
    const forced = (process.env.DURABLE_AGENT_GREP_ENGINE ?? '').toLowerCase();
    if (forced === 'js' || forced === 'javascript')
        return 'javascript';
    if (forced === 'rg' || forced === 'ripgrep') {
        if (!isRipgrepAvailable())
            throw new Error('DURABLE_AGENT_GREP_ENGINE=rg but ripgrep (rg) is not installed');
        return 'ripgrep';
    }
    return isRipgrepAvailable() ? 'ripgrep' : 'javascript';
}
async function runGrep(query, engine = chooseEngine()) {
    return engine === 'ripgrep' ? (0, grepRipgrep_1.runRipgrep)(query) : (0, grepJs_1.runJavaScript)(query);
}
//# sourceMappingURL=grepEngine.js.map