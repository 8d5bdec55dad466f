// The rooms of the code (docs/architecture.md "Rooms of the code"), as `npm run lint` enforces them:
// which rooms and which packages each room's modules may import. Imported by eslint.config.mjs.
//
// - A room is a folder of src/ (or a file at its top); a module belongs to the room of the longest
//   path that holds it. A module of src/ in no room is an error, and so is an import that resolves
//   to one.
// - Only runtime imports count: `import`, `export … from`, `import()`, `require()` and
//   `require.resolve()` with a literal specifier. `import type`, `export type` and an import whose
//   every name is `type` are erased by tsc and are free (they name a shape, they load nothing). An
//   import of a type without the `type` keyword counts: write `import type`.
// - A room imports itself freely. `node` stands for node's built-in modules.
// - The rooms form no cycle: that is checked when the config loads (rooms that may import each other,
//   directly or through others, would be one room), and so is the table in docs/architecture.md,
//   which must list exactly these rooms, imports and packages.
// - A room marked `temporalFree` (the in-process runner) reaches no `@temporalio/*` package: no room
//   it may import, directly or through others, lists one (checked when the config loads, naming the
//   chain of rooms). With the rule per file, no module those rooms hold can import Temporal at run
//   time; test/unit/inprocess-no-temporal.test.ts checks what a session really loads.
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import * as path from 'node:path';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));

/**
 * Every room, the lowest first. `imports`: the rooms it may import; `{ below: true, except }` is
 * every room listed before it but those; `'*'` is every room.
 */
