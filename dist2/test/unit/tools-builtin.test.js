"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const node_test_1 = require("node:test");
const definitions_1 = require("../../src/agents/definitions");
const tools_harness_1 = require("./tools-harness");
const apiSchema_1 = require("../../src/tools/apiSchema");
const builtin_1 = require("../../src/tools/builtin");
(0, node_test_1.describe)('BUILTIN_TOOLS', () => {
    (0, node_test_1.it)('exports the default tools by name', () => {
        strict_1.default.deepEqual(builtin_1.BUILTIN_TOOLS.map((t) => t.name), ['Bash', 'Glob', 'Grep', 'Read', 'Edit', 'Write', 'NotebookEdit']);
        strict_1.default.deepEqual([builtin_1.BashTool, builtin_1.GlobTool, builtin_1.GrepTool, builtin_1.ReadTool, builtin_1.EditTool, builtin_1.WriteTool, builtin_1.NotebookEditTool], builtin_1.BUILTIN_TOOLS);
    });
    for (const tool of builtin_1.BUILTIN_TOOLS) {
        (0, node_test_1.it)(`${tool.name}: strict API schema with a description on every field, a prompt, passthrough permissions`, async () => {
            const api = await (0, apiSchema_1.toolToAPISchema)(tool);
            strict_1.default.equal(api.input_schema.additionalProperties, false);
            const props = api.input_schema.properties;
            strict_1.default.ok(Object.keys(props).length > 0);
            for (const [name, prop] of Object.entries(props))
                strict_1.default.ok(prop.description && prop.description.length > 10, `${tool.name}.${name}`);
            strict_1.default.ok(api.description.length > 100);
            strict_1.default.equal(tool.isEnabled(), true);
            strict_1.default.deepEqual(await tool.checkPermissions({}, undefined), { behavior: 'passthrough' });
        });
    }
    (0, node_test_1.it)('inputs and required fields match the reference', async () => {
        const shape = async (t) => {
            const s = (await (0, apiSchema_1.toolToAPISchema)(t)).input_schema;
            return { props: Object.keys(s.properties ?? {}).sort(), required: (s.required ?? []).slice().sort() };
        };
        strict_1.default.deepEqual(await shape(builtin_1.ReadTool), {
            props: ['allow_large', 'file_path', 'limit', 'offset', 'pages'],
            required: ['file_path'],
        });
        strict_1.default.deepEqual(await shape(builtin_1.WriteTool), { props: ['content', 'file_path'], required: ['content', 'file_path'] });
        strict_1.default.deepEqual(await shape(builtin_1.EditTool), {
            props: ['file_path', 'new_string', 'old_string', 'replace_all'],
            required: ['file_path', 'new_string', 'old_string'],
        });
        strict_1.default.deepEqual(await shape(builtin_1.GlobTool), { props: ['path', 'pattern'], required: ['pattern'] });
        strict_1.default.deepEqual(await shape(builtin_1.GrepTool), {
            props: [
                '-A',
                '-B',
                '-C',
                '-i',
                '-n',
                '-o',
                'context',
                'glob',
                'head_limit',
                'multiline',
                'offset',
                'output_mode',
                'path',
                'pattern',
                'type',
            ].sort(),
            required: ['pattern'],
        });
        strict_1.default.deepEqual(await shape(builtin_1.BashTool), {
            props: ['command', 'dangerouslyDisableSandbox', 'description', 'run_in_background', 'timeout'],
            required: ['command'],
        });
    });
    (0, node_test_1.it)('size limits', () => {
        strict_1.default.equal(builtin_1.GrepTool.maxResultSizeChars, 20_000);
        strict_1.default.equal(builtin_1.GlobTool.maxResultSizeChars, 100_000);
        strict_1.default.equal(builtin_1.BashTool.maxResultSizeChars, 30_000);
        strict_1.default.equal(builtin_1.EditTool.maxResultSizeChars, 100_000);
        strict_1.default.equal(builtin_1.WriteTool.maxResultSizeChars, 100_000);
        strict_1.default.ok(builtin_1.ReadTool.maxResultSizeChars >= Number.MAX_SAFE_INTEGER);
    });
});
// The reference's schemas have no minLength / positive checks: those moved to validateInput, so
// the same bad input is still an is_error result (test/unit/reference-schemas.test.ts).
(0, node_test_1.describe)('checks moved from the schema to validateInput', () => {
    let dir;
    (0, node_test_1.before)(async () => {
        dir = await (0, tools_harness_1.makeTmpDir)();
        await (0, tools_harness_1.writeTree)(dir, { 'a.txt': 'alpha\n' });
    });
    (0, node_test_1.after)(() => (0, tools_harness_1.removeDir)(dir));
    const cases = [
        ['Bash: empty command', builtin_1.BashTool, { command: '' }, 'command must not be empty'],
        [
            'Bash: timeout 0',
            builtin_1.BashTool,
            { command: 'true', timeout: 0 },
            'timeout must be a positive number of milliseconds (got 0)',
        ],
        [
            'Bash: negative timeout',
            builtin_1.BashTool,
            { command: 'true', timeout: -5 },
            'timeout must be a positive number of milliseconds (got -5)',
        ],
        ['Glob: empty pattern', builtin_1.GlobTool, { pattern: '' }, 'pattern must not be empty'],
        ['Write: empty file_path', builtin_1.WriteTool, { file_path: '', content: 'x' }, 'file_path must not be empty'],
        [
            'Edit: empty file_path',
            builtin_1.EditTool,
            { file_path: '', old_string: 'a', new_string: 'b' },
            'file_path must not be empty',
        ],
        ['Agent: empty description', builtin_1.AgentTool, { description: '', prompt: 'p' }, 'description must not be empty'],
        ['Agent: empty prompt', builtin_1.AgentTool, { description: 'd', prompt: '' }, 'prompt must not be empty'],
        [
            'Agent: empty subagent_type',
            builtin_1.AgentTool,
            { description: 'd', prompt: 'p', subagent_type: '' },
            'subagent_type must not be empty',
        ],
    ];
    for (const [name, tool, input, message] of cases) {
        (0, node_test_1.it)(name, async () => {
            const r = await new tools_harness_1.ToolSession(dir).run(tool, input);
            strict_1.default.ok(r.isError);
            strict_1.default.equal(r.invalid, message);
        });
    }
    (0, node_test_1.it)('Bash: a positive fractional timeout still passes', async () => {
        const r = await new tools_harness_1.ToolSession(dir).run(builtin_1.BashTool, { command: 'echo ok', timeout: 1500.5 });
        strict_1.default.equal(r.invalid, undefined);
        strict_1.default.match(r.text, /ok/);
    });
    (0, node_test_1.it)('Edit: replace_all defaults to false (in the schema, as the reference)', async () => {
        const parsed = builtin_1.EditTool.inputSchema.safeParse({ file_path: 'a.txt', old_string: 'a', new_string: 'b' });
        strict_1.default.ok(parsed.success);
        strict_1.default.equal(parsed.data.replace_all, false);
    });
    (0, node_test_1.it)('Agent: model fable and effort are accepted; fable maps to the reference default id', async () => {
        const r = await new tools_harness_1.ToolSession(dir).run(builtin_1.AgentTool, {
            description: 'd',
            prompt: 'p',
            model: 'fable',
            effort: 'xhigh',
        });
        strict_1.default.equal(r.invalid, undefined, 'validation passes (call needs a scheduler)');
        strict_1.default.ok(!builtin_1.AgentTool.inputSchema.safeParse({ description: 'd', prompt: 'p', effort: 'extreme' }).success);
        strict_1.default.equal((0, definitions_1.resolveAgentModel)('fable', 'parent', {}), 'claude-fable-5-2');
        strict_1.default.equal((0, definitions_1.resolveAgentModel)('fable', 'parent', { ANTHROPIC_DEFAULT_FABLE_MODEL: 'my-fable' }), 'my-fable');
    });
});
//# sourceMappingURL=tools-builtin.test.js.map