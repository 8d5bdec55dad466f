// unit: toolToAPISchema of every built-in tool equals its reviewed JSON Schema (golden files in
// test/fixtures/api-schemas). A schema change is an API change the model sees: update the golden
// file on purpose, in the same commit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BUILTIN_TOOLS, SkillTool, ToolSearchTool } from '../../src/tools';
import { toolToAPISchema } from '../../src/toolProtocol/apiSchema';

function fixturesDir(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const candidate = join(dir, 'test', 'fixtures', 'api-schemas');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error('test/fixtures/api-schemas not found');
  }
}

test('unit: every built-in tool has a golden schema', () => {
  assert.deepEqual(BUILTIN_TOOLS.map((t) => t.name).sort(), [
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
for (const tool of [...BUILTIN_TOOLS, SkillTool, ToolSearchTool]) {
  test(`unit: toolToAPISchema(${tool.name}) matches its expected JSON Schema`, async () => {
    const expected = JSON.parse(readFileSync(join(fixturesDir(), `${tool.name}.json`), 'utf8')) as Record<
      string,
      unknown
    >;
    const api = await toolToAPISchema(tool);
    assert.equal(api.name, tool.name);
    assert.ok(api.description.length > 50, 'a real description');
    assert.deepEqual(api.input_schema, expected);
    // Sanity of the golden file itself: a strict object whose required fields exist.
    assert.equal(expected.additionalProperties, false);
    const props = Object.keys(expected.properties as object);
    for (const r of expected.required as string[]) assert.ok(props.includes(r), `${r} is a property`);
  });
}
