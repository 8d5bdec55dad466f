// unit: the bench's history counting (bench/historyStats.ts, issue 33) and its row selection and
// merging (bench/run.ts): events and bytes, payload bytes, Temporal Cloud actions, the turn-boundary
// hand-off, heartbeats after the throttle, /proc CPU, --only, rows written alone, the added wall time
// over the in-process runner (rounds pooled), the levers' and the replay cost's arguments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { temporal } from '@temporalio/proto';
import {
  actionTotal,
  countActions,
  cpuTicksFromStat,
  eventBytes,
  handoffs,
  payloadBytes,
  quantile,
  throttledHeartbeats,
  totals,
  type HistoryEvent,
} from '../../bench/historyStats';
import { costRows, mergeRows, parseOnly, renderTable, type Row } from '../../bench/run';
import {
  addedWallPerStep,
  costFigures,
  handoffTimeline,
  sumCost,
  type CostFigures,
  type SessionCost,
} from '../../bench/historyCost';
import { parseLeverArgs, DEFAULT_VARIANTS } from '../../bench/levers';
import { parseReplayArgs } from '../../bench/replayCost';
import { parseTurnReplayArgs } from '../../bench/turnReplay';

const ET = temporal.api.enums.v1.EventType;
// protobufjs types 64-bit fields as Long; plain numbers encode and read the same.
type Long = NonNullable<HistoryEvent['eventId']>;
const L = (n: number): Long => n as unknown as Long;
const at = (ms: number): HistoryEvent['eventTime'] => ({ seconds: L(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1e6 });
const payload = (s: string) => ({ metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from(s) });

function ev(id: number, ms: number, rest: Partial<HistoryEvent>): HistoryEvent {
  return { eventId: L(id), eventTime: at(ms), ...rest };
}
const scheduled = (id: number, ms: number, name: string): HistoryEvent =>
  ev(id, ms, {
    eventType: ET.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
    activityTaskScheduledEventAttributes: { activityType: { name }, input: { payloads: [payload('{}')] } },
  });
const started = (id: number, ms: number, sched: number, attempt = 1): HistoryEvent =>
  ev(id, ms, {
    eventType: ET.EVENT_TYPE_ACTIVITY_TASK_STARTED,
    activityTaskStartedEventAttributes: { scheduledEventId: L(sched), attempt },
  });
const completed = (id: number, ms: number, sched: number): HistoryEvent =>
  ev(id, ms, {
    eventType: ET.EVENT_TYPE_ACTIVITY_TASK_COMPLETED,
    activityTaskCompletedEventAttributes: { scheduledEventId: L(sched), result: { payloads: [payload('"ok"')] } },
  });
const wftCompleted = (id: number): HistoryEvent =>
  ev(id, 0, { eventType: ET.EVENT_TYPE_WORKFLOW_TASK_COMPLETED, workflowTaskCompletedEventAttributes: {} });
const laMarker = (id: number, type: string): HistoryEvent =>
  ev(id, 0, {
    eventType: ET.EVENT_TYPE_MARKER_RECORDED,
    markerRecordedEventAttributes: {
      markerName: 'core_local_activity',
      details: { data: { payloads: [payload(JSON.stringify({ activity_type: type }))] } },
    },
  });

test('unit: event bytes are the protobuf encoding; payload bytes count data and metadata', () => {
  const e = scheduled(5, 1000, 'callModel');
  assert.equal(eventBytes(e), temporal.api.history.v1.HistoryEvent.encode(e).finish().length);
  assert.ok(eventBytes(e) > payloadBytes(e));
  // '{}' (2) + 'encoding' (8) + 'json/plain' (10)
  assert.equal(payloadBytes(e), 20);
  assert.equal(payloadBytes(wftCompleted(4)), 0);
  const t = totals([[e, wftCompleted(6)], [e]]);
  assert.equal(t.events, 3);
  assert.equal(t.bytes, 2 * eventBytes(e) + eventBytes(wftCompleted(6)));
});

test('unit: actions: starts, activities and retries, local activities once per workflow task, timers, signals', () => {
  const h: HistoryEvent[] = [
    ev(1, 0, { workflowExecutionStartedEventAttributes: {} }),
    wftCompleted(4),
    laMarker(5, 'describeToolUses'),
    scheduled(6, 0, 'runToolUse'),
    started(7, 0, 6, 3), // two retries
    wftCompleted(9),
    laMarker(10, 'storeReadFiles'),
    laMarker(11, 'appendTranscript'),
    ev(12, 0, { markerRecordedEventAttributes: { markerName: 'core_patch' } }),
    ev(13, 0, { timerStartedEventAttributes: { timerId: '1' } }),
    ev(14, 0, { workflowExecutionSignaledEventAttributes: { signalName: 's' } }),
    ev(15, 0, { workflowExecutionUpdateAcceptedEventAttributes: {} }),
  ];
  const c = countActions(h);
  assert.deepEqual(c, {
    workflowStarts: 1,
    activities: 3,
    localActivityTasks: 2,
    localActivities: 3,
    timers: 1,
    signals: 1,
    updates: 1,
  });
  assert.equal(actionTotal(c), 9);
  assert.equal(actionTotal(c, 2), 11);
});

test('unit: the hand-off runs from the last tool completed in a turn to the next turn’s callModel', () => {
  const turn1 = [
    scheduled(5, 0, 'callModel'),
    completed(7, 100, 5),
    scheduled(9, 110, 'runToolUse'),
    scheduled(10, 110, 'runToolUse'),
    completed(12, 150, 10),
    completed(14, 180, 9),
  ];
  const turn2 = [scheduled(5, 200, 'callModel'), started(6, 205, 5), completed(7, 300, 5)]; // no tools: the last turn
  const h = handoffs([turn1, turn2]);
  assert.equal(h.length, 1);
  assert.ok(Math.abs(h[0]!.toScheduledMs - 20) < 1e-6);
  assert.ok(Math.abs(h[0]!.toStartedMs - 25) < 1e-6);
  assert.deepEqual(handoffs([turn2, turn1]), []); // a turn without tools hands nothing off
});

test('unit: quantile is the nearest rank, ignoring NaN', () => {
  assert.equal(quantile([5, 1, 3, NaN], 0.5), 3);
  assert.equal(quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9), 9);
  assert.ok(Number.isNaN(quantile([], 0.5)));
});

