// unit: streaming tool execution (core/streaming.ts) against a scripted executor: which blocks
// start while the message streams, barriers, approvals, the concurrency cap, and the fallback's
// reuse-or-discard by tool_use_id, through the same executeTurn both schedulers run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialContext, type ContextModifier } from '../../src/core/context';
import type { AssistantMessage, ToolUseBlock } from '../../src/core/apiMessages';
import type { ToolCallRecord } from '../../src/core/toolRecords';
import {
  earlyStartable,
  StreamingToolExecution,
  type StreamedToolUse,
  type StreamingExecutor,
} from '../../src/core/streaming';
import {
  executeTurn,
  type ModelCallResult,
  type ToolRunResult,
  type ToolUseDescription,
  type TurnExecutor,
} from '../../src/core/turn';

const tu = (id: string, name: string, input: unknown = {}): ToolUseBlock => ({ type: 'tool_use', id, name, input });
const SAFE = new Set(['Read', 'Grep', 'Glob', 'Count']);
const tick = (ms = 1): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** Waits (polling) until cond holds; fails after 30 s so a broken cap cannot hang the test. */
async function until(cond: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`condition not reached within 30 s: ${String(cond)}`);
    await tick(2);
  }
}

function describeOne(b: ToolUseBlock, asks: Set<string>): ToolUseDescription {
  const known = b.name !== 'Unknown';
  // Bash is safe for some inputs only (safety is decided per input, as the reference does).
  const safe = SAFE.has(b.name) || (b.name === 'Bash' && (b.input as { command?: string }).command === 'ls');
  return {
    known,
    concurrencySafe: known && safe,
    readOnly: safe,
    idempotent: safe,
    summary: `${b.name} ${b.id}`,
    ...(asks.has(b.id) ? { mayAsk: true } : {}),
  };
}

interface Harness {
  exec: TurnExecutor;
  streaming: StreamingToolExecution;
  log: string[];
  /** How often each id's call() ran (the side effect). */
  runs: Map<string, number>;
  /** Feeds a streamed block, as the model activity's signal would. */
  stream(stream: string, index: number, block: ToolUseBlock): void;
  /** Lets the model call answer. */
  answer(result: ModelCallResult): void;
  interrupt(): void;
  cancelled: string[];
}

function harness(
  opts: {
    delays?: Record<string, number>;
    gates?: Record<string, Promise<void>>;
    asks?: Set<string>;
    hookAsks?: Set<string>;
    modifiers?: Record<string, ContextModifier[]>;
    max?: number;
    ledger?: Map<string, ToolCallRecord>;
  } = {},
): Harness {
  const log: string[] = [];
  const runs = new Map<string, number>();
  const cancelled: string[] = [];
  const asks = opts.asks ?? new Set<string>();
  let interrupted = false;
  let answer: (r: ModelCallResult) => void = () => undefined;
  const answered = new Promise<ModelCallResult>((r) => (answer = r));

  const call = (block: ToolUseBlock, signal: { aborted: boolean }, approval?: unknown): Promise<ToolRunResult> =>
    (async () => {
      if (opts.hookAsks?.has(block.id) && !approval) return { kind: 'ask', message: 'a hook asks' } as ToolRunResult;
      runs.set(block.id, (runs.get(block.id) ?? 0) + 1);
      log.push(`start ${block.id}`);
      const until = Date.now() + (opts.delays?.[block.id] ?? 1);
      let open = opts.gates?.[block.id] === undefined;
      void opts.gates?.[block.id]?.then(() => (open = true));
      while (Date.now() < until || !open) {
        if (signal.aborted) {
          log.push(`cancelled ${block.id}`);
          cancelled.push(block.id);
          throw new Error('cancelled');
        }
        await tick(2);
      }
      log.push(`end ${block.id}`);
      const record: ToolCallRecord = {
        toolUseId: block.id,
        toolName: block.name,
        input: block.input,
        summary: block.name,
        status: 'ok',
        result: { type: 'tool_result', tool_use_id: block.id, content: `result of ${block.id}` },
        contextModifiers: opts.modifiers?.[block.id] ?? [],
      };
      return { kind: 'done', record };
    })();

  const streamingExec: StreamingExecutor = {
    async describeStreamed(items) {
      log.push(`describe ${items.map((i) => i.block.id).join(',')}`);
      return items.map((i) => describeOne(i.block, asks));
    },
    startStreamed(item) {
      const signal = { aborted: false };
      return { result: call(item.block, signal), cancel: () => (signal.aborted = true) };
    },
    isInterrupted: () => interrupted,
  };
  const streaming = new StreamingToolExecution(
    {
      context: initialContext('/w'),
      maxConcurrency: opts.max ?? 10,
      ...(opts.ledger ? { priorRecords: opts.ledger } : {}),
    },
    streamingExec,
  );
  const exec: TurnExecutor = {
    callModel: () => answered,
    async describe(blocks) {
      log.push(`describe-final ${blocks.map((b) => b.id).join(',')}`);
      return blocks.map((b) => describeOne(b, asks));
    },
    runTool: (block, _ctx, _d, approval) => call(block, { aborted: false }, approval),
    async awaitApproval(block) {
      log.push(`ask ${block.id}`);
      return { decision: 'approve', source: 'human' };
    },
    isInterrupted: () => interrupted,
  };
  return {
    exec,
    streaming,
    log,
    runs,
    cancelled,
    stream: (s, index, block) => streaming.add({ stream: s, index, block, messageRef: null } satisfies StreamedToolUse),
    answer: (r) => answer(r),
    interrupt: () => {
      interrupted = true;
      answer({ kind: 'interrupted' });
    },
  };
}

