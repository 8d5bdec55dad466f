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
exports.ToolSession = void 0;
exports.makeTmpDir = makeTmpDir;
exports.removeDir = removeDir;
exports.writeTree = writeTree;
exports.makeContext = makeContext;
// Test harness for the built-in tools: real temp directories, a hand-built ToolUseContext, and a
// session that runs schema -> validateInput -> call -> map and applies context modifiers.
const node_fs_1 = require("node:fs");
const os = __importStar(require("node:os"));
const path = __importStar(require("node:path"));
const context_1 = require("../../src/engine/context");
const messages_1 = require("../../src/engine/messages");
async function makeTmpDir(prefix = 'tools-test-') {
    // realpath: os.tmpdir() may be a symlink (macOS); tools report real paths.
    return node_fs_1.promises.realpath(await node_fs_1.promises.mkdtemp(path.join(os.tmpdir(), prefix)));
}
async function removeDir(dir) {
    await node_fs_1.promises.rm(dir, { recursive: true, force: true });
}
/** Writes files (relative path -> content), creating directories; optional mtimes in seconds. */
async function writeTree(root, files, mtimes = {}) {
    for (const [rel, content] of Object.entries(files)) {
        const abs = path.join(root, rel);
        await node_fs_1.promises.mkdir(path.dirname(abs), { recursive: true });
        await node_fs_1.promises.writeFile(abs, content);
    }
    for (const [rel, secs] of Object.entries(mtimes))
        await node_fs_1.promises.utimes(path.join(root, rel), secs, secs);
}
let counter = 0;
function makeContext(agent, signal = new AbortController().signal, workingDirectories = [agent.cwd, ...agent.additionalDirectories]) {
    counter++;
    return {
        sessionId: 'test-session',
        toolUseId: `toolu_${counter}`,
        idempotencyKey: `test-session/toolu_${counter}`,
        agent,
        permission: {
            mode: 'bypassPermissions',
            rules: { allow: [], ask: [], deny: [] },
            workingDirectories,
        },
        abortSignal: signal,
    };
}
class ToolSession {
    agent;
    /** The session's working directories: fixed at start, whatever `cd` does later. */
    workingDirectories;
    constructor(cwd) {
        this.agent = (0, context_1.initialContext)(cwd);
        this.workingDirectories = [cwd];
    }
    async run(tool, rawInput, opts = {}) {
        const progress = [];
        const parsed = tool.inputSchema.safeParse(rawInput);
        if (!parsed.success)
            return { invalid: `schema: ${parsed.error.message}`, text: '', isError: true, progress };
        const ctx = makeContext(this.agent, opts.signal, this.workingDirectories);
        if (opts.backgroundTasks)
            ctx.backgroundTasks = true;
        const input = parsed.data;
        if (tool.validateInput) {
            const v = await tool.validateInput(input, ctx);
            if (!v.result)
                return { invalid: v.message, text: v.message, isError: true, progress };
        }
        let result;
        try {
            result = await tool.call(input, ctx, (p) => progress.push(p));
        }
        catch (err) {
            return { thrown: err, text: err.message, isError: true, progress };
        }
        const block = tool.mapToolResultToToolResultBlockParam(result.data, ctx.toolUseId);
        this.agent = (0, context_1.applyContextModifiers)(this.agent, result.contextModifiers ?? []);
        return { data: result.data, block, text: (0, messages_1.toolResultText)(block), isError: block.is_error === true, progress };
    }
}
exports.ToolSession = ToolSession;
//# sourceMappingURL=tools-harness.js.map