test('unit: heartbeats after a 500 ms throttle', () => {
  assert.equal(throttledHeartbeats([], 1000, 500), 0);
  assert.equal(throttledHeartbeats([10], 1000, 500), 1);
  // Many calls in the first window: the first goes at once, one held call at 510.
  assert.equal(throttledHeartbeats([10, 20, 30, 40], 1000, 500), 2);
  // The held call dies with the activity when it ends before the window does.
  assert.equal(throttledHeartbeats([10, 20], 300, 500), 1);
  // A call every 100 ms for 2 s: at 0, 500, 1000, 1500 (and the held one at 2000 is after the end).
  const every = Array.from({ length: 20 }, (_, i) => i * 100);
  assert.equal(throttledHeartbeats(every, 1999, 500), 4);
  // Calls far apart each go at once.
  assert.equal(throttledHeartbeats([0, 1000, 2000], 3000, 500), 3);
});

test('unit: CPU ticks from /proc/<pid>/stat, a command with spaces and parentheses', () => {
  const fields = ['S', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '250', '40', '0', '0'];
  assert.equal(cpuTicksFromStat(`123 (node (x) y) ${fields.join(' ')}`), 290);
});

test('unit: --only selects steps and refuses unknown ones', () => {
  assert.equal(parseOnly(['node', 'run.js']), undefined);
  assert.deepEqual([...parseOnly(['node', 'run.js', '--only', 'cost,history'])!], ['cost', 'history']);
  assert.deepEqual([...parseOnly(['node', 'run.js', '--only=breakdown'])!], ['breakdown']);
  assert.throws(() => parseOnly(['node', 'run.js', '--only', 'costs']), /unknown step costs/);
});

