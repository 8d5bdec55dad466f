// unit: the rooms of the code keep their rules — workflow and core code is deterministic and
// sandbox-safe (only @temporalio/workflow, @temporalio/common and modules of the workflows room,
// src/temporal/workflows and src/tasks/workflows, and of the core room, src/core and src/tasks/core),
// and tools/pipeline never import Temporal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = (() => {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'src'))) return dir;
    if (dirname(dir) === dir) throw new Error('repo root not found');
  }
})();

function tsFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath ?? (e as unknown as { path: string }).path, e.name));
}

function importsOf(file: string): Array<{ spec: string; typeOnly: boolean }> {
  const src = readFileSync(file, 'utf8');
  const out: Array<{ spec: string; typeOnly: boolean }> = [];
  const re =
    /^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|require\(\s*['"]([^'"]+)['"]\s*\)/gm;
  for (const m of src.matchAll(re)) out.push({ spec: (m[3] ?? m[4] ?? m[5]) as string, typeOnly: Boolean(m[2]) });
  return out;
}

/** Follows relative value imports from the workflow entry and checks every module reached. */
test('unit: workflow code reaches only sandbox-safe modules', () => {
  const allowed = new Set(['@temporalio/workflow', '@temporalio/common']);
  // The workflows room and the core room (scripts/rooms.mjs): a feature folder's subfolder belongs
  // to the room of its code.
  const rooms = ['src/temporal/workflows', 'src/tasks/workflows', 'src/core', 'src/tasks/core'];
  const seen = new Set<string>();
  const queue = [join(root, 'src/temporal/workflows/index.ts')];
  const bad: string[] = [];
  while (queue.length) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const { spec, typeOnly } of importsOf(file)) {
      if (typeOnly) continue;
      if (spec.startsWith('.')) {
        const target = resolve(dirname(file), spec);
        const path = existsSync(`${target}.ts`) ? `${target}.ts` : join(target, 'index.ts');
        // Only the workflows and the pure engine: a value import of any other room (hooks/config
        // was one) brings rules that change between releases into code every replay runs.
        if (!rooms.some((r) => path.startsWith(join(root, r, ''))))
          bad.push(
            `${relative(root, file)} imports ${relative(root, path)} (outside the workflows and core rooms: ${rooms.join(', ')})`,
          );
        queue.push(path);
      } else if (!allowed.has(spec)) bad.push(`${relative(root, file)} imports ${spec}`);
    }
  }
  assert.deepEqual(bad, []);
  // The core, and the tasks' core and workflow code, are part of what the workflows reach.
  for (const r of ['core', join('tasks', 'core'), join('tasks', 'workflows')])
    assert.ok(
      [...seen].some((f) => f.includes(`${join('src', r)}/`)),
      `the workflows reach nothing of src/${r}`,
    );
});

test('unit: the pure core imports nothing but itself', () => {
  const core = [join(root, 'src/core', ''), join(root, 'src/tasks/core', '')];
  const bad = [...tsFiles('src/core'), ...tsFiles('src/tasks/core')].flatMap((f) =>
    importsOf(f)
      .filter((i) => !(i.spec.startsWith('.') && core.some((c) => resolve(dirname(f), i.spec).startsWith(c))))
      .map((i) => `${relative(root, f)} imports ${i.spec}`),
  );
  assert.deepEqual(bad, []);
});

test('unit: tools and the pipeline never import Temporal', () => {
  const bad = ['src/toolProtocol', 'src/toolCall/pipeline', 'src/permissions', 'src/hooks'].flatMap((d) =>
    tsFiles(d).flatMap((f) =>
      importsOf(f)
        .filter((i) => i.spec.startsWith('@temporalio/'))
        .map((i) => `${relative(root, f)} imports ${i.spec}`),
    ),
  );
  assert.deepEqual(bad, []);
});

test('unit: the test and demo utilities (src/testing) are imported only by the demo and the CLI', () => {
  const users = tsFiles('src')
    .filter((f) => !f.includes(`${join('src', 'testing')}/`))
    .filter((f) => importsOf(f).some((i) => resolve(dirname(f), i.spec).includes(join(root, 'src', 'testing'))))
    .map((f) => relative(root, f))
    .filter((f) => !f.startsWith(join('src', 'demo')) && !f.startsWith(join('src', 'cli')));
  assert.deepEqual(users, []);
});

test('unit: the activities entry lists every activity factory; workflows import activities and their cores as types only', () => {
  const factories = [...tsFiles('src/temporal/activities'), ...tsFiles('src/tasks/activities')].flatMap((f) =>
    [...readFileSync(f, 'utf8').matchAll(/^export function (create\w+Activities)\b/gm)].map((m) => m[1] as string),
  );
  const entry = readFileSync(join(root, 'src/temporal/activities/index.ts'), 'utf8');
  for (const name of factories)
    assert.match(entry, new RegExp(`\\b${name}\\(`), `${name} is not used by src/temporal/activities/index.ts`);
  const bad = [...tsFiles('src/temporal/workflows'), ...tsFiles('src/tasks/workflows')].flatMap((f) =>
    importsOf(f)
      .filter((i) => /activities|runtime\/|toolCall\//.test(i.spec) && !i.typeOnly)
      .map((i) => `${relative(root, f)} imports ${i.spec}`),
  );
  assert.deepEqual(bad, []);
});