export const ROOMS = [
  // Pure and deterministic, bundled into the workflows: today's engine, and the background tasks'
  // decisions (a feature folder holds a subfolder per room it spans).
  { room: 'core', paths: ['src/core/', 'src/tasks/core/'], imports: [], packages: [] },
  {
    room: 'hostProcess',
    paths: ['src/hostProcess/'],
    imports: [],
    packages: ['node', 'child_process'],
  },
  { room: 'files', paths: ['src/files/'], imports: [], packages: ['node'] },
  { room: 'encryption', paths: ['src/encryption/'], imports: ['core'], packages: ['node'] },
  {
    room: 'toolProtocol',
    paths: ['src/toolProtocol/'],
    imports: ['core', 'hostProcess', 'files'],
    packages: ['node', 'zod'],
  },
  { room: 'worktree', paths: ['src/worktree/'], imports: ['core', 'hostProcess'], packages: ['node'] },
  {
    room: 'permissions',
    paths: ['src/permissions/'],
    imports: ['core', 'hostProcess', 'files', 'toolProtocol'],
    packages: ['node', 'web-tree-sitter', 'tree-sitter-bash'],
  },
  {
    room: 'sandbox',
    paths: ['src/sandbox/', 'src/worktree/git/'],
    imports: ['core', 'hostProcess', 'files', 'toolProtocol', 'permissions'],
    packages: ['node', '@anthropic-ai/sandbox-runtime'],
  },
  {
    room: 'mcp',
    paths: ['src/mcp/'],
    imports: ['core', 'hostProcess', 'toolProtocol', 'permissions', 'sandbox'],
    packages: ['node', 'zod', '@modelcontextprotocol/sdk'],
  },
  {
    room: 'hooks',
    paths: ['src/hooks/'],
    imports: ['core', 'hostProcess', 'toolProtocol', 'permissions', 'sandbox', 'mcp'],
    packages: ['node'],
  },
  { room: 'agents', paths: ['src/agents/'], imports: ['core', 'toolProtocol', 'permissions'], packages: ['node'] },
  { room: 'stores', paths: ['src/stores/'], imports: ['core', 'encryption', 'toolProtocol'], packages: ['node', 'pg'] },
  {
    room: 'claudeMd',
    paths: ['src/claudeMd/'],
    imports: ['core', 'files', 'toolProtocol', 'permissions', 'stores'],
    packages: ['node'],
  },
  {
    room: 'tools',
    paths: ['src/tools/'],
    imports: ['core', 'hostProcess', 'files', 'toolProtocol', 'worktree', 'permissions', 'sandbox', 'agents'],
    packages: ['node', 'zod', 'diff'],
  },
  {
    room: 'pipeline',
    paths: ['src/toolCall/pipeline/'],
    imports: ['core', 'toolProtocol', 'permissions', 'hooks'],
    packages: ['node', 'zod'],
  },
  // The Temporal-free cores of every call: today's calls, a tool call under its ledger (beside the
  // pipeline that decides it) and a background task's run.
  {
    room: 'runtime',
    paths: ['src/runtime/', 'src/toolCall/', 'src/tasks/runtime/'],
    imports: { below: true },
    packages: ['node', '@anthropic-ai/sdk'],
  },
  // The workflow's frozen check of a session input: workflow code that imports nothing, also run at
  // the edge (sessionInput), which must not reach the rest of the workflows (@temporalio/workflow).
  { room: 'workflows/inputShape', paths: ['src/temporal/workflows/inputShape.ts'], imports: [], packages: [] },
  {
    room: 'workflows',
    paths: ['src/temporal/workflows/', 'src/tasks/workflows/'],
    imports: ['core', 'workflows/inputShape'],
    packages: ['@temporalio/workflow', '@temporalio/common'],
  },
  // The workflow interceptors of a tracing worker: bundled with the workflows only when tracing is on.
  {
    room: 'workflows/tracing',
    paths: ['src/temporal/workflows/tracing.ts'],
    imports: ['core'],
    packages: ['@opentelemetry/api', '@temporalio/interceptors-opentelemetry', '@temporalio/workflow'],
  },
  {
    room: 'activities',
    paths: ['src/temporal/activities/', 'src/tasks/activities/'],
    imports: ['core', 'runtime'],
    packages: ['node', '@anthropic-ai/sdk', '@opentelemetry/api', '@temporalio/activity', '@temporalio/common'],
  },
  // OpenTelemetry traces: the process's tracer provider from OTEL_*, the client's and worker's interceptors.
  {
    room: 'tracing',
    paths: ['src/temporal/tracing/'],
    imports: ['workflows/tracing'],
    packages: [
      'node',
      '@opentelemetry/context-async-hooks',
      '@opentelemetry/exporter-trace-otlp-http',
      '@opentelemetry/exporter-trace-otlp-proto',
      '@opentelemetry/resources',
      '@opentelemetry/sdk-trace-base',
      '@temporalio/interceptors-opentelemetry',
    ],
  },
  {
    room: 'temporalService',
    paths: ['src/temporal/service/'],
    imports: ['core', 'hostProcess', 'encryption', 'tracing'],
    packages: [
      'node',
      '@temporalio/client',
      '@temporalio/common',
      '@temporalio/proto',
      '@temporalio/testing',
      '@temporalio/worker',
    ],
  },
  {
    room: 'worker',
    paths: ['src/temporal/worker.ts', 'src/temporal/workerLimits.ts'],
    imports: { below: true },
    packages: ['node', '@anthropic-ai/sdk', '@temporalio/common', '@temporalio/worker'],
  },
  {
    room: 'sessionInput',
    paths: ['src/sessionInput.ts'],
    imports: [
      'core',
      'files',
      'toolProtocol',
      'worktree',
      'permissions',
      'sandbox',
      'mcp',
      'hooks',
      'agents',
      'claudeMd',
      'workflows/inputShape',
    ],
    packages: ['node'],
  },
  {
    room: 'client',
    paths: ['src/temporal/client.ts'],
    imports: [
      'core',
      'toolProtocol',
      'worktree',
      'permissions',
      'sandbox',
      'mcp',
      'hooks',
      'agents',
      'stores',
      'claudeMd',
      'workflows',
      'temporalService',
      'sessionInput',
    ],
    packages: ['node', '@temporalio/client', '@temporalio/common'],
  },
  {
    room: 'schedules',
    paths: ['src/temporal/schedules.ts'],
    imports: ['core', 'client'],
    packages: ['node', '@temporalio/client', '@temporalio/common'],
  },
  {
    room: 'audit',
    paths: ['src/audit/'],
    imports: ['core', 'toolProtocol', 'pipeline', 'stores', 'temporalService', 'client'],
    packages: ['node', '@temporalio/client', '@temporalio/common', '@temporalio/proto'],
  },
  {
    room: 'inprocess',
    paths: ['src/inprocess/', 'src/tasks/inprocess/'],
    imports: [
      'core',
      'files',
      'toolProtocol',
      'worktree',
      'permissions',
      'sandbox',
      'mcp',
      'hooks',
      'agents',
      'stores',
      'claudeMd',
      'tools',
      'pipeline',
      'runtime',
      'sessionInput',
    ],
    packages: ['node'],
    temporalFree: true,
  },
  { room: 'testing', paths: ['src/testing/'], imports: [], packages: ['node', '@anthropic-ai/sdk'] },
  { room: 'demo', paths: ['src/demo/'], imports: ['core', 'testing'], packages: ['node'] },
  {
    room: 'packageEntries',
    paths: ['src/packageEntries/', 'src/index.ts'],
    imports: { below: true, except: ['testing', 'demo'] },
    packages: ['node'],
  },
  { room: 'cli', paths: ['src/cli/'], imports: '*', packages: '*' },
];

const NODE = new Set(builtinModules);

/** The room of a repository-relative path (`src/toolProtocol/pool.ts`), by the longest path that holds it. */
export function roomOf(rel) {
  let best;
  for (const r of ROOMS)
    for (const p of r.paths)
      if ((p.endsWith('/') ? rel.startsWith(p) : rel === p) && (!best || p.length > best.len))
        best = { r, len: p.length };
  return best?.r;
}

