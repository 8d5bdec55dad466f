import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { buildTool } from '../../src/toolProtocol/Tool';
import { toolToAPISchema } from '../../src/toolProtocol/apiSchema';

const base = {
  call: async () => ({ data: '' }),
  mapToolResultToToolResultBlockParam: (_d: string, id: string) => ({
    type: 'tool_result' as const,
    tool_use_id: id,
    content: '',
  }),
};

test('toolToAPISchema: name, awaited prompt, input schema without $schema', async () => {
  const Grep = buildTool({
    name: 'Grep',
    inputSchema: z.strictObject({
      pattern: z.string().describe('The regular expression'),
      path: z.string().optional(),
      output_mode: z.enum(['content', 'files_with_matches', 'count']).default('files_with_matches'),
      '-i': z.boolean().optional(),
      head_limit: z.number().int().positive().optional(),
    }),
    prompt: async () => 'Search file contents with a regular expression.',
    ...base,
  });
  const s = await toolToAPISchema(Grep);
  assert.equal(s.name, 'Grep');
  assert.equal(s.description, 'Search file contents with a regular expression.');
  assert.equal('$schema' in s.input_schema, false);
  assert.equal(s.input_schema.type, 'object');
  assert.equal(s.input_schema.additionalProperties, false);
  assert.deepEqual(s.input_schema.required, ['pattern']);
  const props = s.input_schema.properties as Record<string, Record<string, unknown>>;
  assert.deepEqual(Object.keys(props), ['pattern', 'path', 'output_mode', '-i', 'head_limit']);
  assert.equal(props.pattern!.description, 'The regular expression');
  assert.deepEqual(props.output_mode!.enum, ['content', 'files_with_matches', 'count']);
  assert.equal(props.output_mode!.default, 'files_with_matches');
  assert.equal(props.head_limit!.type, 'integer');
  assert.doesNotThrow(() => JSON.stringify(s));
});

test('toolToAPISchema: non-strict objects leave additionalProperties open; non-objects are refused', async () => {
  const Loose = buildTool({
    name: 'Loose',
    inputSchema: z.object({ a: z.string(), b: z.number().default(1) }),
    prompt: () => 'loose',
    ...base,
  });
  const s = await toolToAPISchema(Loose);
  assert.equal(s.input_schema.additionalProperties, undefined);
  assert.deepEqual(s.input_schema.required, ['a']);
  const Bad = buildTool({ name: 'Bad', inputSchema: z.string(), prompt: () => 'bad', ...base });
  await assert.rejects(toolToAPISchema(Bad), /Tool Bad: input schema must be an object/);
});

test('unit: toolToAPISchema converts a schema once and hands each call its own input_schema object', async () => {
  const T = buildTool({
    name: 'T',
    inputSchema: z.strictObject({ a: z.string(), b: z.number().default(1) }),
    prompt: async () => 'T.',
    ...base,
  });
  const first = await toolToAPISchema(T);
  const second = await toolToAPISchema(T);
  assert.deepEqual(second, first);
  assert.notEqual(second.input_schema, first.input_schema, 'a caller that changes its copy changes no other');
  (first.input_schema as Record<string, unknown>).extra = true;
  assert.equal((await toolToAPISchema(T)).input_schema.extra, undefined);
  assert.deepEqual((await toolToAPISchema(T)).input_schema.required, ['a']);
});
