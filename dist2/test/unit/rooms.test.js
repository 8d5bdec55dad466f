"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the rooms of the code keep their rules — workflow and engine code is deterministic and
// sandbox-safe (only @temporalio/workflow, @temporalio/common and modules of src/workflows and
// src/engine), and
// tools/pipeline never import Temporal.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const root = (() => {
    for (let dir = __dirname;; dir = (0, node_path_1.dirname)(dir)) {
        if ((0, node_fs_1.existsSync)((0, node_path_1.join)(dir, 'package.json')) && (0, node_fs_1.existsSync)((0, node_path_1.join)(dir, 'src')))
            return dir;
        if ((0, node_path_1.dirname)(dir) === dir)
            throw new Error('repo root not found');
    }
})();
function tsFiles(dir) {
    return (0, node_fs_1.readdirSync)((0, node_path_1.join)(root, dir), { withFileTypes: true, recursive: true })
        .filter((e) => e.isFile() && e.name.endsWith('.ts'))
        .map((e) => (0, node_path_1.join)(e.parentPath ?? e.path, e.name));
}
function importsOf(file) {
    const src = (0, node_fs_1.readFileSync)(file, 'utf8');
    const out = [];
    const re = /^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|require\(\s*['"]([^'"]+)['"]\s*\)/gm;
    for (const m of src.matchAll(re))
        out.push({ spec: (m[3] ?? m[4] ?? m[5]), typeOnly: Boolean(m[2]) });
    return out;
}
/** Follows relative value imports from the workflow entry and checks every module reached. */
(0, node_test_1.test)('unit: workflow code reaches only sandbox-safe modules', () => {
    const allowed = new Set(['@temporalio/workflow', '@temporalio/common']);
    const rooms = ['src/workflows', 'src/engine'];
    const seen = new Set();
    const queue = [(0, node_path_1.join)(root, 'src/workflows/index.ts')];
    const bad = [];
    while (queue.length) {
        const file = queue.pop();
        if (seen.has(file))
            continue;
        seen.add(file);
        for (const { spec, typeOnly } of importsOf(file)) {
            if (typeOnly)
                continue;
            if (spec.startsWith('.')) {
                const target = (0, node_path_1.resolve)((0, node_path_1.dirname)(file), spec);
                const path = (0, node_fs_1.existsSync)(`${target}.ts`) ? `${target}.ts` : (0, node_path_1.join)(target, 'index.ts');
                // Only the workflows and the pure engine: a value import of any other room (hooks/config
                // was one) brings rules that change between releases into code every replay runs.
                if (!rooms.some((r) => path.startsWith((0, node_path_1.join)(root, r, ''))))
                    bad.push(`${(0, node_path_1.relative)(root, file)} imports ${(0, node_path_1.relative)(root, path)} (outside src/workflows and src/engine)`);
                queue.push(path);
            }
            else if (!allowed.has(spec))
                bad.push(`${(0, node_path_1.relative)(root, file)} imports ${spec}`);
        }
    }
    strict_1.default.deepEqual(bad, []);
    // The engine is part of what the workflows reach.
    strict_1.default.ok([...seen].some((f) => f.includes(`${(0, node_path_1.join)('src', 'engine')}`)));
});
(0, node_test_1.test)('unit: the pure engine imports nothing but itself', () => {
    const bad = tsFiles('src/engine').flatMap((f) => importsOf(f)
        .filter((i) => !i.spec.startsWith('./'))
        .map((i) => `${(0, node_path_1.relative)(root, f)} imports ${i.spec}`));
    strict_1.default.deepEqual(bad, []);
});
(0, node_test_1.test)('unit: tools and the pipeline never import Temporal', () => {
    const bad = ['src/tools', 'src/pipeline', 'src/permissions', 'src/hooks'].flatMap((d) => tsFiles(d).flatMap((f) => importsOf(f)
        .filter((i) => i.spec.startsWith('@temporalio/'))
        .map((i) => `${(0, node_path_1.relative)(root, f)} imports ${i.spec}`)));
    strict_1.default.deepEqual(bad, []);
});
(0, node_test_1.test)('unit: the test and demo utilities (src/testing) are imported only by the demo and the CLI', () => {
    const users = tsFiles('src')
        .filter((f) => !f.includes(`${(0, node_path_1.join)('src', 'testing')}/`))
        .filter((f) => importsOf(f).some((i) => (0, node_path_1.resolve)((0, node_path_1.dirname)(f), i.spec).includes((0, node_path_1.join)(root, 'src', 'testing'))))
        .map((f) => (0, node_path_1.relative)(root, f))
        .filter((f) => !f.startsWith((0, node_path_1.join)('src', 'demo')) && !f.startsWith((0, node_path_1.join)('src', 'cli')));
    strict_1.default.deepEqual(users, []);
});
(0, node_test_1.test)('unit: the activities entry lists every activity factory; workflows import activities and their cores as types only', () => {
    const factories = tsFiles('src/activities').flatMap((f) => [...(0, node_fs_1.readFileSync)(f, 'utf8').matchAll(/^export function (create\w+Activities)\b/gm)].map((m) => m[1]));
    const entry = (0, node_fs_1.readFileSync)((0, node_path_1.join)(root, 'src/activities/index.ts'), 'utf8');
    for (const name of factories)
        strict_1.default.match(entry, new RegExp(`\\b${name}\\(`), `${name} is not used by src/activities/index.ts`);
    const bad = tsFiles('src/workflows').flatMap((f) => importsOf(f)
        .filter((i) => (i.spec.includes('activities') || i.spec.includes('calls/')) && !i.typeOnly)
        .map((i) => `${(0, node_path_1.relative)(root, f)} imports ${i.spec}`));
    strict_1.default.deepEqual(bad, []);
});
//# sourceMappingURL=rooms.test.js.map