test('unit: rows run alone replace their own rows in the table and append new ones; a note says so', () => {
  const row = (measure: string, result: string): Row => ({
    measure,
    inProcess: '—',
    temporal: '—',
    result,
    target: 't',
    verdict: 'info',
  });
  const block = `Command: x.\nAt the end: y.\n\n${renderTable([row('A', '1'), row('B', '2')])}`;
  const once = mergeRows(block, [row('B', '3'), row('C', '4')], 'Refreshed alone with `--only cost`: now.');
  const lines = once.split('\n');
  assert.deepEqual(
    lines.filter((l) => l.startsWith('| ') && !l.startsWith('| Measure') && !l.startsWith('| ---')),
    ['| A | — | — | 1 | t | info |', '| B | — | — | 3 | t | info |', '| C | — | — | 4 | t | info |'],
  );
  assert.equal(lines[2], 'Refreshed alone with `--only cost`: now.');
  const twice = mergeRows(once, [row('C', '5')], 'Refreshed alone with `--only cost`: later.');
  assert.equal(twice.split('\n').filter((l) => l.startsWith('Refreshed alone')).length, 1);
  assert.ok(twice.includes('| C | — | — | 5 | t | info |'));
});

test('unit: the hand-off timeline merges the three histories from the last tool to the next callModel', () => {
  const turn = [
    scheduled(9, 100, 'runToolUse'),
    completed(12, 150, 9),
    ev(14, 170, { eventType: ET.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED }),
  ];
  const session = [
    ev(30, 10, { eventType: ET.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED }), // an earlier turn's
    ev(35, 180, { eventType: ET.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED }),
  ];
  const next = [ev(1, 200, { eventType: ET.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED }), scheduled(5, 240, 'callModel')];
  const t = handoffTimeline(turn, session, next);
  assert.deepEqual(
    t.map((x) => [Math.round(x.ms), x.workflow, x.event]),
    [
      [0, 'turn n', 'ACTIVITY_TASK_COMPLETED'],
      [20, 'turn n', 'WORKFLOW_EXECUTION_COMPLETED'],
      [30, 'session', 'CHILD_WORKFLOW_EXECUTION_COMPLETED'],
      [50, 'turn n+1', 'WORKFLOW_EXECUTION_STARTED'],
      [90, 'turn n+1', 'ACTIVITY_TASK_SCHEDULED callModel'],
    ],
  );
});

const noActions = {
  workflowStarts: 0,
  activities: 0,
  localActivityTasks: 0,
  localActivities: 0,
  timers: 0,
  signals: 0,
  updates: 0,
};
function cost(steps: number, ms: number, handoffMs: number[]): SessionCost {
  return {
    steps,
    events: 50 * steps,
    bytes: 1000 * steps,
    workerCpuMs: 100 * steps,
    serverCpuMs: 80 * steps,
    actions: { ...noActions, activities: 4 * steps },
    heartbeats: steps,
    heartbeatCalls: steps,
    handoff: handoffMs.map((x) => ({ toScheduledMs: x, toStartedMs: x })),
    ms,
  };
}

test('unit: the added wall time per step is the Temporal difference less the in-process difference', () => {
  // 16 − 4 steps: Temporal 3000 − 900 = 2100 ms, in-process 800 − 200 = 600 ms → (2100 − 600) / 12.
  assert.equal(addedWallPerStep({ long: 3000, short: 900 }, { long: 800, short: 200 }, 12), 125);
  // A run where durability adds nothing: zero, whatever the fixed costs.
  assert.equal(addedWallPerStep({ long: 1500, short: 700 }, { long: 1000, short: 200 }, 12), 0);
});

test('unit: rounds summed give the per-step figures of one round and pool the hand-offs', () => {
  const one = costFigures('x', cost(16, 3000, [40, 50]), cost(4, 900, []), 3);
  const two = costFigures(
    'x',
    sumCost(cost(16, 3000, [40, 50]), cost(16, 3100, [60, 70])),
    sumCost(cost(4, 900, []), cost(4, 950, [])),
    3,
  );
  assert.equal(two.perStep.events, one.perStep.events);
  assert.equal(two.perStep.workerCpuMs, 100);
  assert.equal(two.perCall.actions, one.perCall.actions);
  assert.equal(two.handoffs, 4);
  assert.equal(two.handoffMedian, 50);
});

