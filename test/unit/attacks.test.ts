// unit: the attack suite (issue 8). Every row of test/support/attacks.ts goes through runToolPipeline —
// the one pipeline — with the real built-in tools over real temp directories, and must have no
// effect: no marker file (no command ran), nothing changed outside the project or in $HOME, no
// canary or forbidden text in the result; existence-oracle rows answer the same for a missing
// twin. A control first runs every Bash attack with bash itself, to prove each one is real.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describeToolUse, runToolPipeline, type ToolUseOutcome } from '../../src/toolCall/pipeline';
import { loadShellParser } from '../../src/permissions/bashParser';
import { BUILTIN_TOOLS } from '../../src/tools';
import { createToolPool } from '../../src/permissions/toolPool';
import type { ToolPermissionContext } from '../../src/toolProtocol/permissionTypes';
import {
  ATTACK_CASES,
  CANARIES,
  SECRET,
  countByClass,
  createAttackFixture,
  fillInput,
  snapshot,
  type AttackCase,
  type AttackFixture,
} from '../support/attacks';

let fx: AttackFixture;
const savedHome = process.env.HOME;

before(async () => {
  assert.equal(await loadShellParser(), true);
  fx = createAttackFixture();
  process.env.HOME = fx.home; // `~` in attacks and in the permission checks means the fixture's home
});
after(() => {
  process.env.HOME = savedHome;
  fs.rmSync(fx.root, { recursive: true, force: true });
});

/** Puts the fixture back after a control run changed it. */
function repair(): void {
  for (const d of [fx.marks, path.join(fx.outside, 'drop')]) {
    fs.rmSync(d, { recursive: true, force: true });
    fs.mkdirSync(d);
  }
  fs.writeFileSync(path.join(fx.proj, 'sub', 'deep', 'x.txt'), 'x\n');
  fs.rmSync(path.join(fx.proj, 'copy'), { recursive: true, force: true });
}

async function run(c: AttackCase, input: Record<string, unknown>): Promise<ToolUseOutcome> {
  const cwd = path.join(fx.proj, c.cwd ?? '');
  const permission: ToolPermissionContext = {
    mode: c.mode,
    rules: { allow: [], ask: [], deny: [], ...c.rules },
    workingDirectories: [cwd],
  };
  return runToolPipeline(
    { type: 'tool_use', id: `toolu_${c.id.replace(/[^A-Za-z0-9_]/g, '_')}`, name: c.tool, input },
    {
      pool: createToolPool(BUILTIN_TOOLS, permission),
      sessionId: 'attack-suite',
      agent: { cwd, additionalDirectories: [], readFiles: {}, ...(c.cwd ? { projectDir: fx.proj } : {}) },
      permission,
    },
  );
}

function resultText(o: ToolUseOutcome): string {
  const c = o.result?.content;
  if (c === undefined) return '';
  return typeof c === 'string' ? c : c.map((b) => ('text' in b ? b.text : '')).join('\n');
}

test('unit: the attack table has at least 150 rows, in every class and mode', (t) => {
  const counts = countByClass();
  const modes = [...new Set(ATTACK_CASES.map((c) => c.mode))].sort();
  t.diagnostic(
    `attack rows per class: ${JSON.stringify(counts)} (total ${ATTACK_CASES.length}); modes: ${modes.join(', ')}`,
  );
  console.log(`attack rows per class: ${JSON.stringify(counts)} (total ${ATTACK_CASES.length})`);
  assert.ok(ATTACK_CASES.length >= 150, `${ATTACK_CASES.length} rows`);
  assert.equal(Object.keys(counts).length, 8);
  assert.deepEqual(modes, ['acceptEdits', 'bypassPermissions', 'default', 'dontAsk', 'plan']);
  assert.equal(new Set(ATTACK_CASES.map((c) => c.id)).size, ATTACK_CASES.length, 'ids are unique');
});

test('unit: control — every Bash attack has its effect when bash itself runs it', () => {
  const failed: string[] = [];
  const seen = new Set<string>();
  for (const c of ATTACK_CASES) {
    if (c.tool !== 'Bash' || !c.effect) continue;
    const key = c.id.replace(/-[A-Za-z]+$/, '');
    if (seen.has(key)) continue;
    seen.add(key);
    repair();
    const before = snapshot(fx.outside);
    const command = fillInput(c, fx).command as string;
    const r = spawnSync('bash', ['-c', command], {
      cwd: path.join(fx.proj, c.cwd ?? ''),
      env: { ...process.env, HOME: fx.home, FSM: `touch ${path.join(fx.marks, c.id)}` },
      encoding: 'utf8',
      timeout: 10_000,
      input: '',
    });
    const out = `${r.stdout}${r.stderr}`;
    const ok =
      c.effect === 'mark'
        ? fs.existsSync(path.join(fx.marks, c.id))
        : c.effect === 'leak'
          ? [...CANARIES, SECRET].some((k) => out.includes(k))
          : snapshot(fx.outside) !== before;
    if (!ok) failed.push(`${c.id}: ${JSON.stringify(command)} → ${out.slice(0, 200)}`);
  }
  repair();
  assert.deepEqual(failed, [], 'these attacks do nothing even without the permission layer: fix the table');
});

