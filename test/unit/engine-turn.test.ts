// unit: the pure turn algorithm against a scripted executor (no Temporal, no I/O).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialContext, type AgentContext, type ContextModifier } from '../../src/core/context';
import type { AssistantMessage, ToolUseBlock } from '../../src/core/apiMessages';
import { partitionToolCalls, mapWithConcurrency, parseMaxConcurrency } from '../../src/core/partition';
import {
  executeTurn,
  type Approval,
  type ToolRunResult,
  type ToolUseDescription,
  type TurnExecutor,
} from '../../src/core/turn';
import type { ToolCallRecord } from '../../src/core/toolRecords';
import { waitFor } from '../support/wait';

const tu = (id: string, name: string, input: unknown = {}): ToolUseBlock => ({ type: 'tool_use', id, name, input });
const SAFE = new Set(['Grep', 'Read', 'Glob']);

interface Script {
  delays?: Record<string, number>;
  /** A call ends only once this log line is there (an order that no machine load can change, unlike delays). */
  after?: Record<string, string>;
  asks?: Set<string>;
  approvals?: Record<string, Approval | 'interrupted'>;
  modifiers?: Record<string, ContextModifier[]>;
  throwsOn?: Set<string>;
  interruptAfter?: string;
}

function fakeExecutor(message: AssistantMessage, script: Script = {}) {
  const log: string[] = [];
  const seenContext = new Map<string, AgentContext>();
  let interrupted = false;
  let inFlight = 0;
  let maxInFlight = 0;
  const exec: TurnExecutor = {
    async callModel() {
      return { kind: 'message', message, usage: { input_tokens: 1, output_tokens: 1 }, stopReason: 'tool_use' };
    },
    async describe(blocks) {
      return blocks.map((b): ToolUseDescription => {
        if (b.name === 'Throws') throw new Error('predicate threw');
        return {
          known: true,
          concurrencySafe: SAFE.has(b.name),
          readOnly: SAFE.has(b.name),
          idempotent: SAFE.has(b.name),
          summary: b.name,
        };
      });
    },
    async runTool(block, context, _d, approval): Promise<ToolRunResult> {
      if (script.asks?.has(block.id) && !approval) return { kind: 'ask', message: 'needs approval' };
      log.push(`start ${block.id}`);
      seenContext.set(block.id, context);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, script.delays?.[block.id] ?? 1));
      const after = script.after?.[block.id];
      if (after) await waitFor(`${block.id} to wait for "${after}"`, async () => log.includes(after), 10_000, 1);
      inFlight--;
      log.push(`end ${block.id}`);
      if (script.interruptAfter === block.id) interrupted = true;
      if (script.throwsOn?.has(block.id)) throw new Error('boom');
      const denied = approval?.decision === 'deny';
      const record: ToolCallRecord = {
        toolUseId: block.id,
        toolName: block.name,
        input: block.input,
        summary: block.name,
        status: denied ? 'denied' : 'ok',
        result: {
          type: 'tool_result',
          tool_use_id: block.id,
          content: denied ? 'rejected' : `result of ${block.id}`,
          ...(denied ? { is_error: true } : {}),
        },
        contextModifiers: denied ? [] : (script.modifiers?.[block.id] ?? []),
      };
      return { kind: 'done', record };
    },
    async awaitApproval(block) {
      log.push(`ask ${block.id}`);
      return script.approvals?.[block.id] ?? { decision: 'approve', source: 'human' };
    },
    isInterrupted: () => interrupted,
  };
  return { exec, log, seenContext, maxInFlight: () => maxInFlight, interrupt: () => (interrupted = true) };
}

const assistant = (...blocks: ToolUseBlock[]): AssistantMessage => ({
  role: 'assistant',
  content: [{ type: 'text', text: 'working' }, ...blocks],
});

test('unit: partition groups adjacent safe calls and isolates the rest', () => {
  const blocks = [
    tu('1', 'Grep'),
    tu('2', 'Read'),
    tu('3', 'Edit'),
    tu('4', 'Grep'),
    tu('5', 'Unknown'),
    tu('6', 'Read'),
    tu('7', 'Glob'),
  ];
  const batches = partitionToolCalls(blocks, (b) => {
    if (b.name === 'Unknown') throw new Error('x');
    return SAFE.has(b.name);
  });
  assert.deepEqual(
    batches.map((b) => [b.concurrencySafe, b.blocks.map((x) => x.id)]),
    [
      [true, ['1', '2']],
      [false, ['3']],
      [true, ['4']],
      [false, ['5']],
      [true, ['6', '7']],
    ],
  );
});

test('unit: parseMaxConcurrency defaults to 10 and rejects junk', () => {
  assert.equal(parseMaxConcurrency(undefined), 10);
  assert.equal(parseMaxConcurrency('3'), 3);
  assert.equal(parseMaxConcurrency('0'), 10);
  assert.equal(parseMaxConcurrency('abc'), 10);
});

