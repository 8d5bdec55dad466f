// The size and shape limits of src/ (issue 32), as `npm run lint` enforces them with two rules of its
// own beside ESLint's `max-lines` and `max-lines-per-function` (eslint.config.mjs):
//
// - `limits/max-class-lines`: no class (declaration or expression) spans more than `max` lines,
//   counted like `max-lines` there: from its first line to its last, comments and blank lines
//   included.
// - `limits/no-import-cycle`: no cycle in the import graph of src/'s files, type-only imports
//   included (`import type`, `export type … from`, `import('…')` in a type). A cycle of types loads
//   nothing, but it still ties two files into one concept that cannot be read, tested or moved
//   alone; the shared shape belongs in a file both import. The graph is read once per process with
//   TypeScript's own import scanner (ts.preProcessFile), and each import that closes a cycle is
//   reported with the cycle it closes.
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const src = path.join(root, 'src');

const rel = (abs) => path.relative(root, abs).split(path.sep).join('/');

function tsFiles(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...tsFiles(p));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** The file of src/ a relative specifier names (`../tools/Tool.js` → `src/toolProtocol/Tool.ts`), or undefined. */
function resolve(fromAbs, spec, files) {
  if (!spec.startsWith('.')) return undefined;
  const abs = path.resolve(path.dirname(fromAbs), spec);
  const base = abs.replace(/\.(js|ts)$/, '');
  return [`${base}.ts`, path.join(abs, 'index.ts'), abs].find((f) => files.has(f));
}

/** Every file of src/ → the files of src/ it imports (type-only imports included), with each import's specifiers. */
function importGraph() {
  const files = new Set(tsFiles(src));
  const graph = new Map();
  for (const f of files) {
    const info = ts.preProcessFile(readFileSync(f, 'utf8'), true, true);
    const edges = new Map();
    for (const { fileName } of info.importedFiles) {
      const to = resolve(f, fileName, files);
      if (to && to !== f && !edges.has(to)) edges.set(to, fileName);
    }
    graph.set(f, edges);
  }
  return graph;
}

/** Tarjan's strongly connected components: file → its component's id, for components of more than one file. */
function cyclicComponents(graph) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const comp = new Map();
  let next = 0;
  const strong = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v).keys()) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) !== idx.get(v)) return;
    const members = [];
    let w;
    do {
      w = stack.pop();
      on.delete(w);
      members.push(w);
    } while (w !== v);
    if (members.length > 1) {
      const id = next++;
      for (const m of members) comp.set(m, id);
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) strong(v);
  return comp;
}

/** The shortest path of imports from `from` back to `to` (a breadth-first search), as files. */
function pathBack(graph, from, to) {
  const prev = new Map([[from, undefined]]);
  const queue = [from];
  while (queue.length) {
    const v = queue.shift();
    if (v === to) break;
    for (const w of graph.get(v).keys())
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
  }
  const trail = [];
  for (let v = to; v !== undefined; v = prev.get(v)) trail.unshift(v);
  return trail;
}

let cached;
/** The graph and its cycles, read once per process (one lint run). */
function cycles() {
  if (!cached) {
    const graph = importGraph();
    cached = { graph, comp: cyclicComponents(graph) };
  }
  return cached;
}

export const limitsPlugin = {
  rules: {
    'max-class-lines': {
      meta: {
        type: 'suggestion',
        schema: [{ type: 'object', properties: { max: { type: 'integer' } }, additionalProperties: false }],
        docs: { description: 'no class longer than max lines, comments and blank lines included' },
      },
      create(context) {
        const max = context.options[0]?.max ?? 300;
        const check = (node) => {
          const lines = node.loc.end.line - node.loc.start.line + 1;
          if (lines > max)
            context.report({
              node: node.id ?? node,
              message: `class ${node.id?.name ?? '(anonymous)'} has ${lines} lines; at most ${max} (scripts/limits.mjs): split it by concept`,
            });
        };
        return { ClassDeclaration: check, ClassExpression: check };
      },
    },
    'no-import-cycle': {
      meta: {
        type: 'problem',
        schema: [],
        docs: { description: 'no import cycle between the files of src/, type-only imports included' },
      },
      create(context) {
        const file = context.filename;
        const { graph, comp } = cycles();
        const edges = graph.get(file);
        if (!edges || !comp.has(file)) return {};
        const id = comp.get(file);
        const closing = new Map();
        for (const [to, spec] of edges) if (comp.get(to) === id) closing.set(spec, to);
        const check = (node, spec) => {
          const to = closing.get(spec);
          if (!to) return;
          const cycle = [file, ...pathBack(graph, to, file)].map(rel);
          context.report({
            node,
            message: `import cycle: ${cycle.join(' → ')} (type-only imports count; move the shared part to a file both import, scripts/limits.mjs)`,
          });
        };
        const literal = (n) => (n?.type === 'Literal' ? n.value : undefined);
        return {
          ImportDeclaration: (node) => check(node, node.source.value),
          ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
          ExportAllDeclaration: (node) => check(node, node.source.value),
          ImportExpression: (node) => check(node, literal(node.source)),
          TSImportType: (node) => check(node, literal(node.argument?.literal ?? node.argument)),
        };
      },
    },
  },
};