for (const c of ATTACK_CASES) {
  test(`unit: attack ${c.id} [${c.tool} ${JSON.stringify(c.input).slice(0, 90)}] has no effect`, async () => {
    repair();
    const input = fillInput(c, fx);
    const outsideBefore = snapshot(fx.outside);
    const homeBefore = snapshot(fx.home);
    const o = await run(c, input);
    const text = resultText(o);
    const where = `${c.id} → ${o.status}: ${text.slice(0, 300)}`;
    assert.equal(fs.existsSync(path.join(fx.marks, c.id)), false, `a command ran: ${where}`);
    assert.equal(snapshot(fx.outside), outsideBefore, `a file outside changed: ${where}`);
    assert.equal(snapshot(fx.home), homeBefore, `$HOME changed: ${where}`);
    for (const k of [...CANARIES, ...(c.forbid ?? [])]) assert.ok(!text.includes(k), `the result shows ${k}: ${where}`);
    if (c.twin) {
      const twinInput = fillInput(c, fx, c.twin);
      const t = await run({ ...c, id: `${c.id}-twin` }, twinInput);
      const norm = (s: string, inp: Record<string, unknown>) => {
        let out = s;
        for (const v of Object.values(inp)) if (typeof v === 'string' && v.length > 1) out = out.split(v).join('<ARG>');
        return out;
      };
      assert.equal(t.status, o.status, `existence oracle (status): ${where} / twin → ${t.status}: ${resultText(t)}`);
      assert.equal(norm(resultText(t), twinInput), norm(text, input), `existence oracle (text): ${where}`);
      assert.equal(
        t.ask?.message && norm(t.ask.message, twinInput),
        o.ask?.message && norm(o.ask.message, input),
        'existence oracle (ask)',
      );
    }
  });
}

// The other side: ordinary read-only work still runs unasked (in default and plan mode, with a
// `Read(./.env)` deny rule in force), and counts as read-only for concurrency.
const LEGIT: Array<{ command: string; rules?: { deny: string[] } }> = [
  { command: 'ls -la' },
  { command: 'ls sub/deep' },
  { command: 'cat a.txt' },
  { command: 'cat a.txt | wc -l' },
  { command: 'head -n 1 a.txt && tail -n 1 a.txt' },
  { command: 'grep -rn hello .' },
  { command: 'grep -c x sub/deep/x.txt' },
  { command: 'find . -name "*.txt" -not -path "./link-out/*"' },
  { command: 'git status --short' },
  { command: 'git log --oneline -1' },
  { command: 'git diff --stat' },
  { command: 'git branch --show-current' },
  { command: 'cd sub && ls' },
  { command: 'echo "$HOME"' },
  { command: 'sort -u a.txt' },
  { command: 'ls *.txt' },
  { command: 'wc -l sub/deep/*.txt' },
  { command: 'cat {a,sub/deep/x}.txt' },
  { command: 'diff a.txt sub/deep/x.txt; echo done' },
  { command: 'stat -c %s a.txt 2>/dev/null' },
  { command: 'LC_ALL=C grep -i HELLO a.txt' },
  { command: 'timeout 5 cat a.txt' },
  { command: '[ -f a.txt ] && echo yes' },
  { command: "printf '%s\\n' a b | cut -c1" },
  { command: 'ls', rules: { deny: ['Read(./.env)'] } },
  { command: 'cat a.txt', rules: { deny: ['Read(./.env)'] } },
  { command: 'git status', rules: { deny: ['Read(./.env)'] } },
  { command: 'grep -rn hello sub', rules: { deny: ['Read(./.env)'] } },
];
for (const [i, l] of LEGIT.entries()) {
  for (const mode of ['default', 'plan'] as const) {
    test(`unit: legit read-only command runs unasked in ${mode}: ${l.command}`, async () => {
      repair();
      const c: AttackCase = {
        id: `legit-${i}-${mode}`,
        cls: 'hidden-paths',
        mode,
        tool: 'Bash',
        input: { command: l.command },
        ...(l.rules ? { rules: l.rules } : {}),
      };
      const o = await run(c, c.input);
      assert.equal(o.status, 'ok', `${l.command} → ${o.status}: ${o.ask?.message ?? resultText(o)}`);
      const pool = createToolPool(BUILTIN_TOOLS, {
        mode,
        rules: { allow: [], ask: [], deny: [] },
        workingDirectories: [fx.proj],
      });
      assert.equal(
        describeToolUse({ type: 'tool_use', id: 't', name: 'Bash', input: { command: l.command } }, pool)
          .concurrencySafe,
        true,
      );
    });
  }
}

test('unit: inside the working directories, the file checks still answer (no needless approval)', async () => {
  repair();
  const base: Omit<AttackCase, 'id' | 'tool' | 'input'> = { cls: 'existence-oracles', mode: 'default' };
  const read = await run({ ...base, id: 'inside-read', tool: 'Read', input: {} }, { file_path: 'nope.txt' });
  assert.equal(read.status, 'error');
  assert.match(resultText(read), /File does not exist: nope\.txt/);
  const write = await run(
    { ...base, id: 'inside-write', tool: 'Write', input: {} },
    { file_path: 'a.txt', content: 'new' },
  );
  assert.equal(write.status, 'error', 'the mode would ask, but the call cannot work: the tool says why');
  assert.match(resultText(write), /has not been read yet/);
  const outside = await run(
    { ...base, id: 'outside-write', tool: 'Write', input: {} },
    { file_path: path.join(fx.outside, 'secret-5d1e.txt'), content: 'x' },
  );
  assert.equal(outside.status, 'ask', 'outside: the approval comes first, the file check after it');
  assert.equal(fs.readFileSync(path.join(fx.outside, 'secret-5d1e.txt'), 'utf8').includes('CANARY'), true);
});
