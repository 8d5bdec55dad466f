// Fuzz: random and malformed inputs to every built-in tool through runToolPipeline. Every call must
// come back as a well-formed tool_result with the same id, and runToolPipeline must never throw.
// Safety: the session cwd sits four directories deep inside a fresh temp dir, and every path the
// fuzzer produces (traversal included) resolves inside that temp dir; Bash only ever gets a fixed
// set of harmless commands (or a non-string `command`).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { initialContext } from '../../src/core/context';
import { runToolPipeline, type PipelineEnv, type ToolUseOutcome } from '../../src/toolCall/pipeline';
import { BUILTIN_TOOLS } from '../../src/tools';
import { createToolPool } from '../../src/permissions/toolPool';
import { LocalResultStore } from '../../src/toolProtocol/resultStore';

const CASES_PER_TOOL = Number(process.env.FUZZ_CASES_PER_TOOL ?? 200);

// ---- deterministic PRNG ---------------------------------------------------------------------
function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const SEED = Number(process.env.FUZZ_SEED ?? 20240607);
const rnd = mulberry32(SEED);
const int = (n: number) => Math.floor(rnd() * n);
const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
const chance = (p: number) => rnd() < p;

// ---- sandbox --------------------------------------------------------------------------------
let root = '';
let cwd = '';
let env: PipelineEnv;

before(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'fuzz-')));
  cwd = path.join(root, 'a', 'b', 'c', 'work');
  await fs.mkdir(path.join(cwd, 'sub', 'deeper'), { recursive: true });
  await fs.writeFile(path.join(cwd, 'a.txt'), 'alpha\nbeta\ngamma\n');
  await fs.writeFile(path.join(cwd, 'sub', 'b.ts'), 'export const x = 1;\n// TODO: fuzz\n');
  await fs.writeFile(path.join(cwd, 'sub', 'deeper', 'ünï cödé.md'), '# héllo 🌍\n');
  await fs.writeFile(path.join(cwd, '.gitignore'), 'ignored/\n');
  await fs.writeFile(path.join(cwd, 'empty.txt'), '');
  await fs.writeFile(
    path.join(cwd, 'nb.ipynb'),
    JSON.stringify({
      cells: [{ cell_type: 'code', id: 'abc', source: 'print(1)', outputs: [] }],
      nbformat: 4,
      nbformat_minor: 5,
    }),
  );
  await fs.writeFile(path.join(root, 'outside.txt'), 'outside the cwd, inside the sandbox\n');
  const permission = {
    mode: 'bypassPermissions' as const,
    rules: { allow: [], ask: [], deny: [] },
    workingDirectories: [cwd],
  };
  env = {
    pool: createToolPool(BUILTIN_TOOLS, permission),
    sessionId: 'fuzz',
    agent: initialContext(cwd),
    permission,
    resultStore: new LocalResultStore(path.join(root, 'results')),
  };
});
after(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

// ---- value generators -----------------------------------------------------------------------
const UNICODE = [
  'é',
  'ß',
  '中',
  '文',
  '🌍',
  '👩‍👩‍👧',
  '\u202e',
  '\u200b',
  '\ufeff',
  'Ω',
  '𝔘',
  '\t',
  ' ',
  '"',
  "'",
  '\\',
  '%',
  '*',
  '?',
  '[',
  ']',
  '{',
  '}',
  '(',
  ')',
  '$',
  '`',
  '|',
  ';',
  '&',
  '<',
  '>',
  '#',
  '~',
  '!',
  '\n',
  '\r',
  '.',
  '-',
  '_',
];
function randomString(max = 40): string {
  const n = int(max);
  let s = '';
  for (let k = 0; k < n; k++) s += chance(0.5) ? String.fromCharCode(97 + int(26)) : pick(UNICODE);
  return s; // never contains '/' nor NUL: a random "path" is one component, inside the sandbox
}
const hugeString = () => 'x'.repeat(100_000 + int(50_000));
const numbers = [
  0,
  -1,
  -0,
  1,
  2,
  1.5,
  -3.7,
  1e9,
  -1e9,
  2 ** 53 + 2,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  Number.MIN_VALUE,
  Infinity,
  -Infinity,
  NaN,
];

/** Paths (relative to the deep cwd, or absolute) that always resolve inside the sandbox. */
function sandboxPath(): string {
  return pick([
    'a.txt',
    'sub/b.ts',
    'sub',
    'sub/deeper/ünï cödé.md',
    'missing.txt',
    'empty.txt',
    '.',
    './',
    '',
    '../work/a.txt',
    '../../c/work/sub/../a.txt',
    '../../../../outside.txt',
    '../../../..',
    '../../../../nope/x',
    'sub/../../work/./a.txt',
    './sub/deeper/',
    '~nouser',
    'a.txt/',
    'a.txt/child',
    path.join(cwd, 'a.txt'),
    path.join(root, 'outside.txt'),
    root,
    path.join(root, 'ghost', 'x.txt'),
    randomString(20),
    `sub/${randomString(10)}`,
    `${'../'.repeat(4)}${randomString(8)}`,
  ]);
}
/** Where Write may create files: fresh names inside the sandbox. */
function writablePath(): string {
  return pick([
    `new-${int(1e6)}.txt`,
    `sub/new-${int(1e6)}.txt`,
    `nested/${int(1e6)}/deep/f.txt`,
    `../../../../w-${int(1e6)}.txt`,
    path.join(root, `abs-${int(1e6)}.txt`),
    `${randomString(12)}-${int(1e6)}`,
    'a.txt',
    'sub',
    '.',
    '',
    'x'.repeat(300),
  ]);
}

function junk(depth = 0): unknown {
  const r = int(depth > 2 ? 8 : 12);
  switch (r) {
    case 0:
      return null;
    case 1:
      return undefined;
    case 2:
      return chance(0.5);
    case 3:
      return pick(numbers);
    case 4:
      return randomString();
    case 5:
      return chance(0.2) ? hugeString() : '';
    case 6:
      return pick([
        '\u0000',
        '\u0000abc',
        '../../../../etc/passwd',
        '🌍'.repeat(50),
        '{"a":1}',
        '[]',
        'null',
        '__proto__',
      ]);
    case 7:
      return pick([[], {}, [null], { '': '' }]);
    case 8:
      return Array.from({ length: int(5) }, () => junk(depth + 1));
    case 9: {
      const o: Record<string, unknown> = {};
      for (let k = int(5); k > 0; k--)
        o[pick(['a', 'path', 'file_path', 'pattern', 'x', randomString(6), 'constructor', 'toString'])] = junk(
          depth + 1,
        );
      return o;
    }
    case 10:
      return JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}');
    default:
      return new Array(3).fill(junk(depth + 1));
  }
}

