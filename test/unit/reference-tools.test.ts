// unit: the reference's captured tool schemas (test/fixtures/reference-tools, written by
// test/reference/captureTools.ts) keep field names, types and limits and no description text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stripDescriptions } from '../reference/schemas';

function fixturesDir(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const candidate = join(dir, 'test', 'fixtures', 'reference-tools', '2.1.328');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error('test/fixtures/reference-tools/2.1.328 not found');
  }
}

test('unit: stripDescriptions drops description texts and keeps a field named description', () => {
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
  assert.deepEqual(stripDescriptions(schema), {
    type: 'object',
    properties: {
      description: { type: 'string', maxLength: 10 },
      items: { type: 'array', items: { type: 'string' } },
      choice: { anyOf: [{ type: 'string' }, { const: 'y' }] },
    },
    required: ['description'],
  });
});

test('unit: every captured reference tool is a name and a description-free schema, listed in index.json', () => {
  const dir = fixturesDir();
  const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as Record<string, string[]>;
  const listed = [...index['upFront']!, ...index['deferred']!, ...index['onlyWithTools']!].sort();
  const files = readdirSync(dir)
    // Tool captures are named after their tool (capitalised); index.json and lower-case files such as
    // monitor-events.json (captured result texts, test/reference/captureMonitor.ts) are not tools.
    .filter((f) => f.endsWith('.json') && /^[A-Z]/.test(f))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
  assert.deepEqual(files, listed);
  for (const name of ['Bash', 'Monitor', 'TaskStop', 'ScheduleWakeup', 'CronCreate', 'EnterWorktree', 'ExitWorktree'])
    assert.ok(files.includes(name), `${name} captured`);
  for (const f of files) {
    const tool = JSON.parse(readFileSync(join(dir, `${f}.json`), 'utf8')) as Record<string, unknown>;
    assert.deepEqual(Object.keys(tool).sort(), ['input_schema', 'name']);
    assert.equal(tool['name'], f);
    assert.deepEqual(stripDescriptions(tool['input_schema']), tool['input_schema'], `${f} holds no description text`);
  }
});
