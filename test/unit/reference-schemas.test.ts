// unit: every tool the worker registers by default has the input schema of the reference's tool of
// the same name (Claude Code 2.1.328, captured in test/fixtures/reference-tools/2.1.328; descriptions
// stripped, `$schema` ignored). A difference fails unless DELIBERATE lists it with its reason
// (the same list is in docs/tools.md, "Schemas and the reference").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DEFAULT_WORKER_TOOLS } from '../../src/tools';
import { toolToAPISchema } from '../../src/toolProtocol/apiSchema';
import { stripDescriptions } from '../reference/schemas';

type Schema = { properties: Record<string, unknown>; [k: string]: unknown };

/** Tool → property (or `*` for the whole schema) → why ours differs on purpose. */
// Agent's run_in_background and isolation were here until background agents landed (issue 19).
const DELIBERATE: Record<string, Record<string, string>> = {};

function referenceDir(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const candidate = join(dir, 'test', 'fixtures', 'reference-tools', '2.1.328');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error('test/fixtures/reference-tools/2.1.328 not found');
  }
}

function reference(name: string): Schema | undefined {
  const file = join(referenceDir(), `${name}.json`);
  if (!existsSync(file)) return undefined;
  const { $schema: _ignored, ...rest } = (JSON.parse(readFileSync(file, 'utf8')) as { input_schema: Schema })
    .input_schema;
  return stripDescriptions(rest) as Schema;
}

/** The schema with the deliberately different properties taken out of both sides. */
function withoutDeliberate(name: string, schema: Schema): Schema {
  const skip = new Set(Object.keys(DELIBERATE[name] ?? {}));
  const properties = Object.fromEntries(Object.entries(schema.properties).filter(([p]) => !skip.has(p)));
  const required = Array.isArray(schema.required)
    ? (schema.required as string[]).filter((r) => !skip.has(r))
    : schema.required;
  return { ...schema, properties, ...(required !== undefined ? { required } : {}) };
}

test('unit: every default tool has a captured reference schema', () => {
  const missing = DEFAULT_WORKER_TOOLS.map((t) => t.name).filter((n) => reference(n) === undefined);
  assert.deepEqual(missing, []);
});

test('unit: DELIBERATE names only real differences (a property the reference has and we lack)', async () => {
  for (const [name, props] of Object.entries(DELIBERATE)) {
    const tool = DEFAULT_WORKER_TOOLS.find((t) => t.name === name);
    assert.ok(tool, `${name} is a default tool`);
    const ours = stripDescriptions((await toolToAPISchema(tool).then((a) => a.input_schema)) as Schema) as Schema;
    const ref = reference(name) as Schema;
    for (const [p, reason] of Object.entries(props)) {
      assert.ok(reason.length > 10, `${name}.${p} has a reason`);
      assert.notDeepEqual(ours.properties[p], ref.properties[p], `${name}.${p} is listed but agrees: remove it`);
    }
  }
});

for (const tool of DEFAULT_WORKER_TOOLS) {
  test(`unit: ${tool.name}'s input schema agrees with the reference's`, async () => {
    const ref = reference(tool.name);
    assert.ok(ref, `reference schema for ${tool.name}`);
    const ours = stripDescriptions((await toolToAPISchema(tool)).input_schema) as Schema;
    assert.deepEqual(withoutDeliberate(tool.name, ours), withoutDeliberate(tool.name, ref));
  });
}