const safeBashCommands = () =>
  pick([
    `echo '${randomString(30).replace(/'/g, `'\\''`)}'`,
    `printf '%s\\n' '${randomString(20).replace(/'/g, `'\\''`)}'`,
    'true',
    'false',
    'exit 3',
    'echo err >&2',
    'pwd',
    'ls',
    'ls -la sub',
    'cat a.txt',
    'cat missing-file',
    'grep beta a.txt',
    'grep nomatch a.txt',
    'wc -l a.txt',
    'sleep 0.01',
    'cd sub',
    'cd ..',
    'echo "$HOME"',
    `echo ${'z'.repeat(40_000)}`,
    'seq 1 5000',
    ':',
    '',
  ]);

/** A plausible valid input per tool, to be mutated. */
const valid: Record<string, () => Record<string, unknown>> = {
  Read: () => ({
    file_path: sandboxPath(),
    ...(chance(0.3) ? { offset: pick([0, 1, 2, 999, -1, 1.5]) } : {}),
    ...(chance(0.3) ? { limit: pick([1, 2, 0, -5, 1e9]) } : {}),
  }),
  Write: () => ({ file_path: writablePath(), content: chance(0.1) ? hugeString() : randomString(200) }),
  Edit: () => ({
    file_path: pick(['a.txt', 'sub/b.ts', 'missing.txt', 'sub', '../../../../outside.txt']),
    old_string: pick(['beta', 'alpha', '', randomString(5)]),
    new_string: pick(['BETA', '', randomString(10)]),
    ...(chance(0.3) ? { replace_all: pick([true, false]) } : {}),
  }),
  NotebookEdit: () => ({
    notebook_path: pick(['nb.ipynb', 'a.txt', 'missing.ipynb', 'sub', '../../../../outside.ipynb']),
    new_source: pick(['x = 1', '', randomString(20)]),
    ...(chance(0.5) ? { cell_id: pick(['cell-0', 'cell-9', 'abc', '', randomString(4)]) } : {}),
    ...(chance(0.4) ? { cell_type: pick(['code', 'markdown', 'raw']) } : {}),
    ...(chance(0.5) ? { edit_mode: pick(['replace', 'insert', 'delete', 'append']) } : {}),
  }),
  Glob: () => ({
    pattern: pick([
      '**/*',
      '*.txt',
      '**/*.{ts,md}',
      'sub/**',
      '[',
      '{{{',
      '**/**/**',
      '*',
      '.*',
      '!x',
      randomString(10) || 'x',
      path.join(root, '**', '*.txt'),
    ]),
    ...(chance(0.5) ? { path: pick(['sub', '.', 'a.txt', 'missing', '../../../..', root, randomString(8)]) } : {}),
  }),
  Grep: () => ({
    pattern: pick(['beta', 'a.*', '(', '[', '\\', '(?i)ALPHA', 'x{2,1}', '^$', randomString(8), '🌍', '\\bfuzz\\b']),
    ...(chance(0.5) ? { path: pick(['sub', '.', 'a.txt', 'missing', '../../../..', root]) } : {}),
    ...(chance(0.3) ? { glob: pick(['*.ts', '*.{ts,md}', '!*.txt', '[', randomString(6)]) } : {}),
    ...(chance(0.2) ? { type: pick(['ts', 'js', 'nonsense-type', '']) } : {}),
    ...(chance(0.5) ? { output_mode: pick(['content', 'files_with_matches', 'count']) } : {}),
    ...(chance(0.3) ? { '-A': pick([0, 1, 5]), '-n': chance(0.5), '-i': chance(0.5) } : {}),
    ...(chance(0.3) ? { head_limit: pick([0, 1, 3]), offset: pick([0, 1, 100]) } : {}),
    ...(chance(0.2) ? { multiline: true } : {}),
  }),
  Bash: () => ({
    command: safeBashCommands(),
    ...(chance(0.2) ? { timeout: pick([1, 5000, 1e12]) } : {}),
    ...(chance(0.2) ? { description: randomString(20) } : {}),
    ...(chance(0.1) ? { run_in_background: chance(0.5) } : {}),
  }),
};