const message = (...blocks: ToolUseBlock[]): ModelCallResult => ({
  kind: 'message',
  message: { role: 'assistant', content: [{ type: 'text', text: 'x' }, ...blocks] } satisfies AssistantMessage,
  usage: { input_tokens: 1, output_tokens: 1 },
  stopReason: 'tool_use',
});

test('unit: earlyStartable — a safe prefix starts, an unsafe, undecided or asking block is a barrier, the cap holds', () => {
  const d = (safe: boolean, extra: Partial<ToolUseDescription> = {}): ToolUseDescription => ({
    known: true,
    concurrencySafe: safe,
    readOnly: safe,
    idempotent: safe,
    summary: '',
    ...extra,
  });
  assert.deepEqual(
    earlyStartable(
      [
        { id: 'a', description: d(true), started: false },
        { id: 'b', description: d(true), started: false },
      ],
      0,
      10,
    ),
    [0, 1],
  );
  assert.deepEqual(
    earlyStartable(
      [
        { id: 'a', description: d(true), started: false },
        { id: 'w', description: d(false), started: false },
        { id: 'c', description: d(true), started: false },
      ],
      0,
      10,
    ),
    [0],
  );
  assert.deepEqual(
    earlyStartable(
      [
        { id: 'a', started: false },
        { id: 'b', description: d(true), started: false },
      ],
      0,
      10,
    ),
    [],
    'an undescribed block holds back the rest',
  );
  assert.deepEqual(
    earlyStartable(
      [
        { id: 'a', description: d(true, { mayAsk: true }), started: false },
        { id: 'b', description: d(true), started: false },
      ],
      0,
      10,
    ),
    [],
    'a call that asks does not start early, nor anything after it',
  );
  assert.deepEqual(
    earlyStartable(
      [
        { id: 'a', description: d(true), started: true },
        { id: 'b', description: d(true), started: false },
      ],
      0,
      10,
    ),
    [1],
  );
  assert.deepEqual(
    earlyStartable(
      [
        { id: 'a', description: d(true), started: false },
        { id: 'b', description: d(true), started: false },
      ],
      1,
      2,
    ),
    [0],
    'the concurrency cap counts running early calls',
  );
  assert.deepEqual(
    earlyStartable([{ id: 'a', description: { ...d(true), known: false }, started: false }], 0, 10),
    [],
    'an unknown tool never starts early',
  );
  assert.deepEqual(
    earlyStartable(
      [
        { id: 'g', description: d(true), started: false, deferred: true },
        { id: 'b', description: d(true), started: false },
      ],
      0,
      10,
    ),
    [1],
    'a deferred safe call is not a barrier',
  );
});