/**
 * Modules that start processes (node's and the MCP SDK's stdio client, which spawns its server):
 * the package `child_process`, which only the hostProcess room lists (invariant 15, one door) and
 * which `'*'` does not include.
 */
const SPAWNING =
  /^(node:)?(child_process|cluster)$|^@modelcontextprotocol\/sdk\/client\/stdio(\.js)?$|^(cross-spawn|execa)$/;

function packageOf(spec) {
  if (SPAWNING.test(spec)) return 'child_process';
  if (spec.startsWith('node:') || NODE.has(spec.split('/')[0])) return 'node';
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The repository-relative file a relative specifier names (`../tools` → `src/tools/index.ts`). */
function resolveRelative(fromFile, spec) {
  const abs = path.resolve(path.dirname(fromFile), spec);
  const file = [`${abs}.ts`, path.join(abs, 'index.ts'), abs].find((f) => existsSync(f)) ?? `${abs}.ts`;
  return path.relative(root, file).split(path.sep).join('/');
}

function allowedRooms(r, rooms = ROOMS) {
  if (r.imports === '*') return rooms.map((x) => x.room);
  if (Array.isArray(r.imports)) return r.imports;
  const below = rooms.slice(0, rooms.indexOf(r)).map((x) => x.room);
  return below.filter((x) => !(r.imports.except ?? []).includes(x));
}

// --- Checked when the config loads. ---

/** No cycle between rooms: a depth-first search over the allowed imports. */
function assertAcyclic() {
  const byName = new Map(ROOMS.map((r) => [r.room, r]));
  for (const r of ROOMS)
    for (const i of allowedRooms(r))
      if (!byName.has(i)) throw new Error(`scripts/rooms.mjs: room ${r.room} imports an unknown room ${i}`);
  const state = new Map();
  const visit = (name, trail) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'open')
      throw new Error(`scripts/rooms.mjs: the rooms form a cycle: ${[...trail, name].join(' → ')}`);
    state.set(name, 'open');
    for (const i of allowedRooms(byName.get(name))) if (i !== name) visit(i, [...trail, name]);
    state.set(name, 'done');
  };
  for (const r of ROOMS) visit(r.room, []);
}

/**
 * What a `temporalFree` room may reach, directly or through others, lists no @temporalio/* package:
 * the problems, each with the chain of rooms (a table other than ROOMS is for the negative test).
 */
export function temporalFreeProblems(rooms = ROOMS) {
  const byName = new Map(rooms.map((r) => [r.room, r]));
  const temporal = (r) =>
    r.packages === '*'
      ? 'every package'
      : [...r.packages, ...Object.values(r.exceptions ?? {}).flat()].find((p) => p.startsWith('@temporalio/'));
  const problems = [];
  for (const start of rooms.filter((r) => r.temporalFree)) {
    const seen = new Set();
    const queue = [[start.room]];
    while (queue.length > 0) {
      const chain = queue.shift();
      const r = byName.get(chain[chain.length - 1]);
      if (seen.has(r.room)) continue;
      seen.add(r.room);
      const pkg = temporal(r);
      if (pkg)
        problems.push(`the ${start.room} room runs without Temporal, but it reaches ${pkg}: ${chain.join(' → ')}`);
      else for (const i of allowedRooms(r, rooms)) queue.push([...chain, i]);
    }
  }
  return problems;
}

function assertTemporalFree() {
  const problems = temporalFreeProblems();
  if (problems.length)
    throw new Error(`scripts/rooms.mjs (docs/architecture.md "Rooms of the code"):\n  ${problems.join('\n  ')}`);
}

const list = (xs) => (xs === '*' ? 'everything' : xs.length === 0 ? '—' : xs.map((x) => `\`${x}\``).join(', '));

/** A room's imports in words: the list, or "every room above" (the table's rows are in ROOMS's order). */
function importsText(r) {
  if (r.imports === '*' || Array.isArray(r.imports)) return list(r.imports);
  const except = r.imports.except ?? [];
  return except.length ? `every room above but ${list(except)}` : 'every room above';
}

/** The "may import" and "packages" cells docs/architecture.md must show for a room. */
export function docCells(r) {
  const exceptions = Object.entries(r.exceptions ?? {}).map(
    ([file, pkgs]) => ` (and \`${path.basename(file)}\`: ${list(pkgs)})`,
  );
  const packages = r.packages === '*' ? 'everything but `child_process`' : list(r.packages);
  return { imports: importsText(r), packages: packages + exceptions.join('') };
}