function generate(tool: string): unknown {
  const base = valid[tool]!();
  const keys = Object.keys(base);
  switch (int(7)) {
    case 0: // the whole input is junk
      return junk();
    case 1: {
      // one field replaced by junk
      const k = pick(keys);
      return { ...base, [k]: junk() };
    }
    case 2: {
      // a required-looking field missing
      const copy = { ...base };
      delete copy[pick(keys)];
      return copy;
    }
    case 3: // an extra field
      return { ...base, [pick(['extra', 'FILE_PATH', 'Command', randomString(5) || 'z'])]: junk() };
    case 4: // wrong container
      return pick([[base], JSON.stringify(base), Object.values(base)]);
    default: // plausible input
      return base;
  }
}

/** Bash must only ever run the harmless commands above: anything else becomes a non-string. */
function makeBashSafe(input: unknown, safe: Set<string>): unknown {
  if (
    input &&
    typeof input === 'object' &&
    !Array.isArray(input) &&
    typeof (input as { command?: unknown }).command === 'string'
  ) {
    const c = (input as { command: string }).command;
    if (!safe.has(c)) return { ...(input as object), command: 12345 };
  }
  return input;
}

function checkOutcome(o: ToolUseOutcome, id: string, what: string) {
  assert.equal(o.toolUseId, id, what);
  assert.ok(['ok', 'error', 'denied', 'interrupted'].includes(o.status), `${what}: status ${o.status}`);
  const r = o.result;
  assert.ok(r, `${what}: result`);
  assert.equal(r.type, 'tool_result', what);
  assert.equal(r.tool_use_id, id, what);
  assert.ok(
    typeof r.content === 'string' ||
      (Array.isArray(r.content) && r.content.every((c) => c.type === 'text' && typeof c.text === 'string')),
    `${what}: content shape`,
  );
  assert.ok(r.is_error === undefined || typeof r.is_error === 'boolean', what);
  if (o.status !== 'ok') assert.equal(r.is_error, true, `${what}: a failure is is_error`);
  if (o.failure) assert.ok(o.failure.message.length > 0, what);
  const s =
    typeof r.content === 'string' ? r.content : r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  assert.ok(s.length <= 200_000, `${what}: result size ${s.length}`);
  assert.doesNotThrow(() => JSON.parse(JSON.stringify(o)), `${what}: serialisable`);
}

