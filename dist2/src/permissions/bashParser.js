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
Object.defineProperty(exports, "__esModule", { value: true });
exports.loadShellParser = loadShellParser;
exports.shellParserError = shellParserError;
exports.shellParserReady = shellParserReady;
exports.parseBash = parseBash;
// The Bash parser behind every shell decision: tree-sitter-bash (its wasm ships in the npm
// package) run by web-tree-sitter. Loading wasm is asynchronous, so the parser is loaded once
// (`loadShellParser()`, awaited by the pipeline, the describe activity and the worker) and parsing
// itself is synchronous. Before it is loaded, or if it cannot load, `parseBash` returns undefined
// and every caller treats the command as unknown: not read-only, matched by no allow rule.
const path = __importStar(require("node:path"));
const web_tree_sitter_1 = require("web-tree-sitter");
let parser;
let loading;
let loadError;
/** Loads the parser once; resolves true when it is usable. Never rejects. */
function loadShellParser() {
    loading ??= (async () => {
        try {
            await web_tree_sitter_1.Parser.init();
            const wasm = path.join(path.dirname(require.resolve('tree-sitter-bash/package.json')), 'tree-sitter-bash.wasm');
            const lang = await web_tree_sitter_1.Language.load(wasm);
            const p = new web_tree_sitter_1.Parser();
            p.setLanguage(lang);
            parser = p;
            return true;
        }
        catch (e) {
            loadError = e?.message ?? String(e);
            return false;
        }
    })();
    return loading;
}
/** Why the parser is not usable (undefined when it is, or while it is still loading). */
function shellParserError() {
    return loadError;
}
function shellParserReady() {
    return parser !== undefined;
}
const MAX_NODES = 20_000;
/** Parses a command line; undefined when the parser is not loaded or the tree is too large. */
function parseBash(source) {
    if (!parser)
        return undefined;
    const tree = parser.parse(source);
    if (!tree)
        return undefined;
    try {
        let count = 0;
        const copy = (n) => {
            if (++count > MAX_NODES)
                return undefined;
            const children = [];
            for (const c of n.children) {
                if (!c)
                    continue;
                const cc = copy(c);
                if (!cc)
                    return undefined;
                children.push(cc);
            }
            return { type: n.type, named: n.isNamed, text: n.text, bad: n.isError || n.isMissing, children };
        };
        return copy(tree.rootNode);
    }
    finally {
        tree.delete();
    }
}
//# sourceMappingURL=bashParser.js.map