test('unit: the added-wall row compares medians with the previous release, ≤ 0.6× passes', () => {
  const f = (label: string, wall: number[]): CostFigures => ({
    ...costFigures(label, cost(16, 3000, [40]), cost(4, 900, []), 3),
    addedWallMs: wall,
    localStepMs: [50, 52, 51],
  });
  const rowOf = (rows: Row[]): Row => rows.find((r) => r.measure.startsWith('Added wall time'))!;
  const pass = rowOf(costRows(f('ours', [60, 55, 70]), f('prev', [100, 120, 110])));
  assert.equal(pass.verdict, 'PASS');
  assert.ok(pass.result.startsWith('0.55× the previous release'), pass.result);
  assert.equal(pass.inProcess, '51 ms/step');
  const miss = rowOf(costRows(f('ours', [90, 95, 100]), f('prev', [100, 120, 110])));
  assert.equal(miss.verdict, 'MISS');
  // No previous release: no verdict, and why.
  const alone = rowOf(costRows(f('ours', [60]), 'not built'));
  assert.equal(alone.verdict, 'n/a');
  assert.ok(alone.result.includes('previous release: not built'), alone.result);
});

test('unit: the levers take name=JSON variants, --rounds and --dynamic-config, else the built-in list', () => {
  assert.deepEqual(parseLeverArgs([]), { rounds: 3, variants: DEFAULT_VARIANTS, dynamicConfig: {} });
  assert.deepEqual(parseLeverArgs(['--rounds', '2', 'a={"reuseV8Context":false}']), {
    rounds: 2,
    variants: { a: { reuseV8Context: false } },
    dynamicConfig: {},
  });
  assert.deepEqual(parseLeverArgs(['--dynamic-config', 'system.enableActivityEagerExecution=false']).dynamicConfig, {
    'system.enableActivityEagerExecution': false,
  });
  assert.throws(() => parseLeverArgs(['--dynamic-config', 'k']), /KEY=JSON/);
  assert.throws(() => parseLeverArgs(['--dynamic-config', 'k={}']), /string, number or boolean/);
  assert.throws(() => parseLeverArgs(['a=[1]']), /expected a JSON object/);
  assert.throws(() => parseLeverArgs(['--rounds', '0']), /positive integer/);
  assert.throws(() => parseLeverArgs(['nojson']), /name=JSON/);
});

test('unit: the replay cost records or replays, with bundles to compare', () => {
  assert.deepEqual(parseReplayArgs(['--record', 'f.json']), { record: 'f.json', steps: 16, rounds: 5, dirs: [] });
  assert.deepEqual(parseReplayArgs(['--replay', 'f.json', '--rounds', '2', 'a', 'b']), {
    replay: 'f.json',
    steps: 16,
    rounds: 2,
    dirs: ['a', 'b'],
  });
  assert.throws(() => parseReplayArgs([]), /either --record FILE or --replay FILE/);
  assert.throws(() => parseReplayArgs(['--record', 'a', '--replay', 'b']), /either/);
  assert.throws(() => parseReplayArgs(['--replay', 'f', '--rounds', 'x']), /positive integer/);
  assert.throws(() => parseReplayArgs(['--replay', 'f', '--fast']), /unknown flag/);
});

test("unit: the turn replay records sessions of the steps asked (the child's cap too), or replays with one build's workflows", () => {
  assert.deepEqual(parseTurnReplayArgs(['--record', 'f.json']), {
    record: 'f.json',
    steps: [5, 10, 25, 50],
    rounds: 5,
  });
  assert.deepEqual(parseTurnReplayArgs(['--record', 'f.json', '--steps', '50,50', '--per-child', '10']), {
    record: 'f.json',
    steps: [50, 50],
    perChild: 10,
    rounds: 5,
  });
  assert.deepEqual(parseTurnReplayArgs(['--replay', 'f.json', '--rounds', '3', 'dir']), {
    replay: 'f.json',
    steps: [5, 10, 25, 50],
    rounds: 3,
    dir: 'dir',
  });
  assert.throws(() => parseTurnReplayArgs([]), /either --record FILE or --replay FILE/);
  assert.throws(() => parseTurnReplayArgs(['--record', 'f', '--steps', '5,x']), /positive integer, got x/);
  assert.throws(() => parseTurnReplayArgs(['--replay', 'f', 'a', 'b']), /one workflows directory at most/);
  assert.throws(() => parseTurnReplayArgs(['--replay', 'f', '--fast']), /unknown flag/);
});