test(
  `fuzz: ${CASES_PER_TOOL} random/malformed inputs to every built-in tool through runToolPipeline`,
  { timeout: 300_000 },
  async () => {
    const names = BUILTIN_TOOLS.map((t) => t.name).sort();
    assert.deepEqual(names, ['Bash', 'Edit', 'Glob', 'Grep', 'NotebookEdit', 'Read', 'Write']);
    const stats: Record<string, Record<string, number>> = {};
    for (const tool of names) {
      stats[tool] = {};
      for (let k = 0; k < CASES_PER_TOOL; k++) {
        let input = generate(tool);
        if (tool === 'Bash') {
          // Rebuild the safe set for this draw: any string command must be one we generated as safe.
          const candidate = (input as { command?: unknown } | null)?.command;
          const safe = new Set<string>();
          if (typeof candidate === 'string' && isKnownSafe(candidate)) safe.add(candidate);
          input = makeBashSafe(input, safe);
        }
        const id = `toolu_fuzz_${tool}_${k}`;
        const what = `${tool}#${k} ${safeStringify(input)}`;
        let o: ToolUseOutcome;
        try {
          o = await runToolPipeline({ type: 'tool_use', id, name: tool, input }, env);
        } catch (e) {
          assert.fail(`${what}: runToolPipeline threw ${(e as Error).stack}`);
        }
        checkOutcome(o, id, what);
        const key = o.failure ? `${o.status}:${o.failure.stage}` : o.status;
        stats[tool]![key] = (stats[tool]![key] ?? 0) + 1;
      }
    }
    // Every tool saw both rejected and accepted inputs.
    for (const tool of names) {
      const s = stats[tool]!;
      assert.ok((s['error:schema'] ?? 0) > 0, `${tool}: some schema errors ${JSON.stringify(s)}`);
      assert.ok(
        Object.keys(s).some((k) => k === 'ok' || k.endsWith(':call') || k.endsWith(':validate')),
        `${tool}: some inputs got past the schema ${JSON.stringify(s)}`,
      );
    }
    // Nothing escaped the sandbox's parent.
    assert.ok(!(await exists(path.join(path.dirname(root), 'outside.txt'))));
    console.log(`fuzz seed ${SEED}:`, JSON.stringify(stats));
  },
);

function isKnownSafe(c: string): boolean {
  return (
    /^echo '(?:[^']|'\\'')*'$/.test(c) ||
    /^printf '%s\\n' '(?:[^']|'\\'')*'$/.test(c) ||
    /^echo z+$/.test(c) ||
    [
      'true',
      'false',
      'exit 3',
      'echo err >&2',
      'pwd',
      'ls',
      'ls -la sub',
      'cat a.txt',
      'cat missing-file',
      'grep beta a.txt',
      'grep nomatch a.txt',
      'wc -l a.txt',
      'sleep 0.01',
      'cd sub',
      'cd ..',
      'echo "$HOME"',
      'seq 1 5000',
      ':',
      '',
    ].includes(c)
  );
}

function safeStringify(v: unknown): string {
  try {
    const s = JSON.stringify(v) ?? String(v);
    return s.length > 200 ? `${s.slice(0, 200)}…` : s;
  } catch {
    return String(v);
  }
}

async function exists(p: string): Promise<boolean> {
  try {
    await fs.stat(p);
    return true;
  } catch {
    return false;
  }
}
