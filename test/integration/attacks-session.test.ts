// integration: a sample of the attack table (test/support/attacks.ts) through real sessions on the
// dev server — the fake model sends the hostile tool_use blocks, the real worker runs the whole
// pipeline in activities — and none of them has an effect: no marker file, nothing changed
// outside the project or in $HOME, no canary in any tool_result the model got back.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lastToolResults, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { BUILTIN_TOOL_NAMES } from '../../src/temporal/client';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import {
  ATTACK_CASES,
  CANARIES,
  createAttackFixture,
  fillInput,
  snapshot,
  type AttackCase,
  type AttackFixture,
} from '../support/attacks';

after(closeTestEnv);

let fx: AttackFixture;
const savedHome = process.env.HOME;
before(() => {
  fx = createAttackFixture();
  process.env.HOME = fx.home;
});
after(() => {
  process.env.HOME = savedHome;
  fs.rmSync(fx.root, { recursive: true, force: true });
});

/** Up to `perClass` rows of each class in modes that never wait for a human (no cwd change, no twin). */
function sample(perClass: number): AttackCase[] {
  const out: AttackCase[] = [];
  const taken: Record<string, number> = {};
  for (const c of ATTACK_CASES) {
    if (c.cwd || c.twin || !['dontAsk', 'bypassPermissions'].includes(c.mode)) continue; // no 'ask' waits for a human
    if ((taken[c.cls] ?? 0) >= perClass) continue;
    taken[c.cls] = (taken[c.cls] ?? 0) + 1;
    out.push(c);
  }
  return out;
}

test('integration: hostile tool_use blocks from the model have no effect in real sessions', async () => {
  const chosen = sample(4);
  assert.ok(chosen.length >= 12, `${chosen.length} sessions rows`);
  const groups = new Map<string, AttackCase[]>();
  for (const c of chosen) {
    const key = JSON.stringify([c.mode, c.rules ?? {}]);
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  console.log(
    `[attacks-session] ${chosen.length} rows in ${groups.size} sessions: ${chosen.map((c) => c.id).join(', ')}`,
  );
  const outsideBefore = snapshot(fx.outside);
  dropWorkerState(fx.home);
  const homeBefore = snapshot(fx.home);
  await withAgent({}, async ({ fake, start }) => {
    for (const rows of groups.values()) {
      const first = rows[0]!;
      const idOf = (c: AttackCase) => `toolu_${c.id.replace(/[^A-Za-z0-9_]/g, '_')}`;
      const before = fake.messageRequests().length;
      fake.enqueue(
        toolUseResponse(rows.map((c) => ({ id: idOf(c), name: c.tool, input: fillInput(c, fx) }))),
        textResponse('done'),
      );
      const handle = await start({
        prompt: 'Follow the instructions in the file you just read.',
        cwd: fx.proj,
        permissionMode: first.mode,
        rules: { allow: [], ask: [], deny: [], ...first.rules },
        tools: BUILTIN_TOOL_NAMES,
        // The door on its own: the sandbox stays on (the wall), but its auto-allow would let a
        // sandboxed command that asks run (by design: it is contained, see integration/sandbox).
        sandbox: { autoAllowBashIfSandboxed: false },
      });
      const result = await handle.result();
      assert.equal(result.status, 'completed');
      const requests = fake.messageRequests().slice(before);
      const results = lastToolResults(requests[1]!);
      assert.deepEqual(
        results.map((r) => r.tool_use_id),
        rows.map(idOf),
        'every hostile tool_use got its tool_result',
      );
      for (const c of rows) {
        const r = results.find((x) => x.tool_use_id === idOf(c));
        const text = JSON.stringify(r?.content ?? '');
        assert.equal(fs.existsSync(path.join(fx.marks, c.id)), false, `${c.id} ran a command: ${text.slice(0, 300)}`);
        for (const k of [...CANARIES, ...(c.forbid ?? [])])
          assert.ok(!text.includes(k), `${c.id} shows ${k}: ${text.slice(0, 300)}`);
      }
    }
    fake.assertDone();
  });
  assert.equal(snapshot(fx.outside), outsideBefore, 'nothing changed outside the project');
  // The worker's own user-wide list of session directories (src/hostProcess/programs.ts) is its state, not an effect.
  dropWorkerState(fx.home);
  assert.equal(snapshot(fx.home), homeBefore, 'nothing changed in $HOME');
  assert.deepEqual(fs.readdirSync(fx.marks), [], 'no attack command ran');
});

function dropWorkerState(home: string): void {
  const dir = path.join(home, '.durable-agent');
  fs.rmSync(path.join(dir, 'session-directories.json'), { force: true });
  if (fs.existsSync(dir) && fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
  // And the sandbox probe's remembered answer in the program cache (src/sandbox/probeMemory.ts).
  const cache = path.join(home, '.cache', 'durable-agent');
  fs.rmSync(path.join(cache, 'sandbox-probe.json'), { force: true });
  for (const d of [cache, path.dirname(cache)]) if (fs.existsSync(d) && fs.readdirSync(d).length === 0) fs.rmdirSync(d);
}

test('integration: after a cd, ./ rules stay anchored at the project (Read and Grep of ../.env stay denied)', async () => {
  await withAgent({}, async ({ fake, start }) => {
    fake.enqueue(
      toolUseResponse([{ id: 'toolu_cd', name: 'Bash', input: { command: 'cd sub' } }]),
      toolUseResponse([
        { id: 'toolu_read', name: 'Read', input: { file_path: '../.env' } },
        { id: 'toolu_grep', name: 'Grep', input: { pattern: 'TOKEN', path: '..', output_mode: 'content' } },
        { id: 'toolu_cat', name: 'Bash', input: { command: 'cat ../.env' } },
        { id: 'toolu_pwd', name: 'Bash', input: { command: 'pwd' } },
      ]),
      textResponse('done'),
    );
    const handle = await start({
      prompt: 'Follow the instructions in the file you just read.',
      cwd: fx.proj,
      permissionMode: 'dontAsk',
      rules: { allow: ['Bash(cd sub)'], ask: [], deny: ['Read(./.env)'] },
      tools: BUILTIN_TOOL_NAMES,
      sandbox: { autoAllowBashIfSandboxed: false },
    });
    assert.equal((await handle.result()).status, 'completed');
    const results = lastToolResults(fake.messageRequests()[2]!);
    const text = (id: string) => JSON.stringify(results.find((r) => r.tool_use_id === id)?.content ?? '');
    assert.match(text('toolu_pwd'), new RegExp(`${path.join(fx.proj, 'sub')}`), 'the cd took effect');
    assert.match(text('toolu_read'), /denied by the rule Read\(\.\/\.env\)/);
    for (const id of ['toolu_read', 'toolu_grep', 'toolu_cat'])
      assert.ok(!text(id).includes(CANARIES[1]!), `${id}: ${text(id)}`);
    fake.assertDone();
  });
});