test('unit: mapWithConcurrency keeps input order and bounds parallelism', async () => {
  let inFlight = 0;
  let max = 0;
  const out = await mapWithConcurrency([30, 5, 20, 1, 10], 2, async (ms, i) => {
    inFlight++;
    max = Math.max(max, inFlight);
    await new Promise((r) => setTimeout(r, ms));
    inFlight--;
    return i;
  });
  assert.deepEqual(out, [0, 1, 2, 3, 4]);
  assert.equal(max, 2);
});

test('unit: [Grep, Read] [Edit] [Grep] runs as 3 batches in order, results in block order', async () => {
  const msg = assistant(tu('g1', 'Grep'), tu('r1', 'Read'), tu('e1', 'Edit'), tu('g2', 'Grep'));
  const f = fakeExecutor(msg, {
    delays: { g1: 30, r1: 5 },
    modifiers: { e1: [{ type: 'fileWritten', path: '/w/a.ts', mtimeMs: 7 }] },
  });
  const out = await executeTurn({ context: initialContext('/w'), priorRecords: new Map(), maxConcurrency: 10 }, f.exec);
  assert.equal(out.reason, 'tool_use');
  assert.deepEqual(out.batches, [
    { concurrencySafe: true, toolUseIds: ['g1', 'r1'] },
    { concurrencySafe: false, toolUseIds: ['e1'] },
    { concurrencySafe: true, toolUseIds: ['g2'] },
  ]);
  // g1 and r1 overlap; e1 starts only after both ended; g2 after e1.
  assert.deepEqual(f.log.slice(0, 2).sort(), ['start g1', 'start r1']);
  assert.ok(f.log.indexOf('start e1') > f.log.indexOf('end g1'));
  assert.ok(f.log.indexOf('start g2') > f.log.indexOf('end e1'));
  assert.equal(f.maxInFlight(), 2);
  // The final Grep sees the edit's context.
  assert.deepEqual(f.seenContext.get('g2')?.readFiles['/w/a.ts'], { mtimeMs: 7, partial: false });
  assert.deepEqual(
    out.records.map((r) => r.toolUseId),
    ['g1', 'r1', 'e1', 'g2'],
  );
  assert.ok(out.toolResults && Array.isArray(out.toolResults.content));
  assert.deepEqual(
    (out.toolResults.content as Array<{ tool_use_id: string }>).map((c) => c.tool_use_id),
    ['g1', 'r1', 'e1', 'g2'],
  );
});

test('unit: modifiers of a batch finishing in reverse order apply in block order', async () => {
  const msg = assistant(tu('a', 'Read'), tu('b', 'Read'), tu('c', 'Read'));
  const mods = {
    a: [{ type: 'setCwd', cwd: '/a' } as ContextModifier],
    b: [{ type: 'setCwd', cwd: '/b' } as ContextModifier],
    c: [{ type: 'setCwd', cwd: '/c' } as ContextModifier, { type: 'addDirectory', path: '/extra' } as ContextModifier],
  };
  const f = fakeExecutor(msg, { after: { a: 'end b', b: 'end c' }, modifiers: mods });
  const out = await executeTurn({ context: initialContext('/w'), priorRecords: new Map(), maxConcurrency: 10 }, f.exec);
  assert.deepEqual(
    f.log.filter((l) => l.startsWith('end')),
    ['end c', 'end b', 'end a'],
  );
  // Original order a, b, c: c's setCwd is applied last.
  assert.equal(out.context.cwd, '/c');
  assert.deepEqual(out.context.additionalDirectories, ['/extra']);
  // Every call of the batch saw the context from before the batch.
  for (const id of ['a', 'b', 'c']) assert.equal(f.seenContext.get(id)?.cwd, '/w');
});

test('unit: unknown tool / throwing predicate run alone; a throwing runTool becomes an error result', async () => {
  const msg = assistant(tu('1', 'Read'), tu('2', 'Throws'), tu('3', 'Read'));
  const f = fakeExecutor(msg, { throwsOn: new Set(['3']) });
  const out = await executeTurn({ context: initialContext('/w'), priorRecords: new Map(), maxConcurrency: 10 }, f.exec);
  // describe() threw as a whole: everything is unsafe, one batch each.
  assert.equal(out.batches.length, 3);
  assert.ok(out.batches.every((b) => !b.concurrencySafe));
  const r3 = out.records[2];
  assert.equal(r3?.status, 'error');
  assert.equal(r3?.result.is_error, true);
  assert.match(String(r3?.result.content), /^Error calling tool Read: boom/);
});

test('unit: a recorded tool_use_id is reused from priorRecords, never executed again', async () => {
  const msg = assistant(tu('old', 'Edit'), tu('new', 'Edit'));
  const f = fakeExecutor(msg, { modifiers: { old: [{ type: 'setCwd', cwd: '/twice' }] } });
  const priorRecords = new Map<string, ToolCallRecord>([
    [
      'old',
      {
        toolUseId: 'old',
        toolName: 'Edit',
        input: {},
        summary: 'Edit',
        status: 'ok',
        result: { type: 'tool_result', tool_use_id: 'old', content: 'first run' },
        contextModifiers: [{ type: 'setCwd', cwd: '/twice' }],
      },
    ],
  ]);
  const out = await executeTurn({ context: initialContext('/w'), priorRecords, maxConcurrency: 10 }, f.exec);
  assert.ok(!f.log.includes('start old'));
  assert.ok(f.log.includes('start new'));
  assert.equal(out.records[0]?.reused, true);
  assert.equal(out.records[0]?.result.content, 'first run');
  assert.equal(out.context.cwd, '/w', 'a reused record does not re-apply its modifiers');
});

