"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: every tool the worker registers by default has the input schema of the reference's tool of
// the same name (Claude Code 2.1.328, captured in test/fixtures/reference-tools/2.1.328; descriptions
// stripped, `$schema` ignored). A difference fails unless DELIBERATE lists it with its reason
// (the same list is in docs/tools.md, "Schemas and the reference").
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const builtin_1 = require("../../src/tools/builtin");
const apiSchema_1 = require("../../src/tools/apiSchema");
const schemas_1 = require("../reference/schemas");
/** Tool → property (or `*` for the whole schema) → why ours differs on purpose. */
// Agent's run_in_background and isolation were here until background agents landed (issue 19).
const DELIBERATE = {};
function referenceDir() {
    for (let dir = __dirname;; dir = (0, node_path_1.dirname)(dir)) {
        const candidate = (0, node_path_1.join)(dir, 'test', 'fixtures', 'reference-tools', '2.1.328');
        if ((0, node_fs_1.existsSync)(candidate))
            return candidate;
        if ((0, node_path_1.dirname)(dir) === dir)
            throw new Error('test/fixtures/reference-tools/2.1.328 not found');
    }
}
function reference(name) {
    const file = (0, node_path_1.join)(referenceDir(), `${name}.json`);
    if (!(0, node_fs_1.existsSync)(file))
        return undefined;
    const { $schema: _ignored, ...rest } = JSON.parse((0, node_fs_1.readFileSync)(file, 'utf8'))
        .input_schema;
    return (0, schemas_1.stripDescriptions)(rest);
}
/** The schema with the deliberately different properties taken out of both sides. */
function withoutDeliberate(name, schema) {
    const skip = new Set(Object.keys(DELIBERATE[name] ?? {}));
    const properties = Object.fromEntries(Object.entries(schema.properties).filter(([p]) => !skip.has(p)));
    const required = Array.isArray(schema.required)
        ? schema.required.filter((r) => !skip.has(r))
        : schema.required;
    return { ...schema, properties, ...(required !== undefined ? { required } : {}) };
}
(0, node_test_1.test)('unit: every default tool has a captured reference schema', () => {
    const missing = builtin_1.DEFAULT_WORKER_TOOLS.map((t) => t.name).filter((n) => reference(n) === undefined);
    strict_1.default.deepEqual(missing, []);
});
(0, node_test_1.test)('unit: DELIBERATE names only real differences (a property the reference has and we lack)', async () => {
    for (const [name, props] of Object.entries(DELIBERATE)) {
        const tool = builtin_1.DEFAULT_WORKER_TOOLS.find((t) => t.name === name);
        strict_1.default.ok(tool, `${name} is a default tool`);
        const ours = (0, schemas_1.stripDescriptions)((await (0, apiSchema_1.toolToAPISchema)(tool).then((a) => a.input_schema)));
        const ref = reference(name);
        for (const [p, reason] of Object.entries(props)) {
            strict_1.default.ok(reason.length > 10, `${name}.${p} has a reason`);
            strict_1.default.notDeepEqual(ours.properties[p], ref.properties[p], `${name}.${p} is listed but agrees: remove it`);
        }
    }
});
for (const tool of builtin_1.DEFAULT_WORKER_TOOLS) {
    (0, node_test_1.test)(`unit: ${tool.name}'s input schema agrees with the reference's`, async () => {
        const ref = reference(tool.name);
        strict_1.default.ok(ref, `reference schema for ${tool.name}`);
        const ours = (0, schemas_1.stripDescriptions)((await (0, apiSchema_1.toolToAPISchema)(tool)).input_schema);
        strict_1.default.deepEqual(withoutDeliberate(tool.name, ours), withoutDeliberate(tool.name, ref));
    });
}
//# sourceMappingURL=reference-schemas.test.js.map