test('unit: a safe block starts while the message streams; an unsafe block after it waits for the message', async () => {
  const h = harness({ delays: { r1: 30 } });
  const turn = executeTurn(
    { context: initialContext('/w'), priorRecords: new Map(), maxConcurrency: 10, streaming: h.streaming },
    h.exec,
  );
  h.stream('model-1#1', 1, tu('r1', 'Read', { file_path: '/a' }));
  await until(() => h.log.includes('start r1'));
  assert.ok(h.log.includes('start r1'), `Read started before the message was complete: ${h.log.join(' | ')}`);
  h.stream('model-1#1', 2, tu('w1', 'Write'));
  h.stream('model-1#1', 3, tu('g1', 'Grep'));
  await until(() => h.log.some((l) => l.startsWith('describe ') && l.includes('g1')));
  await tick(10); // a negative: nothing starts in this while (the engine has no timers, so 10 ms is plenty)
  assert.ok(
    !h.log.includes('start w1') && !h.log.includes('start g1'),
    `nothing after the unsafe Write starts early: ${h.log.join(' | ')}`,
  );
  h.answer(message(tu('r1', 'Read', { file_path: '/a' }), tu('w1', 'Write'), tu('g1', 'Grep')));
  const out = await turn;
  assert.deepEqual(
    out.records.map((r) => [r.toolUseId, r.status, r.early ?? false]),
    [
      ['r1', 'ok', true],
      ['w1', 'ok', false],
      ['g1', 'ok', false],
    ],
  );
  assert.equal(h.runs.get('r1'), 1, 'the early Read ran once');
  assert.ok(h.log.indexOf('end r1') < h.log.indexOf('start w1'), 'the Write runs alone, after the Read');
  assert.ok(
    !h.log.some((l) => l.startsWith('describe-final')),
    `every block was described while streaming: ${h.log.join(' | ')}`,
  );
  assert.equal(out.discarded, undefined);
});

test('unit: safety is per input — Bash "ls" starts early, another command is a barrier', async () => {
  const h = harness();
  const turn = executeTurn(
    { context: initialContext('/w'), priorRecords: new Map(), maxConcurrency: 10, streaming: h.streaming },
    h.exec,
  );
  h.stream('s#1', 0, tu('b1', 'Bash', { command: 'ls' }));
  h.stream('s#1', 1, tu('b2', 'Bash', { command: 'rm -rf x' }));
  h.stream('s#1', 2, tu('r1', 'Read'));
  await until(() => h.streaming.startedIds().length >= 1);
  await tick(15); // a negative: b2 and r1 do not start meanwhile
  assert.deepEqual(h.streaming.startedIds(), ['b1']);
  h.answer(message(tu('b1', 'Bash', { command: 'ls' }), tu('b2', 'Bash', { command: 'rm -rf x' }), tu('r1', 'Read')));
  const out = await turn;
  assert.deepEqual(
    out.records.map((r) => r.early ?? false),
    [true, false, false],
  );
});

test('unit: a call that will ask does not start early and holds back the calls after it; approvals work as without streaming', async () => {
  const h = harness({ asks: new Set(['r2']), hookAsks: new Set(['r2']) });
  const turn = executeTurn(
    { context: initialContext('/w'), priorRecords: new Map(), maxConcurrency: 10, streaming: h.streaming },
    h.exec,
  );
  h.stream('s#1', 0, tu('r1', 'Read'));
  h.stream('s#1', 1, tu('r2', 'Read'));
  h.stream('s#1', 2, tu('r3', 'Read'));
  await until(() => h.streaming.startedIds().length >= 1);
  await tick(15); // a negative: r2 and r3 do not start meanwhile
  assert.deepEqual(h.streaming.startedIds(), ['r1']);
  assert.ok(!h.log.some((l) => l.startsWith('ask')), 'no approval is asked for while streaming');
  h.answer(message(tu('r1', 'Read'), tu('r2', 'Read'), tu('r3', 'Read')));
  const out = await turn;
  assert.deepEqual(
    out.records.map((r) => r.status),
    ['ok', 'ok', 'ok'],
  );
  assert.equal(h.log.filter((l) => l === 'ask r2').length, 1);
});

test('unit: an early call a hook turns into an ask waits for its approval in the tool phase', async () => {
  const h = harness({ hookAsks: new Set(['r1']) });
  const turn = executeTurn(
    { context: initialContext('/w'), priorRecords: new Map(), maxConcurrency: 10, streaming: h.streaming },
    h.exec,
  );
  h.stream('s#1', 0, tu('r1', 'Read'));
  await until(() => h.streaming.startedIds().includes('r1'));
  await tick(10); // a negative: no approval is asked for meanwhile
  assert.ok(!h.log.includes('ask r1'), 'no approval while streaming');
  h.answer(message(tu('r1', 'Read')));
  const out = await turn;
  assert.ok(h.log.includes('ask r1'));
  assert.equal(out.records[0]?.status, 'ok');
  assert.equal(h.runs.get('r1'), 1);
});

