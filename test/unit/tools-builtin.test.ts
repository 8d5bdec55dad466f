import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toolToAPISchema } from '../../src/tools/apiSchema';
import {
  BashTool,
  BUILTIN_TOOLS,
  EditTool,
  GlobTool,
  GrepTool,
  NotebookEditTool,
  ReadTool,
  WriteTool,
} from '../../src/tools/builtin';

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
    assert.deepEqual(await shape(ReadTool), { props: ['file_path', 'limit', 'offset'], required: ['file_path'] });
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
