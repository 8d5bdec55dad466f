import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resolveAgentModel } from '../../src/agents/definitions';
import type { AnyTool } from '../../src/toolProtocol/Tool';
import { makeTmpDir, removeDir, ToolSession, writeTree } from './tools-harness';
import { toolToAPISchema } from '../../src/toolProtocol/apiSchema';
import {
  AgentTool,
  BashTool,
  BUILTIN_TOOLS,
  EditTool,
  GlobTool,
  GrepTool,
  NotebookEditTool,
  ReadTool,
  WriteTool,
} from '../../src/tools';

describe('BUILTIN_TOOLS', () => {
  it('exports the default tools by name', () => {
    assert.deepEqual(
      BUILTIN_TOOLS.map((t) => t.name),
      ['Bash', 'Glob', 'Grep', 'Read', 'Edit', 'Write', 'NotebookEdit'],
    );
    assert.deepEqual([BashTool, GlobTool, GrepTool, ReadTool, EditTool, WriteTool, NotebookEditTool], BUILTIN_TOOLS);
  });

  for (const tool of BUILTIN_TOOLS) {
    it(`${tool.name}: strict API schema with a description on every field, a prompt, passthrough permissions`, async () => {
      const api = await toolToAPISchema(tool);
      assert.equal(api.input_schema.additionalProperties, false);
      const props = api.input_schema.properties as Record<string, { description?: string }>;
      assert.ok(Object.keys(props).length > 0);
      for (const [name, prop] of Object.entries(props))
        assert.ok(prop.description && prop.description.length > 10, `${tool.name}.${name}`);
      assert.ok(api.description.length > 100);
      assert.equal(tool.isEnabled(), true);
      assert.deepEqual(await tool.checkPermissions({} as never, undefined as never), { behavior: 'passthrough' });
    });
  }

  it('inputs and required fields match the reference', async () => {
    const shape = async (t: (typeof BUILTIN_TOOLS)[number]) => {
      const s = (await toolToAPISchema(t)).input_schema;
      return { props: Object.keys(s.properties ?? {}).sort(), required: (s.required ?? []).slice().sort() };
    };
    assert.deepEqual(await shape(ReadTool), {
      props: ['allow_large', 'file_path', 'limit', 'offset', 'pages'],
      required: ['file_path'],
    });
    assert.deepEqual(await shape(WriteTool), { props: ['content', 'file_path'], required: ['content', 'file_path'] });
    assert.deepEqual(await shape(EditTool), {
      props: ['file_path', 'new_string', 'old_string', 'replace_all'],
      required: ['file_path', 'new_string', 'old_string'],
    });
    assert.deepEqual(await shape(GlobTool), { props: ['path', 'pattern'], required: ['pattern'] });
    assert.deepEqual(await shape(GrepTool), {
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
    assert.deepEqual(await shape(BashTool), {
      props: ['command', 'dangerouslyDisableSandbox', 'description', 'run_in_background', 'timeout'],
      required: ['command'],
    });
  });

  it('size limits', () => {
    assert.equal(GrepTool.maxResultSizeChars, 20_000);
    assert.equal(GlobTool.maxResultSizeChars, 100_000);
    assert.equal(BashTool.maxResultSizeChars, 30_000);
    assert.equal(EditTool.maxResultSizeChars, 100_000);
    assert.equal(WriteTool.maxResultSizeChars, 100_000);
    assert.ok(ReadTool.maxResultSizeChars >= Number.MAX_SAFE_INTEGER);
  });
});

// The reference's schemas have no minLength / positive checks: those moved to validateInput, so
// the same bad input is still an is_error result (test/unit/reference-schemas.test.ts).
describe('checks moved from the schema to validateInput', () => {
  let dir: string;
  before(async () => {
    dir = await makeTmpDir();
    await writeTree(dir, { 'a.txt': 'alpha\n' });
  });
  after(() => removeDir(dir));

  const cases: Array<[string, AnyTool, Record<string, unknown>, string]> = [
    ['Bash: empty command', BashTool, { command: '' }, 'command must not be empty'],
    [
      'Bash: timeout 0',
      BashTool,
      { command: 'true', timeout: 0 },
      'timeout must be a positive number of milliseconds (got 0)',
    ],
    [
      'Bash: negative timeout',
      BashTool,
      { command: 'true', timeout: -5 },
      'timeout must be a positive number of milliseconds (got -5)',
    ],
    ['Glob: empty pattern', GlobTool, { pattern: '' }, 'pattern must not be empty'],
    ['Write: empty file_path', WriteTool, { file_path: '', content: 'x' }, 'file_path must not be empty'],
    [
      'Edit: empty file_path',
      EditTool,
      { file_path: '', old_string: 'a', new_string: 'b' },
      'file_path must not be empty',
    ],
    ['Agent: empty description', AgentTool, { description: '', prompt: 'p' }, 'description must not be empty'],
    ['Agent: empty prompt', AgentTool, { description: 'd', prompt: '' }, 'prompt must not be empty'],
    [
      'Agent: empty subagent_type',
      AgentTool,
      { description: 'd', prompt: 'p', subagent_type: '' },
      'subagent_type must not be empty',
    ],
  ];
  for (const [name, tool, input, message] of cases) {
    it(name, async () => {
      const r = await new ToolSession(dir).run(tool, input);
      assert.ok(r.isError);
      assert.equal(r.invalid, message);
    });
  }

  it('Bash: a positive fractional timeout still passes', async () => {
    const r = await new ToolSession(dir).run(BashTool, { command: 'echo ok', timeout: 1500.5 });
    assert.equal(r.invalid, undefined);
    assert.match(r.text, /ok/);
  });

  it('Edit: replace_all defaults to false (in the schema, as the reference)', async () => {
    const parsed = EditTool.inputSchema.safeParse({ file_path: 'a.txt', old_string: 'a', new_string: 'b' });
    assert.ok(parsed.success);
    assert.equal((parsed.data as { replace_all: boolean }).replace_all, false);
  });

  it('Agent: model fable and effort are accepted; fable maps to the reference default id', async () => {
    const r = await new ToolSession(dir).run(AgentTool, {
      description: 'd',
      prompt: 'p',
      model: 'fable',
      effort: 'xhigh',
    });
    assert.equal(r.invalid, undefined, 'validation passes (call needs a scheduler)');
    assert.ok(!AgentTool.inputSchema.safeParse({ description: 'd', prompt: 'p', effort: 'extreme' }).success);
    assert.equal(resolveAgentModel('fable', 'parent', {}), 'claude-fable-5-2');
    assert.equal(resolveAgentModel('fable', 'parent', { ANTHROPIC_DEFAULT_FABLE_MODEL: 'my-fable' }), 'my-fable');
  });
});