test('unit: the concurrency cap bounds early starts; queued safe calls start as slots free up', async () => {
  // Gates, not delays: a and b run until the test lets them end, so a loaded machine cannot end them early.
  let releaseA: () => void = () => undefined;
  let releaseB: () => void = () => undefined;
  const gates = { a: new Promise<void>((r) => (releaseA = r)), b: new Promise<void>((r) => (releaseB = r)) };
  const h = harness({ max: 2, gates });
  const turn = executeTurn(
    { context: initialContext('/w'), priorRecords: new Map(), maxConcurrency: 2, streaming: h.streaming },
    h.exec,
  );
  for (const [i, id] of ['a', 'b', 'c'].entries()) h.stream('s#1', i, tu(id, 'Read'));
  await until(() => h.streaming.startedIds().length >= 2);
  await tick(20);
  assert.deepEqual(h.streaming.startedIds(), ['a', 'b'], 'the cap holds c back while a and b run');
  releaseA();
  await until(() => h.streaming.startedIds().length >= 3);
  assert.deepEqual(h.streaming.startedIds(), ['a', 'b', 'c'], 'c started early once a slot freed');
  releaseB();
  h.answer(message(tu('a', 'Read'), tu('b', 'Read'), tu('c', 'Read')));
  const out = await turn;
  assert.deepEqual(
    out.records.map((r) => r.early),
    [true, true, true],
  );
});

test('unit: fallback — an early call whose id the final message repeats is reused, one it dropped is discarded (cancelled, never sent)', async () => {
  // `gone` runs until it is cancelled (a gate never opened, not a delay a loaded machine could outlast).
  const h = harness({ gates: { gone: new Promise<void>(() => undefined) } });
  const turn = executeTurn(
    { context: initialContext('/w'), priorRecords: new Map(), maxConcurrency: 10, streaming: h.streaming },
    h.exec,
  );
  h.stream('model-1#1', 0, tu('keep', 'Count'));
  h.stream('model-1#1', 1, tu('gone', 'Count'));
  await until(() => h.log.includes('end keep') && h.log.includes('start gone'));
  // The stream failed; the non-streamed retry answers with `keep` and a new block.
  h.answer(message(tu('keep', 'Count'), tu('new', 'Read')));
  const out = await turn;
  assert.equal(h.runs.get('keep'), 1, 'the repeated id was not run again');
  assert.deepEqual(
    out.records.map((r) => r.toolUseId),
    ['keep', 'new'],
  );
  assert.equal(out.records[0]?.early, true);
  assert.deepEqual(
    out.discarded?.map((d) => [d.toolUseId, d.state]),
    [['gone', 'cancelled']],
  );
  assert.match(out.discarded?.[0]?.reason ?? '', /not in the final message/);
  assert.ok(
    !out.toolResults?.content.some((b) => 'tool_use_id' in b && b.tool_use_id === 'gone'),
    'the discarded result never reaches the model',
  );
  assert.deepEqual(h.cancelled, ['gone']);
  assert.ok(
    h.log.indexOf('cancelled gone') < h.log.indexOf('start new'),
    'the discarded call stopped before the tool phase ran',
  );
});

test('unit: a completed discarded call is reported as completed; a retried stream does not start the same id twice', async () => {
  const h = harness();
  const turn = executeTurn(
    { context: initialContext('/w'), priorRecords: new Map(), maxConcurrency: 10, streaming: h.streaming },
    h.exec,
  );
  h.stream('model-1#1', 0, tu('x', 'Count'));
  h.stream('model-1#1', 0, tu('x', 'Count')); // a repeated signal
  await until(() => h.log.includes('end x'));
  // An outage: the next model activity streams the same id again.
  h.stream('model-1-attempt-2#1', 0, tu('x', 'Count'));
  h.stream('model-1-attempt-2#1', 1, tu('y', 'Count'));
  await until(() => h.log.includes('start y'));
  h.answer(message(tu('y', 'Count')));
  const out = await turn;
  assert.equal(h.runs.get('x'), 1);
  assert.equal(h.runs.get('y'), 1);
  assert.deepEqual(
    out.discarded?.map((d) => [d.toolUseId, d.state, d.stream]),
    [['x', 'completed', 'model-1#1']],
  );
  assert.equal(out.records[0]?.early, true);
});

