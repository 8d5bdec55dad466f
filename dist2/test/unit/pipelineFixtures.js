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
exports.FAKE_TOOLS = exports.Thrower = exports.Slow = exports.Big = exports.WriteFile = exports.Echo = exports.calls = void 0;
exports.tempDir = tempDir;
exports.makeEnv = makeEnv;
exports.use = use;
exports.script = script;
// Small fake tools and environments for the pipeline/hooks tests (not a test file itself).
const node_fs_1 = require("node:fs");
const os = __importStar(require("node:os"));
const path = __importStar(require("node:path"));
const zod_1 = require("zod");
const context_1 = require("../../src/engine/context");
const Tool_1 = require("../../src/tools/Tool");
const toolPool_1 = require("../../src/permissions/toolPool");
exports.calls = [];
const textResult = (d, id) => ({ type: 'tool_result', tool_use_id: id, content: String(d) });
exports.Echo = (0, Tool_1.buildTool)({
    name: 'Echo',
    aliases: ['Say'],
    inputSchema: zod_1.z.strictObject({ text: zod_1.z.string(), times: zod_1.z.number().int().min(1).default(1) }),
    prompt: () => 'Echoes text.',
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    summary: (i) => `Echo ${i.text}`,
    async validateInput(i) {
        return i.text === 'invalid' ? { result: false, message: 'Echo refuses the text "invalid".' } : { result: true };
    },
    async call(i, ctx) {
        exports.calls.push({ tool: 'Echo', input: i, ctx });
        return { data: i.text.repeat(i.times) };
    },
    mapToolResultToToolResultBlockParam: textResult,
});
exports.WriteFile = (0, Tool_1.buildTool)({
    name: 'WriteFile',
    inputSchema: zod_1.z.strictObject({ file_path: zod_1.z.string(), content: zod_1.z.string() }),
    prompt: () => 'Writes a file.',
    getPath: (i) => i.file_path,
    async call(i, ctx) {
        exports.calls.push({ tool: 'WriteFile', input: i, ctx });
        const p = path.resolve(ctx.agent.cwd, i.file_path);
        await node_fs_1.promises.writeFile(p, i.content);
        return {
            data: { path: p, bytes: i.content.length },
            contextModifiers: [{ type: 'fileWritten', path: p, mtimeMs: 1 }],
        };
    },
    mapToolResultToToolResultBlockParam: (d, id) => ({
        type: 'tool_result',
        tool_use_id: id,
        content: `Wrote ${d.bytes} bytes to ${d.path}`,
    }),
});
exports.Big = (0, Tool_1.buildTool)({
    name: 'Big',
    inputSchema: zod_1.z.object({ size: zod_1.z.number().int().nonnegative() }),
    prompt: () => 'Big output.',
    isReadOnly: () => true,
    maxResultSizeChars: 20_000,
    async call(i) {
        let s = '';
        for (let k = 0; s.length < i.size; k++)
            s += `line ${k} ${'x'.repeat(60)}\n`;
        return { data: s.slice(0, i.size) };
    },
    mapToolResultToToolResultBlockParam: textResult,
});
exports.Slow = (0, Tool_1.buildTool)({
    name: 'Slow',
    inputSchema: zod_1.z.object({ ms: zod_1.z.number() }),
    prompt: () => 'Slow.',
    isReadOnly: () => true,
    async call(i, ctx, onProgress) {
        exports.calls.push({ tool: 'Slow', input: i, ctx });
        onProgress({ stage: 'started' });
        await new Promise((resolve, reject) => {
            const t = setTimeout(resolve, i.ms);
            ctx.abortSignal.addEventListener('abort', () => {
                clearTimeout(t);
                reject(new Error('aborted'));
            }, { once: true });
        });
        onProgress({ stage: 'done' });
        return { data: `slept ${i.ms}` };
    },
    mapToolResultToToolResultBlockParam: textResult,
});
exports.Thrower = (0, Tool_1.buildTool)({
    name: 'Thrower',
    inputSchema: zod_1.z.object({}),
    prompt: () => 'Throws.',
    isReadOnly: () => true,
    async call() {
        throw new Error('disk on fire');
    },
    mapToolResultToToolResultBlockParam: textResult,
});
exports.FAKE_TOOLS = [exports.Echo, exports.WriteFile, exports.Big, exports.Slow, exports.Thrower];
async function tempDir(prefix = 'pipe-') {
    return node_fs_1.promises.realpath(await node_fs_1.promises.mkdtemp(path.join(os.tmpdir(), prefix)));
}
function makeEnv(cwd, opts = {}) {
    const { mode = 'default', rules = {}, tools = exports.FAKE_TOOLS, ...rest } = opts;
    const permission = { mode, rules: { allow: [], ask: [], deny: [], ...rules }, workingDirectories: [cwd] };
    return {
        pool: (0, toolPool_1.createToolPool)(tools, permission),
        sessionId: 'sess-1',
        agent: (0, context_1.initialContext)(cwd),
        permission,
        ...rest,
    };
}
let n = 0;
function use(name, input, id) {
    return { type: 'tool_use', id: id ?? `toolu_${(++n).toString().padStart(4, '0')}`, name, input };
}
/** Writes an executable shell script and returns the command that runs it. */
async function script(dir, name, body) {
    const p = path.join(dir, name);
    await node_fs_1.promises.writeFile(p, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
    return p;
}
//# sourceMappingURL=pipelineFixtures.js.map