test('unit: ask waits for approval; approve runs, deny yields the rejection', async () => {
  const msg = assistant(tu('x', 'Bash'), tu('y', 'Bash'));
  const f = fakeExecutor(msg, {
    asks: new Set(['x', 'y']),
    approvals: { x: { decision: 'approve', source: 'human', by: 'ann' }, y: { decision: 'deny', source: 'human' } },
  });
  const out = await executeTurn({ context: initialContext('/w'), priorRecords: new Map(), maxConcurrency: 10 }, f.exec);
  assert.deepEqual(f.log, ['ask x', 'start x', 'end x', 'ask y', 'start y', 'end y']);
  assert.equal(out.records[0]?.status, 'ok');
  assert.equal(out.records[1]?.status, 'denied');
});

test('unit: interrupt mid-turn: finished calls keep results, the rest get interruption results', async () => {
  const msg = assistant(tu('r1', 'Read'), tu('b1', 'Bash'), tu('r2', 'Read'));
  const f = fakeExecutor(msg, { interruptAfter: 'r1' });
  const out = await executeTurn({ context: initialContext('/w'), priorRecords: new Map(), maxConcurrency: 10 }, f.exec);
  assert.equal(out.reason, 'interrupted');
  assert.equal(out.records.length, 3);
  assert.equal(out.records[0]?.status, 'ok');
  assert.equal(out.records[1]?.status, 'interrupted');
  assert.equal(out.records[2]?.status, 'interrupted');
  assert.ok(!f.log.includes('start b1'));
  const ids = (out.toolResults?.content as Array<{ tool_use_id: string; is_error?: boolean }>).map((c) => [
    c.tool_use_id,
    c.is_error === true,
  ]);
  assert.deepEqual(ids, [
    ['r1', false],
    ['b1', true],
    ['r2', true],
  ]);
});

test('unit: interrupt while waiting for approval ends that call as interrupted', async () => {
  const msg = assistant(tu('x', 'Bash'));
  const f = fakeExecutor(msg, { asks: new Set(['x']), approvals: { x: 'interrupted' } });
  const out = await executeTurn({ context: initialContext('/w'), priorRecords: new Map(), maxConcurrency: 10 }, f.exec);
  assert.equal(out.records[0]?.status, 'interrupted');
  assert.ok(!f.log.includes('start x'));
});

test('unit: no tool_use ends the turn with the model stop reason', async () => {
  const f = fakeExecutor({ role: 'assistant', content: [{ type: 'text', text: 'done' }] });
  f.exec.callModel = async () => ({
    kind: 'message',
    message: { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
    usage: { input_tokens: 3, output_tokens: 4 },
    stopReason: 'end_turn',
  });
  const out = await executeTurn({ context: initialContext('/w'), priorRecords: new Map(), maxConcurrency: 10 }, f.exec);
  assert.equal(out.reason, 'end_turn');
  assert.equal(out.toolResults, undefined);
});

test('unit: in a concurrent batch, a call that will ask holds back the calls after it (not those before it)', async () => {
  const msg = assistant(tu('r1', 'Read'), tu('r2', 'Read'), tu('r3', 'Read'));
  const f = fakeExecutor(msg, { asks: new Set(['r2']), after: { r1: 'ask r2' } });
  const describe = f.exec.describe.bind(f.exec);
  f.exec.describe = async (blocks, ctx) =>
    (await describe(blocks, ctx)).map((d, i) => (blocks[i]?.id === 'r2' ? { ...d, mayAsk: true } : d));
  const out = await executeTurn({ context: initialContext('/w'), priorRecords: new Map(), maxConcurrency: 10 }, f.exec);
  assert.deepEqual(out.batches, [{ concurrencySafe: true, toolUseIds: ['r1', 'r2', 'r3'] }]);
  // r1 runs alongside r2's ask; r3 starts only after r2 was approved and ran.
  assert.ok(f.log.indexOf('ask r2') < f.log.indexOf('end r1'), JSON.stringify(f.log));
  assert.ok(f.log.indexOf('start r3') > f.log.indexOf('end r2'), JSON.stringify(f.log));
  assert.deepEqual(
    out.records.map((r) => r.status),
    ['ok', 'ok', 'ok'],
  );
});

test('unit: askSegments splits after each asking call', async () => {
  const { askSegments } = await import('../../src/core/turn');
  assert.deepEqual(
    askSegments([1, 2, 3, 4, 5], (n) => n === 2 || n === 5),
    [
      [1, 2],
      [3, 4, 5],
    ],
  );
  assert.deepEqual(
    askSegments([1, 2], () => false),
    [[1, 2]],
  );
  assert.deepEqual(
    askSegments([], () => true),
    [],
  );
});