test('unit: modifiers of early calls apply in block order, whatever finished first', async () => {
  // a ends only after b has ended (a gate, not a race of delays: under load a delay proves nothing).
  let releaseA = (): void => undefined;
  const aGate = new Promise<void>((r) => (releaseA = r));
  const h = harness({
    gates: { a: aGate },
    modifiers: {
      a: [{ type: 'setCwd', cwd: '/w/a' }],
      b: [{ type: 'setCwd', cwd: '/w/b' }],
    } as Record<string, ContextModifier[]>,
  });
  const poll = setInterval(() => {
    if (h.log.includes('end b')) {
      clearInterval(poll);
      releaseA();
    }
  }, 1);
  const turn = executeTurn(
    { context: initialContext('/w'), priorRecords: new Map(), maxConcurrency: 10, streaming: h.streaming },
    h.exec,
  );
  h.stream('s#1', 0, tu('a', 'Read'));
  h.stream('s#1', 1, tu('b', 'Read'));
  await tick(5);
  h.answer(message(tu('a', 'Read'), tu('b', 'Read')));
  const out = await turn;
  assert.ok(h.log.indexOf('end b') < h.log.indexOf('end a'), 'b finished first');
  assert.equal(out.context.cwd, '/w/b', 'b applies last because it comes last');
});

test('unit: an interrupt while streaming discards the early calls; nothing else runs', async () => {
  // `a` runs until it is cancelled (a gate never opened, not a delay a loaded machine could outlast).
  const h = harness({ gates: { a: new Promise<void>(() => undefined) } });
  const turn = executeTurn(
    { context: initialContext('/w'), priorRecords: new Map(), maxConcurrency: 10, streaming: h.streaming },
    h.exec,
  );
  h.stream('s#1', 0, tu('a', 'Read'));
  await until(() => h.log.includes('start a'));
  h.interrupt();
  const out = await turn;
  assert.equal(out.reason, 'interrupted');
  assert.deepEqual(
    out.discarded?.map((d) => [d.toolUseId, d.state]),
    [['a', 'cancelled']],
  );
  h.stream('s#1', 1, tu('late', 'Read'));
  assert.deepEqual(
    h.streaming.late.map((l) => l.block.id),
    ['late'],
    'a block after the end is never started',
  );
});

test('unit: an id the ledger holds is not started early (it is reused from the ledger)', async () => {
  const rec: ToolCallRecord = {
    toolUseId: 'old',
    toolName: 'Read',
    input: {},
    summary: 'Read',
    status: 'ok',
    result: { type: 'tool_result', tool_use_id: 'old', content: 'before' },
    contextModifiers: [],
  };
  const h = harness({ ledger: new Map([['old', rec]]) });
  const turn = executeTurn(
    {
      context: initialContext('/w'),
      priorRecords: new Map([['old', rec]]),
      maxConcurrency: 10,
      streaming: h.streaming,
    },
    h.exec,
  );
  h.stream('s#1', 0, tu('old', 'Read'));
  h.stream('s#1', 1, tu('r', 'Read'));
  await until(() => h.streaming.startedIds().includes('r'));
  assert.deepEqual(h.streaming.startedIds(), ['r']);
  h.answer(message(tu('old', 'Read'), tu('r', 'Read')));
  const out = await turn;
  assert.equal(out.records[0]?.reused, true);
  assert.equal(h.runs.get('old'), undefined);
});

test('unit: signals after the answer (any order relative to the completion) change nothing', async () => {
  const h = harness();
  const turn = executeTurn(
    { context: initialContext('/w'), priorRecords: new Map(), maxConcurrency: 10, streaming: h.streaming },
    h.exec,
  );
  h.answer(message(tu('a', 'Read'), tu('b', 'Read')));
  await tick(1);
  h.stream('s#1', 0, tu('a', 'Read'));
  const out = await turn;
  assert.deepEqual(
    out.records.map((r) => [r.toolUseId, r.early ?? false]),
    [
      ['a', false],
      ['b', false],
    ],
  );
  assert.equal(h.runs.get('a'), 1);
});
