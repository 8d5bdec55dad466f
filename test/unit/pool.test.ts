import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { z } from 'zod';
import { buildTool } from '../../src/toolProtocol/Tool';
import { createToolPool } from '../../src/permissions/toolPool';
import { findToolByName } from '../../src/toolProtocol/pool';
import { LocalResultStore, resultFileName } from '../../src/toolProtocol/resultStore';

const mk = (name: string, extra: Record<string, unknown> = {}) =>
  buildTool({
    name,
    inputSchema: z.object({}),
    prompt: () => name,
    call: async () => ({ data: '' }),
    mapToolResultToToolResultBlockParam: (_d: string, id: string) => ({
      type: 'tool_result',
      tool_use_id: id,
      content: '',
    }),
    ...extra,
  });
const perms = (deny: string[] = []) => ({
  mode: 'default' as const,
  rules: { allow: [], ask: [], deny },
  workingDirectories: ['/x'],
});

test('pool: built-ins plus user tools, filtered by blanket deny rules and isEnabled', () => {
  const pool = createToolPool(
    [mk('Read'), mk('Bash'), mk('Off', { isEnabled: () => false })],
    perms(['Bash', 'Read(*.env)']),
    {
      userTools: [
        mk('Mine', { aliases: ['MyAlias'] }),
        mk('Broken', {
          isEnabled: () => {
            throw new Error('x');
          },
        }),
      ],
    },
  );
  assert.deepEqual(
    pool.map((t) => t.name),
    ['Read', 'Mine'],
  );
  assert.ok(Object.isFrozen(pool));
  assert.equal(findToolByName(pool, 'MyAlias')?.name, 'Mine');
  assert.equal(findToolByName(pool, 'Bash'), undefined, 'only the pool is searched');
  assert.equal(findToolByName(pool, 'read'), undefined, 'names are case-sensitive');
});

test('pool: a deny rule naming an alias removes the tool; duplicates are errors', () => {
  assert.deepEqual(
    createToolPool([mk('Mine', { aliases: ['M'] }), mk('Other')], perms(['M'])).map((t) => t.name),
    ['Other'],
  );
  assert.throws(() => createToolPool([mk('A'), mk('A')], perms()), /Duplicate tool name: A/);
  assert.throws(
    () => createToolPool([mk('A')], perms(), { userTools: [mk('B', { aliases: ['A'] })] }),
    /Duplicate tool name: A/,
  );
});

test('result store: <dir>/<id>.txt, absolute, idempotent, sanitised', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'store-'));
  try {
    const store = new LocalResultStore(path.relative(process.cwd(), dir));
    const p1 = await store.put('toolu_01ABC', 'hello');
    assert.equal(p1, path.join(dir, 'toolu_01ABC.txt'));
    assert.ok(path.isAbsolute(p1));
    assert.equal(await store.put('toolu_01ABC', 'hello'), p1);
    assert.equal(await fs.readFile(p1, 'utf8'), 'hello');
    const evil = await store.put('../../etc/passwd', 'x');
    assert.equal(path.dirname(evil), dir);
    assert.notEqual(resultFileName('a/b'), resultFileName('a_b'));
    assert.equal(resultFileName('a_b'), 'a_b.txt');
    assert.match(resultFileName(''), /^id-[0-9a-f]{16}\.txt$/);
    assert.deepEqual((await fs.readdir(dir)).sort(), [resultFileName('../../etc/passwd'), 'toolu_01ABC.txt'].sort());
    assert.match(resultFileName('../../etc/passwd'), /^[A-Za-z0-9_-]+\.txt$/);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});