/** docs/architecture.md's rooms table lists exactly ROOMS: each row's room, paths, imports and packages. */
function assertDocTable() {
  const lines = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8').split('\n');
  const head = lines.findIndex((l) => l.startsWith('| room | folder or file | holds | may import | packages |'));
  const rows = [];
  for (let i = head + 2; head >= 0 && lines[i]?.startsWith('|'); i++)
    rows.push(lines[i].split(' | ').map((c) => c.replace(/^\|\s*|\s*\|$/g, '').trim()));
  const problems = head < 0 ? ['no table headed | room | folder or file | holds | may import | packages |'] : [];
  const seen = new Set();
  for (const [name, where, , imports, packages] of rows) {
    const r = ROOMS.find((x) => `**${x.room}**` === name);
    const paths = [...(where ?? '').matchAll(/`(src\/[^`]*)`/g)].map((m) => m[1]);
    if (!r) {
      problems.push(`the row ${name} names no room of scripts/rooms.mjs`);
      continue;
    }
    seen.add(r.room);
    const want = docCells(r);
    if (paths.join(' ') !== r.paths.join(' ')) problems.push(`${r.room}: "folder or file" should be ${list(r.paths)}`);
    if (imports !== want.imports) problems.push(`${r.room}: "may import" should be ${want.imports}`);
    if (packages !== want.packages) problems.push(`${r.room}: "packages" should be ${want.packages}`);
  }
  for (const r of ROOMS) if (!seen.has(r.room)) problems.push(`room ${r.room} has no row`);
  if (problems.length)
    throw new Error(`docs/architecture.md's rooms table differs from scripts/rooms.mjs:\n  ${problems.join('\n  ')}`);
}

assertAcyclic();
assertTemporalFree();
assertDocTable();

// --- The ESLint rule. ---

function typeOnly(node) {
  if (node.importKind === 'type' || node.exportKind === 'type') return true;
  const specs = node.specifiers ?? [];
  return (
    specs.length > 0 &&
    specs.every(
      (s) =>
        s.type !== 'ImportDefaultSpecifier' &&
        s.type !== 'ImportNamespaceSpecifier' &&
        (s.importKind === 'type' || s.exportKind === 'type'),
    )
  );
}

/** rooms/imports: every runtime import of a module of src/ keeps to its room's row of ROOMS. */
export const roomsPlugin = {
  rules: {
    imports: {
      meta: { type: 'problem', schema: [], docs: { description: 'the rooms of docs/architecture.md' } },
      create(context) {
        const file = context.filename;
        const rel = path.relative(root, file).split(path.sep).join('/');
        const from = roomOf(rel);
        const check = (node, spec) => {
          if (typeof spec !== 'string' || !from) return;
          if (spec.startsWith('.')) {
            const target = resolveRelative(file, spec);
            const to = roomOf(target);
            if (!to) return context.report({ node, message: `${spec} (${target}) is in no room of scripts/rooms.mjs` });
            if (to === from || allowedRooms(from).includes(to.room)) return;
            return context.report({
              node,
              message: `the ${from.room} room may not import the ${to.room} room (${spec}); it may import ${importsText(from)} (docs/architecture.md "Rooms of the code", scripts/rooms.mjs)`,
            });
          }
          const pkg = packageOf(spec);
          const allowed =
            (from.packages === '*' && pkg !== 'child_process') ||
            from.packages.includes(pkg) ||
            from.exceptions?.[rel]?.includes(pkg);
          if (!allowed)
            context.report({
              node,
              message: `the ${from.room} room may not import ${pkg}; its packages are ${list(from.packages)} (docs/architecture.md "Rooms of the code", scripts/rooms.mjs)`,
            });
        };
        const literal = (n) => (n?.type === 'Literal' ? n.value : undefined);
        return {
          Program(node) {
            if (!from) context.report({ node, message: `${rel} is in no room of scripts/rooms.mjs` });
          },
          ImportDeclaration(node) {
            if (!typeOnly(node)) check(node, node.source.value);
          },
          ExportNamedDeclaration(node) {
            if (node.source && !typeOnly(node)) check(node, node.source.value);
          },
          ExportAllDeclaration(node) {
            if (node.exportKind !== 'type') check(node, node.source.value);
          },
          ImportExpression(node) {
            check(node, literal(node.source));
          },
          TSImportEqualsDeclaration(node) {
            if (node.importKind !== 'type' && node.moduleReference.type === 'TSExternalModuleReference')
              check(node, literal(node.moduleReference.expression));
          },
          CallExpression(node) {
            const c = node.callee;
            const isRequire = c.type === 'Identifier' && c.name === 'require';
            const isResolve =
              c.type === 'MemberExpression' &&
              c.object.type === 'Identifier' &&
              c.object.name === 'require' &&
              c.property.type === 'Identifier' &&
              c.property.name === 'resolve';
            if (isRequire || isResolve) check(node, literal(node.arguments[0]));
          },
        };
      },
    },
  },
};
