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
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const os = __importStar(require("node:os"));
const path = __importStar(require("node:path"));
const zod_1 = require("zod");
const Tool_1 = require("../../src/tools/Tool");
const toolPool_1 = require("../../src/permissions/toolPool");
const pool_1 = require("../../src/tools/pool");
const resultStore_1 = require("../../src/tools/resultStore");
const mk = (name, extra = {}) => (0, Tool_1.buildTool)({
    name,
    inputSchema: zod_1.z.object({}),
    prompt: () => name,
    call: async () => ({ data: '' }),
    mapToolResultToToolResultBlockParam: (_d, id) => ({
        type: 'tool_result',
        tool_use_id: id,
        content: '',
    }),
    ...extra,
});
const perms = (deny = []) => ({
    mode: 'default',
    rules: { allow: [], ask: [], deny },
    workingDirectories: ['/x'],
});
(0, node_test_1.test)('pool: built-ins plus user tools, filtered by blanket deny rules and isEnabled', () => {
    const pool = (0, toolPool_1.createToolPool)([mk('Read'), mk('Bash'), mk('Off', { isEnabled: () => false })], perms(['Bash', 'Read(*.env)']), {
        userTools: [
            mk('Mine', { aliases: ['MyAlias'] }),
            mk('Broken', {
                isEnabled: () => {
                    throw new Error('x');
                },
            }),
        ],
    });
    strict_1.default.deepEqual(pool.map((t) => t.name), ['Read', 'Mine']);
    strict_1.default.ok(Object.isFrozen(pool));
    strict_1.default.equal((0, pool_1.findToolByName)(pool, 'MyAlias')?.name, 'Mine');
    strict_1.default.equal((0, pool_1.findToolByName)(pool, 'Bash'), undefined, 'only the pool is searched');
    strict_1.default.equal((0, pool_1.findToolByName)(pool, 'read'), undefined, 'names are case-sensitive');
});
(0, node_test_1.test)('pool: a deny rule naming an alias removes the tool; duplicates are errors', () => {
    strict_1.default.deepEqual((0, toolPool_1.createToolPool)([mk('Mine', { aliases: ['M'] }), mk('Other')], perms(['M'])).map((t) => t.name), ['Other']);
    strict_1.default.throws(() => (0, toolPool_1.createToolPool)([mk('A'), mk('A')], perms()), /Duplicate tool name: A/);
    strict_1.default.throws(() => (0, toolPool_1.createToolPool)([mk('A')], perms(), { userTools: [mk('B', { aliases: ['A'] })] }), /Duplicate tool name: A/);
});
(0, node_test_1.test)('result store: <dir>/<id>.txt, absolute, idempotent, sanitised', async () => {
    const dir = await node_fs_1.promises.mkdtemp(path.join(os.tmpdir(), 'store-'));
    try {
        const store = new resultStore_1.LocalResultStore(path.relative(process.cwd(), dir));
        const p1 = await store.put('toolu_01ABC', 'hello');
        strict_1.default.equal(p1, path.join(dir, 'toolu_01ABC.txt'));
        strict_1.default.ok(path.isAbsolute(p1));
        strict_1.default.equal(await store.put('toolu_01ABC', 'hello'), p1);
        strict_1.default.equal(await node_fs_1.promises.readFile(p1, 'utf8'), 'hello');
        const evil = await store.put('../../etc/passwd', 'x');
        strict_1.default.equal(path.dirname(evil), dir);
        strict_1.default.notEqual((0, resultStore_1.resultFileName)('a/b'), (0, resultStore_1.resultFileName)('a_b'));
        strict_1.default.equal((0, resultStore_1.resultFileName)('a_b'), 'a_b.txt');
        strict_1.default.match((0, resultStore_1.resultFileName)(''), /^id-[0-9a-f]{16}\.txt$/);
        strict_1.default.deepEqual((await node_fs_1.promises.readdir(dir)).sort(), [(0, resultStore_1.resultFileName)('../../etc/passwd'), 'toolu_01ABC.txt'].sort());
        strict_1.default.match((0, resultStore_1.resultFileName)('../../etc/passwd'), /^[A-Za-z0-9_-]+\.txt$/);
    }
    finally {
        await node_fs_1.promises.rm(dir, { recursive: true, force: true });
    }
});
//# sourceMappingURL=pool.test.js.map