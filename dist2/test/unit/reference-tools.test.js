"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the reference's captured tool schemas (test/fixtures/reference-tools, written by
// test/reference/captureTools.ts) keep field names, types and limits and no description text.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const schemas_1 = require("../reference/schemas");
function fixturesDir() {
    for (let dir = __dirname;; dir = (0, node_path_1.dirname)(dir)) {
        const candidate = (0, node_path_1.join)(dir, 'test', 'fixtures', 'reference-tools', '2.1.328');
        if ((0, node_fs_1.existsSync)(candidate))
            return candidate;
        if ((0, node_path_1.dirname)(dir) === dir)
            throw new Error('test/fixtures/reference-tools/2.1.328 not found');
    }
}
(0, node_test_1.test)('unit: stripDescriptions drops description texts and keeps a field named description', () => {
    const schema = {
        type: 'object',
        description: 'a tool',
        properties: {
            description: { type: 'string', description: 'what it does', maxLength: 10 },
            items: { type: 'array', items: { type: 'string', description: 'one' } },
            choice: { anyOf: [{ type: 'string', description: 'x' }, { const: 'y' }] },
        },
        required: ['description'],
    };
    strict_1.default.deepEqual((0, schemas_1.stripDescriptions)(schema), {
        type: 'object',
        properties: {
            description: { type: 'string', maxLength: 10 },
            items: { type: 'array', items: { type: 'string' } },
            choice: { anyOf: [{ type: 'string' }, { const: 'y' }] },
        },
        required: ['description'],
    });
});
(0, node_test_1.test)('unit: every captured reference tool is a name and a description-free schema, listed in index.json', () => {
    const dir = fixturesDir();
    const index = JSON.parse((0, node_fs_1.readFileSync)((0, node_path_1.join)(dir, 'index.json'), 'utf8'));
    const listed = [...index['upFront'], ...index['deferred'], ...index['onlyWithTools']].sort();
    const files = (0, node_fs_1.readdirSync)(dir)
        // Tool captures are named after their tool (capitalised); index.json and lower-case files such as
        // monitor-events.json (captured result texts, test/reference/captureMonitor.ts) are not tools.
        .filter((f) => f.endsWith('.json') && /^[A-Z]/.test(f))
        .map((f) => f.slice(0, -'.json'.length))
        .sort();
    strict_1.default.deepEqual(files, listed);
    for (const name of ['Bash', 'Monitor', 'TaskStop', 'ScheduleWakeup', 'CronCreate', 'EnterWorktree', 'ExitWorktree'])
        strict_1.default.ok(files.includes(name), `${name} captured`);
    for (const f of files) {
        const tool = JSON.parse((0, node_fs_1.readFileSync)((0, node_path_1.join)(dir, `${f}.json`), 'utf8'));
        strict_1.default.deepEqual(Object.keys(tool).sort(), ['input_schema', 'name']);
        strict_1.default.equal(tool['name'], f);
        strict_1.default.deepEqual((0, schemas_1.stripDescriptions)(tool['input_schema']), tool['input_schema'], `${f} holds no description text`);
    }
});
//# sourceMappingURL=reference-tools.test.js.map