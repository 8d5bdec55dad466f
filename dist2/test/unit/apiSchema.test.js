"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const zod_1 = require("zod");
const Tool_1 = require("../../src/tools/Tool");
const apiSchema_1 = require("../../src/tools/apiSchema");
const base = {
    call: async () => ({ data: '' }),
    mapToolResultToToolResultBlockParam: (_d, id) => ({
        type: 'tool_result',
        tool_use_id: id,
        content: '',
    }),
};
(0, node_test_1.test)('toolToAPISchema: name, awaited prompt, input schema without $schema', async () => {
    const Grep = (0, Tool_1.buildTool)({
        name: 'Grep',
        inputSchema: zod_1.z.strictObject({
            pattern: zod_1.z.string().describe('The regular expression'),
            path: zod_1.z.string().optional(),
            output_mode: zod_1.z.enum(['content', 'files_with_matches', 'count']).default('files_with_matches'),
            '-i': zod_1.z.boolean().optional(),
            head_limit: zod_1.z.number().int().positive().optional(),
        }),
        prompt: async () => 'Search file contents with a regular expression.',
        ...base,
    });
    const s = await (0, apiSchema_1.toolToAPISchema)(Grep);
    strict_1.default.equal(s.name, 'Grep');
    strict_1.default.equal(s.description, 'Search file contents with a regular expression.');
    strict_1.default.equal('$schema' in s.input_schema, false);
    strict_1.default.equal(s.input_schema.type, 'object');
    strict_1.default.equal(s.input_schema.additionalProperties, false);
    strict_1.default.deepEqual(s.input_schema.required, ['pattern']);
    const props = s.input_schema.properties;
    strict_1.default.deepEqual(Object.keys(props), ['pattern', 'path', 'output_mode', '-i', 'head_limit']);
    strict_1.default.equal(props.pattern.description, 'The regular expression');
    strict_1.default.deepEqual(props.output_mode.enum, ['content', 'files_with_matches', 'count']);
    strict_1.default.equal(props.output_mode.default, 'files_with_matches');
    strict_1.default.equal(props.head_limit.type, 'integer');
    strict_1.default.doesNotThrow(() => JSON.stringify(s));
});
(0, node_test_1.test)('toolToAPISchema: non-strict objects leave additionalProperties open; non-objects are refused', async () => {
    const Loose = (0, Tool_1.buildTool)({
        name: 'Loose',
        inputSchema: zod_1.z.object({ a: zod_1.z.string(), b: zod_1.z.number().default(1) }),
        prompt: () => 'loose',
        ...base,
    });
    const s = await (0, apiSchema_1.toolToAPISchema)(Loose);
    strict_1.default.equal(s.input_schema.additionalProperties, undefined);
    strict_1.default.deepEqual(s.input_schema.required, ['a']);
    const Bad = (0, Tool_1.buildTool)({ name: 'Bad', inputSchema: zod_1.z.string(), prompt: () => 'bad', ...base });
    await strict_1.default.rejects((0, apiSchema_1.toolToAPISchema)(Bad), /Tool Bad: input schema must be an object/);
});
//# sourceMappingURL=apiSchema.test.js.map