"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: toolToAPISchema of every built-in tool equals its reviewed JSON Schema (golden files in
// test/fixtures/api-schemas). A schema change is an API change the model sees: update the golden
// file on purpose, in the same commit.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const builtin_1 = require("../../src/tools/builtin");
const apiSchema_1 = require("../../src/tools/apiSchema");
function fixturesDir() {
    for (let dir = __dirname;; dir = (0, node_path_1.dirname)(dir)) {
        const candidate = (0, node_path_1.join)(dir, 'test', 'fixtures', 'api-schemas');
        if ((0, node_fs_1.existsSync)(candidate))
            return candidate;
        if ((0, node_path_1.dirname)(dir) === dir)
            throw new Error('test/fixtures/api-schemas not found');
    }
}
(0, node_test_1.test)('unit: every built-in tool has a golden schema', () => {
    strict_1.default.deepEqual(builtin_1.BUILTIN_TOOLS.map((t) => t.name).sort(), [
        'Bash',
        'Edit',
        'Glob',
        'Grep',
        'NotebookEdit',
        'Read',
        'Write',
    ]);
});
// Skill and ToolSearch are not file or shell tools, but their schemas are as much an API the model sees.
for (const tool of [...builtin_1.BUILTIN_TOOLS, builtin_1.SkillTool, builtin_1.ToolSearchTool]) {
    (0, node_test_1.test)(`unit: toolToAPISchema(${tool.name}) matches its expected JSON Schema`, async () => {
        const expected = JSON.parse((0, node_fs_1.readFileSync)((0, node_path_1.join)(fixturesDir(), `${tool.name}.json`), 'utf8'));
        const api = await (0, apiSchema_1.toolToAPISchema)(tool);
        strict_1.default.equal(api.name, tool.name);
        strict_1.default.ok(api.description.length > 50, 'a real description');
        strict_1.default.deepEqual(api.input_schema, expected);
        // Sanity of the golden file itself: a strict object whose required fields exist.
        strict_1.default.equal(expected.additionalProperties, false);
        const props = Object.keys(expected.properties);
        for (const r of expected.required)
            strict_1.default.ok(props.includes(r), `${r} is a property`);
    });
}
//# sourceMappingURL=apiSchema-builtins.test.js.map